"""Go entry points: net/http, chi and gin routes, cobra commands, `func main`.

Routes hang from the function that registers them (owner key `<dir>#<func>`: a Go
package is a directory); prefixes inside one function come from gin groups
(`v1 := r.Group("/v1")`) and chi `Route("/x", func(r chi.Router) {...})` callbacks;
across functions from `r.Mount("/admin", adminRouter())`, `r.Route("/x", articles)` and
calls that hand a router to a function (`routes.Register(v1)`), which become `Mount`s.
Cobra commands are `&cobra.Command{Use: ...}` values joined by `AddCommand`.
"""

from __future__ import annotations

import posixpath

from strata.index.code.entrypoints.base import FileEntrypoints, Mount, Owner
from strata.index.code.entrypoints.parsed import (
    HTTP_VERBS,
    Node,
    ParsedFile,
    enclosing,
    entry,
    string_value,
)
from strata.index.code.model import Entrypoint

_FUNCS = frozenset({"function_declaration", "method_declaration"})
_CHI_VERBS = {v.capitalize(): v for v in HTTP_VERBS | {"CONNECT"}}
_GIN_VERBS = {v: v for v in HTTP_VERBS} | {"Any": "ANY"}
_CTORS = {
    "chi.NewRouter": "chi",
    "chi.NewMux": "chi",
    "gin.Default": "gin",
    "gin.New": "gin",
    "http.NewServeMux": "net/http",
}


