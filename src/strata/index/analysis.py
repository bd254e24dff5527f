"""Project analysis, the pure core of `strata analyze`: file facts in, a report out.

What indexing a root would meet (languages, sizes, skips, expected chunks and time) and the
settings it suggests: excludes for generated and vendored trees, a chunk size from the
lengths of the functions, the embedder by size. No I/O here: `strata.engine.analyze`
gathers the facts with the real discovery, extraction and chunkers and writes the config.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import PurePosixPath
from typing import Any

from strata.types import Skip

# The local model's embedding rate that issue 18 measured (≈60 chunks/s); an estimate.
EMBED_CHUNKS_PER_S = 60.0
# Above this much embedding time, suggest `embed.provider: none` (lexical search only).
EMBED_BUDGET_S = 30 * 60
VENDORED_DIRS = frozenset(
    {"vendor", "third_party", "third-party", "thirdparty", "_vendor", "vendored"}
)
GENERATED_GLOBS = ("*_pb2.py", "*_pb2_grpc.py", "*_pb2.pyi", "*.pb.go", "*.min.js", "*.min.css")
LOCK_FILES = frozenset(
    {
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "poetry.lock",
        "Cargo.lock",
        "uv.lock",
        "Pipfile.lock",
        "composer.lock",
        "Gemfile.lock",
        "go.sum",
    }
)
DATA_SUFFIXES = frozenset({".csv", ".tsv", ".json", ".jsonl", ".ndjson", ".xml", ".sql", ".txt"})
LARGE_DATA_BYTES = 1024 * 1024
MIN_UNITS = 20  # fewer functions than this say nothing about chunk sizes
MAX_CHUNK_LINES = 200


@dataclass(frozen=True, slots=True)
class FileFact:
    """One file discovery and extraction kept: `chunks` is None when it was not chunked
    (outside the sample); `unit_lines` the lengths of its functions and methods."""

    rel: str
    lang: str
    size: int
    lines: int
    chunks: int | None = None
    unit_lines: tuple[int, ...] = ()
    minified: bool = False


@dataclass(frozen=True, slots=True)
class Ignored:
    """A path the ignore rules leave out (a directory stands for all below it)."""

    rel: str
    is_dir: bool
    why: str


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One suggested setting: a config key, its value and the reason."""

    key: str
    value: Any
    reason: str


@dataclass(frozen=True, slots=True)
class LangStats:
    lang: str
    files: int
    lines: int
    bytes: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """The report: see `analyse`."""

    root: str
    languages: tuple[LangStats, ...]
    skipped: tuple[Skip, ...]
    ignored: tuple[Ignored, ...]
    chunked_files: int
    expected_chunks: int
    chunk_seconds: float  # measured: what chunking the chunked files took in this run
    chunking_s: float  # estimate: chunking every file at the rate measured in this run
    embed_s: float  # estimate: expected chunks at EMBED_CHUNKS_PER_S
    function_lines: Mapping[str, int]
    suggestions: tuple[Suggestion, ...]
    files: int = field(default=0)

    @property
    def sampled(self) -> bool:
        return self.chunked_files < self.files

    def to_json(self) -> dict[str, Any]:
        skip_counts = Counter(s.reason.value for s in self.skipped)
        return {
            "root": self.root,
            "files": self.files,
            "languages": [vars_of(s) for s in self.languages],
            "skipped": [
                {"path": s.rel, "reason": s.reason.value, "detail": s.detail} for s in self.skipped
            ],
            "skipped_by_reason": dict(skip_counts),
            "ignored": [{"path": i.rel, "is_dir": i.is_dir, "why": i.why} for i in self.ignored],
            "chunks": {
                "expected": self.expected_chunks,
                "measured_on": "all files"
                if not self.sampled
                else f"a sample of {self.chunked_files} of {self.files} files",
                "chunk_seconds": round(self.chunk_seconds, 3),
            },
            "time_estimate_s": {
                "chunking": round(self.chunking_s, 1),
                "embedding": round(self.embed_s, 1),
                "embedding_rate_chunks_per_s": EMBED_CHUNKS_PER_S,
                "note": "estimates from measured rates, not promises",
            },
            "function_lines": dict(self.function_lines),
            "suggestions": [vars_of(s) for s in self.suggestions],
        }


def vars_of(obj: Any) -> dict[str, Any]:
    """A slotted dataclass as a plain dict (JSON output)."""
    return {name: getattr(obj, name) for name in obj.__slots__}


def analyse(
    root: str,
    facts: Sequence[FileFact],
    skipped: Sequence[Skip] = (),
    ignored: Sequence[Ignored] = (),
    chunk_seconds: float = 0.0,
    current: Mapping[str, Any] | None = None,
) -> Analysis:
    """The report of a root from its file facts.

    Expected chunks: the chunked files' own count, plus, for the files outside the sample,
    their bytes at the chunks-per-byte of the sample's files of the same language (of all
    sampled files when the language has none). `current` holds the effective config values
    (`chunk.max_lines`, `index.exclude`) so that only changes are suggested.
    """
    current = current or {}
    chunked = [f for f in facts if f.chunks is not None]
    expected = _expected_chunks(facts, chunked)
    total_bytes = sum(f.size for f in facts)
    chunked_bytes = sum(f.size for f in chunked)
    first_look = chunk_seconds * total_bytes / chunked_bytes if chunked_bytes else 0.0
    units = sorted(n for f in facts for n in f.unit_lines)
    return Analysis(
        root=root,
        files=len(facts),
        languages=_languages(facts),
        skipped=tuple(skipped),
        ignored=tuple(ignored),
        chunked_files=len(chunked),
        expected_chunks=expected,
        chunk_seconds=chunk_seconds,
        chunking_s=first_look,
        embed_s=expected / EMBED_CHUNKS_PER_S,
        function_lines=_distribution(units),
        suggestions=tuple(suggest(facts, units, expected, current)),
    )


