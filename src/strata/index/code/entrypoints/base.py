"""What entry-point detectors share: the file context, owners, mounts and the entry builder."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from strata.index.code.model import Entrypoint, Symbol
from strata.index.code.python import names
from strata.index.code.python.scope import module_names
from strata.index.code.python.symbols import first_line, first_sentence
from strata.text import pyparse

FuncNode = ast.FunctionDef | ast.AsyncFunctionDef
HTTP_DECORATORS = frozenset({"get", "post", "put", "delete", "patch", "options", "head", "trace"})


@dataclass(frozen=True, slots=True)
class Owner:
    """An object entries hang from: an app, router, blueprint, URL list, CLI group or command.

    `key` is its absolute dotted name (`pkg.main.app`, `pkg.cli.main`); `segment` is
    what it adds to a route (a router's `prefix=`) or a command line (its name).
    """

    key: str
    framework: str
    kind: str
    segment: str = ""


@dataclass(frozen=True, slots=True)
class Mount:
    """`parent.include_router(child, prefix=...)`, `register_blueprint`, `add_command`, ...

    `segment` is the prefix or name given at the mount (None when none was given).
    """

    parent: str
    child: str
    framework: str
    segment: str | None = None
    line: int = 0


@dataclass(frozen=True, slots=True)
class FileEntrypoints:
    """One file's detector output, before the whole-repository composition."""

    path: str
    entrypoints: tuple[Entrypoint, ...] = ()
    owners: tuple[Owner, ...] = ()
    mounts: tuple[Mount, ...] = ()


@dataclass(frozen=True, slots=True)
class Block:
    """A scope's statements: the module body or one function's body."""

    qname: str
    stmts: list[ast.stmt]
    local_names: frozenset[str]
    found_calls: list[ast.Call] = field(default_factory=list, compare=False, repr=False)
    scanned: list[bool] = field(default_factory=list, compare=False, repr=False)


@dataclass(slots=True)
class FileContext:
    """One parsed file with the name bindings detectors need."""

    path: str
    module: str
    tree: ast.Module
    symbols: list[Symbol]
    is_test: bool
    bindings: dict[str, str] = field(default_factory=dict)
    defined: dict[str, str] = field(default_factory=dict)
    _blocks: list[Block] | None = None

    def __post_init__(self) -> None:
        body = pyparse.code_body(self.tree)
        imports = sorted(names.import_statements(body), key=lambda n: n.lineno)
        module_level = dict((n, t) for n, t, _ in names.import_bindings(body, self.path))
        self.bindings = {
            n: t for n, t, _ in names.import_bindings(imports, self.path)
        } | module_level
        self.defined = module_names(self.tree, self.module)

    def blocks(self) -> Iterator[Block]:
        """The module body, then every function body (nested ones too); computed once.
        The module body leaves out what no detector reads (`NAME = literal`, docstrings):
        a data table's thousands of constants are not scanned again by each detector."""
        if self._blocks is None:
            code = pyparse.code_body(self.tree)
            body = [s for s in code if type(s) not in _INERT or not _inert(s)]
            self._blocks = [
                Block(self.module, body, frozenset()),
                *_function_blocks(code, self.module),
            ]
        return iter(self._blocks)

    def name(self, ref: str, block: Block | None = None) -> str:
        """The absolute dotted name of `ref` as seen from `block` (its text when unknown)."""
        head, _, rest = ref.partition(".")
        if block is not None and head in block.local_names:
            base = f"{block.qname}.{head}"
        else:
            base = self.defined.get(head) or self.bindings.get(head) or head
        return f"{base}.{rest}" if rest else base

    def expr_name(self, expr: ast.expr, block: Block | None = None) -> str | None:
        """`name()` of a Name/Attribute expression, else None."""
        ref = names.dotted(expr)
        return self.name(ref, block) if ref else None

    def imports_root(self, root: str) -> bool:
        """Whether the file imports anything from the top-level package `root`."""
        return any(t == root or t.startswith(f"{root}.") for t in self.bindings.values())

    def symbol_at(self, node: FuncNode | ast.ClassDef) -> Symbol | None:
        """The C1 symbol of a definition node."""
        first = first_line(node)
        return next(
            (s for s in self.symbols if s.start_line == first and s.name == node.name), None
        )

    def find_def(self, qname: str) -> FuncNode | ast.ClassDef | None:
        """The definition in this file with that qname (module-level or nested)."""
        for node in ast.walk(self.tree):
            if isinstance(node, FuncNode | ast.ClassDef):
                sym = self.symbol_at(node)
                if sym is not None and sym.qname == qname:
                    return node
        return None


_INERT = frozenset({ast.Assign, ast.AnnAssign, ast.Expr, ast.Pass})


def _inert(stmt: ast.stmt) -> bool:
    """A statement no detector looks at: a literal bound to names, a bare literal, `pass`."""
    if type(stmt) is ast.Pass:
        return True
    if type(getattr(stmt, "value", None)) is not ast.Constant:
        return False
    return type(stmt) is not ast.Assign or all(type(t) is ast.Name for t in stmt.targets)


def _function_blocks(stmts: list[ast.stmt], prefix: str) -> Iterator[Block]:
    for stmt in names.flat_statements(stmts):
        if isinstance(stmt, FuncNode):
            qname = f"{prefix}.{stmt.name}"
            args = stmt.args
            params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
            local = {n for n, _ in names.assigned_names(stmt.body)} | params
            yield Block(qname, stmt.body, frozenset(local))
            yield from _function_blocks(stmt.body, qname)
        elif isinstance(stmt, ast.ClassDef):
            yield from _function_blocks(stmt.body, f"{prefix}.{stmt.name}")


def decorated(ctx: FileContext) -> Iterator[tuple[FuncNode | ast.ClassDef, ast.expr, Block]]:
    """(definition, decorator, enclosing block) for every decorator in the file."""
    for block in ctx.blocks():
        for stmt in names.flat_statements(block.stmts):
            if isinstance(stmt, FuncNode | ast.ClassDef):
                for deco in stmt.decorator_list:
                    yield stmt, deco, block


def method_decorators(
    ctx: FileContext,
) -> Iterator[tuple[FuncNode | ast.ClassDef, ast.Call, str, str | None]]:
    """(definition, decorator, attribute, receiver's name) of each `@receiver.<attr>(...)`."""
    for node, deco, block in decorated(ctx):
        if isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute):
            yield node, deco, deco.func.attr, ctx.expr_name(deco.func.value, block)


