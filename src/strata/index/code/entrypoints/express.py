"""Express routes (JavaScript and TypeScript): `app.get(...)`, routers, `use` mounts, `route()`.

A router is a variable bound to `express()`, `express.Router()` or `Router()`; its key is
`<path>#<var>`. `app.use("/api", router)` mounts it; `app.use("/v1", require("./v1"))` or
an imported module mounts what that module exports (`module.exports = router`,
`export default router`), keyed `js:<module path without extension>`, so prefixes join
across files in `compose_entrypoints`.
"""

from __future__ import annotations

import posixpath

from strata.index.code.entrypoints.base import FileEntrypoints, Mount, Owner
from strata.index.code.entrypoints.parsed import Node, ParsedFile, route_entry, string_value
from strata.index.code.model import Entrypoint

FRAMEWORK = "express"
_VERBS = {v: v.upper() for v in ("get", "post", "put", "delete", "patch", "options", "head")}
_VERBS["all"] = "ANY"
_EXTENSIONS = (".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx")
_FUNCTIONS = frozenset({"function_expression", "arrow_function", "function"})


def module_key(path: str) -> str:
    """`js:<path without extension>` (`dir/index.js` is `dir`): what `require` names."""
    for ext in _EXTENSIONS:
        if path.endswith(ext):
            path = path[: -len(ext)]
            break
    if path.endswith("/index") or path == "index":
        path = path[: -len("index")].rstrip("/") or "."
    return f"js:{path}"


class _Scan:
    def __init__(self, f: ParsedFile) -> None:
        self.f = f
        self.routers: set[str] = set()
        self.modules: dict[str, str] = {}  # var -> the module key it was required/imported from
        self.entries: list[Entrypoint] = []
        self.mounts: list[Mount] = []
        self._bindings(f.tree.root_node)

    def key(self, var: str) -> str:
        return f"{self.f.path}#{var}"

    def _bindings(self, root: Node) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            stack.extend(node.named_children)
            if node.type == "variable_declarator":
                self._bind(node.child_by_field_name("name"), node.child_by_field_name("value"))
            elif node.type == "import_statement":
                self._import(node)

    def _bind(self, name: Node | None, value: Node | None) -> None:
        if name is None or value is None or name.type != "identifier":
            return
        var = self.f.text(name)
        while value.type == "assignment_expression":  # var app = module.exports = express()
            if _is_module_exports(self.f, value.child_by_field_name("left")):
                self.mounts.append(Mount(module_key(self.f.path), self.key(var), FRAMEWORK, ""))
            value = value.child_by_field_name("right") or value
            if value.type != "assignment_expression":
                break
        if value.type != "call_expression":
            return
        callee = self.f.text(value.child_by_field_name("function"))
        if callee in ("express", "Router") or callee.endswith(".Router"):
            self.routers.add(var)
        elif callee == "require":
            spec = _first_string(self.f, value)
            if spec and spec.startswith("."):
                self.modules[var] = self.resolve(spec)

    def _import(self, node: Node) -> None:
        source = string_value(self.f, node.child_by_field_name("source"))
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        default = clause.named_children[0] if clause is not None and clause.named_children else None
        if (
            source
            and source.startswith(".")
            and default is not None
            and default.type == "identifier"
        ):
            self.modules[self.f.text(default)] = self.resolve(source)

    def resolve(self, spec: str) -> str:
        return module_key(posixpath.normpath(posixpath.join(posixpath.dirname(self.f.path), spec)))

    def run(self) -> FileEntrypoints:
        for caps in self.f.matches():
            if "call" in caps:
                self.call(*self.f.method_call(caps))
            elif "export" in caps:
                var = self.f.text(caps["exported"][0])
                if var in self.routers:
                    self.mounts.append(Mount(module_key(self.f.path), self.key(var), FRAMEWORK, ""))
        owners = tuple(Owner(self.key(v), FRAMEWORK, "router") for v in sorted(self.routers))
        return FileEntrypoints(self.f.path, tuple(self.entries), owners, tuple(self.mounts))

    def call(self, call: Node, recv: Node, method: str, args: Node) -> None:
        base, chained = self.base(recv)
        if base is None:
            return
        items = args.named_children
        path = string_value(self.f, items[0]) if items else None
        if method == "use":
            target = (
                items[1] if path is not None and len(items) > 1 else items[0] if items else None
            )
            child = self.child_key(target)
            if child:
                line = call.start_point.row + 1
                self.mounts.append(Mount(self.key(base), child, FRAMEWORK, path or "", line))
            return
        if method not in _VERBS:
            return
        if chained is None and (path is None or len(items) < 2):
            return  # `app.get('port')` reads a setting
        local = chained if chained is not None else path or "/"
        handler = items[-1] if items else None
        name = "" if handler is None or handler.type in _FUNCTIONS else self.f.text(handler)
        verb = _VERBS[method]
        self.entries.append(route_entry(self.f, FRAMEWORK, verb, local, call, name, self.key(base)))

    def base(self, recv: Node) -> tuple[str | None, str | None]:
        """(router variable, path of a `route('/x')` chain) under a call's receiver."""
        chained = None
        while recv.type == "call_expression":  # app.route('/book').get(a).post(b)
            fn = recv.child_by_field_name("function")
            if fn is None or fn.type != "member_expression":
                return None, None
            if self.f.text(fn.child_by_field_name("property")) == "route":
                chained = _first_string(self.f, recv)
            recv = fn.child_by_field_name("object") or recv
        name = self.f.text(recv)
        return (
            (name, chained) if recv.type == "identifier" and name in self.routers else (None, None)
        )

    def child_key(self, target: Node | None) -> str:
        if target is None:
            return ""
        name = self.f.text(target)
        if target.type == "identifier" and name in self.routers:
            return self.key(name)
        if target.type == "identifier" and name in self.modules:
            return self.modules[name]
        if (
            target.type == "call_expression"
            and self.f.text(target.child_by_field_name("function")) == "require"
        ):
            spec = _first_string(self.f, target)
            return self.resolve(spec) if spec and spec.startswith(".") else ""
        return ""


def detect(f: ParsedFile) -> FileEntrypoints:
    """Express entries, routers and mounts of one JavaScript/TypeScript file."""
    return _Scan(f).run()


def _first_string(f: ParsedFile, call: Node) -> str | None:
    args = call.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    return string_value(f, first)


def _is_module_exports(f: ParsedFile, node: Node | None) -> bool:
    return node is not None and f.text(node) == "module.exports"
