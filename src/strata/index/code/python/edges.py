"""C2 for Python: one file's calls, imports and inheritance, normalised as far as it allows."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from strata.index.code.model import Edge, Symbol
from strata.index.code.python.names import (
    NO_CALLS,
    dotted,
    flat_statements,
    import_bindings,
    imported_modules,
)
from strata.index.code.python.receivers import (
    DERIVED,
    INSTANCE,
    PARAMETER,
    constructed,
    function_locals,
)
from strata.index.code.python.scope import module_names, module_scope, scope_of_tree
from strata.index.code.python.symbols import parse_python
from strata.index.code.resolve import ModuleScope
from strata.text import pyparse
from strata.text.testcode import is_test_path

__all__ = ["extract_edges", "module_scope", "scope_of_tree"]

_BUILTINS = frozenset(dir(builtins))
FuncNode = ast.FunctionDef | ast.AsyncFunctionDef
_SKIP_SELF = frozenset({"staticmethod"})


def extract_edges(
    text: str, path: str, symbols: list[Symbol], scope: ModuleScope | None = None
) -> list[Edge]:
    """The file's `calls`, `imports` and `inherits` edges, one per (source, type, target).

    `dst_ref` is absolute where the file decides it (imports, module-level names,
    `self.m()`, `super().m()`); a call on a value whose class the code states goes through
    the instance (`pkg.Foo().run`, `pkg.Cls().attr.run`, `pkg.make().run`, `pkg.f@x().run`
    for a parameter: `receivers.py`); any other call on a local keeps its text
    (`resp.json`). Each edge keeps every line of its calls (`lines`) and, per call, what
    it passes (`arguments`). Calls to builtins are left out. Resolve them with
    `strata.index.code.resolve.resolve_edges`, then `strata.index.code.params`.
    Pass the file's `scope` when it is already built (`module_scope`), to save a pass.
    """
    tree = parse_python(text, path)
    if tree is None:
        return []
    scope = scope if scope is not None else scope_of_tree(tree, path)
    ids = {(s.qname, s.start_line): s.symbol_id for s in symbols}
    collector = _Collector(path, scope, ids, module_names(tree, scope.module))
    body = pyparse.code_body(tree)  # a data table's literals call and import nothing
    collector.block(body, _Frame(scope.module, f"{path}::{scope.module}", {}, None, None))
    return collector.edges()


@dataclass(frozen=True, slots=True)
class _Frame:
    """Where the walker is: the current symbol and the names visible there."""

    qname: str
    symbol_id: str
    locals: Mapping[str, str | None]  # name -> absolute name, or None for an unknown value
    cls: str | None  # qname of the class whose methods `self` reaches
    self_name: str | None
    bases: tuple[str, ...] = field(default=())
    # locals bound to different classes in straight-line code: (last line, class) bindings
    timelines: Mapping[str, tuple[tuple[int, str | None], ...]] = field(default_factory=dict)

    def at(self, name: str, line: int) -> str | None:
        """What local `name` holds on `line`: the binding in force there (None: unknown)."""
        held = None
        for end, value in self.timelines[name]:
            if end >= line:
                break
            held = value
        return held


class _Collector:
    """Walks a module once and gathers edges, the first line of each kept."""

    def __init__(
        self,
        path: str,
        scope: ModuleScope,
        ids: Mapping[tuple[str, int], str],
        defined: Mapping[str, str],
    ) -> None:
        self.path, self.scope, self.ids, self.defined = path, scope, ids, defined
        self.is_test = is_test_path(path)
        self.found: dict[tuple[str, str, str], Edge] = {}
        self.lines: dict[tuple[str, str, str], set[int]] = {}
        self.args: dict[tuple[str, str, str], set[str]] = {}

    def edges(self) -> list[Edge]:
        out = []
        for key, edge in self.found.items():
            lines = sorted(self.lines[key])
            many = len(lines) > 1
            edge = replace(edge, line=lines[0], lines=tuple(lines)) if many else edge
            args = self.args.get(key)
            out.append(replace(edge, arguments=tuple(sorted(args))) if args else edge)
        return sorted(out, key=lambda e: (e.line, e.edge_type, e.dst_ref))

    def add(self, frame: _Frame, edge_type: str, ref: str, line: int) -> None:
        key = (frame.symbol_id, edge_type, ref)
        if key in self.found:
            self.lines[key].add(line)
        else:
            self.lines[key] = {line}
            self.found[key] = Edge(
                edge_id=f"{frame.symbol_id}->{edge_type}:{ref}",
                edge_type=edge_type,
                src_symbol_id=frame.symbol_id,
                src_qname=frame.qname,
                dst_ref=ref,
                path=self.path,
                line=line,
                is_test=self.is_test,
            )

    def block(self, stmts: list[ast.stmt], frame: _Frame) -> None:
        for stmt in stmts:
            self.statement(stmt, frame)

    def statement(self, stmt: ast.stmt, frame: _Frame) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            self.function(stmt, frame)
        elif isinstance(stmt, ast.ClassDef):
            self.klass(stmt, frame)
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            for target, line in imported_modules([stmt], self.path):
                self.add(frame, "imports", target, line)
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.stmt):
                    self.statement(child, frame)
                else:
                    self.expression(child, frame)

    def function(self, node: FuncNode, outer: _Frame) -> None:
        frame = self.child_frame(node, outer)
        self.decorators(node, frame)
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.expression(default, frame)
        self.block(node.body, frame)

    def klass(self, node: ast.ClassDef, outer: _Frame) -> None:
        qname = f"{outer.qname}.{node.name}"
        written = [_unsubscripted(b) for b in node.bases]  # `Number[int]` is `Number`
        bases = tuple(r for b in written if (r := self.normalise(ast.unparse(b), outer)))
        frame = _Frame(qname, self.symbol_id(qname, node), outer.locals, qname, None, bases)
        self.decorators(node, frame)
        for base in written:
            ref = dotted(base)
            target = self.normalise(ref, outer) if ref else None
            target = target or (ref if ref in _BUILTINS else None)  # `class E(Exception)`
            if target:
                self.add(frame, "inherits", target, base.lineno)
            else:
                self.expression(base, frame)
        self.block(node.body, frame)

    def decorators(self, node: FuncNode | ast.ClassDef, frame: _Frame) -> None:
        for deco in node.decorator_list:
            ref = dotted(deco.func if isinstance(deco, ast.Call) else deco)
            target = self.normalise(ref, frame) if ref else None
            if target:
                self.add(frame, "calls", target, deco.lineno)
            if isinstance(deco, ast.Call):
                for arg in [*deco.args, *(k.value for k in deco.keywords)]:
                    self.expression(arg, frame)

    def expression(self, node: ast.AST, frame: _Frame) -> None:
        if isinstance(node, NO_CALLS):
            return
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                line = sub.func.end_lineno or sub.lineno  # `obj\n.method()`: the second line
                target = self.call_target(sub.func, frame, line)
                if target:
                    self.add(frame, "calls", target, line)
                    if sub.args or sub.keywords:
                        key = (frame.symbol_id, "calls", target)
                        self.args.setdefault(key, set()).update(self.arguments(sub, frame, line))

    def arguments(self, call: ast.Call, frame: _Frame, line: int) -> Iterator[str]:
        """`slot=class` of each argument (`0=pkg.Foo()`, `key=`: unknown; `*=`: any slot),
        marked `~` when the call may not be bound (`Cls.m(obj, x)` passes `self` first)."""
        func = call.func
        receiver = dotted(func.value) if isinstance(func, ast.Attribute) else None
        head = (receiver or "").partition(".")[0]
        bound = head == frame.self_name or (
            receiver == head and self.held(head, frame, line) is not None
        )
        mark = "" if bound or receiver is None else "~"
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                yield f"{mark}*="
                break
            yield f"{mark}{i}={self.value_class(arg, frame, line)}"
        for kw in call.keywords:
            yield (
                f"{mark}{kw.arg}={self.value_class(kw.value, frame, line)}"
                if kw.arg
                else f"{mark}*="
            )

    def value_class(self, value: ast.expr, frame: _Frame, line: int) -> str:
        """The instance a value is (`pkg.Foo()`), when the code says; else ""."""
        if isinstance(value, ast.Name):
            if value.id == frame.self_name and frame.cls:
                return f"{frame.cls}{INSTANCE}"
            return self.held(value.id, frame, line) or ""
        made = constructed(value)
        return self.instances({"": made}, frame).get("", "") if made else ""

    def held(self, name: str, frame: _Frame, line: int) -> str | None:
        """The instance (`pkg.Foo()`) local `name` holds on `line`, if the code says."""
        if name not in frame.locals:
            return None
        value = frame.at(name, line) if name in frame.timelines else frame.locals[name]
        return value if value is not None and value.endswith(INSTANCE) else None

    def call_target(self, func: ast.expr, frame: _Frame, line: int = 0) -> str | None:
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Call)
            and dotted(func.value.func) == "super"
            and frame.bases
        ):
            return f"{frame.bases[0]}.{func.attr}"
        ref = dotted(func)
        return self.normalise(ref, frame, line) if ref else None

    def normalise(self, ref: str, frame: _Frame, line: int = 0) -> str | None:
        """The absolute name of `ref` from `frame` (on `line`, for a local whose class
        changes); its text when unknown; None for builtins."""
        head, _, rest = ref.partition(".")
        if frame.self_name and head == frame.self_name and frame.cls:
            return self.through_self(ref, rest, frame.cls)
        if head in frame.locals:
            base = frame.at(head, line) if line and head in frame.timelines else frame.locals[head]
            if base is None or (base.endswith(INSTANCE) and not rest):
                return ref  # an unknown value, or an instance called
            return f"{base}.{rest}" if rest else base
        base = self.defined.get(head) or self.scope.bindings.get(head)
        if base is not None:
            return f"{base}.{rest}" if rest else base
        return None if head in _BUILTINS else ref

    def through_self(self, ref: str, rest: str, cls: str) -> str:
        """`self.m` -> `Cls.m`; `self.x.m` -> `Cls().x.m` (the lookup reads what `x` holds)."""
        if not rest:
            return ref
        return f"{cls}.{rest}" if "." not in rest else f"{cls}{INSTANCE}.{rest}"

    def instances(self, classes: Mapping[str, str], frame: _Frame) -> dict[str, str]:
        """Name -> `pkg.Foo()` for each name whose stated class `frame` can name absolutely."""
        out = {}
        for name, written in classes.items():
            if written.startswith(DERIVED):  # what an attribute of a known instance holds
                head, _, rest = written[len(DERIVED) :].partition(".")
                if head == frame.self_name and frame.cls:
                    read = f"{frame.cls}{INSTANCE}.{rest}"
                else:
                    read = self.normalise(written[len(DERIVED) :], frame) or ""
                if INSTANCE in read and not read.endswith(INSTANCE):
                    out[name] = read
                continue
            head = written.partition(".")[0]
            if head == frame.self_name:  # `self.make()`: what the method gives
                known = frame.cls is not None and "." in written
            elif head in frame.locals:
                known = frame.locals[head] is not None  # not a local of unknown value
            else:
                known = head in self.defined or head in self.scope.bindings
            target = self.normalise(written, frame) if known else None
            if target:
                out[name] = f"{target}{INSTANCE}"
        return out

    def child_frame(self, node: FuncNode, outer: _Frame) -> _Frame:
        qname = f"{outer.qname}.{node.name}"
        in_class = outer.cls is not None and outer.self_name is None and outer.qname == outer.cls
        locals_: dict[str, str | None] = dict(outer.locals)
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None:
                locals_[arg.arg] = None
        own = function_locals(node)
        for name in own.bound:
            locals_[name] = None
        for stmt in flat_statements(node.body):
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                locals_[stmt.name] = f"{qname}.{stmt.name}"
        for name, target, _ in import_bindings(node.body, self.path):
            if name != "*":
                locals_[name] = target
        self_name = outer.self_name
        if in_class:
            positional = [*args.posonlyargs, *args.args]
            plain = not any(dotted(d) in _SKIP_SELF for d in node.decorator_list)
            self_name = positional[0].arg if positional and plain else None
        if self_name:
            locals_.pop(self_name, None)
        cls = outer.cls if self_name else None
        known = _Frame(qname, "", locals_, cls, self_name)
        stated = own.classes
        typed = self.instances({n: c for n, c in stated.items() if c[:1] != DERIVED}, known)
        known = replace(known, locals={**locals_, **typed})
        typed.update(self.instances({n: c for n, c in stated.items() if c[:1] == DERIVED}, known))
        timelines = {
            name: tuple((end, self.instances({"": c}, known).get("")) for end, c in bindings)
            for name, bindings in own.timelines.items()
            if name not in typed
        }
        for name in own.free:  # what every call passes (index/code/params.py)
            typed.setdefault(name, f"{qname}{PARAMETER}{name}{INSTANCE}")
        locals_.update(typed)
        locals_.pop(self_name or "", None)
        return _Frame(
            qname,
            self.symbol_id(qname, node),
            locals_,
            cls,
            self_name,
            outer.bases,
            {n: t for n, t in timelines.items() if n != self_name},
        )

    def symbol_id(self, qname: str, node: FuncNode | ast.ClassDef) -> str:
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        return self.ids.get((qname, first), f"{self.path}::{qname}")


def _unsubscripted(base: ast.expr) -> ast.expr:
    """A generic base without its arguments: `Number[int]` -> `Number`."""
    return base.value if isinstance(base, ast.Subscript) else base