def _languages(facts: Sequence[FileFact]) -> tuple[LangStats, ...]:
    by: dict[str, list[FileFact]] = {}
    for f in facts:
        by.setdefault(f.lang, []).append(f)
    stats = [
        LangStats(lang, len(fs), sum(f.lines for f in fs), sum(f.size for f in fs))
        for lang, fs in by.items()
    ]
    return tuple(sorted(stats, key=lambda s: (-s.bytes, s.lang)))


def _expected_chunks(facts: Sequence[FileFact], chunked: Sequence[FileFact]) -> int:
    known = sum(f.chunks or 0 for f in chunked)
    rest = [f for f in facts if f.chunks is None]
    if not rest or not chunked:
        return known
    overall = known / max(1, sum(f.size for f in chunked))
    rates = {}
    for lang in {f.lang for f in rest}:
        same = [f for f in chunked if f.lang == lang]
        size = sum(f.size for f in same)
        rates[lang] = sum(f.chunks or 0 for f in same) / size if size else overall
    return known + round(sum(f.size * rates[f.lang] for f in rest))


def _distribution(units: Sequence[int]) -> dict[str, int]:
    if not units:
        return {}
    return {
        "count": len(units),
        "median": percentile(units, 50),
        "p90": percentile(units, 90),
        "max": units[-1],
    }


def percentile(sorted_values: Sequence[int], p: float) -> int:
    """The nearest-rank percentile of sorted values (p in 0..100)."""
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def suggest(
    facts: Sequence[FileFact],
    units: Sequence[int],
    expected_chunks: int,
    current: Mapping[str, Any],
) -> list[Suggestion]:
    """Excludes for generated/vendored/data files, `chunk.max_lines`, `embed.provider`."""
    out: list[Suggestion] = []
    excludes = exclude_patterns(facts)
    have = set(current.get("index.exclude", ()))
    new = {p: why for p, why in excludes.items() if p not in have}
    if new:
        reason = "; ".join(f"{p}: {why}" for p, why in new.items())
        out.append(Suggestion("index.exclude", sorted(new), reason))
    lines = chunk_lines(units, current.get("chunk.max_lines"))
    if lines is not None:
        out.append(
            Suggestion(
                "chunk.max_lines",
                lines,
                f"90% of the {len(units)} functions are at most {percentile(units, 90)} lines; "
                f"a smaller chunk splits more than 10% of them",
            )
        )
    embed_s = expected_chunks / EMBED_CHUNKS_PER_S
    provider = "local" if embed_s <= EMBED_BUDGET_S else "none"
    if provider != current.get("embed.provider"):
        why = (
            f"~{expected_chunks} chunks embed in ~{embed_s / 60:.0f} min at "
            f"~{EMBED_CHUNKS_PER_S:.0f} chunks/s"
        )
        why += "" if provider == "local" else "; lexical search only (set local to embed later)"
        out.append(Suggestion("embed.provider", provider, why))
    return out


def chunk_lines(units: Sequence[int], current: int | None = None) -> int | None:
    """A chunk size that holds 90% of the functions whole (rounded up to 10, at most
    `MAX_CHUNK_LINES`), or None when `current` already does or there are too few."""
    if len(units) < MIN_UNITS:
        return None
    p90 = percentile(sorted(units), 90)
    if current is not None and p90 <= current:
        return None
    lines = min(MAX_CHUNK_LINES, math.ceil(p90 / 10) * 10)
    return None if lines == current else lines


def exclude_patterns(facts: Sequence[FileFact]) -> dict[str, str]:
    """Gitignore-style patterns for what is generated, vendored, locked or bulk data."""
    out: dict[str, str] = {}
    for f in facts:
        path = PurePosixPath(f.rel)
        vendored = next((p for p in path.parts[:-1] if p in VENDORED_DIRS), None)
        glob = next((g for g in GENERATED_GLOBS if fnmatch(path.name, g)), None)
        if vendored:
            out.setdefault(f"{vendored}/", "vendored code")
        elif glob:
            out.setdefault(glob, "generated files")
        elif path.name in LOCK_FILES:
            out.setdefault(path.name, "lock file")
        elif f.minified:
            out.setdefault(f"/{f.rel}", "minified (a few very long lines)")
        elif path.suffix.lower() in DATA_SUFFIXES and f.size > LARGE_DATA_BYTES:
            out.setdefault(f"/{f.rel}", f"data file of {f.size / 1048576:.1f} MiB")
    return out


@dataclass(frozen=True, slots=True)
class Change:
    """One key `--write` set: its old value (None = absent) and its new one."""

    key: str
    old: Any
    new: Any


def merge(
    existing: Mapping[str, Any], suggestions: Sequence[Suggestion]
) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """The project config (sections of keys) with the suggestions merged in.

    The user's keys stay: a list (`index.exclude`) gains the new patterns after its own, a
    scalar the user already set is kept as it is; only absent scalars are added.
    """
    merged: dict[str, Any] = {
        s: dict(v) if isinstance(v, Mapping) else v for s, v in existing.items()
    }
    changes = []
    for s in suggestions:
        section, name = s.key.split(".", 1)
        values = merged.setdefault(section, {})
        old = values.get(name)
        if isinstance(s.value, list):
            mine = list(old or [])
            new = mine + [p for p in s.value if p not in mine]
            if new != mine:
                values[name] = new
                changes.append(Change(s.key, old, new))
        elif old is None:
            values[name] = s.value
            changes.append(Change(s.key, None, s.value))
    return merged, tuple(changes)