def calls(block: Block) -> Iterator[ast.Call]:
    """Calls made directly in a block (not inside nested definitions); found once per block."""
    if not block.scanned:
        block.found_calls.extend(_calls_in(block.stmts))
        block.scanned.append(True)
    return iter(block.found_calls)


def _calls_in(stmts: list[ast.stmt]) -> Iterator[ast.Call]:
    for stmt in names.flat_statements(stmts):
        if isinstance(stmt, FuncNode | ast.ClassDef):
            continue
        for node in ast.iter_child_nodes(stmt):
            if isinstance(node, ast.expr) and not isinstance(node, names.NO_CALLS):
                yield from (n for n in ast.walk(node) if isinstance(n, ast.Call))


def assignments(block: Block) -> Iterator[tuple[str, ast.Call]]:
    """(target name, call) for each `name = call(...)` in a block."""
    for stmt in names.flat_statements(block.stmts):
        if (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Call)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            yield stmt.targets[0].id, stmt.value


def method_calls(
    ctx: FileContext, attrs: frozenset[str]
) -> Iterator[tuple[Block, ast.Call, str, str | None]]:
    """(block, call, attribute, receiver's name) of every `receiver.<attr>(...)` call."""
    for block in ctx.blocks():
        for call in calls(block):
            if isinstance(call.func, ast.Attribute) and call.func.attr in attrs:
                yield block, call, call.func.attr, ctx.expr_name(call.func.value, block)


def constructed(ctx: FileContext, ctors: Mapping[str, str]) -> Iterator[tuple[str, ast.Call, str]]:
    """(absolute name, call, kind) of each `name = Ctor(...)` whose callee `ctors` names."""
    for block in ctx.blocks():
        for name, call in assignments(block):
            kind = ctors.get(ctx.expr_name(call.func, block) or "")
            if kind:
                yield ctx.name(name, block), call, kind


def named_child(ctx: FileContext, block: Block, expr: ast.expr | None) -> str | None:
    """The absolute name of the object a mount call is given (`include_router(child)`)."""
    return ctx.expr_name(expr, block) if expr is not None else None


def text_of(node: ast.expr | None) -> str:
    """A literal string argument's value, else ``""``."""
    value = literal(node)
    return value if isinstance(value, str) else ""


