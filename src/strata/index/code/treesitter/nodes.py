"""What the node types of the grammars mean to a file outline: bodies, wrappers, comments."""

from __future__ import annotations

import tree_sitter

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
# Nodes that wrap a definition and belong to its text (decorators, `export`, templates,
# Julia's `@inline function`, each method of an Objective-C `@implementation`).
WRAPPER_TYPES = frozenset(
    [
        *("decorated_definition", "export_statement", "template_declaration"),
        *("ambient_declaration", "macrocall_expression", "macro_argument_list"),
        "implementation_definition",
    ]
)
# A command list that a definition may open: its comments are above the list (Bash).
OPENED_TYPES = frozenset(["list"])
# Siblings just above a definition that belong to it, besides comments.
ATTRIBUTE_TYPES = frozenset(["attribute_item", "decorator", "annotation"])
# Comment nodes whose type does not say so (Haskell's `-- |` doc comments, Groovy's `/** */`).
COMMENT_TYPES = frozenset(["haddock", "groovy_doc"])


def is_comment(node: tree_sitter.Node) -> bool:
    """Whether a node is a comment (any grammar)."""
    return "comment" in node.type or node.type in COMMENT_TYPES


def unwrap(node: tree_sitter.Node) -> tree_sitter.Node:
    """The outermost wrapper of a definition (its decorators, `export`), or the node."""
    while node.parent is not None and node.parent.type in WRAPPER_TYPES:
        node = node.parent
    return node


def opening(node: tree_sitter.Node) -> tree_sitter.Node:
    """The command list a definition opens (Bash's `_f() { ... } && complete -F _f f`),
    whose comments above are the definition's; else the node."""
    up = node.parent
    if up is not None and up.type in OPENED_TYPES and up.start_byte == node.start_byte:
        return up
    return node


def body_of(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """A definition's body: its `body` field, else its first child of a body type."""
    body = node.child_by_field_name("body")
    if body is not None:
        return body
    return next((c for c in node.named_children if c.type in BODY_TYPES), None)


def wrapped_decorators(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The attributes inside the wrappers around a definition, outermost first."""
    out: list[tree_sitter.Node] = []
    up = node.parent
    while up is not None and up.type in WRAPPER_TYPES:
        out[:0] = [c for c in up.named_children if c.type in ATTRIBUTE_TYPES]
        up = up.parent
    return out


def swallowed_doc(before: tree_sitter.Node, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """A doc comment that parsed into the end of the definition before `node` (Scala 3's
    indented body runs on over the next definition's `/** */`): the last descendant of
    `before`, a comment at `node`'s indentation, when it is one."""
    last = before
    while last.named_children:
        last = last.named_children[-1]
    if last is before or not is_comment(last):
        return None
    return last if last.start_point.column == node.start_point.column else None


def trailing_doc(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """A doc comment that parsed into the node before `node`'s parent (Haskell's first
    declaration: its `-- |` is the last child of the imports), or that is that node (Ruby's
    first member: `module M`, `# doc`, then a `body_statement` holding `class C`)."""
    before = node.parent.prev_named_sibling if node.parent is not None else None
    if before is not None and is_comment(before):
        return before
    last = before.named_children[-1] if before is not None and before.named_children else None
    return last if last is not None and last.type in COMMENT_TYPES else None
