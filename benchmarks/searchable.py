"""Time to lexical-searchable against a bare bm25s build over the same chunks.

    python -m benchmarks.searchable [--corpus pytest==8.3.4] [--runs 3] [--embedder none|local]

A copy of the unpacked sdist is indexed from scratch in a fresh process per run,
lexically (`none`) or with the default configuration (`local`; the run stops once BM25
answers). Timed from the `Engine.index()` call: opening the store and walking the tree
(LanceDB is imported in that time), then the indexer's first look until BM25 answers.

The baseline, also a fresh process per run (alternating with Strata's), is a bare bm25s
tool over the same chunks: it walks the tree with Strata's walker, chunks every file with
Strata's first-look chunker in one process (with the GC setting Strata's workers use),
then tokenises (the quality baseline's tokenisation) and indexes the chunks with bm25s.
Reported: its time from the tree (`bm25s.build_s`, the issue's comparison, best of the
runs) and the part after the chunks are in memory (`bm25s.index_only_s`, best of the
runs). Strata's figure is the median. Results go to
`benchmarks/results/searchable_<name>_<embedder>.json`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.sdists import fetch_sdist

RESULTS = Path(__file__).parent / "results"

DRIVER = r"""
import json, logging, os, sys, time
logging.disable(logging.WARNING)
from strata import Engine
import strata.index.indexer as indexer

marks = {}
run, first_look = indexer.Indexer.run, indexer.Indexer._first_look

def timed_run(self, *args, **kwargs):
    marks["indexer"] = time.perf_counter()
    return run(self, *args, **kwargs)

def timed_first_look(self, *args, **kwargs):
    first_look(self, *args, **kwargs)
    marks["searchable"] = time.perf_counter()
    if sys.argv[3] != "none":  # embedding the rest takes minutes: searchable is the measure
        report()
        import multiprocessing
        for worker in multiprocessing.active_children():  # they hold our stdout open
            worker.kill()
        os._exit(0)

def report(all_layers=None):
    before = marks["indexer"] - marks["call"]
    print(json.dumps({
        "before_indexer_s": round(before, 3),
        "first_pass_s": round(marks["searchable"] - marks["indexer"], 3),
        "searchable_s": round(marks["searchable"] - marks["call"], 3),
        "all_layers_s": all_layers,
    }), flush=True)

indexer.Indexer.run = timed_run
indexer.Indexer._first_look = timed_first_look
config = {"embed.provider": sys.argv[3]}
eng = Engine.open(sys.argv[1], index_dir=sys.argv[2], config=config)
marks["call"] = time.perf_counter()
eng.index()
report(round(time.perf_counter() - marks["call"], 2))
"""


PIPELINE = r"""
import json, sys, time
from pathlib import Path
import bm25s
from benchmarks.quality.baseline import plain_tokens
from strata.config import load_config
from strata.index.discovery import discover
from strata.index.passages import chunk_file
from strata.index.workers import parsing_gc

parsing_gc()  # what Strata's workers run with: the chunking costs the same on both sides
cfg = load_config(env={})
root = Path(sys.argv[1])
start = time.perf_counter()
texts = []
for f in discover(root, cfg.index).files:
    texts += [r.content for r in chunk_file(f, cfg).records]
chunked = time.perf_counter()
bm25s.BM25().index([plain_tokens(x) for x in texts], show_progress=False)
end = time.perf_counter()
print(json.dumps({"chunks": len(texts), "chunked_s": round(chunked - start, 3),
                  "index_only_s": round(end - chunked, 3), "build_s": round(end - start, 3)}))
"""


def _last_json(cmd: list[str]) -> dict[str, Any]:
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--corpus", default="pytest==8.3.4")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--embedder",
        default="none",
        choices=["none", "local"],
        help="`local`: the default configuration (the run stops once BM25 answers)",
    )
    args = ap.parse_args(argv)
    name, version = args.corpus.split("==")
    work = Path(tempfile.mkdtemp(prefix="strata-searchable-"))
    try:
        root = work / "repo"
        shutil.copytree(fetch_sdist(name, version), root)
        runs, bare = [], []
        for i in range(args.runs):
            idx = work / f"idx{i}"
            runs.append(
                _last_json([sys.executable, "-c", DRIVER, str(root), str(idx), args.embedder])
            )
            bare.append(_last_json([sys.executable, "-c", PIPELINE, str(root)]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    searchable = statistics.median(r["searchable_s"] for r in runs)
    baseline = {
        "chunks": bare[0]["chunks"],
        "build_s": min(b["build_s"] for b in bare),
        "index_only_s": min(b["index_only_s"] for b in bare),
        "runs": bare,
    }
    result = {
        "corpus": args.corpus,
        "embedder": args.embedder,
        "date": time.strftime("%Y-%m-%d"),
        "runs": runs,
        "bm25s": baseline,
        "searchable_median_s": searchable,
        "ratio_to_bm25s": round(searchable / baseline["build_s"], 2),
        "ratio_to_bm25s_index_only": round(searchable / baseline["index_only_s"], 2),
    }
    (RESULTS / f"searchable_{name}_{args.embedder}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
