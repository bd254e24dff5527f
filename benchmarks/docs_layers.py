"""Benchmark of the documentation layers: documents/s and records per layer on real docs.

Run: `.venv/bin/python -m benchmarks.docs_layers [--name structlog --version 25.4.0] [--repeat 3]`
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from benchmarks.sdists import fetch_sdist
from strata.config import ChunkConfig
from strata.index.docs import DocResult, document_records, link_corpus
from strata.layers import DOC_LAYERS
from strata.types import Record

CFG = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=5)
LANGS = {".md": "markdown", ".markdown": "markdown", ".rst": "rst", ".txt": "text"}


def load(root: Path) -> list[tuple[str, str, str]]:
    """(rel, text, lang) of every doc file under `root/docs` plus top-level README/CHANGELOG."""
    files = sorted(p for p in (root / "docs").rglob("*") if p.suffix in LANGS and p.is_file())
    files += sorted(p for p in root.glob("*.md") if p.is_file())
    return [
        (p.relative_to(root).as_posix(), p.read_text(encoding="utf-8"), LANGS[p.suffix])
        for p in files
    ]


def run(docs: list[tuple[str, str, str]]) -> tuple[float, float, Counter[str]]:
    """(seconds per-file, seconds corpus pass, records per layer) of one full pass."""
    t0 = time.perf_counter()
    results: list[DocResult] = [
        document_records(rel, text, lang, "h", CFG) for rel, text, lang in docs
    ]
    t1 = time.perf_counter()
    corpus = link_corpus(results)
    t2 = time.perf_counter()
    final: dict[str, Record] = {r.id: r for res in results for r in res.records}
    final.update((r.id, r) for r in corpus)
    counts = Counter(r.layer for r in final.values())
    return t1 - t0, t2 - t1, counts


def main() -> None:
    """Print a Markdown table for the chosen sdist's documentation folder."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--name", default="structlog")
    parser.add_argument("--version", default="25.4.0")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    docs = load(fetch_sdist(args.name, args.version))
    size = sum(len(text.encode()) for _, text, _ in docs)
    best = min((run(docs) for _ in range(args.repeat)), key=lambda r: r[0] + r[1])
    per_file, corpus_s, counts = best
    out = [
        f"{args.name} {args.version}: {len(docs)} documents, {size / 1024:.0f} KiB",
        "",
        "| measure | value |",
        "|---|---|",
        f"| documents/s (per-file pass) | {len(docs) / per_file:,.0f} |",
        f"| MiB/s (per-file pass) | {size / per_file / 2**20:.2f} |",
        f"| corpus pass (s) | {corpus_s:.4f} |",
    ]
    out += [f"| records {layer} | {counts.get(layer, 0)} |" for layer in DOC_LAYERS]
    print("\n".join(out))  # the benchmark's report is its output


if __name__ == "__main__":
    main()
