"""The web page: time from the last keystroke to rendered results, and what the page weighs.

    python -m benchmarks.web_latency --index-dir DIR [--queries 40]

Serves the index in process (a warm `strata serve`, kept warm as it keeps it), opens the
page in Debian's Chromium through Playwright, and for each query types it into the search
box and waits until the hit list for exactly that query is in the page (the page's
debounce included). The transferred
size is every response the page loads on first visit (HTML, script, style).

The target's clock is the page's own (`painted_*`): from the key event's timestamp (when
the browser received the keystroke) to the frame that shows that query's hits painted, what
a user sees. It is split into the keystroke to the start of the `/search` request that
answered it (the debounce), the request (sent to its last byte received: the server's
search and the network), the response to the hit list in the page (parsing the JSON and
rendering) and the list to its frame painted. `p50_ms`/`p95_ms` are the same from outside,
as Playwright sees it: they add Playwright's own round trips (sending the key, polling for
the list), which no user waits for.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from strata.surfaces.cli import app
from strata.surfaces.cli.forward import run_command
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.server import Server

WORDS = (
    "parse option value",
    "command line help",
    "context invoke",
    "default value",
    "environment variable",
    "shell completion",
    "progress bar",
    "echo output",
    "file path type",
    "choice validation",
    "prompt confirm",
    "group commands",
    "exception usage error",
    "format help text",
    "decorator pass context",
    "terminal width",
)

# Installed in the page once: when the last key event happened (its own timestamp, taken
# when the browser received the input), when a hit list for a new query was put in the page
# (a MutationObserver sees it as it is inserted), and when the frame showing it was painted
# (the first animation frame after the insertion, then a task after that frame).
WATCH = """() => {
  window.__lat = {};
  document.addEventListener("keydown", (ev) => { window.__lat.key = ev.timeStamp; }, true);
  new MutationObserver(() => {
    const hits = document.getElementById("hits");
    if (hits && hits.dataset.query !== window.__lat.seen) {
      const lat = window.__lat;
      lat.seen = hits.dataset.query;
      lat.rendered = performance.now();
      lat.painted = undefined;
      requestAnimationFrame(() => {
        const after = new MessageChannel();
        after.port1.onmessage = () => { lat.painted = performance.now(); };
        after.port2.postMessage(null);
      });
    }
  }).observe(document.getElementById("view"), { childList: true, subtree: true });
}"""

# After a query: the marks above and the last `/search` request's timing.
PARTS = """() => {
  const asked = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/search"));
  const last = asked[asked.length - 1];
  performance.clearResourceTimings();
  const lat = window.__lat;
  return { painted: lat.painted - lat.key, debounce: last.startTime - lat.key,
           request: last.responseEnd - last.startTime, render: lat.rendered - last.responseEnd,
           paint: lat.painted - lat.rendered };
}"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--index-dir", required=True)
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    engines = Engines.open(None, args.index_dir, None)
    engines.home.keep_warm()  # as `strata serve` does before it serves
    cli = run_command(engines, app)
    with Server(engines, "127.0.0.1", 0, cli=cli) as srv, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        page = browser.new_page()
        sizes: list[int] = []
        page.on("response", lambda r: sizes.append(len(r.body())) if r.ok else None)
        page.goto(f"http://127.0.0.1:{srv.port}/")
        page.wait_for_load_state("networkidle")
        transferred = sum(sizes)
        page.evaluate(WATCH)
        times = []
        parts: dict[str, list[float]] = {n: [] for n in ("painted", *SPLIT)}
        for i in range(args.queries):
            query = f"{WORDS[i % len(WORDS)]} {i}"
            page.locator("#q").fill(query[:-1])  # all but the last keystroke
            page.wait_for_timeout(300)  # past the debounce: that search is not this one's
            page.locator(f'#hits[data-query="{query[:-1]}"]').wait_for()
            started = time.perf_counter()
            page.keyboard.type(query[-1])
            page.locator(f'#hits[data-query="{query}"]').wait_for()
            times.append((time.perf_counter() - started) * 1000)
            page.wait_for_function("() => window.__lat.painted !== undefined")
            for name, ms in page.evaluate(PARTS).items():
                parts[name].append(ms)
        browser.close()
    status = engines.served().status().to_json()
    out = {
        "queries": len(times),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(_p95(times), 1),
        **{f"{name}_p50_ms": round(statistics.median(ms), 1) for name, ms in parts.items()},
        **{f"{name}_p95_ms": round(_p95(ms), 1) for name, ms in parts.items()},
        "page_bytes": transferred,
        "rows": status.get("rows"),
        "passages": _passages(status),
    }
    print(json.dumps(out))
    Path("benchmarks/results").mkdir(parents=True, exist_ok=True)
    Path("benchmarks/results/web_latency.json").write_text(json.dumps(out, indent=2) + "\n")


SPLIT = ("debounce", "request", "render", "paint")


def _p95(ms: list[float]) -> float:
    ordered = sorted(ms)
    return ordered[int(0.95 * (len(ordered) - 1))]


def _passages(status: dict[str, object]) -> int:
    """Source and doc chunks (C0 + D0), the figure the issues' "30k chunks" counts."""
    layers = status.get("layers")
    if not isinstance(layers, dict):
        return 0
    return sum(int(layers.get(n, {}).get("rows", 0)) for n in ("C0_SOURCE_CHUNKS", "D0_DOC_CHUNKS"))


if __name__ == "__main__":
    main()
