"""`strata analyze`: gather the file facts of a root with the real discovery, extraction and
chunkers, hand them to the pure core (`strata.index.analysis`), and write its suggestions
into `<root>/.strata/config.yaml` when asked."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from strata.config import KEYS, Config, load_config
from strata.errors import UserError
from strata.index.analysis import Analysis, Change, FileFact, Ignored, analyse, merge
from strata.index.chunking import chunk
from strata.index.discovery import discover
from strata.index.extraction import extract
from strata.index.ignore import IgnoreRules, denied, denied_by_default
from strata.index.passages import MINIFIED, is_minified
from strata.types import Extracted, Skip, SourceFile

__all__ = ["SAMPLE_ALL_UP_TO", "SAMPLE_SIZE", "analyze", "write_suggestions"]

SAMPLE_ALL_UP_TO = 2000  # files: every file is chunked up to this many
SAMPLE_SIZE = 500  # otherwise an evenly spread sample of this many
_UNITS = frozenset({"function", "method"})
_DIR = ".strata"


def analyze(
    path: Path | str = ".",
    config: Config | None = None,
    progress: Callable[[str, int, int, str], None] | None = None,
) -> Analysis:
    """Analyse the root `path` as `strata index` would meet it.

    Args:
        path: the directory to analyse.
        config: the effective config (default: the one `<path>/.strata` would load).
        progress: called with ("analyze", done, total, path) as files are read.

    Raises:
        UserError: the path is not a directory.
    """
    root = Path(os.path.abspath(path))
    if not root.is_dir():
        raise UserError(f"{root} is not a directory", hint="pass the root of a project")
    cfg = config or load_config(root / _DIR)
    found = discover(root, cfg.index)
    n = len(found.files)
    k = n if n <= SAMPLE_ALL_UP_TO else min(n, SAMPLE_SIZE)  # spread evenly over sorted paths
    sample = {int(i * n / k) for i in range(k)}
    facts: list[FileFact] = []
    skipped: list[Skip] = list(found.skips)
    seconds = 0.0
    for i, f in enumerate(found.files):
        got = extract(f, cfg.index.max_file_bytes)
        if isinstance(got, Skip):
            skipped.append(got)
        else:
            fact, took = _fact(f, got, cfg, chunked=i in sample)
            facts.append(fact)
            seconds += took
        if progress is not None:
            progress("analyze", i + 1, len(found.files), f.rel)
    current = {k: cfg.value(k) for k in ("index.exclude", "chunk.max_lines", "embed.provider")}
    current["index.exclude"] = list(current["index.exclude"])
    return analyse(
        str(root),
        facts,
        sorted(skipped, key=lambda s: s.rel),
        ignored_paths(root, cfg),
        seconds,
        current,
    )


def _fact(f: SourceFile, doc: Extracted, cfg: Config, chunked: bool) -> tuple[FileFact, float]:
    minified = is_minified(doc.text)
    lines = doc.text.count("\n") + (0 if doc.text.endswith("\n") else 1)
    if not chunked:
        return FileFact(f.rel, doc.lang, f.size, lines, minified=minified), 0.0
    start = time.perf_counter()
    try:
        chunks = chunk(dataclasses.replace(doc, lang=MINIFIED) if minified else doc, cfg.chunk)
    except (RecursionError, MemoryError, ValueError, SyntaxError):
        chunks = []  # indexing skips it as unreadable; it adds no chunks
    took = time.perf_counter() - start
    units: dict[tuple[str, str], tuple[int, int]] = {}
    for c in chunks:  # a long function split by the budget keeps its title in every part
        if c.kind in _UNITS and c.title:
            lo, hi = units.get((c.kind, c.title), (c.start_line, c.end_line))
            units[(c.kind, c.title)] = (min(lo, c.start_line), max(hi, c.end_line))
    lengths = tuple(hi - lo + 1 for lo, hi in units.values())
    return FileFact(f.rel, doc.lang, f.size, lines, len(chunks), lengths, minified), took


def ignored_paths(root: Path, cfg: Config) -> tuple[Ignored, ...]:
    """What the ignore rules leave out, top-most only (an ignored directory is not walked)."""
    rules = IgnoreRules(root, cfg.index)
    out: list[Ignored] = []
    stack = [""]
    while stack:
        dir_rel = stack.pop()
        try:
            with os.scandir(root / dir_rel) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue  # discovery already reported it as unreadable
        rules.load(dir_rel, (e.name for e in entries))
        for e in entries:
            rel = f"{dir_rel}/{e.name}" if dir_rel else e.name
            is_dir = e.is_dir(follow_symlinks=False)
            if rules.matches(rel, is_dir):
                out.append(Ignored(rel, is_dir, _why_ignored(root, rel, is_dir)))
            elif is_dir:
                stack.append(rel)
    return tuple(sorted(out, key=lambda i: i.rel))


def _why_ignored(root: Path, rel: str, is_dir: bool) -> str:
    """Why the ignore rules leave `rel` out, in the words `strata analyze` shows."""
    if denied_by_default(rel.rpartition("/")[2], is_dir):
        return "dot-file or default denylist"
    if denied(root, rel, is_dir):
        return "dependencies a package manager filled"
    return "ignore rules (.gitignore, .strataignore, index.exclude)"


def write_suggestions(analysis: Analysis) -> tuple[Path, tuple[Change, ...]]:
    """Merge the suggestions into `<root>/.strata/config.yaml` (the user's keys stay).

    Returns the file and what changed (nothing written when nothing changed).
    """
    import yaml

    path = Path(analysis.root) / _DIR / "config.yaml"
    existing: dict[str, Any] = {}
    if path.is_file():
        existing = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    merged, changes = merge(existing, analysis.suggestions)
    unknown = [c.key for c in changes if c.key not in KEYS]
    if unknown:  # a suggestion must name a real key; guard the table against drift
        raise UserError(f"suggested unknown config keys {unknown}")
    if changes:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".yaml.tmp")
        tmp.write_text(yaml.safe_dump(merged, sort_keys=False), encoding="utf-8")
        tmp.replace(path)
    return path, changes
