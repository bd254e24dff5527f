"""The files the rest of the code leans on (pure over a `Store`): each source file ranked by
how many other files import it or call into it, the core a newcomer reads after the README.

An import names a module as its language does; it is matched to a file by the path it
spells, from the importing file's folder when it is relative (`../core/Axios.js`), else as
the end of a file's path (`structlog._config`, `org.apache.cordova.LOG`, `ExUnit.DocTest`,
`Monolog\\Logger`, `ltable.h`): case, `_` and `-` aside, a package's `__init__`/`index`/
`mod` standing for its folder. An import of a name inside a module (`pkg.mod.name`) counts
for the module. A call counts when C2 resolved it to a symbol in another file.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from strata.query.lookup.graph import call_graph
from strata.query.lookup.imports import PACKAGE_FILE
from strata.query.lookup.rows import derived, indexed_paths
from strata.store import Store
from strata.text.testcode import is_test_path

__all__ = ["central_files"]

_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,6}$")
# An import naming a file by its name: a header, a script, a contract (not `pl.List`).
_FILE_NAME = re.compile(r"\.(?:h|hh|hpp|hxx|inc|inl|js|mjs|cjs|jsx|ts|tsx|sol|zig|lua|rb|py)$")
# Where an import without `./` names a package, never a file of the repository's: a
# JavaScript bare specifier (`events`), any Go import (a package is a folder).
_RELATIVE_ONLY = re.compile(r"\.(?:[cm]?js|jsx|tsx?|vue|svelte|astro)$")
_PACKAGES_ONLY = re.compile(r"\.go$")
_ROOTS = frozenset({"crate", "self", "super"})  # Rust's paths from the crate or module
_GROUP = re.compile(r"\.?\{[^}]*\}$")  # Scala's `scala.collection.{Seq, Map}`


def central_files(store: Store, n: int) -> list[str]:
    """The `n` source files (not tests) that the most other files import or call into,
    most first (ties: the shallower path). A file nothing else uses is not central.
    Ranked once per store version."""
    return list(derived(store, "central_files", _ranked)[:n])


def _ranked(store: Store) -> tuple[str, ...]:
    files = [p for p in indexed_paths(store) if not is_test_path(p)]
    finder = _Finder(files)
    users: dict[str, set[str]] = {}
    graph = call_graph(store)
    for e in graph.imports:
        if is_test_path(e.path):
            continue
        for path in finder.find(e.path, e.dst_ref):
            if path != e.path:
                users.setdefault(path, set()).add(e.path)
    for dst_id, edges in graph.by_dst_id.items():
        path = dst_id.partition("::")[0]
        for e in edges:
            if e.path != path and not is_test_path(e.path) and not is_test_path(path):
                users.setdefault(path, set()).add(e.path)
    return tuple(sorted(users, key=lambda p: (-len(users[p]), p.count("/"), p)))


def _key(path: str) -> str:
    """A module path as compared: no extension, lower case, no `_` or `-`, a package file
    standing for its folder (`src/ex_unit/doc_test.ex` -> `src/exunit/doctest`)."""
    module = PACKAGE_FILE.sub("", _EXTENSION.sub("", path).lower())
    return module.replace("_", "").replace("-", "")


class _Finder:
    """Indexed files by the last part of their key, for matching an import's path."""

    def __init__(self, files: Iterable[str]) -> None:
        self.by_last: dict[str, list[tuple[str, str]]] = {}
        for path in files:
            key = _key(path)
            self.by_last.setdefault(key.rsplit("/", 1)[-1], []).append((key, path))

    def find(self, importer: str, ref: str) -> list[str]:
        """The file `ref`, imported by `importer`, names ([] none; one, the nearest to the
        importer, when several end the same way)."""
        ref = _GROUP.sub("", ref.strip().strip("'\"<>"))
        if not ref or "$" in ref or _PACKAGES_ONLY.search(importer):
            return []
        named = _FILE_NAME.search(ref)  # `lua.h` is not `lua.c`
        suffix = named.group(0).lower() if named else ""
        if ref.startswith(("./", "../")):  # relative: from the importer's folder
            whole = posixpath.normpath(posixpath.join(posixpath.dirname(importer), ref))
            return self._ending(_key(whole), importer, suffix, exact=True)
        if _RELATIVE_ONLY.search(importer):
            return []
        ref = ref.lstrip(".")  # Python's `from .client import x`
        if "/" in ref or named:
            return self._ending(_key(ref), importer, suffix)
        parts = [p for p in re.split(r"::|\\|\.", ref) if p and p != "*"]
        while parts and parts[0] in _ROOTS:
            parts.pop(0)
        for size in (len(parts), len(parts) - 1):  # the module, or the module of a name
            if size > 0 and (found := self._ending(_key("/".join(parts[:size])), importer)):
                return found
        return []

    def _ending(
        self, key: str, importer: str, suffix: str = "", *, exact: bool = False
    ) -> list[str]:
        if not key:
            return []
        candidates = [
            path
            for whole, path in self.by_last.get(key.rsplit("/", 1)[-1], ())
            if (whole == key or (not exact and whole.endswith("/" + key)))
            and path.lower().endswith(suffix)
        ]
        if len(candidates) <= 1:
            return candidates
        return [max(candidates, key=lambda p: len(posixpath.commonpath([p, importer])))]
