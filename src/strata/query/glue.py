"""Glue: the short code between definitions that names nothing (pure).

`export default Parser;`, `'use strict';` and an import line, `const proto =
Parser.prototype;`, a forward declaration, a banner comment: chunks of their own in the
index, whose few words are mostly the module's name, so their vectors sit near any sentence
that names the project. A short chunk that gives a name a value (`var minNamePadding = 11`,
`LOG_KWARG_NAMES = (...)`, `type byName []*Command`, `#define ClosureHeader ...`) is a
definition, however short, and not glue.
"""

from __future__ import annotations

import re

from strata.layers import C0_SOURCE_CHUNKS
from strata.types import Record

GLUE_CHARS = 100
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


def is_glue(rec: Record) -> bool:
    """A code chunk with no title, under `GLUE_CHARS`, that gives no name a value of its
    own (an alias, `x = Parser.prototype`, is glue)."""
    if rec.layer != C0_SOURCE_CHUNKS or rec.title or len(text := rec.content.strip()) >= GLUE_CHARS:
        return False
    if _TYPE_OR_MACRO.search(text):
        return False
    return all(_ALIAS.match(m.group("value")) for m in _ASSIGNED.finditer(text))
