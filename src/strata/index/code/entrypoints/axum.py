"""axum routes (Rust): `Router::new().route("/p", get(h).post(h2))`, `route_service` (any
method), `nest`, `merge`, `fn main`.

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
_ROUTER_METHODS = frozenset({"route", "route_service", "nest", "merge"})
_FN = frozenset({"function_item"})


class _Scan:
    def __init__(self, f: ParsedFile) -> None:
        self.f = f
        self.entries: list[Entrypoint] = []
        self.owners: dict[str, Owner] = {}
        self.mounts: list[Mount] = []
        self.helpers: dict[str, tuple[int, int]] = {}  # fn name: (path param, router param)

    def fn_of(self, node: Node) -> tuple[str, Node | None]:
        fn = parsed.enclosing(node, _FN)
        return (self.f.text(fn.child_by_field_name("name")) if fn is not None else ""), fn

    def run(self) -> FileEntrypoints:
        found = list(self.f.matches())
        for caps in found:  # helpers first: `fn route(path, method_router)` may come last
            if "call" in caps and self.f.text(caps["method"][0]) == "route":
                self.helper(caps["call"][0], caps["args"][0])
        for caps in found:
            if "call" in caps:
                method = self.f.text(caps["method"][0])
                if method in _ROUTER_METHODS:
                    self.call(caps["call"][0], method, caps["args"][0])
            elif "helpercall" in caps:
                self.helper_call(caps)
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
        items = _arguments(args)
        path = parsed.string_value(self.f, items[0]) if items else None
        key = self.owner(call)
        if method == "route_service" and path is not None and len(items) == 2:
            name = self.handler_name(items[1])  # a service answers every method
            self.entries.append(parsed.route_entry(self.f, FRAMEWORK, "ANY", path, call, name, key))
        elif method == "route" and path is not None and len(items) == 2:
            for verb, handler in self.verbs(items[1]):
                name = self.handler_name(handler)
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

    def helper(self, call: Node, args: Node) -> None:
        """A function of this file that routes its parameters: `fn route(path: &str,
        method_router: MethodRouter) -> Router { Router::new().route(path, method_router) }`."""
        items = _arguments(args)
        fn, fn_node = self.fn_of(call)
        params = fn_node.child_by_field_name("parameters") if fn_node is not None else None
        if len(items) != 2 or params is None:
            return
        names = [
            self.f.text(p.child_by_field_name("pattern"))
            for p in params.named_children
            if p.type == "parameter"
        ]
        given = [self.f.text(item) for item in items]
        if all(item.type == "identifier" for item in items) and all(g in names for g in given):
            self.helpers[fn] = (names.index(given[0]), names.index(given[1]))

    def helper_call(self, caps: dict[str, list[Node]]) -> None:
        """`route("/foo", get(h))`: a route of the router the calling function builds."""
        where = self.helpers.get(self.f.text(caps["helper"][0]))
        items = _arguments(caps["helperargs"][0])
        if where is None or max(where) >= len(items):
            return
        path = parsed.string_value(self.f, items[where[0]])
        if path is None:
            return
        call = caps["helpercall"][0]
        key = f"rust#{self.fn_of(call)[0]}"
        self.owners.setdefault(key, Owner(key, FRAMEWORK, "router"))
        for verb, handler in self.verbs(items[where[1]]):
            name = self.handler_name(handler)
            self.entries.append(parsed.route_entry(self.f, FRAMEWORK, verb, path, call, name, key))

    def handler_name(self, node: Node | None) -> str:
        """A handler's name: `h`, `module::h`, `h::<T>` (its name), `h.layer(..)` (the
        handler a layer wraps); "" for a closure or a service built in place."""
        while node is not None and node.type in ("call_expression", "generic_function"):
            fn = node.child_by_field_name("function")
            if node.type == "call_expression":  # only a method called on a handler
                fn = (
                    fn.child_by_field_name("value")
                    if fn and fn.type == "field_expression"
                    else None
                )
            node = fn
        if node is None or node.type not in ("identifier", "scoped_identifier"):
            return ""
        return self.f.text(node)

    def verbs(self, node: Node) -> list[tuple[str, Node | None]]:
        """(verb, handler) of a method router: `get(h)`, `routing::get(h).post(h2)`,
        `get(h).post_service(s)`."""
        if node.type != "call_expression":
            return []
        fn = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        named = _arguments(args) if args is not None else []
        handler = named[0] if named else None
        if fn is None:
            return []
        if fn.type == "field_expression":
            inner = fn.child_by_field_name("value")
            verb = self.f.text(fn.child_by_field_name("field")).removesuffix("_service")
            before = self.verbs(inner) if inner is not None else []
            return before + ([(_VERBS[verb], handler)] if verb in _VERBS else [])
        verb = self.f.text(fn).rsplit("::", 1)[-1].removesuffix("_service")
        return [(_VERBS[verb], handler)] if verb in _VERBS else []


def _arguments(args: Node) -> list[Node]:
    """The arguments of a call, comments between them left out."""
    return [n for n in args.named_children if not n.type.endswith("comment")]


def detect(f: ParsedFile) -> FileEntrypoints:
    """axum entries, routers and mounts of one Rust file."""
    return _Scan(f).run()
