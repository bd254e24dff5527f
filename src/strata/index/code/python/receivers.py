"""What a name holds when the file says so: the class of a local, a parameter or an attribute.

A call on a value whose class the code states (`stack = FilterStack()`, `def f(s:
Stack)`, `self.stack = FilterStack()` in a method, `stack: FilterStack` in the class
body) is a call of that class's method. The class is written as a ref with the
`INSTANCE` suffix (`sqlparse.engine.FilterStack()`: "an instance of"), which the
cross-file lookup (`strata.index.code.resolve`) follows to the method, through the
class's bases, only when the ref names a class. A name bound more than one way (two
classes, or a constructor and anything else) has no stated class; `None` assigned
beside one constructor does not count (`self.x = None` then `self.x = X()`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from strata.index.code.python.names import assigned_names, dotted, flat_statements
from strata.index.code.resolve import INSTANCE, PARAMETER

__all__ = [
    "DERIVED",
    "INSTANCE",
    "PARAMETER",
    "Locals",
    "annotation_ref",
    "attribute_classes",
    "constructed",
    "free_parameters",
    "function_locals",
    "positional_names",
    "returned",
]

# Wrappers whose only argument is the class: `Optional[Foo]`, `Final[Foo]`, `ClassVar[Foo]`.
_WRAPPERS = frozenset({"Optional", "Final", "ClassVar", "Annotated"})
_UNKNOWN = ""  # a binding that states no class
DERIVED = "="  # `=env.cache`: a local bound to what an attribute of a known value holds
Matcher = Callable[[ast.expr], bool]


def annotation_ref(node: ast.expr | None) -> str | None:
    """The dotted class an annotation names, as written: `Foo`, `m.Foo`, `"Foo"`,
    `Foo | None`, `Optional[Foo]`; None for anything else (`list[Foo]`, `Foo | Bar`)."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value.strip(), mode="eval").body
        except SyntaxError:
            return None
        return annotation_ref(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = [s for s in (node.left, node.right) if not _is_none(s)]
        return annotation_ref(sides[0]) if len(sides) == 1 else None
    if isinstance(node, ast.Subscript):
        wrapper = dotted(node.value)
        if wrapper is None or wrapper.rpartition(".")[2] not in _WRAPPERS:
            return None
        inner = node.slice
        if isinstance(inner, ast.Tuple):  # `Annotated[Foo, ...]`
            inner = inner.elts[0] if inner.elts else inner
        return annotation_ref(inner)
    return dotted(node)


def constructed(value: ast.expr | None) -> str | None:
    """`m.Foo` for the value `m.Foo(...)`, else None."""
    if isinstance(value, ast.Call):
        return dotted(value.func)
    return None


@dataclass(frozen=True, slots=True)
class Locals:
    """What a function's own names hold, as far as its code says (classes as written).

    `classes`: parameters and locals bound to one class; `timelines`: (last line of the
    binding, class or "") of each binding of a local bound differently by the body's own
    top-level statements only (straight-line code: the binding before a line is the one
    in force there); `free`: parameters with no annotation the body never rebinds (their
    class is what every call passes: `PARAMETER`, resolved by `strata.index.code.params`).
    """

    classes: dict[str, str]
    timelines: dict[str, list[tuple[int, str]]]
    free: list[str]
    bound: set[str]  # every name the body binds by assignment, loop or `with`


def function_locals(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Locals:
    """The `Locals` of a function, in one pass over its bindings."""
    params = _parameters(node.args)
    top = {id(s) for s in node.body}
    found = {name: {ref or _UNKNOWN} for name, ref in params.items()}
    lines: dict[str, list[tuple[int, str]]] = {}
    nested: set[str] = set()
    for name, stmt in assigned_names(node.body):
        stated = _stated(stmt, _name_target(name), params, True)
        found.setdefault(name, set()).update(stated)
        if id(stmt) not in top:
            nested.add(name)
            continue
        first = [(0, params.get(name) or _UNKNOWN)] if name in params else []
        cls = next(iter(stated)) if len(stated) == 1 else _UNKNOWN
        lines.setdefault(name, first).append((stmt.end_lineno or stmt.lineno, cls))
    classes = _agreed(found)
    timelines = {
        n: t
        for n, t in lines.items()
        if n not in nested and n not in classes and len(t) > 1 and any(c for _, c in t)
    }
    bound = set(lines) | nested
    return Locals(classes, timelines, _free(node.args, bound), bound)


def _free(args: ast.arguments, bound: set[str]) -> list[str]:
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    return [a.arg for a in every if a.annotation is None and a.arg not in bound]


def free_parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """`Locals.free` alone."""
    return _free(node.args, {name for name, _ in assigned_names(node.body)})


def positional_names(node: ast.FunctionDef | ast.AsyncFunctionDef, bound: bool) -> tuple[str, ...]:
    """The names a call's positional arguments fill, in order (`self` left out if `bound`)."""
    names = tuple(a.arg for a in [*node.args.posonlyargs, *node.args.args])
    return names[1:] if bound else names


def attribute_classes(node: ast.ClassDef) -> dict[str, str]:
    """Attribute -> class (as written) that the class body and its methods state.

    `x: Foo` in the class body; `self.x = Foo(...)` or `self.x: Foo = ...` in any of
    its methods (`self` being the method's first parameter), and `self.x = x` (or
    `x or Foo()`) where the method's parameter `x` is annotated.
    """
    found: dict[str, set[str]] = {}
    for stmt in flat_statements(node.body):
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            found.setdefault(stmt.target.id, set()).add(annotation_ref(stmt.annotation) or "")
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            positional = [*stmt.args.posonlyargs, *stmt.args.args]
            if positional:
                params = _parameters(stmt.args)
                for attr, ref in _self_assignments(stmt.body, positional[0].arg, params):
                    found.setdefault(attr, set()).add(ref)
    return _agreed(found)


def _parameters(args: ast.arguments) -> dict[str, str | None]:
    """Each parameter and the class its annotation names (None: none, or `*args`)."""
    out: dict[str, str | None] = {
        a.arg: annotation_ref(a.annotation)
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]
    }
    for star in (args.vararg, args.kwarg):  # annotated with the element's class, not theirs
        if star is not None:
            out[star.arg] = None
    return out


def _self_assignments(
    body: list[ast.stmt], self_name: str, params: Mapping[str, str | None]
) -> Iterator[tuple[str, str]]:
    """(attribute, class or `_UNKNOWN`) for each `self.attr = ...` among the statements."""
    for stmt in _statements(body):
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, ast.AnnAssign | ast.AugAssign):
            targets = [stmt.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == self_name
            ):
                yield from ((target.attr, r) for r in _stated(stmt, _attr_target, params))