def literal(node: ast.expr | None) -> Any:
    """The value of a literal expression (str, list of str, ...), else None."""
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def kwarg(call: ast.Call, name: str) -> ast.expr | None:
    """The expression passed as keyword `name`, else None."""
    return next((k.value for k in call.keywords if k.arg == name), None)


def arg(call: ast.Call, index: int, name: str | None = None) -> ast.expr | None:
    """The positional argument `index`, or the keyword `name` when given."""
    if len(call.args) > index and not isinstance(call.args[index], ast.Starred):
        return call.args[index]
    return kwarg(call, name) if name else None


def make_entry(
    ctx: FileContext,
    *,
    handler: FuncNode | ast.ClassDef | None,
    framework: str,
    entry_type: str,
    kind: str,
    local: str,
    method: str | None,
    decorator: str,
    payload: Mapping[str, Any],
    summary: str = "",
    line: int = 0,
    handler_ref: str = "",
) -> Entrypoint:
    """An entry before composition: `route_or_command` is the local route or name.

    `payload` carries `owner` (the key of what it hangs from) or `node` (a CLI
    command's own key); `compose_entrypoints` turns them into full routes.
    """
    sym = ctx.symbol_at(handler) if handler is not None else None
    doc = first_sentence(ast.get_docstring(handler)) if handler is not None else ""
    start = first_line(handler) if handler is not None else line
    end = (handler.end_lineno or start) if handler is not None else line
    return draft_entry(
        (framework, entry_type, kind, local, method),
        (ctx.path, (start, end), ctx.is_test),
        (sym.qname, sym.symbol_id) if sym else (handler_ref, None),
        str(payload.get("owner") or payload.get("node") or ""),
        (decorator, summary or doc),
        {"def_line": handler.lineno if handler else line, **payload},
    )


def call_routes(
    ctx: FileContext,
    call: ast.Call,
    handler: tuple[FuncNode | ast.ClassDef | None, str],
    where: tuple[str, str, str],
    methods: list[str],
    kind: str,
) -> list[Entrypoint]:
    """One entry a method for a route a call registers (`add_api_route`, `add_url_rule`).

    `handler` is (its definition in this file or None, its absolute name); `where`
    (framework, owner key, local route).
    """
    node, ref = handler
    framework, owner, local = where
    return [
        make_entry(ctx, handler=node, framework=framework, entry_type="http", kind=kind,
                   local=local, method=m, decorator=ast.unparse(call), payload={"owner": owner},
                   line=call.lineno, handler_ref=ref)
        for m in methods
    ]  # fmt: skip


def draft_entry(
    what: tuple[str, str, str, str, str | None],
    where: tuple[str, tuple[int, int], bool],
    handler: tuple[str, str | None],
    declared_by: str,
    text: tuple[str, str],
    payload: Mapping[str, Any],
) -> Entrypoint:
    """The one place an entry is built, for the Python and the tree-sitter detectors.

    `what` is (framework, entry type, kind, local route or name, HTTP method); `where`
    (path, (first line, last line), is_test); `handler` (qname or the text written,
    symbol id); `text` (the registration's source text, summary).
    """
    framework, entry_type, kind, local, method = what
    path, (start, end), is_test = where
    return Entrypoint(  # the fields in their declared order
        "", entry_type, framework, local, path, start, end, *handler, declared_by, kind, method,
        local if entry_type == "http" else None, *text, is_test, {"local": local, **payload},
    )  # fmt: skip


def http_framework(
    ctx: FileContext, owner: str, attr: str, owners: Mapping[str, Owner]
) -> str | None:
    """Which web framework an `@owner.<attr>(...)` decorator belongs to, if any."""
    if owner in owners:
        return owners[owner].framework
    if ctx.imports_root("fastapi") and not ctx.imports_root("flask"):
        return "fastapi"
    if ctx.imports_root("flask") and not ctx.imports_root("fastapi"):
        return "flask"
    if attr == "route":
        return "flask"
    if attr in ("api_route", "websocket"):
        return "fastapi"
    return None


def view_ref(view: ast.expr) -> tuple[bool, str | None]:
    """A view as Flask and Django take it: `View.as_view(...)` (a class) or a function name.

    Returns whether it is a class-based view, and the dotted name of the class or function.
    """
    is_class = (
        isinstance(view, ast.Call)
        and isinstance(view.func, ast.Attribute)
        and view.func.attr == "as_view"
    )
    target = view.func.value if is_class else view  # type: ignore[attr-defined]
    return is_class, names.dotted(target)
