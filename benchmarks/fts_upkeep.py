"""The full-text index after a full and an interrupted index run (issue 15, items 20-21).

    python -m benchmarks.fts_upkeep [--corpus flask==3.1.3] [--model minilm-static]

On an unpacked sdist: the time of a full `Engine.index` (and the part spent folding rows
into the full-text index), then, on a fresh copy, an index run interrupted (Ctrl-C) half
way through its embedding pass: rows left outside the full-text index and the p50 of
lexical queries right after. Run it with another Strata on PYTHONPATH for "before".
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.sdists import fetch_sdist
from strata.engine import Engine
from strata.store import capabilities

QUERIES = ["request context", "blueprint", "jsonify", "session cookie", "test client", "config"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="flask==3.1.3", help="name==version of an sdist")
    ap.add_argument("--model", default="minilm-static", help="the local embedding model")
    args = ap.parse_args()
    cfg = {"embed.provider": "local", "embed.model": args.model}
    src = fetch_sdist(*args.corpus.split("==", 1))
    out: dict[str, object] = {"corpus": args.corpus, "model": args.model}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "full"
        shutil.copytree(src, root)
        started = time.monotonic()
        summary = Engine.open(root, config=cfg).index()
        out["full_index_s"] = round(time.monotonic() - started, 2)
        out["fold_s"] = round(getattr(summary, "fold_seconds", 0.0), 2)
        root = Path(tmp) / "cut"
        shutil.copytree(src, root)
        eng = Engine.open(root, config=cfg)
        seen = [0]

        def cut(phase: str, done: int, total: int, _item: str) -> None:
            if phase == "embed" and done >= total // 2 and done > 0:
                raise KeyboardInterrupt

        try:
            eng.index(progress=cut)
        except KeyboardInterrupt:
            seen[0] = 1
        eng = Engine.open(root, config=cfg)
        out["interrupted"] = bool(seen[0])
        out["rows"] = sum(c["rows"] for c in eng.store.counts().values())
        base = eng.parts.base_store
        if hasattr(capabilities, "unindexed_rows"):  # a Strata from before: ask LanceDB itself
            out["unindexed_rows"] = capabilities.unindexed_rows(base)
        else:
            out["unindexed_rows"] = base.integrity().unindexed_rows  # type: ignore[attr-defined]
        times = []
        for _ in range(3):
            for q in QUERIES:
                t = time.monotonic()
                eng.search(q, k=10, mode="lexical")
                times.append((time.monotonic() - t) * 1000)
        out["lexical_p50_ms"] = round(statistics.median(times), 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
