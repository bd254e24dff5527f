"""Path globs (`src/**`, `*.py`, `tests/**/test_*.py`) matched against POSIX paths (pure).

Globs compile to RE2, which matches in time linear in the path: a glob such as `*?*?*?…!`
sends a backtracking engine (Python's `re`) exponential, and a search must never hang on it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

import re2


@functools.lru_cache(maxsize=256)
def glob_regex(pattern: str) -> Any:
    """Compile a glob: `**` spans directories, `*` and `?` stay within one segment.

    A pattern without a `/` matches the file name at any depth (as in .gitignore);
    a trailing `/` or `/**` matches everything below a directory.
    """
    pat = pattern.strip().lstrip("./") if pattern.strip() not in (".", "./") else "**"
    if pat.endswith("/"):
        pat += "**"
    if "/" not in pat:
        pat = "**/" + pat
    out, i = [], 0
    while i < len(pat):
        c = pat[i]
        if pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pat.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = pat.find("]", i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = pat[i + 1 : end].replace("\\", "\\\\")
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return re2.compile("(?s)" + "".join(out) + "(?:/.*)?")


def matches(path: str, patterns: Iterable[str]) -> bool:
    """Whether `path` matches any of the globs."""
    return any(glob_regex(p).fullmatch(path) for p in patterns)


def select(paths: Iterable[str], patterns: Iterable[str]) -> list[str]:
    """The paths matching any of the globs, in input order."""
    pats = [glob_regex(p) for p in patterns]
    return [p for p in paths if any(r.fullmatch(p) for r in pats)]
