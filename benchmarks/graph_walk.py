"""Call-graph questions in a warm process: time and memory of the first and later ones.

    python -m benchmarks.graph_walk INDEX_DIR [--model all-MiniLM-L6-v2]
        [--queries "who calls Session.commit" "who calls flush" ...]

The index must exist (e.g. the one `benchmarks.large_run` builds under
`benchmarks/.cache/`). A fresh process opens it, calls `Engine.keep_warm()` (what `strata
serve` does), then asks each question through the router, timing it and reading the
resident and peak memory from /proc after it. The first question builds the call graph.
"""

from __future__ import annotations

import argparse
import json
import time

from benchmarks.large_run import engine_config, proc_status

QUERIES = (
    "who calls Session.commit",
    "who calls flush",
    "what does Session.commit call",
    "who calls execute",
)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("index_dir")
    ap.add_argument("--model", default="all-MiniLM-L6-v2", help="the index's local model")
    ap.add_argument("--queries", nargs="+", default=list(QUERIES))
    args = ap.parse_args(argv)
    from strata import Engine
    from strata.workspace import memory

    eng = Engine.open(index_dir=args.index_dir, config=engine_config(args.model))
    eng.keep_warm()
    out: dict[str, object] = {"after_keep_warm_mb": round(proc_status("VmRSS"), 1)}
    asked = []
    for query in args.queries:
        t = time.perf_counter()
        hits = eng.search(query, k=10).hits
        asked.append(
            {
                "query": query,
                "seconds": round(time.perf_counter() - t, 3),
                "hits": len(hits),
                "rss_mb": round(proc_status("VmRSS"), 1),
            }
        )
    memory.release()
    out["queries"] = asked
    out["rss_after_trim_mb"] = round(proc_status("VmRSS"), 1)
    out["peak_mb"] = round(proc_status("VmHWM"), 1)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
