"""Elixir and Bash sets (`elixirbash`): the `doc-`, `nl-` and `def-<lang>` sets that `langsets`
draws for the other languages, from one pinned real package each. With them the quality
benchmark covers every language of semble's benchmark (its 19, and Solidity).

The definitions come from a walk of the grammar's nodes written here, not from Strata's tag
queries (which are what is measured):

- Elixir (the standard distribution's `logger`, `ex_unit`, `eex` and `iex` applications):
  `def`, `defp`, `defmacro`, `defmacrop`, `defguard` and `defmodule`; consecutive clauses
  of one function are one definition. Its doc is the `@doc` (a module's: `@moduledoc`)
  string, written apart from the definition as Elixir does: the attribute, not a comment,
  is what is blanked; `@doc false` documents nothing.
- Bash (bash-completion's `bash_completion` and its `completions/`, files without a
  suffix, as shell scripts are): function definitions anywhere in a file; the run of `#`
  lines directly above (a shebang, a modeline or a `shellcheck` directive is not prose;
  a `@param`-style tag line ends it). `_name` is every completion function there, so
  only `__name` counts as private (not asked for by name).

Everything else (the fixed seed, blanking, sentence rules, sampling) is `langsets.draw`.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import tree_sitter as ts

from benchmarks.quality import morelangs
from benchmarks.quality.langsets import Definition
from benchmarks.quality.model import Corpus
from benchmarks.quality.morelangs import Package
from benchmarks.sdists import fetch_deb_source

_DEFINES = frozenset({"def", "defp", "defmacro", "defmacrop", "defguard", "defguardp"})
_NAME = re.compile(r"[A-Za-z_]\w*[?!]?")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_BASH_DOC = re.compile(r"^#(?![!#])(?!\s*(?:shellcheck|-\*-|ex:|vim?:))")
_DIRECTIVE = re.compile(r"^shellcheck\s")
_BASH_ENDS = re.compile(r"^(?:@|Example|Usage|See:|NOTE:)")


@dataclass(frozen=True, slots=True)
class Spec:
    """One language's name (Strata's and the bundled grammar's) and its files' suffixes."""

    lang: str
    suffixes: tuple[str, ...]


ELIXIR = Spec("elixir", (".ex",))
BASH = Spec("bash", ("",))

PACKAGES = (
    Package(
        ELIXIR,
        "stdlib",
        lambda: fetch_deb_source("elixir-lang", "1.14.0.dfsg-2"),
        tuple(f"elixir-1.14.0/lib/{app}/lib" for app in ("logger", "ex_unit", "eex", "iex")),
    ),
    Package(
        BASH,
        "completion",
        lambda: fetch_deb_source("bash-completion", "1:2.11-6"),
        ("bash-completion-2.11/bash_completion", "bash-completion-2.11/completions"),
        private="__",  # `_name` is every completion function; `__name` its helpers'
    ),
)


def build(pkg: Package, per_package: int, names_per_package: int, seed: int) -> Corpus:
    """Fetch `pkg`, walk its definitions, and draw its sets as `langsets.draw` does."""
    return morelangs.build(pkg, per_package, names_per_package, seed, walk=definitions)


def definitions(spec: Spec, root: Path, rel: str) -> list[Definition]:
    """Every named definition of one file, each with its doc when it has one."""
    from semble_grammars import get_language

    source = (root / rel).read_bytes()
    tree = ts.Parser(get_language(spec.lang)).parse(source)
    walk = _elixir if spec.lang == "elixir" else _bash
    return sorted(walk(tree.root_node, rel), key=lambda d: d.start)


def _text(node: ts.Node | None) -> str:
    return (node.text or b"").decode("utf-8", "replace") if node is not None else ""


def _first(node: ts.Node) -> int:
    return node.start_point.row + 1


def _last(node: ts.Node) -> int:
    end = node.end_point
    return end.row if end.column == 0 and end.row > node.start_point.row else end.row + 1


# ---- Elixir ---------------------------------------------------------------------------------


def _elixir(node: ts.Node, rel: str) -> Iterator[Definition]:
    """The definitions in `node`'s statements (a file, a module's `do` block), clauses of one
    function merged, each with the `@doc` above it (a module's with its `@moduledoc`)."""
    doc: ts.Node | None = None
    last: Definition | None = None
    for kid in node.named_children:
        attribute = _attribute(kid)
        if attribute == "doc":  # `@doc since: "1.11"` after the text keeps the text
            doc = kid if doc is None or _prose(kid) else doc
            continue
        if attribute:  # @spec, @impl, @deprecated ... stand between a doc and its function
            continue
        kind, name = _defined(kid)
        if kind == "defmodule":
            if last is not None:
                yield last
                last = None
            yield from _module(kid, name, rel)
        elif name and last is not None and last.name == name and doc is None:
            last = replace(last, end=_last(kid))  # another clause
        elif name:
            if last is not None:
                yield last
            span = (_first(doc), _last(doc)) if doc is not None and _prose(doc) else None
            last = Definition(rel, name, _first(kid), _last(kid), span, _prose(doc))
        elif last is not None:
            yield last
            last = None
        doc = None
    if last is not None:
        yield last


def _module(node: ts.Node, name: str, rel: str) -> Iterator[Definition]:
    body = next((c for c in node.named_children if c.type == "do_block"), None)
    moduledoc = (
        next((c for c in body.named_children if _attribute(c) == "moduledoc"), None)
        if body is not None
        else None
    )
    if name:
        span = (_first(moduledoc), _last(moduledoc)) if moduledoc and _prose(moduledoc) else None
        yield Definition(rel, name, _first(node), _last(node), span, _prose(moduledoc))
    if body is not None:
        yield from _elixir(body, rel)


def _attribute(node: ts.Node) -> str:
    """`doc` for `@doc ...`, the attribute's name for any other, "" for a non-attribute."""
    if node.type != "unary_operator" or not _text(node).startswith("@"):
        return ""
    call = node.named_children[0] if node.named_children else None
    if call is None:
        return ""
    target = call.child_by_field_name("target") if call.type == "call" else call
    return _text(target) or "?"


def _defined(node: ts.Node) -> tuple[str, str]:
    """(`def`-like keyword, the name it defines) of a call; ("", "") for anything else."""
    if node.type != "call":
        return "", ""
    keyword = _text(node.child_by_field_name("target"))
    args = next((c for c in node.named_children if c.type == "arguments"), None)
    head = args.named_children[0] if args is not None and args.named_children else None
    if keyword == "defmodule":
        return keyword, _text(head).rsplit(".", 1)[-1] if head is not None else ""
    if keyword not in _DEFINES or head is None:
        return "", ""
    if head.type == "binary_operator" and _text(head.child_by_field_name("operator")) == "when":
        head = head.child_by_field_name("left")
    if head is not None and head.type == "call":
        head = head.child_by_field_name("target")
    name = _text(head) if head is not None and head.type == "identifier" else ""
    return keyword, name if _NAME.fullmatch(name) else ""


def _prose(attribute: ts.Node | None) -> str:
    """An `@doc`/`@moduledoc` string's text (a heredoc dedented, a sigil's letters and the
    quotes off, Markdown links unwrapped); "" for `@doc false` and anything not a string."""
    if attribute is None:
        return ""
    call = attribute.named_children[0]
    args = next((c for c in call.named_children if c.type == "arguments"), None)
    value = args.named_children[0] if args is not None and args.named_children else None
    if value is None or value.type not in ("string", "sigil"):
        return ""
    text = re.sub(r'^~[A-Za-z]|"""|"|\'\'\'', "", _text(value))
    text = textwrap.dedent(text.strip("\n")).strip()
    return _LINK.sub(r"\1", text)


# ---- Bash -----------------------------------------------------------------------------------


def _bash(root: ts.Node, rel: str) -> Iterator[Definition]:
    comments: dict[int, ts.Node] = {}  # by last line
    functions: list[ts.Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        for kid in node.named_children:
            if kid.type == "comment":
                comments[_last(kid)] = kid
            elif kid.type == "function_definition":
                functions.append(kid)
        stack.extend(reversed(node.named_children))
    for fn in functions:
        name = _text(fn.child_by_field_name("name"))
        if not name:
            continue
        doc = _comment_above(fn, comments)
        span = (_first(doc[0]), _last(doc[-1])) if doc else None
        yield Definition(rel, name, _first(fn), _last(fn), span, _bash_prose(doc))


def _comment_above(node: ts.Node, comments: dict[int, ts.Node]) -> list[ts.Node]:
    """The `#` lines directly above `node`, indented as it is, from the first that opens
    prose down."""
    found: list[ts.Node] = []
    line = _first(node)
    column = node.start_point.column
    while (comment := comments.get(line - 1)) is not None and comment.start_point.column == column:
        found.insert(0, comment)
        line = _first(comment)
    while found and not _BASH_DOC.match(_text(found[0])):
        found.pop(0)
    return found


def _bash_prose(comment: list[ts.Node]) -> str:
    out: list[str] = []
    for node in comment:
        text = re.sub(r"^#+\s?", "", _text(node)).strip()
        if _BASH_ENDS.match(text):
            break
        if not _DIRECTIVE.match(text):
            out.append(text)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