class _Scan:
    def __init__(self, f: ParsedFile) -> None:
        self.f = f
        self.dir = posixpath.dirname(f.path) or "."
        self.package = _package(f)
        self.entries: list[Entrypoint] = []
        self.owners: list[Owner] = []
        self.mounts: list[Mount] = []
        self.vars: dict[tuple[str, str], tuple[str, str]] = {}  # (func, var) -> (framework, prefix)
        self.aliased: set[str] = set()
        imports = f.text(f.tree.root_node)[:4000]
        self.default = (
            "gin" if "gin-gonic/gin" in imports else "chi" if "go-chi/chi" in imports else ""
        )

    def key(self, func: str, package: str | None = None) -> str:
        """`pkg:<package>#<func>` (what `package.Func` names from elsewhere); a `main`
        package is one program per directory, so `<dir>#<func>` there."""
        package = self.package if package is None else package
        return f"pkg:{package}#{func}" if package != "main" else f"{self.dir}#{func}"

    def func_of(self, node: Node) -> str:
        """The enclosing function's name; a method's is `Type.Method`."""
        fn = enclosing(node, _FUNCS)
        name = fn.child_by_field_name("name") if fn is not None else None
        if fn is None or name is None:
            return ""
        receiver = fn.child_by_field_name("receiver") if fn.type == "method_declaration" else None
        words = self.f.text(receiver).strip("()").replace("*", " ").split()
        return f"{words[-1]}.{self.f.text(name)}" if words else self.f.text(name)

    def run(self) -> FileEntrypoints:
        for caps in self.f.matches("go"):
            if "call" in caps:
                self.call(
                    caps["call"][0],
                    caps["recv"][0],
                    self.f.text(caps["method"][0]),
                    caps["args"][0],
                )
            elif "plaincall" in caps:
                self.plain_call(caps["plaincall"][0], self.f.text(caps["fn"][0]), caps["args"][0])
            elif "command" in caps:
                self.command(caps["command"][0], caps["body"][0])
            elif "mainfunc" in caps and self.package == "main":
                self.main(caps["mainfunc"][0])
        return FileEntrypoints(
            self.f.path, tuple(self.entries), tuple(self.owners), tuple(self.mounts)
        )

    # ---- routers ---------------------------------------------------------------------
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
        fn = enclosing(node, frozenset({"func_literal", *_FUNCS}))
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
            fn = enclosing(fn, frozenset({"func_literal", *_FUNCS}))
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
        if method == "AddCommand":
            for child in args.named_children:
                self.command_mount(call, recv, child)
            return
        found = self.router(recv, func)
        if found is None:
            return
        framework, prefix = found
        items = args.named_children
        texts = [string_value(self.f, a) for a in items]
        if method == "Group" and framework == "gin" and texts and texts[0] is not None:
            self.assign(call, func, "gin", _join(prefix, texts[0]))
        elif (
            method in ("Mount", "Route")
            and framework == "chi"
            and len(items) == 2
            and texts[0] is not None
        ):
            if items[1].type != "func_literal":
                self.mount(func, items[1], _join(prefix, texts[0]), framework)
        elif (
            framework == "chi" and method in _CHI_VERBS and len(items) >= 2 and texts[0] is not None
        ):
            self.route(
                call, func, framework, _CHI_VERBS[method], _join(prefix, texts[0]), items[-1]
            )
        elif (
            framework == "gin" and method in _GIN_VERBS and len(items) >= 2 and texts[0] is not None
        ):
            self.route(
                call, func, framework, _GIN_VERBS[method], _join(prefix, texts[0]), items[-1]
            )
        elif (
            method in ("Method", "MethodFunc", "Handle")
            and len(items) == 3
            and texts[1] is not None
        ):
            verb = (texts[0] or "ANY").upper()
            self.route(call, func, framework, verb, _join(prefix, texts[1]), items[-1])
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
        self, call: Node, func: str, framework: str, verb: str, local: str, handler: Node
    ) -> None:
        owner = self.key(func)
        self.own(owner, framework)
        name = "" if handler.type == "func_literal" else _handler_name(self.f, handler)
        self.entries.append(
            entry(
                self.f,
                framework=framework,
                entry_type="http",
                kind="route",
                local=local or "/",
                method=verb,
                at=call,
                handler=name,
                owner=owner,
            )
        )

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

    def plain_call(self, call: Node, fn: str, args: Node) -> None:
        """`register(r)`: a function given a router registers its routes under it."""
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

    # ---- cobra and main --------------------------------------------------------------
    def command(self, lit: Node, body: Node) -> None:
        fields = _keyed(self.f, body)
        use = string_value(self.f, fields.get("Use"))
        if not use:
            return
        key = self.command_key(lit)
        name = use.split()[0]
        self.owners.append(Owner(key, "cobra", "command", name))
        run = fields.get("RunE") or fields.get("Run")
        handler = (
            _handler_name(self.f, run) if run is not None and run.type != "func_literal" else ""
        )
        summary = string_value(self.f, fields.get("Short")) or ""
        self.entries.append(
            entry(
                self.f,
                framework="cobra",
                entry_type="cli",
                kind="command",
                local=name,
                method=None,
                at=lit,
                handler=handler,
                node=key,
                summary=summary,
                extra={"use": use},
            )
        )

    def command_key(self, lit: Node) -> str:
        up = (
            lit.parent.parent
            if lit.parent is not None and lit.parent.type == "unary_expression"
            else lit.parent
        )
        while up is not None and up.type in ("expression_list", "unary_expression"):
            up = up.parent
        if up is not None and up.type == "var_spec":
            return self.key(self.f.text(up.child_by_field_name("name")))
        if up is not None and up.type in ("short_var_declaration", "assignment_statement"):
            left = up.child_by_field_name("left")
            var = (
                self.f.text(left.named_children[0])
                if left is not None and left.named_children
                else ""
            )
            return self.key(f"{self.func_of(lit)}.{var}" if self.func_of(lit) else var)
        return self.key(self.func_of(lit))  # `return &cobra.Command{...}`

    def command_mount(self, call: Node, recv: Node, child: Node) -> None:
        func = self.func_of(call)
        parent = self.f.text(recv)
        parent_key = (
            self.key(f"{func}.{parent}")
            if (func, parent) in self.local_commands()
            else self.key(parent)
        )
        if child.type == "identifier":
            name = self.f.text(child)
            child_key = (
                self.key(f"{func}.{name}")
                if (func, name) in self.local_commands()
                else self.key(name)
            )
        else:
            child_key = self.callee_key(child)
        if child_key:
            self.mounts.append(
                Mount(parent_key, child_key, "cobra", None, call.start_point.row + 1)
            )

    def local_commands(self) -> set[tuple[str, str]]:
        """(function, variable) of the commands made in a function's local variables."""
        names = (o.key.rsplit("#", 1)[1] for o in self.owners if o.framework == "cobra")
        return {(n.split(".", 1)[0], n.split(".", 1)[1]) for n in names if "." in n}

    def main(self, fn: Node) -> None:
        self.entries.append(
            entry(
                self.f,
                framework="go",
                entry_type="other",
                kind="main_func",
                local=self.dir,
                method=None,
                at=fn,
                handler="main",
            )
        )


def detect(f: ParsedFile) -> FileEntrypoints:
    """Go entries, owners and mounts of one file."""
    return _Scan(f).run()


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    return prefix.rstrip("/") + "/" + path.lstrip("/") if path not in ("", "/") else prefix


def _package(f: ParsedFile) -> str:
    for child in f.tree.root_node.named_children:
        if child.type == "package_clause":
            return f.text(child).split()[-1]
    return ""


def _keyed(f: ParsedFile, body: Node) -> dict[str, Node]:
    out: dict[str, Node] = {}
    for el in body.named_children:
        if el.type == "keyed_element" and len(el.named_children) == 2:
            key, value = el.named_children
            out[f.text(key)] = (
                value.named_children[0]
                if value.type == "literal_element" and value.named_children
                else value
            )
    return out


def _handler_name(f: ParsedFile, node: Node) -> str:
    """`listArticles`, `h.List`, `http.HandlerFunc(index)` -> the handler's name."""
    if node.type == "call_expression":  # http.HandlerFunc(x), handler(deps)
        args = node.child_by_field_name("arguments")
        inner = args.named_children if args is not None else []
        if len(inner) == 1 and inner[0].type in ("identifier", "selector_expression"):
            return _handler_name(f, inner[0])
        return f.text(node.child_by_field_name("function"))
    return f.text(node)
