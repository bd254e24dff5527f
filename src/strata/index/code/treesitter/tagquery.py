"""A language's tag query: its file, the queries it inherits, and its directive lines.

`queries/<lang>.scm` holds the patterns `tags` reads (see there) and lines that switch on
what the language's style needs:

- `; inherits: <lang>`: that language's query comes first (C++ inherits C's).
- `; clauses: merge`: consecutive definitions of one name, kind and parent are one
  (Haskell's signature and equations, Elixir's function clauses).
- `; docs: across a blank line`: the comment one blank line above a definition is its
  doc (C's common style), unless that comment opens the file.
- `; prototypes: declarations`: a top-level function without a body beside one with a
  body of the same name (a C prototype) is no symbol of its own.
- `; macros: export`: an all-caps macro between `class`/`struct` and the name
  (`class FOO_API Name`) is read as spaces: the grammar has no preprocessor, reads the
  macro as the class's name and fails on the rest.
"""

from __future__ import annotations

import functools
import importlib.resources
import re

import tree_sitter

from strata.index.code.treesitter.grammars import is_supported, language

_INHERITS = re.compile(r"^; inherits: (\w+)\s*$", re.MULTILINE)
_DIRECTIVE = re.compile(r"^; ([a-z]+: [a-z ]+?)\s*$", re.MULTILINE)
_EXPORT_MACRO = re.compile(
    rb"\b(?:class|struct)\s+([A-Z][A-Z0-9_]*[A-Z0-9])\s+(?=[A-Za-z_]\w*\s*(?:final\b|[:{]))"
)


def parse(text: str, lang: str) -> tree_sitter.Tree:
    """Parse `text` as `lang` (UTF-8); raises the grammar's errors for unknown languages."""
    parser = tree_sitter.Parser(language(lang))
    return parser.parse(text.encode("utf-8", "surrogatepass"))


@functools.cache
def query(lang: str) -> tree_sitter.Query:
    """The compiled tag query of `strata/index/code/treesitter/queries/<lang>.scm`."""
    compiled: tree_sitter.Query = tree_sitter.Query(language(lang), query_source(lang))
    return compiled


@functools.cache
def has_query(lang: str) -> bool:
    """Whether `lang` has a grammar and a tag query: its files get symbols and syntax chunks."""
    folder = importlib.resources.files("strata.index.code.treesitter").joinpath("queries")
    return is_supported(lang) and folder.joinpath(f"{lang}.scm").is_file()


def query_source(lang: str) -> str:
    """The text of `<lang>.scm`, after the queries it inherits (`; inherits: typescript`)."""
    folder = importlib.resources.files("strata.index.code.treesitter").joinpath("queries")
    text = folder.joinpath(f"{lang}.scm").read_text(encoding="utf-8")
    parents = _INHERITS.findall(text)
    return "\n".join([*(query_source(p.strip()) for p in parents), text])


@functools.cache
def directive(lang: str, line: str) -> bool:
    """Whether the query of `lang` (or one it inherits) has the line `; <line>`."""
    return line in _DIRECTIVE.findall(query_source(lang))


def blank_export_macros(src: bytes) -> bytes:
    """`src` with each export macro of a class head turned to spaces (every byte and line
    stays where it was, so spans and texts still match the file)."""
    out = bytearray(src)
    for m in _EXPORT_MACRO.finditer(src):
        out[m.start(1) : m.end(1)] = b" " * (m.end(1) - m.start(1))
    return bytes(out)
