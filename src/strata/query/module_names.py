"""A file or a package named as code names it (pure): a module as its language imports
it (`jinja2.sandbox`, `regex_syntax::ast::parse`, `Text.Megaparsec.Char`, `pl.tablex`,
`lib/command`, `Monolog\\Handler`) or a package that is a directory (`cobra/doc`,
`org.apache.cordova.engine`), alone or in a question about it ("what does the
jinja2.sandbox module do").

`strata.query.router` asks `module_asked` for the name, then (when the index defines no
type by it) `module_file` for the one indexed file it stands for, else `module_dir` for
the one directory.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from strata.query.question_filters import rx

__all__ = ["exports_asked", "module_asked", "module_dir", "module_file"]

_SEP = r"(?:\.|::|/|\\)"
_HAS_SEP = re.compile(r"[.:/\\]")
# two parts or more: `loaders` alone is a word, not a module
_MODULE = rf"[A-Za-z_@][\w@-]*(?:{_SEP}[A-Za-z_][\w-]*)+"
# a module's words, and a type's or a function's (`org.example.Cart` is a class in a package)
_KIND = (
    r"(?:module|package|crate|namespace|library|class|type|struct|interface|enum|trait"
    r"|object|record|function|method)"
)
_THE = rf"(?:(?:the|a)\s+)?(?:{_KIND}\s+)?"
_NAME = rf"{_THE}[`'\"]?(?P<name>{_MODULE})[`'\"]?(?:\s+{_KIND})?"
_ABOUT_MODULE = rx(
    rf"^\s*{_NAME}\s*[?.!]?\s*$",
    rf"\bwhat\s+(?:does|do)\s+{_NAME}\s+(?:do|contain|hold|define|export|provide)\b",
    rf"\bwhat\s+(?:is|'s)\s+(?:in|inside)\s+{_NAME}",
    rf"\b(?:explain|describe|summari[sz]e|overview\s+of)\s+{_NAME}",
    rf"\b(?:purpose|role|job)\s+of\s+{_NAME}",
    rf"\bwhat\s+is\s+{_NAME}\s+(?:for|about)\b",
    rf"\bчто\s+(?:делает|содержит|лежит\s+в|в)\s+(?:модул[ьея]\s+|пакет[еа]?\s+)?{_NAME}",
    rf"\b(?:объясни|опиши)\s+(?:модул[ьея]\s+|пакет[еа]?\s+)?{_NAME}",
)
# the file that stands for its directory's module or package
_PACKAGE_FILE = frozenset({"__init__", "mod", "index", "lib", "init"})
_RELATIVE = frozenset({"crate", "self", "super", "."})


# One word is a module's name when the question says so ("the hooks module"): alone it is
# a word ("what does routing do").
_ONE = r"(?:the\s+)?[`'\"]?(?P<name>[A-Za-z_][\w-]*)[`'\"]?\s+(?:module|package)"
_ABOUT_ONE = rx(
    rf"\bwhat\s+(?:does|do)\s+{_ONE}\s+(?:do|contain|hold|define|provide)\b",
    rf"\b(?:explain|describe|summari[sz]e|overview\s+of)\s+{_ONE}\W*$",
    rf"\b(?:purpose|role|job)\s+of\s+{_ONE}\W*$",
    rf"\bwhat\s+is\s+{_ONE}\s+(?:for|about)\b",
)


def module_asked(query: str) -> str:
    """The module name a query is, or asks about (`jinja2.sandbox`, "the hooks module"),
    or ""."""
    patterns = _ABOUT_MODULE if _HAS_SEP.search(query) else _ABOUT_ONE
    m = next((m for p in patterns if (m := p.search(query))), None)
    return m.group("name") if m else ""


# What a package exposes, asked of one named by a word too (`structlog`, `jinja2`, `axios`).
_PACKAGE = rf"[`'\"]?(?P<name>[A-Za-z_@][\w@-]*(?:{_SEP}[A-Za-z_][\w-]*)*)[`'\"]?"
_EXPORTS = rx(
    rf"\bwhat\s+(?:does|do)\s+(?:the\s+)?(?:{_KIND}\s+)?{_PACKAGE}\s+(?:{_KIND}\s+)?export\b",
    rf"\b(?:the\s+)?public\s+(?:api|interface|names)\s+of\s+(?:the\s+)?(?:{_KIND}\s+)?{_PACKAGE}"
    rf"(?:\s+{_KIND})?\W*$",
    rf"\b(?:exports|exported\s+names)\s+of\s+(?:the\s+)?(?:{_KIND}\s+)?{_PACKAGE}(?:\s+{_KIND})?\W*$",
    rf"\bwhat\s+is\s+exported\s+(?:from|by)\s+(?:the\s+)?(?:{_KIND}\s+)?{_PACKAGE}(?:\s+{_KIND})?\W*$",
    rf"^\W*{_PACKAGE}(?:'s)?\s+public\s+(?:api|interface)\W*$",
)


def exports_asked(query: str) -> str:
    """The package a question asks what it exports ("what does structlog export", "the
    public API of jinja2"), or "": its head (`__init__.py`, `index.js`) answers."""
    said = query.casefold()
    if "export" not in said and "public" not in said:
        return ""
    m = next((m for p in _EXPORTS if (m := p.search(query))), None)
    return m.group("name") if m else ""


def module_file(name: str, paths: Iterable[str], *, cased: bool | None = None) -> str:
    """The indexed file a module name stands for, or "" when none or several do
    (`cased`: only as written, or only in another case; None: as written, then in any).

    The name's parts are the end of the file's path without its extension (`jinja2.sandbox`
    is `src/jinja2/sandbox.py`), or of its directory's package file (`lib/router` is
    `lib/router/index.js`, `regex_syntax::hir` is `src/hir/mod.rs`). Rust's `crate::` and
    a crate's own name (`regex_syntax::ast::parse`: the crate is `src/`) may lead.
    """
    parts = _parts(name)
    if not parts:
        return ""
    last = _folded(parts[-1])  # one cheap pass keeps the few paths that could be it
    paths = [p for p in paths if last in _folded(p)]
    # as written, then in any case (Ruby's `Rack::Utils` is `rack/utils.rb`); the file's
    # name without its extension, then without all of them (Kotlin's `Builders.common.kt`)
    cases = (True, False) if cased is None else (cased,)
    for want, case, loose in itertools.product(_wanted(name, parts), cases, (0, 1)):
        found = {p for p in paths if _is_module_file(p, want, cased=case, loose=bool(loose))}
        if len(found) == 1:
            return found.pop()
        if found:
            return ""
    return ""


def module_dir(name: str, paths: Iterable[str], *, cased: bool | None = None) -> str:
    """The one indexed directory a package name stands for (Go's `cobra/doc`, Java's
    `org.apache.cordova.engine`), read as `module_file` reads a name; "" for none or
    several."""
    parts = _parts(name)
    dirs = {p.rpartition("/")[0] for p in paths if "/" in p}
    cases = (True, False) if cased is None else (cased,)
    for want, case in itertools.product(_wanted(name, parts), cases):
        # a Go import path's host is one directory (`github.com`), two parts of the name
        found = {d for d in dirs if _ends_with(re.split(r"[/.]", d), want, case)}
        if len(found) == 1:
            return found.pop()
        if found:
            return ""
    return ""


def _ends_with(segments: list[str], want: tuple[str, ...], cased: bool) -> bool:
    if not cased:
        segments, want = [_folded(s) for s in segments], tuple(_folded(w) for w in want)
    return len(segments) >= len(want) and tuple(segments[len(segments) - len(want) :]) == want


def _parts(name: str) -> list[str]:
    """A module name's parts, without Rust's relative leads (`crate::`, `self::`)."""
    parts = [p for p in re.split(_SEP, name.strip("`'\"")) if p]
    while parts and parts[0] in _RELATIVE:
        parts = parts[1:]
    return parts


def _wanted(name: str, parts: list[str]) -> list[tuple[str, ...]]:
    """The ends of a path the name may be: all its parts, then without the package's or
    crate's own name, which no directory of it spells (`express/lib/request` is
    `lib/request.js`, `regex_syntax::hir` is `src/hir/mod.rs`)."""
    wanted = [tuple(p.replace("-", "_") for p in parts)]
    if len(parts) > 2 or (len(parts) == 2 and "::" in name):
        wanted.append(wanted[0][1:])
    return [w for w in wanted if w]


def _is_module_file(path: str, want: tuple[str, ...], *, cased: bool, loose: bool) -> bool:
    folder, _, name = path.rpartition("/")
    stem = name.split(".", 1)[0] if loose else name.rpartition(".")[0]
    if not stem:
        return False
    if not cased:
        want = tuple(_folded(w) for w in want)
    segments = tuple(s if cased else _folded(s) for s in [*folder.split("/"), stem] if s)
    if segments[-len(want) :] == want:
        return len(segments) >= len(want)
    return segments[-1] in _PACKAGE_FILE and segments[-len(want) - 1 : -1] == want


def _folded(part: str) -> str:
    """A part of a module name or a path, as both are compared (`Pod` and `pod`, `tree-sitter`
    and `tree_sitter`)."""
    return part.casefold().replace("-", "_")
