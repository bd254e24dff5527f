"""Go entry points: net/http, chi and gin routes and `func main` (cobra commands: `cobra`).

Routes hang from the function that registers them (owner key `<dir>#<func>`: a Go
package is a directory); prefixes inside one function come from gin groups
(`v1 := r.Group("/v1")`) and chi `Route("/x", func(r chi.Router) {...})` callbacks;
across functions from `r.Mount("/admin", adminRouter())`, `r.Route("/x", articles)` and
calls that hand a router to a function (`routes.Register(v1)`), which become `Mount`s.
"""

from __future__ import annotations

from strata.index.code.entrypoints.base import FileEntrypoints, Mount, Owner
from strata.index.code.entrypoints.cobra import Commands
from strata.index.code.entrypoints.gofile import FUNCS, GoFile
from strata.index.code.entrypoints.parsed import (
    HTTP_VERBS,
    Node,
    ParsedFile,
    enclosing,
    main_entry,
    route_entry,
    string_value,
)

_CHI_VERBS = {v.capitalize(): v for v in HTTP_VERBS | {"CONNECT"}}
_GIN_VERBS = {v: v for v in HTTP_VERBS} | {"Any": "ANY"}
_VERBS = {"chi": _CHI_VERBS, "gin": _GIN_VERBS}
# gin's file routes and what each adds to its path (`Static("/assets", dir)` serves
# `/assets/*filepath`).
_GIN_STATIC = {
    "Static": "/*filepath",
    "StaticFS": "/*filepath",
    "StaticFile": "",
    "StaticFileFS": "",
}
_CTORS = {
    "chi.NewRouter": "chi",
    "chi.NewMux": "chi",
    "gin.Default": "gin",
    "gin.New": "gin",
    "http.NewServeMux": "net/http",
}


class _Routes(GoFile):
    """The routers of one Go file: variables bound to a router, and what they register."""

    def __init__(self, f: ParsedFile) -> None:
        super().__init__(f)
        self.vars: dict[tuple[str, str], tuple[str, str]] = {}  # (func, var) -> (framework, prefix)
        self.aliased: set[str] = set()

    def router(self, recv: Node, func: str) -> tuple[str, str] | None:
        """(framework, prefix) of a receiver: a known variable (through `.With(...)`)."""
        while recv.type == "call_expression":  # r.With(mw).Get(...), r.Group(...).GET(...)
            fn = recv.child_by_field_name("function")
            if fn is None or fn.type != "selector_expression":
                return None
            recv = fn.child_by_field_name("operand") or recv
            if recv.type != "call_expression":
                break
        name = self.f.text(recv)
        param = self.param_framework(recv, name)  # a callback's `r chi.Router` shadows
        if param:
            return param, self.callback_prefix(recv)
        if (func, name) in self.vars:
            return self.vars[(func, name)]
        return ("net/http", "") if name == "http" else None

    def param_framework(self, node: Node, name: str) -> str:
        """The framework of a parameter `name` typed `chi.Router`, `*gin.RouterGroup`, ..."""
        fn = enclosing(node, frozenset({"func_literal", *FUNCS}))
        while fn is not None:
            params = self.f.text(fn.child_by_field_name("parameters"))
            for part in params.strip("()").split(","):
                words = part.split()
                if len(words) == 2 and words[0] == name:
                    typ = words[1].lstrip("*")
                    if typ.startswith("chi."):
                        return "chi"
                    if typ.startswith("gin."):
                        return "gin"
                    if typ.startswith("http.ServeMux"):
                        return "net/http"
            fn = enclosing(fn, frozenset({"func_literal", *FUNCS}))
        return ""

    def callback_prefix(self, node: Node) -> str:
        """The prefixes of the chi `Route("/x", func(r chi.Router) {...})` calls around `node`."""
        parts: list[str] = []
        up = enclosing(node, frozenset({"func_literal"}))
        while up is not None:
            args = up.parent
            call = args.parent if args is not None and args.type == "argument_list" else None
            fn = call.child_by_field_name("function") if call is not None else None
            if (
                call is not None
                and fn is not None
                and fn.type == "selector_expression"
                and self.f.text(fn.child_by_field_name("field")) == "Route"
            ):
                first = args.named_children[0] if args is not None and args.named_children else None
                parts.insert(0, string_value(self.f, first) or "")
                recv = fn.child_by_field_name("operand")
                name = self.f.text(recv)
                if recv is not None and not self.param_framework(recv, name):
                    outer = self.vars.get((self.func_of(call), name))
                    parts.insert(0, outer[1] if outer else "")
                    break
            up = enclosing(up, frozenset({"func_literal"}))
        return "".join(p.rstrip("/") for p in parts)

    def call(self, call: Node, recv: Node, method: str, args: Node) -> None:
        func = self.func_of(call)
        ctor = _CTORS.get(f"{self.f.text(recv)}.{method}")
        if ctor:
            self.assign(call, func, ctor, "")
            return
        items = args.named_children
        found = self.router(recv, func) or _by_handler(self.f, items)
        if found is None:
            return
        framework, prefix = found
        texts = [string_value(self.f, a) for a in items]
        first = _join(prefix, texts[0]) if texts and texts[0] is not None else None
        verbs = _VERBS.get(framework, {})
        if method == "Group" and framework == "gin" and texts and texts[0] is not None:
            self.assign(call, func, "gin", _join(prefix or "/", texts[0]))  # the root's is "/"
        elif method in ("Mount", "Route") and framework == "chi" and len(items) == 2:
            if first is not None and items[1].type != "func_literal":
                self.mount(func, items[1], first, framework)
        elif method in verbs and len(items) >= 2 and first is not None:
            self.route(call, func, framework, verbs[method], first, items[-1])
        elif method in _GIN_STATIC and framework == "gin" and first is not None:
            for verb in ("GET", "HEAD"):  # gin serves files on both, with its own handler
                self.route(call, func, framework, verb, _join(first, _GIN_STATIC[method]), None)
        elif method in ("Method", "MethodFunc", "Handle") and len(items) == 3:
            verb, pattern = _verb(self.f, items[0]), texts[1]
            if pattern is not None:
                self.route(call, func, framework, verb, _join(prefix, pattern), items[-1])
        elif method in ("Handle", "HandleFunc") and len(items) == 2 and texts[0] is not None:
            verb, _, pattern = texts[0].partition(" ") if " " in texts[0] else ("ANY", "", texts[0])
            self.route(call, func, framework, verb.upper(), _join(prefix, pattern), items[-1])

    def assign(self, call: Node, func: str, framework: str, prefix: str) -> None:
        decl = call.parent.parent if call.parent is not None else None
        if decl is not None and decl.type in ("short_var_declaration", "assignment_statement"):
            left = decl.child_by_field_name("left")
            if left is not None and left.named_children:
                self.vars[(func, self.f.text(left.named_children[0]))] = (framework, prefix)
        elif decl is not None and decl.type == "var_spec":
            self.vars[(func, self.f.text(decl.child_by_field_name("name")))] = (framework, prefix)

    def route(
        self, call: Node, func: str, framework: str, verb: str, local: str, handler: Node | None
    ) -> None:
        owner = self.key(func)
        self.own(owner, framework)
        inline = handler is None or handler.type == "func_literal"
        name = "" if handler is None or inline else self.handler_name(handler)
        self.entries.append(route_entry(self.f, framework, verb, local or "/", call, name, owner))

    def own(self, key: str, framework: str) -> None:
        if key not in self.aliased:
            self.aliased.add(key)
            self.owners.append(Owner(key, framework, "router"))

    def mount(self, func: str, target: Node, segment: str, framework: str) -> None:
        child = self.callee_key(target)
        if child:
            self.mounts.append(
                Mount(self.key(func), child, framework, segment, target.start_point.row + 1)
            )

    def plain_call(self, call: Node, fn: str, args: Node) -> None:
        """`register(r)`: a function given a router registers its routes under it; inside
        a framework's own package its constructor is called unqualified (gin's `New()`)."""
        ctor = _CTORS.get(f"{self.package}.{fn}")
        if ctor:
            self.assign(call, self.func_of(call), ctor, "")
        else:
            self.handoff(call, args, self.key(fn))

    def handoff(self, call: Node, args: Node, child: str) -> None:
        func = self.func_of(call)
        for a in args.named_children:
            found = self.vars.get((func, self.f.text(a))) if a.type == "identifier" else None
            if found:
                self.mounts.append(
                    Mount(self.key(func), child, found[0], found[1], call.start_point.row + 1)
                )
                return