def _stated(
    stmt: ast.stmt, is_target: Matcher, params: Mapping[str, str | None], derived: bool = False
) -> set[str]:
    """The classes one binding statement states for its target (`{""}`: none).

    `params` are the function's parameters: one assigned as it is (`self.x = x`)
    states the class its annotation names. With `derived`, an attribute read
    (`x = env.cache`) is kept as `DERIVED` + its text: what that attribute holds.
    """
    if isinstance(stmt, ast.AnnAssign):
        return {annotation_ref(stmt.annotation) or _UNKNOWN}
    if isinstance(stmt, ast.Assign) and all(is_target(t) for t in stmt.targets):
        return _value_classes(stmt.value, params, derived)
    return {_UNKNOWN}


def _value_classes(
    value: ast.expr, params: Mapping[str, str | None], derived: bool = False
) -> set[str]:
    """The classes a value may be: `Foo()`, an annotated parameter, `x or Foo()`,
    `a if c else b` (each side), `None` (none), `env.cache` (with `derived`)."""
    if _is_none(value) or _is_copy(value):
        return set()
    if isinstance(value, ast.Name) and value.id in params:
        return {params[value.id] or _UNKNOWN}
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
        return set().union(*(_value_classes(v, params, derived) for v in value.values))
    if isinstance(value, ast.IfExp):
        body, orelse = value.body, value.orelse
        return _value_classes(body, params, derived) | _value_classes(orelse, params, derived)
    if derived and isinstance(value, ast.Attribute) and (read := dotted(value)):
        return {f"{DERIVED}{read}"}
    return {constructed(value) or _UNKNOWN}


