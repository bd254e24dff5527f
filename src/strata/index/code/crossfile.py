"""Calls between files where the language says what a bare name means (pure).

A tree-sitter file's calls are resolved against its own definitions only (`treesitter/
symbols.py`); a call of a name defined in another file stays unresolved, and `callers`
leaves such name-only matches out by default. Two languages say more:

- Go: the files of one directory are one package, which shares one namespace: a bare
  `checkRequiredFlags(...)` in `app.go` calls the package-level function of that name in
  `context.go`. A non-test file cannot call what only a `_test.go` file defines.
- C: a program's functions share one namespace: a bare call names the function of that
  name defined with a body, when the repository has exactly one (a prototype is no
  definition; two `usage()` of two programs stay unresolved, as a `static` one called
  from its own file already was).
- JavaScript and TypeScript: a name a module does not define comes from an import; a bare
  call resolves to the top-level function or class of that name in the one file among
  those the caller imports by a relative path (`./headers`, `../util/index.js` written for
  `index.ts`) that defines it.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections import defaultdict
from collections.abc import Iterable, Sequence

from strata.index.code.model import Edge, Symbol

_GO_KINDS = frozenset({"function"})
_C_KINDS = frozenset({"function"})
_JS_LANGS = frozenset({"javascript", "typescript", "tsx"})
_JS_KINDS = frozenset({"function", "class"})
_JS_SUFFIXES = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")


def resolve_across_files(edges: Sequence[Edge], symbols: Iterable[Symbol]) -> list[Edge]:
    """`edges` with each unresolved bare call of Go, C, JavaScript or TypeScript resolved as
    the language says."""
    go: dict[tuple[str, str], list[Symbol]] = defaultdict(list)
    c: dict[str, list[Symbol]] = defaultdict(list)
    js: dict[tuple[str, str], list[Symbol]] = defaultdict(list)
    for s in symbols:
        if s.parent_symbol_id is not None or s.declaration:
            continue
        if s.lang == "go" and s.kind in _GO_KINDS:
            go[(posixpath.dirname(s.path), s.name)].append(s)
        elif s.lang == "c" and s.kind in _C_KINDS:
            c[s.name].append(s)
        elif s.lang in _JS_LANGS and s.kind in _JS_KINDS:
            js[(s.path, s.name)].append(s)
    imported = _relative_imports(edges, {path for path, _ in js}) if js else {}
    out = []
    for e in edges:
        if e.edge_type == "calls" and e.resolution == "unresolved" and e.dst_ref.isidentifier():
            if e.path.endswith(".go"):
                found = go.get((posixpath.dirname(e.path), e.dst_ref), [])
                e = _to(e, [t for t in found if e.is_test or not t.path.endswith("_test.go")])
            elif e.path.endswith((".c", ".h")) and len(targets := c.get(e.dst_ref, [])) == 1:
                e = _to(e, targets)
            elif e.path in imported:
                e = _to(e, [t for f in imported[e.path] for t in js.get((f, e.dst_ref), [])])
        out.append(e)
    return out


def _relative_imports(edges: Iterable[Edge], files: set[str]) -> dict[str, list[str]]:
    """Each JavaScript or TypeScript file's relatively imported files among `files`."""
    out: dict[str, list[str]] = defaultdict(list)
    for e in edges:
        if e.edge_type == "imports" and e.dst_ref.startswith(".") and e.path.endswith(_JS_SUFFIXES):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(e.path), e.dst_ref))
            if (found := _module_file(target, files)) and found not in out[e.path]:
                out[e.path].append(found)
    return out


def _module_file(spec: str, files: set[str]) -> str | None:
    """The file an import of `spec` loads: itself, with a script suffix, its `index`, or
    the TypeScript source a `.js` import is compiled from."""
    stem, dot, suffix = spec.rpartition(".")
    bases = [spec, stem] if dot and f".{suffix}" in _JS_SUFFIXES else [spec]
    for base in bases:
        for candidate in (base, *(base + x for x in _JS_SUFFIXES)):
            if candidate in files:
                return candidate
        for x in _JS_SUFFIXES:
            if f"{base}/index{x}" in files:
                return f"{base}/index{x}"
    return None


def _to(edge: Edge, targets: Sequence[Symbol]) -> Edge:
    """The edge resolved to its one target, ambiguous among several, as it was for none."""
    if len(targets) == 1:
        (t,) = targets
        return dataclasses.replace(
            edge, resolution="resolved", dst_symbol_id=t.symbol_id, dst_qname=t.qname
        )
    if targets:  # a function per build target (`f_linux.go`, `f_windows.go`)
        ids = tuple(t.symbol_id for t in targets)
        return dataclasses.replace(edge, resolution="ambiguous", candidates=ids)
    return edge
