"""What the tree-sitter entry-point detectors share: a parsed file, node text, handlers, entries.

Go, JavaScript/TypeScript, Rust and Java detectors find route registrations and commands
with the calls and annotations their tag-style queries
(`strata/index/code/treesitter/queries/entrypoints/`) capture, and hang them from `Owner`s
and `Mount`s as the Python detectors do, so that `compose_entrypoints` joins their prefixes
across files the same way.
"""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import tree_sitter

from strata.index.code.entrypoints.base import draft_entry
from strata.index.code.model import Entrypoint, Symbol
from strata.index.code.treesitter.grammars import language

HTTP_VERBS = frozenset({"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE"})
Node = tree_sitter.Node


# Languages whose grammar names these nodes as another's does: they share its query file.
QUERY_FILES = {"typescript": "javascript", "tsx": "javascript"}


@functools.cache
def entry_query(lang: str) -> tree_sitter.Query:
    """`strata/index/code/treesitter/queries/entrypoints/<lang>.scm` (or the file it
    shares, `QUERY_FILES`) compiled for `lang`."""
    package = importlib.resources.files("strata.index.code.treesitter")
    folder = package.joinpath("queries").joinpath("entrypoints")  # one name a call on 3.10
    name = QUERY_FILES.get(lang, lang)
    text = folder.joinpath(f"{name}.scm").read_text(encoding="utf-8")
    compiled: tree_sitter.Query = tree_sitter.Query(language(lang), text)
    return compiled


@dataclass(slots=True)
class ParsedFile:
    """One parsed file with its symbols, for the detectors of its language."""

    path: str
    lang: str
    src: bytes
    tree: tree_sitter.Tree
    symbols: list[Symbol]
    is_test: bool
    _by_name: dict[str, Symbol] = field(default_factory=dict)

    @classmethod
    def parse(
        cls, text: str, lang: str, path: str, symbols: list[Symbol], is_test: bool
    ) -> ParsedFile:
        src = text.encode("utf-8", "surrogatepass")
        tree = tree_sitter.Parser(language(lang)).parse(src)
        return cls(path, lang, src, tree, symbols, is_test)

    def text(self, node: Node | None) -> str:
        if node is None:
            return ""
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def matches(self, query_lang: str | None = None) -> Iterator[dict[str, list[Node]]]:
        """The captures of each match of this language's entry-point query, in source order."""
        cursor = tree_sitter.QueryCursor(entry_query(query_lang or self.lang))
        found = [caps for _, caps in cursor.matches(self.tree.root_node)]
        found.sort(key=lambda caps: min(n[0].start_byte for n in caps.values()))
        yield from found

    def method_call(self, caps: dict[str, list[Node]]) -> tuple[Node, Node, str, Node]:
        """(call, receiver, method name, arguments) of a `@call` match (`recv.method(args)`)."""
        return caps["call"][0], caps["recv"][0], self.text(caps["method"][0]), caps["args"][0]

    def symbol(self, name: str) -> Symbol | None:
        """The symbol a handler reference names: `name`, `Type.name` or its last part."""
        if not self._by_name:
            for s in self.symbols:
                self._by_name.setdefault(s.qname.rsplit(".", 1)[-1], s)
                parts = s.qname.split(".")
                if len(parts) >= 2:
                    self._by_name.setdefault(".".join(parts[-2:]), s)
        name = name.strip().lstrip("&*")
        return self._by_name.get(name) or self._by_name.get(name.rsplit(".", 1)[-1])

    def key(self, name: str) -> str:
        """An owner key: `<path>#<name>` (a function, a variable, a class of this file)."""
        return f"{self.path}#{name}"


def string_value(f: ParsedFile, node: Node | None) -> str | None:
    """The value of a string literal node (any quoting), else None."""
    if node is None:
        return None
    if node.type in (
        "interpreted_string_literal",
        "raw_string_literal",
        "string",
        "string_literal",
    ):
        raw = f.text(node)
        if raw[:1] in "\"'`" and raw[-1:] == raw[:1]:
            return raw[1:-1]
        return None
    if node.type == "template_string" and "${" not in f.text(node):
        return f.text(node)[1:-1]
    return None


def enclosing(node: Node, types: frozenset[str]) -> Node | None:
    """The nearest ancestor of one of `types`."""
    up = node.parent
    while up is not None and up.type not in types:
        up = up.parent
    return up


def entry(
    f: ParsedFile,
    *,
    framework: str,
    entry_type: str,
    kind: str,
    local: str,
    method: str | None,
    at: Node,
    handler: str = "",
    owner: str = "",
    node: str = "",
    summary: str = "",
    extra: dict[str, Any] | None = None,
) -> Entrypoint:
    """An entry before composition (as `base.make_entry`): `owner` is the key it hangs
    from (an HTTP route), `node` a command's own key; the handler resolves in this file."""
    sym = f.symbol(handler) if handler else None
    line = at.start_point.row + 1
    span = (sym.start_line, sym.end_line) if sym else (line, at.end_point.row + 1)
    payload = {
        "def_line": line,
        **({"owner": owner} if owner else {}),
        **({"node": node} if node else {}),
        **(extra or {}),
    }
    return draft_entry(
        (framework, entry_type, kind, local, method),
        (f.path, span, f.is_test),
        (sym.qname, sym.symbol_id) if sym else (handler, None),
        owner or node,
        (" ".join(f.text(at).split())[:300], summary or (sym.summary if sym else "")),
        payload,
    )


def route_entry(
    f: ParsedFile, framework: str, verb: str, local: str, at: Node, handler: str, owner: str
) -> Entrypoint:
    """An HTTP route registered at `at`, hanging from the owner key `owner`."""
    return entry(f, framework=framework, entry_type="http", kind="route", local=local,
                 method=verb, at=at, handler=handler, owner=owner)  # fmt: skip


def command_entry(
    f: ParsedFile,
    framework: str,
    name: str,
    at: Node,
    handler: str,
    key: str,
    summary: str,
    extra: dict[str, Any],
) -> Entrypoint:
    """A CLI command named `name` whose own key (what subcommands mount under) is `key`."""
    return entry(f, framework=framework, entry_type="cli", kind="command", local=name, method=None,
                 at=at, handler=handler, node=key, summary=summary, extra=extra)  # fmt: skip


def main_entry(f: ParsedFile, framework: str, local: str, at: Node) -> Entrypoint:
    """A program's `main` function (`local` names the program: its file or directory)."""
    return entry(f, framework=framework, entry_type="other", kind="main_func", local=local,
                 method=None, at=at, handler="main")  # fmt: skip