def _name_target(name: str) -> Matcher:
    return lambda t: isinstance(t, ast.Name) and t.id == name


def _attr_target(target: ast.expr) -> bool:
    return isinstance(target, ast.Attribute)


def _agreed(found: dict[str, set[str]]) -> dict[str, str]:
    """The names bound to exactly one class and nothing else."""
    return {n: r.pop() for n, r in found.items() if len(r) == 1 and _UNKNOWN not in r}


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a function body, nested blocks included, nested defs not."""
    for stmt in flat_statements(body):
        yield stmt
        if isinstance(stmt, ast.Match):
            for case in stmt.cases:
                yield from _statements(case.body)


def _is_copy(value: ast.expr) -> bool:
    """`copy.copy(x)` / `copy.deepcopy(x)`: the class `x` has, so a binding that adds none
    (`self.inner = copy.deepcopy(self.inner)` beside `self.inner = make_field()`)."""
    if not isinstance(value, ast.Call) or len(value.args) != 1 or value.keywords:
        return False
    return dotted(value.func) in ("copy.copy", "copy.deepcopy", "deepcopy")


def _is_none(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def returned(
    node: ast.FunctionDef | ast.AsyncFunctionDef, owner: str | None, qname: str = ""
) -> tuple[str, bool] | None:
    """What a call of the function gives, when it states or shows one class: (ref, absolute).

    The return annotation (`-> Foo`; `-> Self` is `owner`), else the one instance every
    `return` gives: `Foo(...)` (the ref as written), `self` or `cls(...)` (`owner`, a
    class qname), `self.m(...)` (what `owner.m` gives), a parameter `x` with no
    annotation (`qname@x()`: what the calls pass). A generator or a coroutine gives
    neither. The ref ends in `INSTANCE` (`pkg.Foo()`: what calling `pkg.Foo` gives).
    """
    first = [*node.args.posonlyargs, *node.args.args][:1]
    static = any(dotted(d) == "staticmethod" for d in node.decorator_list)
    me = first[0].arg if first and owner is not None and not static else None
    stated = annotation_ref(node.returns)
    if stated is not None:
        if stated.rpartition(".")[2] == "Self" and owner is not None:
            return f"{owner}{INSTANCE}", True
        return f"{stated}{INSTANCE}", False
    if isinstance(node, ast.AsyncFunctionDef) or node.returns is not None:
        return None
    found: set[tuple[str, bool]] = set()
    free: set[str] | None = None  # the free parameters, when a `return name` needs them
    for sub in _statements(node.body):  # statements only: a whole walk costs too much
        if isinstance(getattr(sub, "value", None), ast.Yield | ast.YieldFrom):
            return None  # a generator (`yield x`, `y = yield x`)
        if isinstance(sub, ast.Return) and not _is_none(sub.value):
            value = sub.value
            if qname and isinstance(value, ast.Name) and value.id != me:
                free = set(free_parameters(node)) if free is None else free
                if value.id in free:
                    found.add((f"{qname}{PARAMETER}{value.id}{INSTANCE}", True))
                    continue
            found.add(_gives(value, me, owner) or ("", False))
    return found.pop() if len(found) == 1 and ("", False) not in found else None


def _gives(value: ast.expr | None, me: str | None, owner: str | None) -> tuple[str, bool] | None:
    """The instance one returned value is, as `returned` says it."""
    if isinstance(value, ast.Name) and me is not None and value.id == me:
        return f"{owner}{INSTANCE}", True
    func = dotted(value.func) if isinstance(value, ast.Call) else None
    if func is None:
        return None
    head, _, rest = func.partition(".")
    if me is not None and head == me:
        return f"{owner}.{rest}{INSTANCE}" if rest else f"{owner}{INSTANCE}", True
    return f"{func}{INSTANCE}", False
