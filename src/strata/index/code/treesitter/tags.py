"""Parse source with tree-sitter and turn the language's tag query into a file outline.

A language's knowledge lives in `queries/<lang>.scm` beside this module (aider / GitHub tags
style): `@definition.<kind>` marks a definition node and `@name` its name, `@reference.call`,
`@reference.import` and `@reference.inherits` mark uses. Optional captures: `@body`
(when the grammar has no `body` field), `@doc` (a docstring inside the body),
`@receiver` (an owner type written outside the body, as Go's method receivers) and
`@local` (an import naming a file of the same project). When several patterns capture
the same node, the first pattern in the file wins, so specific patterns go first.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from dataclasses import dataclass

import tree_sitter

from strata.index.code.treesitter.grammars import language

# Node types that hold a definition's members or statements, for grammars with no `body` field.
BODY_TYPES = frozenset(
    [
        "class_body",
        "enum_class_body",
        "function_body",
        "body_statement",
        "declaration_list",
        "field_declaration_list",
        "enum_body",
        "interface_body",
        "template_body",
        "protocol_body",
        "compound_statement",
        "block",
        "statement_block",
    ]
)
# Nodes that wrap a definition and belong to its text (decorators, `export`, templates).
WRAPPER_TYPES = frozenset(
    ["decorated_definition", "export_statement", "template_declaration", "ambient_declaration"]
)
# Siblings just above a definition that belong to it, besides comments.
ATTRIBUTE_TYPES = frozenset(["attribute_item", "decorator", "annotation"])
# Definition kinds whose functions are methods.
METHOD_OWNERS = frozenset(["class", "interface", "struct", "trait", "enum", "impl", "object"])
Captures = dict[str, list[tree_sitter.Node]]
_Match = tuple[str, tree_sitter.Node, Captures]
_INHERITS = re.compile(r"^; inherits: (\w+)\s*$", re.MULTILINE)
_IMPORT_WORD = re.compile(r"^(import|use|using)\s+")
_SPACE = re.compile(r"\s+")
_SIGNATURE_CHARS = 300


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


def parse(text: str, lang: str) -> tree_sitter.Tree:
    """Parse `text` as `lang` (UTF-8); raises the grammar's errors for unknown languages."""
    parser = tree_sitter.Parser(language(lang))
    return parser.parse(text.encode("utf-8", "surrogatepass"))


@functools.cache
def query(lang: str) -> tree_sitter.Query:
    """The compiled tag query of `strata/index/code/treesitter/queries/<lang>.scm`."""
    compiled: tree_sitter.Query = tree_sitter.Query(language(lang), query_source(lang))
    return compiled


def query_source(lang: str) -> str:
    """The text of `<lang>.scm`, after the queries it inherits (`; inherits: typescript`)."""
    folder = importlib.resources.files("strata.index.code.treesitter").joinpath("queries")
    text = folder.joinpath(f"{lang}.scm").read_text(encoding="utf-8")
    parents = _INHERITS.findall(text)
    return "\n".join([*(query_source(p.strip()) for p in parents), text])


def outline(text: str, lang: str) -> Outline:
    """Definitions and references of one file, in source order.

    Args:
        text: the file's text.
        lang: a language name known to `strata.index.code.treesitter.grammars`.
    """
    src = text.encode("utf-8", "surrogatepass")
    tree = tree_sitter.Parser(language(lang)).parse(src)
    matches = tree_sitter.QueryCursor(query(lang)).matches(tree.root_node)
    defs: dict[int, tuple[int, _Match]] = {}
    refs: list[tuple[str, Captures]] = []
    for pattern, caps in matches:
        for cap in caps:
            role, _, kind = cap.partition(".")
            if role == "definition" and "name" in caps:
                node = caps[cap][0]
                if node.id not in defs or pattern < defs[node.id][0]:
                    defs[node.id] = (pattern, (kind, node, caps))
            elif role == "reference" and "name" in caps:
                refs.append((kind, caps))
    builder = _Builder(src)
    definitions = builder.definitions(sorted((m for _, m in defs.values()), key=_source_order))
    references = [builder.reference(kind, caps) for kind, caps in refs]
    references.sort(key=lambda r: r.line)
    return Outline(tuple(definitions), tuple(references), tree.root_node.has_error)


