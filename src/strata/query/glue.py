"""Glue: the short code between definitions that names nothing (pure).

`export default Parser;`, `'use strict';` and an import line, `const proto =
Parser.prototype;`, a forward declaration, a banner comment: chunks of their own in the
index, whose few words are mostly the module's name, so their vectors sit near any sentence
that names the project; an import block, of any length, names only other modules. A short
chunk that gives a name a value (`var minNamePadding = 11`,
`LOG_KWARG_NAMES = (...)`, `type byName []*Command`, `#define ClosureHeader ...`) is a
definition, however short, and not glue.
"""

from __future__ import annotations

import re

from strata.layers import C0_SOURCE_CHUNKS
from strata.types import Record

SHORT_CHARS = 100  # a chunk this short: a doc heading or stub, or code that may be glue
# `name = value`, with the declaration words of the C family, Go, Rust and JavaScript before it
_ASSIGNED = re.compile(
    r"^[ \t]*(?:export[ \t]+)?(?:(?:pub(?:\([\w:]+\))?|const|let|var|static|final|readonly"
    r"|private|public|protected|local)[ \t]+)*[A-Za-z_$][\w$]*[ \t]*(?::[^=\n]*)?=(?!=)"
    r"[ \t]*(?P<value>[^\n]*)",
    re.MULTILINE,
)
_TYPE_OR_MACRO = re.compile(
    r"^[ \t]*(?:export[ \t]+)?(?:pub[ \t]+)?(?:type|typedef|#[ \t]*define)[ \t]+\w", re.MULTILINE
)
# a value that is only another name (`Parser.prototype`), not a literal or a call
_ALIAS = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[ \t]*;?[ \t]*$")
# An import block, of any length, is glue too: its words are other modules' names; so is a
# CommonJS build's preamble (`Object.defineProperty(exports, "__esModule", …)`,
# `exports.NoopPlugin = void 0;`).
_IMPORT = re.compile(
    r"(?:import\b|from\s+\S+\s+import\b|use\s|#\s*include\b|using\s+[\w.]+;|package\s"
    r"|mod\s+\w+;|extern\s+crate\b|require[\s(]|(?:(?:local|const|let|var)\s+)?[\w${}\s,]+="
    r"\s*require\b|Object\.defineProperty\(exports,\s*['\"]__esModule['\"]"
    r"|(?:exports\.[\w$]+\s*=\s*)+void 0;?$)"
)
# the other lines of an import block: Go's `"fmt"` and `)`, an import list's `a,` and `} from`
_IMPORT_REST = re.compile(
    r"(?:['\"]use strict['\"];?|['\"][\w@./-]+['\"],?|[\w$]+(?:\s+as\s+[\w$]+)?,?|[)}\]];?"
    r"|}\s*from\s.*|\w+\s+['\"][\w@./-]+['\"])$"
)
_COMMENT = re.compile(
    r"(?://|/\*|\*|--|#(?!\s*(?:include|define|if|ifdef|ifndef|elif|else|endif|undef|pragma)\b))"
)


def _imports_only(text: str) -> bool:
    """Whether every line of `text` but comments is part of an import block, one import at
    least (read up to the first line that is not: most chunks stop at once)."""
    imports = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or _COMMENT.match(line):
            continue
        if _IMPORT.match(line):
            imports = True
        elif not _IMPORT_REST.match(line):
            return False
    return imports


def is_glue(rec: Record) -> bool:
    """A code chunk with no title that is an import block, or is under `SHORT_CHARS` and
    gives no name a value of its own (an alias, `x = Parser.prototype`, is glue)."""
    if rec.layer != C0_SOURCE_CHUNKS or rec.title:
        return False
    if _imports_only(rec.content):
        return True
    if len(text := rec.content.strip()) >= SHORT_CHARS:
        return False
    if _TYPE_OR_MACRO.search(text):
        return False
    return all(_ALIAS.match(m.group("value")) for m in _ASSIGNED.finditer(text))


# A module's export of names it defines: `exports.PostgresDialect = PostgresDialect;`,
# `module.exports = Router;`, `export default CancelToken;`, `export { parse, stringify };`
_REEXPORT = re.compile(
    r"^(?:(?:module\.)?exports(?:\.[\w$]+)?\s*=\s*(?P<value>[\w$]+)"
    r"|export\s+default\s+(?P<default>[\w$]+)|export\s*\{(?P<names>[\w$\s,]*)\})\s*;?$"
)


def exported_names(rec: Record) -> tuple[str, ...]:
    """The names a glue chunk that only exports names exports (see `_REEXPORT`; none: it
    is not such a chunk)."""
    if not is_glue(rec):
        return ()
    names: list[str] = []
    for line in (line.strip() for line in rec.content.splitlines()):
        if not line or _COMMENT.match(line):
            continue
        m = _REEXPORT.match(line)
        if m is None:
            return ()
        found = m.group("value") or m.group("default") or m.group("names") or ""
        names += [n.split(" as ")[0].strip() for n in found.split(",") if n.strip()]
    return tuple(dict.fromkeys(names))
