"""axum routes (Rust): `Router::new().route("/p", get(h).post(h2))`, `nest`, `merge`, `fn main`.

A router chain belongs to the function that builds it (key `rust#<fn>`), or to the `let`
variable it is bound to (`rust#<fn>.<var>`); `.nest("/api", api_routes())` and
`.nest("/api", api)` are mounts, so prefixes join across functions and files (a function
is named by its last path segment: `routes::api()` is `rust#api`).
"""

from __future__ import annotations

from strata.index.code.entrypoints import parsed
from strata.index.code.entrypoints.base import FileEntrypoints, Mount, Owner
from strata.index.code.entrypoints.parsed import Node, ParsedFile
from strata.index.code.model import Entrypoint

FRAMEWORK = "axum"
_VERBS = {
    v: v.upper() for v in ("get", "post", "put", "delete", "patch", "head", "options", "trace")
}
_VERBS["any"] = "ANY"
_ROUTER_METHODS = frozenset({"route", "nest", "merge"})
_FN = frozenset({"function_item"})


class _Scan:
    def __init__(self, f: ParsedFile) -> None:
        self.f = f
        self.entries: list[Entrypoint] = []
        self.owners: dict[str, Owner] = {}
        self.mounts: list[Mount] = []

    def fn_of(self, node: Node) -> tuple[str, Node | None]:
        fn = parsed.enclosing(node, _FN)
        return (self.f.text(fn.child_by_field_name("name")) if fn is not None else ""), fn

    def run(self) -> FileEntrypoints:
        for caps in self.f.matches():
            if "call" in caps:
                method = self.f.text(caps["method"][0])
                if method in _ROUTER_METHODS:
                    self.call(caps["call"][0], method, caps["args"][0])
            elif "mainfunc" in caps:
                self.entries.append(
                    parsed.main_entry(self.f, "rust", self.f.path, caps["mainfunc"][0])
                )
        return FileEntrypoints(
            self.f.path, tuple(self.entries), tuple(self.owners.values()), tuple(self.mounts)
        )

    def owner(self, call: Node) -> str:
        fn, fn_node = self.fn_of(call)
        base, top = call, call
        while base.type in ("call_expression", "field_expression"):
            inner = (
                base.child_by_field_name("function")
                if base.type == "call_expression"
                else base.child_by_field_name("value")
            )
            if inner is None:
                break
            base = inner
        while top.parent is not None and top.parent.type in ("field_expression", "call_expression"):
            top = top.parent
        if base.type == "identifier" and self.f.text(base) != "Router":
            key = f"rust#{fn}.{self.f.text(base)}"
        elif top.parent is not None and top.parent.type == "let_declaration":
            var = self.f.text(top.parent.child_by_field_name("pattern"))
            key = f"rust#{fn}.{var}"
            if fn_node is not None and self.returns(fn_node, var):
                self.mounts.append(Mount(f"rust#{fn}", key, FRAMEWORK, ""))
        else:
            key = f"rust#{fn}"
        self.owners.setdefault(key, Owner(key, FRAMEWORK, "router"))
        return key

    def returns(self, fn: Node, var: str) -> bool:
        body = fn.child_by_field_name("body")
        last = body.named_children[-1] if body is not None and body.named_children else None
        return last is not None and self.f.text(last).removeprefix("return").strip(" ;") == var

    def call(self, call: Node, method: str, args: Node) -> None:
        items = args.named_children
        path = parsed.string_value(self.f, items[0]) if items else None
        key = self.owner(call)
        if method == "route" and path is not None and len(items) == 2:
            for verb, handler in self.verbs(items[1]):
                name = (
                    self.f.text(handler)
                    if handler is not None and handler.type != "closure_expression"
                    else ""
                )
                self.entries.append(
                    parsed.route_entry(self.f, FRAMEWORK, verb, path, call, name, key)
                )
        elif method in ("nest", "merge") and items:
            target = items[-1]
            child = self.child_key(call, target)
            segment = path if method == "nest" and path is not None else ""
            if child:
                self.mounts.append(Mount(key, child, FRAMEWORK, segment, call.start_point.row + 1))

    def child_key(self, call: Node, target: Node) -> str:
        fn, _ = self.fn_of(call)
        if target.type == "identifier":
            return f"rust#{fn}.{self.f.text(target)}"
        if target.type == "call_expression":
            callee = self.f.text(target.child_by_field_name("function"))
            if "." not in callee:
                return f"rust#{callee.rsplit('::', 1)[-1]}"
        return ""

    def verbs(self, node: Node) -> list[tuple[str, Node | None]]:
        """(verb, handler) of a method router: `get(h)`, `routing::get(h).post(h2)`."""
        if node.type != "call_expression":
            return []
        fn = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        handler = args.named_children[0] if args is not None and args.named_children else None
        if fn is None:
            return []
        if fn.type == "field_expression":
            inner = fn.child_by_field_name("value")
            verb = self.f.text(fn.child_by_field_name("field"))
            before = self.verbs(inner) if inner is not None else []
            return before + ([(_VERBS[verb], handler)] if verb in _VERBS else [])
        verb = self.f.text(fn).rsplit("::", 1)[-1]
        return [(_VERBS[verb], handler)] if verb in _VERBS else []


def detect(f: ParsedFile) -> FileEntrypoints:
    """axum entries, routers and mounts of one Rust file."""
    return _Scan(f).run()