class _Builder:
    """Turns captured nodes into values; holds the source bytes and the node->definition map."""

    def __init__(self, src: bytes) -> None:
        self.src = src
        self.index: dict[int, int] = {}
        self.starts = [0] + [m.end() for m in re.finditer(b"\n", src)]
        self.first_text = [
            start + len(line) - len(line.lstrip())
            for start, line in zip(self.starts, src.split(b"\n"), strict=True)
        ]

    def text(self, node: tree_sitter.Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def definitions(self, ordered: list[_Match]) -> list[Definition]:
        self.index = {node.id: i for i, (_, node, _) in enumerate(ordered)}
        out: list[Definition] = []
        for kind, node, caps in ordered:
            out.append(self.definition(kind, caps, node, out))
        return out

    def definition(
        self,
        kind: str,
        caps: Captures,
        node: tree_sitter.Node,
        done: list[Definition],
    ) -> Definition:
        name = self.text(caps["name"][0])
        parent = self.enclosing(node)
        owner = done[parent] if parent is not None else None
        receiver = tuple(self.text(n) for n in caps.get("receiver", [])[:1])
        path = (owner.path if owner else receiver) + (name,)
        if kind == "function" and (receiver or (owner and owner.kind in METHOD_OWNERS)):
            kind = "method"
        outer = _unwrap(node)
        first, decorators = self.leading(outer)
        body = caps["body"][0] if "body" in caps else _body(node)
        doc_nodes = caps.get("doc") or _comments_between(first, outer)
        end = outer.end_point
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
            ends_line=self.ends_line(outer),
            decorators=decorators + tuple(self.text(n) for n in _wrapped_decorators(node)),
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
        """Index of the innermost definition strictly containing `node` (walks up, no recursion)."""
        up = node.parent
        while up is not None:
            if up.id in self.index:
                return self.index[up.id]
            up = up.parent
        return None

    def leading(self, node: tree_sitter.Node) -> tuple[tree_sitter.Node, tuple[str, ...]]:
        """The first of the comments/attributes glued above `node`, and the attributes' text."""
        first, attrs = node, []
        prev = node.prev_named_sibling
        while (
            prev is not None
            and ("comment" in prev.type or prev.type in ATTRIBUTE_TYPES)
            and prev.end_point.row >= first.start_point.row - 1
            and self.starts_line(prev)
        ):
            if prev.type in ATTRIBUTE_TYPES:
                attrs.append(self.text(prev))
            first, prev = prev, prev.prev_named_sibling
        return first, tuple(reversed(attrs))

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


def _source_order(match: _Match) -> tuple[int, int]:
    return match[1].start_byte, -match[1].end_byte


def _unwrap(node: tree_sitter.Node) -> tree_sitter.Node:
    while node.parent is not None and node.parent.type in WRAPPER_TYPES:
        node = node.parent
    return node


def _body(node: tree_sitter.Node) -> tree_sitter.Node | None:
    body = node.child_by_field_name("body")
    if body is not None:
        return body
    return next((c for c in node.named_children if c.type in BODY_TYPES), None)


def _comments_between(first: tree_sitter.Node, outer: tree_sitter.Node) -> list[tree_sitter.Node]:
    out: list[tree_sitter.Node] = []
    node: tree_sitter.Node | None = first
    while node is not None and node.id != outer.id:
        if "comment" in node.type:
            out.append(node)
        node = node.next_named_sibling
    return out


def _wrapped_decorators(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    out: list[tree_sitter.Node] = []
    up = node.parent
    while up is not None and up.type in WRAPPER_TYPES:
        out[:0] = [c for c in up.named_children if c.type in ATTRIBUTE_TYPES]
        up = up.parent
    return out
