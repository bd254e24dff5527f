"""C1 for Python: the classes, functions, methods, constants, type aliases and class
attributes of one file."""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass

from strata.index.code.model import Symbol
from strata.text import pyparse
from strata.text.langs import module_from_path
from strata.text.testcode import is_test_path

log = logging.getLogger(__name__)

_CONSTANT = re.compile(r"^_?[A-Z][A-Z0-9_]*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_ALIAS_HINTS = frozenset({"TypeAlias", "typing.TypeAlias", "typing_extensions.TypeAlias"})
_TYPE_FORMS = frozenset(
    {
        "Union",
        "Optional",
        "Callable",
        "Literal",
        "Annotated",
        "dict",
        "list",
        "tuple",
        "set",
        "frozenset",
        "type",
        "Mapping",
        "Sequence",
        "Iterable",
    }
)

FuncNode = ast.FunctionDef | ast.AsyncFunctionDef
Runs = tuple[tuple[int, int], ...]


def parse_python(text: str, path: str) -> ast.Module | None:
    """The module's AST, or None (logged) when the file is not valid Python."""
    try:
        return pyparse.parse(text)
    except (SyntaxError, ValueError) as exc:
        log.debug("not parsed as Python: %s (%s)", path, exc)
        return None


def extract_symbols(text: str, path: str) -> list[Symbol]:
    """Every class, function, method, module constant, type alias and class attribute (a
    dataclass field, an enum member: kind `field`) of a Python file.

    Args:
        text: The file's source.
        path: The file's path relative to the indexed root (POSIX separators).

    Returns:
        Symbols in source order; an empty list when the file does not parse. A data
        table's constants (`pyparse.literal_runs`) come as blocks of kind `constants`.
    """
    tree = parse_python(text, path)
    if tree is None:
        return []
    return symbols_of_tree(tree, path)


def symbols_of_tree(tree: ast.Module, path: str) -> list[Symbol]:
    """Symbols of an already parsed module (see `extract_symbols`)."""
    walker = _Walker(path, module_from_path(path), is_test_path(path))
    walker.body(tree.body, _Scope(walker.module, None, "module"), pyparse.literal_runs(tree))
    return walker.out


def def_line(node: ast.AST) -> int:
    """The line of the `def`/`class` keyword (decorators come before it)."""
    return int(getattr(node, "lineno", 0))


def first_line(node: FuncNode | ast.ClassDef) -> int:
    """The first line of a definition, its decorators included."""
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def signature_of(node: FuncNode) -> str:
    """`def name(args) -> returns`, as written (normalised by `ast.unparse`)."""
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"{prefix} {node.name}({render_args(node.args)}){returns}"


def render_args(args: ast.arguments) -> str:
    """Parameters as PEP 8 writes them: `a, b: int = 1, *, c: str | None = None`."""
    positional = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    parts = [_param(a, d) for a, d in zip(positional, defaults + list(args.defaults), strict=True)]
    if args.posonlyargs:
        parts.insert(len(args.posonlyargs), "/")
    if args.vararg:
        parts.append("*" + _param(args.vararg, None))
    elif args.kwonlyargs:
        parts.append("*")
    parts += [_param(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    if args.kwarg:
        parts.append("**" + _param(args.kwarg, None))
    return ", ".join(parts)


def _param(arg: ast.arg, default: ast.expr | None) -> str:
    text = f"{arg.arg}: {ast.unparse(arg.annotation)}" if arg.annotation else arg.arg
    if default is None:
        return text
    return (
        f"{text} = {ast.unparse(default)}" if arg.annotation else f"{text}={ast.unparse(default)}"
    )


def class_signature(node: ast.ClassDef) -> str:
    """`class Name(Base, metaclass=M)` as written."""
    args = [ast.unparse(b) for b in node.bases] + [ast.unparse(k) for k in node.keywords]
    return f"class {node.name}({', '.join(args)})" if args else f"class {node.name}"


def first_sentence(doc: str | None) -> str:
    """The first sentence of a docstring (its first paragraph, cut at the first full stop)."""
    if not doc:
        return ""
    paragraph = " ".join(doc.strip().split("\n\n", 1)[0].split())
    return _SENTENCE_END.split(paragraph, maxsplit=1)[0]


@dataclass(frozen=True, slots=True)
class _Scope:
    qname: str
    symbol_id: str | None
    kind: str  # module, class, function


class _Walker:
    """Collects symbols depth-first; ids get `#n` when a qname repeats in one file."""

    def __init__(self, path: str, module: str, is_test: bool) -> None:
        self.path, self.module, self.is_test = path, module, is_test
        self.out: list[Symbol] = []
        self.seen: dict[str, int] = {}

    def body(self, stmts: list[ast.stmt], scope: _Scope, runs: Runs = ()) -> None:
        done = 0
        for start, end in runs:  # a data table's runs of constants become blocks
            self.body(stmts[done:start], scope)
            for at in range(start, end, pyparse.DATA_BLOCK):
                self.block(stmts[at : min(at + pyparse.DATA_BLOCK, end)], scope)
            done = end
        for stmt in stmts[done:] if runs else stmts:
            for node in _definitions(stmt):
                self.node(node, scope)

    def block(self, stmts: list[ast.stmt], scope: _Scope) -> None:
        """One C1 symbol of kind `constants` for adjacent `NAME = literal` lines."""
        names = [s.targets[0].id for s in stmts]  # type: ignore[attr-defined]
        lines: list[int] = []
        for s in stmts:
            lines += (s.lineno, s.end_lineno or s.lineno)
        prefix = f"{scope.qname}." if scope.qname else ""
        for name in names:  # a later binding of the same name gets its `#n`, as in `add`
            self.seen[prefix + name] = self.seen.get(prefix + name, 0) + 1
        first, last = names[0], names[-1]
        qname = f"{prefix}{first}..{last}"
        self.out.append(
            Symbol(
                symbol_id=f"{self.path}::{qname}",
                qname=qname,
                name=f"{first}..{last}",
                kind="constants",
                path=self.path,
                lang="python",
                start_line=lines[0],
                end_line=lines[-1],
                signature="\n".join(
                    f"{n} = {_short(s.value)}"  # type: ignore[attr-defined]
                    for n, s in zip(names, stmts, strict=True)
                ),
                package_or_module=self.module,
                is_test=self.is_test,
                members=tuple(names),
                member_lines=tuple(lines),
            )
        )

    def node(self, node: ast.stmt, scope: _Scope) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            kind = "method" if scope.kind == "class" else "function"
            sym = self.add(node, node.name, kind, scope, signature_of(node))
            self.body(node.body, _Scope(sym.qname, sym.symbol_id, "function"))
        elif isinstance(node, ast.ClassDef):
            sym = self.add(node, node.name, "class", scope, class_signature(node))
            self.body(node.body, _Scope(sym.qname, sym.symbol_id, "class"))
        elif scope.kind != "function":
            self.assignment(node, scope)

    def assignment(self, node: ast.stmt, scope: _Scope) -> None:
        for name, kind, sig in _assigned(node, scope.kind):
            self.add(node, name, kind, scope, sig)

    def add(self, node: ast.stmt, name: str, kind: str, scope: _Scope, sig: str) -> Symbol:
        qname = f"{scope.qname}.{name}" if scope.qname else name
        count = self.seen.get(qname, 0) + 1
        self.seen[qname] = count
        sid = f"{self.path}::{qname}" + (f"#{count}" if count > 1 else "")
        is_def = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        first = first_line(node) if is_def else node.lineno  # type: ignore[arg-type]
        decorators = tuple(ast.unparse(d) for d in getattr(node, "decorator_list", ()))
        sym = Symbol(
            symbol_id=sid,
            qname=qname,
            name=name,
            kind=kind,
            path=self.path,
            lang="python",
            start_line=first,
            end_line=node.end_lineno or node.lineno,
            decl_line=node.lineno if node.lineno != first else 0,
            signature=sig,
            summary=first_sentence(ast.get_docstring(node)) if is_def else "",  # type: ignore[arg-type]
            parent_symbol_id=scope.symbol_id,
            package_or_module=self.module,
            is_test=self.is_test,
            decorators=decorators,
            bases=tuple(ast.unparse(b) for b in getattr(node, "bases", ())),
            # `@overload` signatures declare what the undecorated definition after them does
            declaration=any(d.rpartition(".")[2] == "overload" for d in decorators),
        )
        self.out.append(sym)
        return sym


def _definitions(stmt: ast.stmt) -> Iterator[ast.stmt]:
    """The statement itself, or the definitions nested in module-level control flow."""
    if isinstance(stmt, ast.If | ast.Try | ast.With | ast.AsyncWith):
        for block in ("body", "orelse", "finalbody"):
            for inner in getattr(stmt, block, ()):
                yield from _definitions(inner)
        for handler in getattr(stmt, "handlers", ()):
            for inner in handler.body:
                yield from _definitions(inner)
    else:
        yield stmt


def _assigned(node: ast.stmt, scope_kind: str) -> Iterator[tuple[str, str, str]]:
    """(name, kind, signature) of the constants, type aliases and class attributes an
    assignment defines."""
    if type(node).__name__ == "TypeAlias":  # `type X = ...` (Python 3.12+ sources)
        name, value = getattr(node, "name"), getattr(node, "value")  # noqa: B009
        yield name.id, "type_alias", f"type {name.id} = {ast.unparse(value)}"
        return
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        name, hint = node.target.id, ast.unparse(node.annotation)
        if hint in _ALIAS_HINTS and node.value is not None:
            yield name, "type_alias", f"{name}: {hint} = {ast.unparse(node.value)}"
        elif _CONSTANT.match(name) and scope_kind == "module":
            yield name, "constant", f"{name}: {hint}"
        elif scope_kind == "class":  # a dataclass's, a model's or a typed class attribute
            value = f" = {_short(node.value)}" if node.value is not None else ""
            yield name, "field", f"{name}: {hint}{value}"
        return
    if isinstance(node, ast.Assign) and scope_kind == "class":  # `RED = 1`, `retries = 3`
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        yield from ((n, "field", f"{n} = {_short(node.value)}") for n in names)
    if isinstance(node, ast.Assign) and scope_kind == "module":
        for target in node.targets:
            if isinstance(target, ast.Name) and _CONSTANT.match(target.id):
                yield target.id, "constant", f"{target.id} = {_short(node.value)}"
            elif isinstance(target, ast.Name) and _looks_like_type(target.id, node.value):
                yield target.id, "type_alias", f"{target.id} = {ast.unparse(node.value)}"


def _looks_like_type(name: str, value: ast.expr) -> bool:
    """`Json = dict[str, Any]`, `Handler = Callable[..., None]`: CamelCase bound to a type form."""
    if not name[:1].isupper() or not isinstance(value, ast.Subscript | ast.BinOp):
        return False
    head = value.value if isinstance(value, ast.Subscript) else value.left
    if isinstance(value, ast.BinOp) and not isinstance(value.op, ast.BitOr):
        return False
    text = ast.unparse(head).rsplit(".", 1)[-1]
    return text in _TYPE_FORMS or isinstance(value, ast.BinOp)


# Literals whose `repr` is what `ast.unparse` writes (a data table is mostly these).
_REPR_EXACT = frozenset({int, bool, type(None)})


def _short(value: ast.expr, limit: int = 80) -> str:
    if isinstance(value, ast.Constant) and type(value.value) in _REPR_EXACT:
        text = repr(value.value)
    else:
        text = ast.unparse(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
