"""Python through the stdlib `ast` or through tree-sitter: speed and agreement, on real code.

    python -m benchmarks.python_parsers [--package flask==3.1.3]

Strata chunks Python with `ast` and extracts symbols with `ast`; tree-sitter could do both.
This measures, over every .py file of a pinned sdist: time to chunk, time to extract
symbols, chunk counts, and how many (qname, kind, line) symbols the two paths share.
"""

from __future__ import annotations

import argparse
import time

from benchmarks.sdists import fetch_sdist
from strata.config import load_config
from strata.index.chunking.python import chunk_python
from strata.index.code.python.symbols import extract_symbols
from strata.index.code.treesitter import chunker as treesitter_chunker
from strata.index.code.treesitter import symbols as treesitter_symbols
from strata.text.pyparse import parse


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", default="flask==3.1.3")
    args = ap.parse_args()
    name, version = args.package.split("==")
    root = fetch_sdist(name, version)
    files = sorted(root.rglob("*.py"))
    texts = [(f.relative_to(root).as_posix(), f.read_text(encoding="utf-8")) for f in files]
    cfg = load_config(None, {"embed.provider": "none"}).chunk
    rows = []
    for label, chunker, symbols in (
        ("stdlib ast", lambda t: chunk_python(t, cfg), lambda t, p: extract_symbols(t, p)),
        (
            "tree-sitter",
            lambda t: treesitter_chunker.chunk(t, "python", cfg),
            lambda t, p: treesitter_symbols.extract(t, "python", p)[0],
        ),
    ):
        parse.cache_clear()
        t0 = time.perf_counter()
        chunks = sum(len(chunker(t)) for _, t in texts)
        t1 = time.perf_counter()
        parse.cache_clear()
        found = {(s.qname, s.kind, s.start_line) for p, t in texts for s in symbols(t, p)}
        t2 = time.perf_counter()
        rows.append((label, chunks, len(found), t1 - t0, t2 - t1, found))
    common = rows[0][5] & rows[1][5]
    print(f"{args.package}: {len(texts)} files\n")
    print("| parser | chunks | symbols | chunk s | symbols s | symbols shared with the other |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, chunks, nsym, tc, ts, found in rows:
        share = len(common) / len(found) if found else 0.0
        print(f"| {label} | {chunks} | {nsym} | {tc:.2f} | {ts:.2f} | {share:.1%} |")


if __name__ == "__main__":
    main()
