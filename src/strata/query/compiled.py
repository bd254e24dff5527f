"""Build output shipped beside its source (pure): the JavaScript and declarations a
TypeScript file compiles to, as npm packages ship them (`schemas.ts` beside `schemas.js`,
`schemas.cjs`, `schemas.d.cts`; `src/x.ts` beside `dist/esm/x.js`). The output repeats the
source's names and words, so it ranks as generated code (semble's penalty on compiled
artefacts): the source is the file a question is about."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

__all__ = ["compiled_outputs", "may_be_output"]

_SOURCE = re.compile(r"(?<!\.d)\.(?:tsx?|mts|cts)$")
_OUTPUT = re.compile(r"(?:\.d)?\.(?:[cm]?js|jsx|[cm]?ts)(?:\.map)?$")
# Folders a build writes into and the ones the sources sit in: `pkg/dist/esm/a/b.js` and
# `pkg/src/a/b.ts` are the same module, `a/b` of the package `pkg`.
_OUT_DIRS = frozenset({"dist", "build", "lib", "out", "esm", "cjs", "es", "umd", "types"})
_SOURCE_DIRS = frozenset({"src", "source", "lib"})


def compiled_outputs(paths: Iterable[str]) -> frozenset[str]:
    """The paths among `paths` that are a TypeScript source's build output: a JavaScript
    file, a declaration or a source map with a `.ts`/`.tsx`/`.mts`/`.cts` source of the same
    module in the same folder, or under the package's `src/` when the output sits in the
    package's root or under `dist/` (zod's `v3/types.js` for `src/v3/types.ts`)."""
    paths = list(paths)
    sources: set[str] = set()
    for path in paths:
        if m := _SOURCE.search(path):
            stem = path[: m.start()]
            sources.add(stem)
            sources.add(_source_module(stem))
    out = set()
    for path in paths:
        if _SOURCE.search(path) or not (m := _OUTPUT.search(path)):
            continue
        stem = path[: m.start()]
        if stem in sources or not sources.isdisjoint(_output_modules(stem)):
            out.add(path)
    return frozenset(out)


def may_be_output(path: str) -> bool:
    """Whether `path` is named as build output may be (a `.js`, a declaration, a source
    map): only then is the index's list of them worth a look."""
    return not _SOURCE.search(path) and bool(_OUTPUT.search(path))


def _source_module(stem: str) -> str:
    """`pkg/src/a/b` -> `pkg|a/b`: the package (before its first source folder) and the
    module within it; the stem itself when it is under no source folder."""
    parts = stem.split("/")
    for i, part in enumerate(parts[:-1]):
        if part in _SOURCE_DIRS:
            return "/".join(parts[:i]) + "|" + "/".join(parts[i + 1 :])
    return stem


def _output_modules(stem: str) -> Iterator[str]:
    """The packages and modules an output's stem may be (`pkg/dist/esm/a/b` -> `pkg|a/b`
    among others): any folder may be the package's root, and the build folders after it
    may be skipped."""
    parts = stem.split("/")
    for i in range(len(parts)):
        j = i
        yield "/".join(parts[:i]) + "|" + "/".join(parts[j:])
        while j < len(parts) - 1 and parts[j] in _OUT_DIRS:
            j += 1
            yield "/".join(parts[:i]) + "|" + "/".join(parts[j:])
