"""A qualified name however its language writes it, and the path of the package or module
that qualifies it (pure): `org.apache.cordova.CordovaActivity`, `regex_syntax::ast::Parser`,
`Monolog\\Handler\\StreamHandler`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from strata.query.lookup.names import fold

__all__ = ["dotted", "in_path", "last_part"]

_PATH_PIECES = re.compile(r"[/.\-]")
_NOT_A_PLACE = frozenset({"crate", "self", "super"})  # Rust's relative module paths


def dotted(name: str) -> str:
    """A name's parts joined by dots, however its language separates them (C++, Rust, Perl
    and Ruby `::`, R and PHP `->`, PHP's namespaces `\\`, Lua's method `Parser:parse`,
    Ruby's documented `Class#method`)."""
    joined = name.replace("::", ".").replace("->", ".").replace("\\", ".")
    return _ONE_MARK.sub(".", joined).strip(".")


_ONE_MARK = re.compile(r"(?<=\w)[:#](?=[A-Za-z_])")


def last_part(name: str) -> str:
    """A qualified name's own name, after any separator its language writes (`Class.method`,
    `ast::Parser`, `$this->cache`, `Monolog\\Handler`, Ruby's `Class#method`)."""
    return dotted(name.replace("#", ".")).rsplit(".", 1)[-1]


def in_path(qualifier: Sequence[str], path: str) -> bool:
    """Whether a package or module path (`org`, `apache`, `cordova`) is the definition's
    path read in order: each part a directory or the file's stem, or a piece of one
    (`kotlinx-coroutines-core`, `Newtonsoft.Json`); the first may begin a directory's name
    (the crate `regex_syntax` in `regex-syntax-0.6.27`). Case and `_` do not count."""
    wanted = [fold(q) for q in qualifier if q not in _NOT_A_PLACE]
    segments = path.split("/")
    segments[-1] = segments[-1].rsplit(".", 1)[0]
    places = [(fold(seg), {fold(p) for p in _PATH_PIECES.split(seg) if p}) for seg in segments]
    i = 0
    for n, want in enumerate(wanted):
        while i < len(places) and not _is_place(want, places[i], first=n == 0):
            i += 1
        if i == len(places):
            return False
        i += 1
    return bool(wanted)


def _is_place(want: str, place: tuple[str, set[str]], *, first: bool) -> bool:
    whole, pieces = place
    return want == whole or want in pieces or (first and whole.startswith(want))
