"""Parse source with tree-sitter and turn the language's tag query into a file outline.

A language's knowledge lives in `queries/<lang>.scm` beside this module (aider / GitHub tags
style): `@definition.<kind>` marks a definition node and `@name` its name, `@reference.call`,
`@reference.import` and `@reference.inherits` mark uses. Optional captures: `@body`
(when the grammar has no `body` field), `@doc` (a docstring inside the body),
`@receiver` (an owner type written outside the body, as Go's method receivers),
`@scope` (a qualifier written before the name that makes no method, as Lua's
`function M.f`) and `@local` (an import naming a file of the same project). When several
patterns capture the same node, the first pattern in the file wins, so specific patterns go
first.

A `@body` after the definition's node (Dart writes a signature, then its body beside it)
extends the definition to it. A pattern of its own may capture `@attribute`: nodes that
belong to the definition below them, as decorators do (Elixir's `@doc`, `@spec`), with an
optional `@doc` inside; the uses inside them are not references. A `@trailer` right below a
definition belongs to it (Haskell's `{-# INLINE f #-}`). A definition's own name
is never a reference. What a query's directive lines (`; clauses: merge`, ...) change is
said in `tagquery`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace

import tree_sitter

from strata.index.code import sketch
from strata.index.code.treesitter import recover
from strata.index.code.treesitter.grammars import language
from strata.index.code.treesitter.nodes import (
    ATTRIBUTE_TYPES,
    body_of,
    is_comment,
    opening,
    swallowed_doc,
    trailing_doc,
    unwrap,
    wrapped_decorators,
)
from strata.index.code.treesitter.outlines import METHOD_OWNERS, Definition, Outline, Reference
from strata.index.code.treesitter.tagquery import (
    blank_export_macros,
    blank_implements,
    directive,
    openers,
    query,
    script_of,
)

Captures = dict[str, list[tree_sitter.Node]]
_Match = tuple[str, tree_sitter.Node, Captures]
_IMPORT_WORD = re.compile(r"^(import|use|using)\s+")
_SPACE = re.compile(r"\s+")
_SIGNATURE_CHARS = 300
# The kinds whose name may be written inside its namespaces, and how those are joined.
_NAMESPACED = frozenset(["module", "class", "interface", "impl", "struct", "trait", "object"])
_NAMESPACE_SEPARATOR = re.compile(r"\.|::")
_PLAIN_NAME = re.compile(r"[A-Za-z_]\w*")
_SCOPE = re.compile(r"^(?:global|script|local|private):(?=[^:])", re.IGNORECASE)


def _unquoted(name: str) -> str:
    """A quoted name without its quotes (SQL's `"users"`, `` `users` ``, `[users]`), a
    PowerShell function's without its scope (`global:New-Order`)."""
    if len(name) > 2 and name[0] + name[-1] in ('""', "``", "[]"):
        return name[1:-1]
    return _SCOPE.sub("", name)


def _namespaced(name: str, kind: str) -> list[str]:
    """A module's or type's name written inside its namespaces (Elixir's `defmodule
    ExUnit.DocTest`, Ruby's `class Rack::Lint`) as the namespaces and the bare name: the
    module is `DocTest`, and its qname keeps `ExUnit.DocTest`. A function's dots stay in
    its name (R's `print.glue`)."""
    if kind not in _NAMESPACED:
        return [name]
    parts = _NAMESPACE_SEPARATOR.split(name)
    return parts if len(parts) > 1 and all(map(_PLAIN_NAME.fullmatch, parts)) else [name]


def outline(text: str, lang: str) -> Outline:
    """Definitions and references of one file, in source order.

    Args:
        text: the file's text.
        lang: a language name known to `strata.index.code.treesitter.grammars`.
    """
    if sketch.knows(lang):  # no grammar: its definitions' lines
        return sketch.outline(text, lang)
    src = text.encode("utf-8", "surrogatepass")
    language(lang)  # an unknown language: a clear error first
    if directive(lang, "embeds: script"):
        lang, src = script_of(src)
    parser = tree_sitter.Parser(language(lang))
    if directive(lang, "macros: export"):
        src = blank_export_macros(src)
    if directive(lang, "implements: blank"):
        src = blank_implements(src)
    return _parsed(src, lang, parser, (1, src.count(b"\n") + 1), 0)


def _parsed(
    src: bytes, lang: str, parser: tree_sitter.Parser, span: tuple[int, int], depth: int
) -> Outline:
    """The outline of the lines `span` of `src` as `lang`, with the definitions a parse
    error hid parsed again (strata.index.code.treesitter.recover) while `depth` allows."""
    tree = parser.parse(src)
    matches = tree_sitter.QueryCursor(query(lang)).matches(tree.root_node)
    defs: dict[int, tuple[int, _Match]] = {}
    refs: list[tuple[str, Captures]] = []
    builder = _Builder(src, loose_docs=directive(lang, "docs: across a blank line"))
    attributes: list[tree_sitter.Node] = []
    for pattern, caps in matches:
        if "attribute" in caps:
            builder.attributes[caps["attribute"][0].id] = caps.get("doc", [])
            attributes.append(caps["attribute"][0])
        if "trailer" in caps:
            builder.trailers.add(caps["trailer"][0].id)
        for cap in caps:
            role, _, kind = cap.partition(".")
            if role == "definition" and "name" in caps:
                node = caps[cap][0]
                if node.id not in defs or pattern < defs[node.id][0]:
                    defs[node.id] = (pattern, (kind, node, caps))
            elif role == "reference" and "name" in caps:
                refs.append((kind, caps))
    builder.attribute_spans = _Spans(attributes)
    chosen = sorted((m for _, m in defs.values()), key=_source_order)
    definitions = builder.definitions(chosen, merge=directive(lang, "clauses: merge"))
    names = {caps["name"][0].id for _, _, caps in chosen}
    references = [
        builder.reference(kind, caps)
        for kind, caps in refs
        if caps["name"][0].id not in names and not builder.in_attribute(caps["name"][0])
    ]
    references.sort(key=lambda r: r.line)
    if not tree.root_node.has_error or depth >= recover.MAX_DEPTH or not openers(lang):
        # a language opts in to recovery by its query's `; opens` lines
        return Outline(tuple(definitions), tuple(references), tree.root_node.has_error)
    opens = recover.openers([(kind, node) for kind, node, _ in chosen], openers(lang))
    nodes = [node for _, node, _ in chosen]
    lines = src.split(b"\n")
    # a body that ran on over the next definitions ends above them
    held = {node.id: recover.held(node, lines, opens) for node in nodes}
    ends = {builder.index[node_id]: end for node_id, end in held.items()}
    found = Outline(tuple(recover.cut(definitions, ends)), tuple(references), True)
    again = []
    for run in recover.error_runs(tree.root_node, nodes, lines, span, opens, held):
        first, last = run
        part = _parsed(
            b"\n".join(lines[first - 1 : last]), lang, parser, (1, last - first + 1), depth + 1
        )
        again.append((run, recover.opened(lines, run, recover.shifted(part, first - 1), opens)))
    return recover.merged(found, again)


class _Builder:
    """Turns captured nodes into values; holds the source bytes and the node->definition map."""

    def __init__(self, src: bytes, *, loose_docs: bool = False) -> None:
        self.src = src
        self.loose_docs = loose_docs  # a comment one blank line above is the doc too
        self.index: dict[int, int] = {}
        self.owners = _Spans([])
        self.attribute_spans = _Spans([])
        self.attributes: dict[int, list[tree_sitter.Node]] = {}  # node id -> its doc nodes
        self.trailers: set[int] = set()
        self.starts = [0] + [m.end() for m in re.finditer(b"\n", src)]
        self.first_text = [
            start + len(line) - len(line.lstrip())
            for start, line in zip(self.starts, src.split(b"\n"), strict=True)
        ]

    def text(self, node: tree_sitter.Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def definitions(self, ordered: list[_Match], *, merge: bool = False) -> list[Definition]:
        self.index = {}
        owners: list[tree_sitter.Node] = []
        for i, (_, node, caps) in enumerate(ordered):
            self.index[node.id] = i
            owners.append(node)
            if "body" in caps and caps["body"][0].start_byte >= node.end_byte:
                self.index[caps["body"][0].id] = i  # a body beside its signature
                owners.append(caps["body"][0])
        self.owners = _Spans(owners)
        out: list[Definition] = []
        for kind, node, caps in ordered:
            out.append(self.definition(kind, caps, node, out))
        if not merge:
            return out
        merged, remap = _merge_clauses(out)
        self.index = {key: remap[i] for key, i in self.index.items()}
        return merged

    def in_attribute(self, node: tree_sitter.Node) -> bool:
        """Whether `node` lies inside a captured `@attribute` (by byte range, as
        `enclosing`)."""
        return self.attribute_spans.around(node) is not None

    def definition(
        self,
        kind: str,
        caps: Captures,
        node: tree_sitter.Node,
        done: list[Definition],
    ) -> Definition:
        *outer_names, name = _namespaced(_unquoted(self.text(caps["name"][0])), kind)
        parent = self.enclosing(node)
        owner = done[parent] if parent is not None else None
        receiver = tuple(self.text(n) for n in caps.get("receiver", [])[:1])
        scope = tuple(self.text(n) for n in caps.get("scope", [])[:1])
        if owner is not None and owner.kind == "module":  # `ns { T Owner::f() }` in C++
            path = owner.path + receiver + (*outer_names, name)
        elif kind == "singleton":  # Ruby's `class << self`: the class's own
            path = owner.path if owner else ()
        else:
            path = (owner.path if owner else receiver or scope) + (*outer_names, name)
        if kind == "function" and (receiver or (owner and owner.kind in METHOD_OWNERS)):
            kind = "method"
        outer = unwrap(node)
        first, decorators = self.leading(opening(outer))
        body = caps["body"][0] if "body" in caps else body_of(node)
        last = body if body is not None and body.start_byte >= outer.end_byte else outer
        after = outer.next_named_sibling
        swallowed = swallowed_doc(outer, after) if after is not None else None
        if swallowed is not None and swallowed.prev_named_sibling is not None:
            last = swallowed.prev_named_sibling  # the next definition's doc is not this body
        below = last.next_named_sibling
        while below is not None and below.id in self.trailers:
            if below.start_point.row > last.end_point.row + 1:
                break
            last, below = below, below.next_named_sibling
        doc_nodes = caps.get("doc") or self.docs_between(first, opening(outer))
        end = last.end_point
        end_row = end.row - 1 if end.column == 0 and end.row > first.start_point.row else end.row
        return Definition(
            kind=kind,
            name=name,
            path=path,
            start_line=first.start_point.row + 1,
            end_line=end_row + 1,
            decl_line=node.start_point.row + 1,
            signature=self.signature(node, body),
            doc="\n".join(self.text(n) for n in doc_nodes),
            parent=parent,
            has_body=body is not None,
            starts_line=self.starts_line(first),
            ends_line=self.ends_line(last),
            decorators=decorators + tuple(self.text(n) for n in wrapped_decorators(node)),
        )

    def reference(self, kind: str, caps: Captures) -> Reference:
        node, name_node = caps[f"reference.{kind}"][0], caps["name"][0]
        written = self.src[node.start_byte : name_node.end_byte].decode("utf-8", "replace")
        name = self.text(name_node).strip("\"'<>`")
        if kind == "import":
            name = _IMPORT_WORD.sub("", _SPACE.sub(" ", name)).rstrip(";").strip()
        if kind != "call":
            written = name
        return Reference(
            kind=kind,
            name=name,
            written=_SPACE.sub(" ", written)[:_SIGNATURE_CHARS],
            line=node.start_point.row + 1,
            owner=self.enclosing(node),
            local="local" in caps,
        )

    def enclosing(self, node: tree_sitter.Node) -> int | None:
        """Index of the innermost definition around `node` (not `node` itself), found by
        byte ranges: walking up `parent` costs the tree's depth at every step, and a
        misread here-doc nests nodes thousands deep (minutes for one Perl file)."""
        owner = self.owners.around(node)
        return self.index[owner] if owner is not None else None

    def leading(self, node: tree_sitter.Node) -> tuple[tree_sitter.Node, tuple[str, ...]]:
        """The first of the comments and attributes glued above `node` (a captured
        `@attribute` across blank lines too), and the text of the attributes that hold no
        doc (decorators, Elixir's `@spec`; not `@doc`)."""
        first, attrs = node, []
        prev = node.prev_named_sibling or trailing_doc(node)
        if prev is not None and not is_comment(prev):
            prev = swallowed_doc(prev, node) or prev
        while prev is not None and self.starts_line(prev):
            captured = prev.id in self.attributes
            if not (captured or is_comment(prev) or prev.type in ATTRIBUTE_TYPES):
                break
            if not captured and prev.end_point.row < first.start_point.row - self._gap(prev, first):
                break
            if prev.type in ATTRIBUTE_TYPES or (captured and not self.attributes[prev.id]):
                attrs.append(self.text(prev))
            first, prev = prev, prev.prev_named_sibling
        return first, tuple(reversed(attrs))

    def _gap(self, comment: tree_sitter.Node, below: tree_sitter.Node) -> int:
        """How far above `below` a comment may end and still be glued to it: the next line,
        or one blank line more where the language's style puts one (`; docs: across a
        blank line`, C's) or the comment says it is a doc (`/** ... */`: JSDoc, Javadoc,
        Doxygen; express writes a blank line under each), for the comment right above a
        definition that is not the file's opening comment (a licence)."""
        if not is_comment(comment) or is_comment(below) or comment.start_point.row == 0:
            return 1
        return 2 if self.loose_docs or self.text(comment).startswith("/**") else 1

    def docs_between(
        self, first: tree_sitter.Node, outer: tree_sitter.Node
    ) -> list[tree_sitter.Node]:
        """The comments, and the docs of attributes, from `first` up to the definition."""
        out: list[tree_sitter.Node] = []
        node: tree_sitter.Node | None = first
        while node is not None and node.id != outer.id:
            if is_comment(node):
                out.append(node)
            out.extend(self.attributes.get(node.id, []))
            node = node.next_named_sibling
        return out

    def starts_line(self, node: tree_sitter.Node) -> bool:
        return node.start_byte <= self.first_text[node.start_point.row]

    def ends_line(self, node: tree_sitter.Node) -> bool:
        if node.end_point.column == 0:
            return True
        row = node.end_point.row
        stop = self.starts[row + 1] if row + 1 < len(self.starts) else len(self.src)
        rest = self.src[node.end_byte : min(stop, node.end_byte + 256)].strip(b" \t\r\n;,")
        return not rest or rest.startswith((b"//", b"#", b"/*"))

    def signature(self, node: tree_sitter.Node, body: tree_sitter.Node | None) -> str:
        end = body.start_byte if body is not None and body.start_byte > node.start_byte else None
        raw = self.src[node.start_byte : end if end is not None else node.end_byte]
        text = _SPACE.sub(" ", raw[: _SIGNATURE_CHARS * 4].decode("utf-8", "replace")).strip()
        return text.rstrip("{:= ").strip()[:_SIGNATURE_CHARS]


class _Spans:
    """The byte ranges of definition nodes (nested or apart, as a tree's are), each with
    the innermost one around it, to find what holds a node in a few steps."""

    def __init__(self, nodes: list[tree_sitter.Node]) -> None:
        nodes = sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte))
        self.starts = [n.start_byte for n in nodes]
        self.ends = [n.end_byte for n in nodes]
        self.ids = [n.id for n in nodes]
        self.up: list[int] = []
        open_: list[int] = []
        for i, n in enumerate(nodes):
            while open_ and self.ends[open_[-1]] < n.end_byte:
                open_.pop()
            self.up.append(open_[-1] if open_ else -1)
            open_.append(i)

    def around(self, node: tree_sitter.Node) -> int | None:
        """The id of the innermost node around `node` (not `node` itself)."""
        i = bisect.bisect_right(self.starts, node.start_byte) - 1
        while i >= 0 and (self.ends[i] < node.end_byte or self.ids[i] == node.id):
            i = self.up[i]
        return self.ids[i] if i >= 0 else None


def _source_order(match: _Match) -> tuple[int, int]:
    return match[1].start_byte, -match[1].end_byte


def _merge_clauses(defs: list[Definition]) -> tuple[list[Definition], list[int]]:
    """Consecutive definitions of one name, kind and parent as one; and for each old index,
    the new one."""
    kept: list[Definition] = []
    remap: list[int] = []
    last_child: dict[int | None, int] = {}
    for d in defs:
        parent = remap[d.parent] if d.parent is not None else None
        j = last_child.get(parent)
        if j is not None and (kept[j].name, kept[j].kind) == (d.name, d.kind):
            prev = kept[j]
            has_body = prev.has_body or d.has_body
            kept[j] = replace(prev, end_line=d.end_line, ends_line=d.ends_line, has_body=has_body)
            remap.append(j)
            continue
        kept.append(replace(d, parent=parent))
        remap.append(len(kept) - 1)
        last_child[parent] = len(kept) - 1
    return kept, remap
