"""A no-op re-index, timed: the whole `Engine.index()` call on an index with nothing to do.

    python -m benchmarks.noop_reindex ROOT INDEX_DIR [--model NAME] [--runs 4]

The index must exist (e.g. one `benchmarks.large_run` built under `benchmarks/.cache/`).
LanceDB is imported first and timed apart: a process pays it once, whatever it indexes.
Every run must find nothing to index, or the script fails.
"""

from __future__ import annotations

import argparse
import json
import logging
import time


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("root")
    ap.add_argument("index_dir")
    ap.add_argument("--model", default="all-MiniLM-L6-v2", help="the index's local model")
    ap.add_argument("--runs", type=int, default=4)
    args = ap.parse_args(argv)
    logging.disable(logging.WARNING)  # the skipped files are listed on every run
    t = time.perf_counter()
    import strata.store.lance  # noqa: F401  (LanceDB, as Strata imports it)

    import_s = time.perf_counter() - t
    from strata import Engine

    config = {"embed.provider": "local", "embed.model": args.model}
    eng = Engine.open(args.root, index_dir=args.index_dir, config=config)
    runs = []
    for _ in range(args.runs):
        t = time.perf_counter()
        summary = eng.index()
        runs.append(round(time.perf_counter() - t, 3))
        if summary.indexed or summary.removed:
            raise SystemExit(f"not a no-op: {summary.indexed} indexed, {summary.removed} removed")
    print(
        json.dumps(
            {
                "files_seen": summary.files_seen,
                "import_lancedb_s": round(import_s, 3),
                "index_call_s": runs,
            }
        )
    )


if __name__ == "__main__":
    main()
