"""A pasted stack trace, or a `file:line` in a query: the indexed lines it points at, as
one more ranked list for fusion (read side).

An agent or a user pastes a traceback and asks why it fails. Its frames name files and
lines; the ones inside the index are the answer's first candidates, the innermost (where
it failed) first. The message at its end is left to the other lists (`verbatim` finds
the line that raises it). Frames are read from the whole query, before the searcher cuts
a long one: a Python traceback's innermost frame is at its end.

Understood (one frame per line, the first pattern that matches):
- Python: `File "src/app/db.py", line 42, in connect` (most recent call last: reversed);
- Java, Kotlin, Scala, Groovy: `at com.acme.Db.connect(Db.java:42)`; the package gives
  the directories (`com/acme/Db.java`);
- C#: `at Acme.Db.Connect() in /src/Db.cs:line 42`;
- PHP: `#0 /app/src/Db.php(42): Db->connect()`;
- a link to a line: `https://github.com/acme/app/blob/main/src/db.py#L42`;
- anything else with `path.ext:line` (Node, Go, Rust, Ruby, compilers and linters).

A frame's path names an indexed file when enough of its trailing directories agree: two
components or more, or the file name alone when the index holds one file so named and
the path is no installed package's (`site-packages`, `node_modules`, ...).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from strata.layers import C0_SOURCE_CHUNKS
from strata.query.lookup.rows import chunks_at, indexed_paths
from strata.store import Filter, Store
from strata.types import Record

__all__ = ["MAX_FRAMES", "Frame", "frame_chunks", "parse", "resolve"]

MAX_FRAMES = 8  # the innermost frames of the index's files that count
_PYTHON = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<fn>\S+))?')
_JVM = re.compile(r"\bat\s+(?P<fn>[\w$.<>/]+)\((?P<file>[\w$-]+\.\w+):(?P<line>\d+)\)")
_DOTNET = re.compile(r"\bat\s+(?P<fn>[\w.<>`]+)\(.*?\)\s+in\s+(?P<path>.+?):line\s+(?P<line>\d+)")
_PHP = re.compile(r"(?P<path>[^\s()'\"]+\.php)\((?P<line>\d+)\)")
_ANY = re.compile(
    r"(?P<path>(?:[A-Za-z]:)?[\w.@~+/\\-]*[\w-]\.[A-Za-z][\w+]{0,9}):(?P<line>\d+)(?![\d.])"
)
# A link to a line (GitHub, GitLab, Gitea, Bitbucket): `.../src/app/db.py#L42` (or `#42`).
_ANCHOR = re.compile(r"(?P<path>[\w.@~+/\\-]*[\w-]\.[A-Za-z][\w+]{0,9})#L?(?P<line>\d+)\b")
_INSTALLED = re.compile(
    r"(?:^|[/\\])(?:site-packages|dist-packages|node_modules|vendor|\.cargo|go/pkg/mod"
    r"|lib/python\d|jdk|\.m2|\.gradle)(?:[/\\]|$)"
)


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: a path as the trace wrote it, a 1-based line, the function if named."""

    path: str
    line: int
    function: str = ""


def parse(text: str) -> tuple[Frame, ...]:
    """The frames of `text`, innermost first, each (path, line) once (pure)."""
    found: list[Frame] = []
    python = False
    for row in text.splitlines():
        frame = _frame(row)
        if frame is not None:
            python = python or bool(_PYTHON.search(row))
            found.append(frame)
    if python:  # "most recent call last"
        found.reverse()
    seen: dict[tuple[str, int], Frame] = {}
    for f in found:
        seen.setdefault((f.path, f.line), f)
    return tuple(seen.values())


def _frame(row: str) -> Frame | None:
    if m := _PYTHON.search(row):
        return Frame(m["path"], int(m["line"]), m["fn"] or "")
    if m := _DOTNET.search(row):
        return Frame(m["path"], int(m["line"]), m["fn"])
    if m := _JVM.search(row):
        package = m["fn"].split("/")[-1].split(".")[:-2]  # `com.acme.Db.connect` -> com/acme
        return Frame("/".join([*package, m["file"]]), int(m["line"]), m["fn"])
    if m := _PHP.search(row):
        return Frame(m["path"], int(m["line"]))
    if m := _ANCHOR.search(row):
        return Frame(m["path"], int(m["line"]))
    if m := _ANY.search(row):
        return Frame(m["path"], int(m["line"]))
    return None


def resolve(frames: Iterable[Frame], paths: Sequence[str]) -> list[tuple[str, int]]:
    """(indexed path, line) of each frame that names an indexed file, in frame order
    (pure; `paths`: every indexed path)."""
    by_name: dict[str, list[tuple[str, ...]]] = {}
    for p in paths:
        parts = tuple(p.split("/"))
        by_name.setdefault(parts[-1], []).append(parts)
    out: list[tuple[str, int]] = []
    for f in frames:
        parts = tuple(x for x in re.split(r"[/\\]+", f.path) if x not in ("", "."))
        if not parts or f.line < 1:
            continue
        scored = [(_shared_tail(parts, c), c) for c in by_name.get(parts[-1], ())]
        best = max((s for s, _ in scored), default=0)
        top = [c for s, c in scored if s == best]
        if best == 0 or len(top) > 1:
            continue  # no file so named, or several equally so
        if best == 1 and not _by_name_alone(f.path, parts, top[0], len(scored)):
            continue
        out.append(("/".join(top[0]), f.line))
    return list(dict.fromkeys(out))


def _by_name_alone(path: str, parts: tuple[str, ...], file: tuple[str, ...], named: int) -> bool:
    """Whether a frame that agrees with an indexed file in its name only is that file: the
    index's one file so named, no installed package's path, and the frame a bare name
    (`Db.java`) or the file at the index's top (`/home/me/app/main.py` -> `main.py`)."""
    return named == 1 and not _INSTALLED.search(path) and (len(parts) == 1 or len(file) == 1)


def _shared_tail(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def frame_chunks(
    store: Store, frames: Sequence[Frame], where: Filter
) -> list[tuple[Record, float]]:
    """The C0 chunks holding the frames' lines, innermost first (each chunk once; score
    1.0), at most `MAX_FRAMES`; each carries its frame's line as `frame_line`."""
    if not frames or (where.layers is not None and C0_SOURCE_CHUNKS not in where.layers):
        return []
    spots = resolve(frames, indexed_paths(store))[:MAX_FRAMES]
    chunks = chunks_at(store, spots, where)
    out: dict[str, tuple[Record, float]] = {}
    for spot in spots:
        rec = chunks.get(spot)
        if rec is not None and rec.id not in out:
            meta = {**rec.metadata, "frame_line": spot[1]}
            out[rec.id] = (dataclasses.replace(rec, metadata=meta), 1.0)
    return list(out.values())