def detect(f: ParsedFile) -> FileEntrypoints:
    """Go entries, owners and mounts of one file: routes, cobra commands, `func main`."""
    routes = _Routes(f)
    commands = Commands(routes)
    for caps in f.matches("go"):
        if "call" in caps:
            call, recv, method, args = f.method_call(caps)
            if method == "AddCommand":
                commands.add(call, recv, args)
            else:
                routes.call(call, recv, method, args)
        elif "plaincall" in caps:
            routes.plain_call(caps["plaincall"][0], f.text(caps["fn"][0]), caps["args"][0])
        elif "command" in caps and ("pkg" in caps or routes.package == "cobra"):
            commands.command(caps["command"][0], caps["body"][0])
        elif "mainfunc" in caps and routes.package == "main":
            routes.entries.append(main_entry(f, "go", routes.dir, caps["mainfunc"][0]))
    return routes.found()


def _by_handler(f: ParsedFile, items: list[Node]) -> tuple[str, str] | None:
    """gin, for a receiver of unknown type given an inline `func(c *gin.Context)` handler
    (a documentation snippet's `r.GET("/test", func(c *gin.Context) {...})`)."""
    handler = items[-1] if items else None
    params = handler.child_by_field_name("parameters") if handler is not None else None
    if handler is None or handler.type != "func_literal" or params is None:
        return None
    return ("gin", "") if "*gin.Context" in f.text(params) else None


def _verb(f: ParsedFile, node: Node) -> str:
    """The HTTP method an argument names: `"GET"`, `http.MethodGet`; `ANY` for a variable."""
    text = string_value(f, node)
    if text is None and node.type == "selector_expression":
        field = f.text(node.child_by_field_name("field"))
        if f.text(node.child_by_field_name("operand")) == "http" and field.startswith("Method"):
            text = field.removeprefix("Method")
    return (text or "ANY").upper()


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    return prefix.rstrip("/") + "/" + path.lstrip("/") if path not in ("", "/") else prefix
