"""The web page: time from the last keystroke to rendered results, and what the page weighs.

    python -m benchmarks.web_latency --index-dir DIR [--queries 40]

Serves the index in process (a warm `strata serve`), opens the page in Debian's Chromium
through Playwright, and for each query types it into the search box and waits until the hit
list for exactly that query is in the page (the page's debounce included). The transferred
size is every response the page loads on first visit (HTML, script, style).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from strata.surfaces.cli.serve import run_command
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.server import Server

WORDS = (
    "parse option value", "command line help", "context invoke", "default value",
    "environment variable", "shell completion", "progress bar", "echo output",
    "file path type", "choice validation", "prompt confirm", "group commands",
    "exception usage error", "format help text", "decorator pass context", "terminal width",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--index-dir", required=True)
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    engines = Engines.open(None, args.index_dir, None)
    with Server(engines, "127.0.0.1", 0, cli=run_command(engines)) as srv, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        page = browser.new_page()
        sizes: list[int] = []
        page.on("response", lambda r: sizes.append(len(r.body())) if r.ok else None)
        page.goto(f"http://127.0.0.1:{srv.port}/")
        page.wait_for_load_state("networkidle")
        transferred = sum(sizes)
        times = []
        for i in range(args.queries):
            query = f"{WORDS[i % len(WORDS)]} {i}"
            page.locator("#q").fill(query[:-1])  # all but the last keystroke
            started = time.perf_counter()
            page.keyboard.type(query[-1])
            page.locator(f'#hits[data-query="{query}"]').wait_for()
            times.append((time.perf_counter() - started) * 1000)
        browser.close()
    times.sort()
    out = {
        "queries": len(times),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 1),
        "page_bytes": transferred,
        "passages": engines.served().status().get("rows"),
    }
    print(json.dumps(out))
    Path("benchmarks/results").mkdir(parents=True, exist_ok=True)
    Path("benchmarks/results/web_latency.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
