"""Tree-sitter chunking and symbol extraction per language, on one real package each.

Run: `.venv/bin/python -m benchmarks.languages` (downloads pinned sources once into
`benchmarks/.cache`). Prints a Markdown table: files, chunks, symbols, seconds spent in
`treesitter_chunker.chunk` + `treesitter_symbols.extract`, and symbols per second.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.sdists import fetch_deb, fetch_npm, fetch_sdist
from strata.config import load_config
from strata.index.code.treesitter.chunker import chunk
from strata.index.code.treesitter.symbols import extract
from strata.text.langs import language_of

log = logging.getLogger(__name__)
MAX_FILES = 400


@dataclass(frozen=True, slots=True)
class Source:
    """Where one language's sample code comes from."""

    lang: str
    label: str
    fetch: Callable[[], Path]
    suffixes: tuple[str, ...]


def _sdist(name: str, version: str) -> Callable[[], Path]:
    return lambda: fetch_sdist(name, version)


def _npm(name: str, version: str) -> Callable[[], Path]:
    return lambda: fetch_npm(name, version)


def _deb(name: str, version: str) -> Callable[[], Path]:
    return lambda: fetch_deb(name, version)


PYGMENTS = _sdist("pygments", "2.19.1")  # its test example files cover many languages
SOURCES = [
    Source("python", "flask 3.1.3 (PyPI)", _sdist("flask", "3.1.3"), (".py",)),
    Source("javascript", "express 4.21.2 (npm)", _npm("express", "4.21.2"), (".js",)),
    Source("typescript", "rxjs 7.8.1 src (npm)", _npm("rxjs", "7.8.1"), (".ts",)),
    Source(
        "tsx",
        "@tanstack/react-query 5.62.0 (npm)",
        _npm("@tanstack/react-query", "5.62.0"),
        (".tsx",),
    ),
    Source(
        "go",
        "setuptools-golang-examples 2.1.0 (PyPI)",
        _sdist("setuptools-golang-examples", "2.1.0"),
        (".go",),
    ),
    Source(
        "rust",
        "regex-syntax 0.6.27 (Debian librust-regex-syntax-dev)",
        _deb("librust-regex-syntax-dev", "0.6.27-1"),
        (".rs",),
    ),
    Source("java", "JPype1 1.5.2 (PyPI)", _sdist("JPype1", "1.5.2"), (".java",)),
    Source("kotlin", "pygments 2.19.1 examples", PYGMENTS, (".kt",)),
    Source("c", "ujson 5.10.0 (PyPI)", _sdist("ujson", "5.10.0"), (".c",)),
    Source("cpp", "kiwisolver 1.4.8 (PyPI)", _sdist("kiwisolver", "1.4.8"), (".cpp", ".hpp")),
    Source("csharp", "pythonnet 3.0.5 (PyPI)", _sdist("pythonnet", "3.0.5"), (".cs",)),
    Source("ruby", "pygments 2.19.1 examples", PYGMENTS, (".rb",)),
    Source("php", "pygments 2.19.1 examples", PYGMENTS, (".php",)),
    Source("swift", "pygments 2.19.1 examples", PYGMENTS, (".swift",)),
    Source("scala", "pygments 2.19.1 examples", PYGMENTS, (".scala",)),
    Source("bash", "pygments 2.19.1 examples", PYGMENTS, (".sh", ".bash")),
]


@dataclass(frozen=True, slots=True)
class Row:
    """One language's measurements."""

    lang: str
    label: str
    files: int
    chunks: int
    symbols: int
    seconds: float
    edges: int = 0


def measure(source: Source) -> Row:
    """Chunk and extract every matching file of the source tree; time only those calls."""
    cfg = load_config(env={}).chunk
    root = source.fetch()
    paths = sorted(p for p in root.rglob("*") if p.suffix in source.suffixes and p.is_file())
    files = n_chunks = n_symbols = n_edges = 0
    spent = 0.0
    for path in paths[:MAX_FILES]:
        rel = path.relative_to(root).as_posix()
        if language_of(rel) != source.lang:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        start = time.perf_counter()
        chunks = chunk(text, source.lang, cfg)
        symbols, edges = extract(text, source.lang, rel)
        spent += time.perf_counter() - start
        files, n_chunks, n_symbols = files + 1, n_chunks + len(chunks), n_symbols + len(symbols)
        n_edges += len(edges)
    return Row(source.lang, source.label, files, n_chunks, n_symbols, spent, n_edges)


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    out = [
        "| language | source | files | chunks | symbols | edges | parse s | symbols/s | edges/s |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        rate = f"{r.symbols / r.seconds:,.0f}" if r.seconds else "-"
        erate = f"{r.edges / r.seconds:,.0f}" if r.seconds else "-"
        out.append(
            f"| {r.lang} | {r.label} | {r.files} | {r.chunks} | {r.symbols} | {r.edges} "
            f"| {r.seconds:.2f} | {rate} | {erate} |"
        )
    return "\n".join(out)


def main() -> None:
    """Measure every language and write the table to stdout."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rows = []
    for source in SOURCES:
        try:
            rows.append(measure(source))
        except Exception as exc:  # a source that cannot be fetched is reported, not fatal
            log.warning("skip %s (%s): %s", source.lang, source.label, exc)
    sys.stdout.write(table(rows) + "\n")


if __name__ == "__main__":
    main()
