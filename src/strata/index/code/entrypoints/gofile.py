"""What the Go detectors (routes in `golang`, commands in `cobra`) share: one file's
findings and how Go names a function, a method and what a call hands over.

An owner key is `pkg:<package>#<func>` (what `package.Func` names from elsewhere); a
`main` package is one program per directory, so `<dir>#<func>` there.
"""

from __future__ import annotations

import posixpath

from strata.index.code.entrypoints.base import FileEntrypoints, Mount, Owner
from strata.index.code.entrypoints.parsed import Node, ParsedFile, enclosing
from strata.index.code.model import Entrypoint

FUNCS = frozenset({"function_declaration", "method_declaration"})


class GoFile:
    """One parsed Go file and the entries, owners and mounts found in it so far."""

    def __init__(self, f: ParsedFile) -> None:
        self.f = f
        self.dir = posixpath.dirname(f.path) or "."
        self.package = _package(f)
        self.entries: list[Entrypoint] = []
        self.owners: list[Owner] = []
        self.mounts: list[Mount] = []

    def found(self) -> FileEntrypoints:
        """What the file gave, for `compose_entrypoints`."""
        return FileEntrypoints(
            self.f.path, tuple(self.entries), tuple(self.owners), tuple(self.mounts)
        )

    def key(self, func: str, package: str | None = None) -> str:
        """The owner key of function `func` of `package` (this file's by default)."""
        package = self.package if package is None else package
        return f"pkg:{package}#{func}" if package != "main" else f"{self.dir}#{func}"

    def func_of(self, node: Node) -> str:
        """The enclosing function's name; a method's is `Type.Method`."""
        fn = enclosing(node, FUNCS)
        name = fn.child_by_field_name("name") if fn is not None else None
        if fn is None or name is None:
            return ""
        receiver = fn.child_by_field_name("receiver") if fn.type == "method_declaration" else None
        words = self.f.text(receiver).strip("()").replace("*", " ").split()
        return f"{words[-1]}.{self.f.text(name)}" if words else self.f.text(name)

    def callee_key(self, target: Node) -> str:
        """The key of what a mount names: `adminRouter()`, `routes.Admin()`, `articles`."""
        node = (
            target.child_by_field_name("function") if target.type == "call_expression" else target
        )
        if node is None:
            return ""
        if node.type == "identifier":
            return self.key(self.f.text(node))
        if node.type == "selector_expression":
            operand, field = node.child_by_field_name("operand"), node.child_by_field_name("field")
            name = self.f.text(field)
            if operand is not None and operand.type == "composite_literal":  # T{}.Routes()
                return self.key(f"{self.f.text(operand.child_by_field_name('type'))}.{name}")
            if operand is not None and operand.type == "identifier":
                return self.key(name, self.f.text(operand))  # routes.Admin()
        return ""

    def handler_name(self, node: Node) -> str:
        """`listArticles`, `h.List`, `http.HandlerFunc(index)`, `apiHandler{}` -> the
        handler's name (a value of a handler type is named by its type)."""
        if node.type == "unary_expression" and node.named_children:  # &apiHandler{}
            return self.handler_name(node.named_children[0])
        if node.type == "composite_literal":
            return self.f.text(node.child_by_field_name("type"))
        if node.type == "call_expression":  # http.HandlerFunc(x), handler(deps)
            args = node.child_by_field_name("arguments")
            inner = args.named_children if args is not None else []
            if len(inner) == 1 and inner[0].type in ("identifier", "selector_expression"):
                return self.handler_name(inner[0])
            return self.f.text(node.child_by_field_name("function"))
        return self.f.text(node)


def _package(f: ParsedFile) -> str:
    for child in f.tree.root_node.named_children:
        if child.type == "package_clause":
            return f.text(child).split()[-1]
    return ""
