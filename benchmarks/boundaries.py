"""Symbols and chunk boundaries of the `newlangs` packages against their definitions.

Run: `.venv/bin/python -m benchmarks.boundaries` (sources as `benchmarks.quality.run`
fetches them). The definitions are the benchmark's own walk of each package
(`benchmarks/quality/morelangs.py`), not Strata's tag queries. Per language it prints:

- found: the share of definitions for which the tag query yields a symbol of the same name
  whose span holds the definition's first line;
- starts: the share of definitions of 3+ lines at whose first line (or doc comment) a
  chunk starts, for line windows (what the language had), syntax nodes merged (what a
  grammar without a query gets) and the tag query's chunker;
- cut: the share of those definitions that hold no other one (functions, not classes)
  cut by a chunk boundary (a chunk starts strictly inside them) though they fit a chunk.

Then, for the data formats that keep line windows (`strata.index.chunking.WINDOWED`),
what syntax chunks would give instead: chunks, their median length, the share of 1-3 line
chunks, and the time per MB, on the JSON, YAML, TOML, CSS, XML and INI files of Pygments'
examples and the OpenZeppelin package.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.quality.langsets import Definition
from benchmarks.quality.morelangs import PACKAGES, Package, definitions
from benchmarks.sdists import fetch_npm, fetch_sdist
from strata.config import ChunkConfig, load_config
from strata.index.chunking import line_windows
from strata.index.code.treesitter import chunker, generic
from strata.index.code.treesitter.symbols import extract
from strata.text.langs import language_of
from strata.types import Chunk

Chunker = Callable[[str, str, ChunkConfig], list[Chunk]]
CHUNKERS: dict[str, Chunker] = {
    "windows": lambda text, _lang, cfg: line_windows(text, cfg),
    "syntax": generic.chunk,
    "tags": chunker.chunk,
}


@dataclass(frozen=True, slots=True)
class Row:
    """One package's figures."""

    slug: str
    files: int
    defs: int
    found: float
    starts: dict[str, float]
    cut: dict[str, float]


def measure(pkg: Package, cfg: ChunkConfig) -> Row:
    """Walk, extract and chunk every file of the package."""
    src = pkg.fetch()
    paths = sorted(
        p for d in pkg.dirs for p in (src / d).rglob("*") if p.suffix in pkg.spec.suffixes
    )
    n_defs = found = 0
    long: list[tuple[Definition, dict[str, list[Chunk]]]] = []
    leaves: list[tuple[Definition, dict[str, list[Chunk]]]] = []
    for path in paths:
        rel = path.relative_to(src).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        defs = definitions(pkg.spec, src, rel)
        symbols, _ = extract(text, pkg.spec.lang, rel)
        spans = {(s.name, s.start_line, s.end_line) for s in symbols}
        n_defs += len(defs)
        found += sum(any(n == d.name and a <= d.start <= b for n, a, b in spans) for d in defs)
        chunks = {k: f(text, pkg.spec.lang, cfg) for k, f in CHUNKERS.items()}
        long += [(d, chunks) for d in defs if d.end - d.start >= 2]
        leaves += [
            (d, chunks)
            for d in defs
            if 2 <= d.end - d.start < cfg.max_lines
            and not any(o is not d and d.start <= o.start <= o.end <= d.end for o in defs)
        ]
    starts = {k: _share(long, k, _starts) for k in CHUNKERS}
    cut = {k: _share(leaves, k, _cut) for k in CHUNKERS}
    return Row(pkg.slug, len(paths), n_defs, found / max(1, n_defs), starts, cut)


def _share(
    defs: list[tuple[Definition, dict[str, list[Chunk]]]],
    kind: str,
    test: Callable[[Definition, list[Chunk]], bool],
) -> float:
    return sum(test(d, chunks[kind]) for d, chunks in defs) / max(1, len(defs))


def _starts(d: Definition, chunks: list[Chunk]) -> bool:
    first = d.comment[0] if d.comment else d.start
    return any(first <= c.start_line <= d.start for c in chunks)


def _cut(d: Definition, chunks: list[Chunk]) -> bool:
    return any(d.start < c.start_line <= d.end for c in chunks)


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    out = [
        "| package | files | definitions | found by the query | starts: windows / syntax / "
        "tags | cut: windows / syntax / tags |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    for r in rows:
        starts = " / ".join(f"{r.starts[k]:.0%}" for k in CHUNKERS)
        cut = " / ".join(f"{r.cut[k]:.0%}" for k in CHUNKERS)
        out.append(f"| {r.slug} | {r.files} | {r.defs} | {r.found:.0%} | {starts} | {cut} |")
    return "\n".join(out)


DATA = ("json", "yaml", "toml", "css", "xml", "ini")


def data_table(roots: list[Path], cfg: ChunkConfig) -> str:
    """Line windows beside syntax chunks for the data formats' files under `roots`."""
    files: dict[str, list[Path]] = {}
    for path in sorted(p for r in roots for p in r.rglob("*") if p.is_file()):
        lang = language_of(path.name)
        if lang in DATA:
            files.setdefault(lang, []).append(path)
    out = ["| format | files | line windows | syntax chunks |", "| --- | ---: | --- | --- |"]
    for lang, paths in sorted(files.items()):
        texts = [p.read_text(encoding="utf-8", errors="replace") for p in paths]
        cells = [_shape(texts, lambda t: line_windows(t, cfg))]
        cells.append(_shape(texts, lambda t, lang=lang: generic.chunk(t, lang, cfg)))
        out.append(f"| {lang} | {len(paths)} | {cells[0]} | {cells[1]} |")
    return "\n".join(out)


def _shape(texts: list[str], chunk: Callable[[str], list[Chunk]]) -> str:
    start = time.perf_counter()
    lengths = [c.end_line - c.start_line + 1 for t in texts for c in chunk(t)]
    seconds = time.perf_counter() - start
    tiny = sum(n <= 3 for n in lengths) / max(1, len(lengths))
    mb = sum(len(t) for t in texts) / 1e6
    return (
        f"{len(lengths)} chunks, median {statistics.median(lengths):.0f} lines, "
        f"{tiny:.0%} of 1-3 lines, {seconds / mb:.2f} s/MB"
    )


def main() -> None:
    """Measure every package and print the tables."""
    cfg = load_config(env={}).chunk
    sys.stdout.write(table([measure(p, cfg) for p in PACKAGES]) + "\n\n")
    roots = [fetch_sdist("pygments", "2.19.1"), fetch_npm("@openzeppelin/contracts", "5.1.0")]
    sys.stdout.write(data_table(roots, cfg) + "\n")


if __name__ == "__main__":
    main()
