"""What one parse of a source file yields: its definitions and references (values only).

`strata.index.code.treesitter.tags` builds them from a tag query's captures, and
`strata.index.code.treesitter.recover` adds those a parse error hid.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["METHOD_OWNERS", "Definition", "Outline", "Reference"]

# Definition kinds whose functions are methods.
METHOD_OWNERS = frozenset(
    ["class", "interface", "struct", "trait", "enum", "impl", "object", "singleton"]
)


@dataclass(frozen=True, slots=True)
class Definition:
    """One definition in a file, with its nesting and its full span (doc and decorators too).

    Lines are 1-based; `decl_line` is where the declaration itself starts, `start_line`
    where its leading comments/decorators start. `path` is the qualified name within the
    file (`("Server", "handle")`); `parent` indexes the enclosing definition.
    `starts_line`/`ends_line` say whether the unit owns its first and last lines.
    """

    kind: str
    name: str
    path: tuple[str, ...]
    start_line: int
    end_line: int
    decl_line: int
    signature: str
    doc: str
    parent: int | None
    has_body: bool
    starts_line: bool
    ends_line: bool
    decorators: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Reference:
    """One use (`call`, `import` or `inherits`); `owner` indexes the enclosing definition."""

    kind: str
    name: str
    written: str
    line: int
    owner: int | None
    local: bool = False


@dataclass(frozen=True, slots=True)
class Outline:
    """Everything the chunker and the symbol extractor need from one parse."""

    definitions: tuple[Definition, ...]
    references: tuple[Reference, ...]
    has_errors: bool
