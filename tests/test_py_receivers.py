"""Calls on values whose class the code states: each rule, where its edge must and must not be.

A small real package (three modules) goes through C1, C2 and the cross-file resolution;
then one index of it answers `callers` with every line of each call.
"""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import pytest

from strata import Engine
from strata.index.code.model import Edge
from strata.index.code.params import through_parameters
from strata.index.code.python.edges import extract_edges, module_scope
from strata.index.code.python.receivers import annotation_ref, returned
from strata.index.code.python.symbols import extract_symbols
from strata.index.code.resolve import ModuleScope, build_table, resolve_edges

FILES = {
    "eng/__init__.py": "from .stack import Stack as Stack\n",
    "eng/stack.py": """
        class Base:
            def run(self):
                return self.run()


        class Stack(Base):
            def push(self, x):
                pass


        class Frame:
            stack: "Stack"

            def __init__(self, parent: "Frame | None" = None) -> None:
                self.parent = parent
                self.other = None
                self.other = Stack()


        def make():
            return Stack()


        def drive(stack, times):
            stack.push(times)


        def mixed(item):
            item.push(1)


        def either(flag):
            if flag:
                return Stack()
            return Frame()


        class Chain(Stack):
            def copy(self):
                return self.clone()

            @classmethod
            def clone(cls):
                return cls()

            def again(self):
                twin = self.copy()
                twin.push(0)
                return twin


        def passthrough(s):
            return s
        """,
    "eng/use.py": """
        import typing as t
        from typing import Optional

        import requests

        from eng import Stack
        from eng import stack as st
        from eng.stack import Base, Frame, drive, either, make, mixed, passthrough


        class Holder(Frame):
            def __init__(self, given: Stack) -> None:
                super().__init__()
                self.given = given
                self.pair = Stack() if given else Base()

            def go(self, a: Stack, b: Optional[st.Stack], c: "t.Optional[Stack]", *d: Stack):
                x = st.Stack()
                x.push(1)
                x.push(2)
                a.push(3)
                b.push(4)
                c.push(5)
                d.push(6)
                self.given.push(7)
                self.stack.push(8)
                self.other.push(9)
                self.parent.stack.push(10)
                self.pair.run()
                y = make()
                y.push(11)
                z = Stack()
                z = Base()
                z.run()
                w = Stack()
                w = w.push(12)
                s = requests.Session()
                s.get("u")

            def again(self, a: Stack, b: Stack | None):
                a = a or Base()
                a.push(13)
                b = b or Stack()
                b.push(14)

            def branches(self, flag, frame: Frame):
                if flag:
                    v = Stack()
                else:
                    v = Frame()
                v.push(15)
                drive(Stack(), 2)
                mixed(Stack())
                mixed(Frame())
                e = either(flag)
                e.push(16)
                kept = frame.stack
                kept.push(17)
                back = passthrough(Stack())
                back.push(18)
        """,
}
GO = "eng.use.Holder.go"


@pytest.fixture(scope="module")
def edges() -> list[Edge]:
    syms, scopes, found = [], [], []
    for path, text in FILES.items():
        text = dedent(text).lstrip()
        here = extract_symbols(text, path)
        syms += here
        scopes.append(module_scope(text, path))
        found += extract_edges(text, path, here)
    table = build_table(syms, scopes)
    resolved = through_parameters(resolve_edges(found, table), table)
    return [e for e in resolved if e.edge_type == "calls"]


def _lines_to(edges: list[Edge], src: str, dst: str) -> list[int]:
    """Every line `src` calls the symbol `dst` on, over all its edges."""
    out = [
        n for e in edges if e.src_qname == src and e.dst_qname == dst for n in e.lines or (e.line,)
    ]
    return sorted(out)


def test_calls_on_values_of_a_stated_class_resolve_to_its_method(edges: list[Edge]) -> None:
    # constructor locals (two calls, one edge), annotated parameters in every spelling,
    # `self.x = param`, a class-body annotation inherited from a base in another module,
    # and an attribute of an attribute
    # a local in the binding in force on the line (`w = Stack()`, then `w = w.push(12)`),
    # and what a function gives (`make()` returns a `Stack()`)
    expected = [19, 20, 21, 22, 23, 25, 26, 27, 28, 31, 36]
    assert _lines_to(edges, GO, "eng.stack.Stack.push") == expected
    assert _lines_to(edges, GO, "eng.stack.Base.run") == [34]  # `z = Stack()`, `z = Base()`


def test_a_stated_class_finds_inherited_methods_and_recursion(edges: list[Edge]) -> None:
    assert _lines_to(edges, "eng.stack.Base.run", "eng.stack.Base.run") == [3]
    assert _lines_to(edges, "eng.use.Holder.__init__", "eng.stack.Frame.__init__") == [13]


def test_no_edge_where_the_class_is_not_stated(edges: list[Edge]) -> None:
    by_line = {n: e for e in edges if e.src_qname == GO for n in e.lines or (e.line,)}
    # `*d: Stack` is a tuple; `self.pair` holds one of two classes
    for line in (24, 29):
        assert by_line[line].resolution != "resolved", by_line[line]
    # bound to two classes in two branches: no class on the line after them
    [branch] = [e for e in edges if e.src_qname == "eng.use.Holder.branches" and e.line == 51]
    assert branch.dst_ref == "v.push" and branch.resolution != "resolved"
    # `either()` gives one of two classes; `kept = frame.stack`: what `Frame.stack` holds
    [given] = [e for e in edges if e.src_qname == "eng.use.Holder.branches" and e.line == 56]
    assert given.dst_ref == "eng.stack.either().push" and given.resolution != "resolved"
    # `passthrough(Stack())` gives back what its parameter holds: what the call passes
    assert _lines_to(edges, "eng.use.Holder.branches", "eng.stack.Stack.push") == [58, 60]

    # an instance of an external class is external, not a guess among the repo's `get`s
    assert by_line[38].resolution == "external"
    assert by_line[38].dst_qname == "requests.Session().get"
    # a parameter rebound to another class has none; `b or Stack()` keeps its class
    again = "eng.use.Holder.again"
    [rebound] = [e for e in edges if e.src_qname == again and e.dst_ref == "a.push"]
    assert rebound.resolution != "resolved"
    assert _lines_to(edges, again, "eng.stack.Stack.push") == [44]


def test_what_a_method_gives_through_self_and_cls(edges: list[Edge]) -> None:
    # `twin = self.copy()`; `copy` gives `self.clone()`, a classmethod giving `cls()`
    assert _lines_to(edges, "eng.stack.Chain.again", "eng.stack.Stack.push") == [48]


def test_a_parameter_has_the_class_every_call_passes(edges: list[Edge]) -> None:
    [driven] = [e for e in edges if e.src_qname == "eng.stack.drive"]
    assert driven.dst_ref == "eng.stack.drive@stack().push"  # a `Stack()` from its one caller
    assert driven.dst_qname == "eng.stack.Stack.push"
    [mixed] = [e for e in edges if e.src_qname == "eng.stack.mixed"]
    assert mixed.resolution != "resolved"  # a `Stack()` here, a `Frame()` there


@pytest.mark.parametrize(
    ("annotation", "ref"),
    [
        ("Foo", "Foo"),
        ("m.Foo", "m.Foo"),
        ("'m.Foo'", "m.Foo"),
        ("Foo | None", "Foo"),
        ("None | Foo", "Foo"),
        ("t.Optional[Foo]", "Foo"),
        ("Annotated[Foo, 1]", "Foo"),
        ("list[Foo]", None),
        ("Foo | Bar", None),
        ("'not python('", None),
    ],
)
def test_annotation_ref(annotation: str, ref: str | None) -> None:
    import ast

    assert annotation_ref(ast.parse(annotation, mode="eval").body) == ref


def test_scope_keeps_attribute_classes_through_json() -> None:
    text = dedent(FILES["eng/stack.py"]).lstrip()
    scope = module_scope(text, "eng/stack.py")
    assert scope.attributes["eng.stack.Frame"] == {
        "stack": "eng.stack.Stack()",
        "parent": "eng.stack.Frame()",
        "other": "eng.stack.Stack()",
    }
    assert ModuleScope.from_json(json.loads(json.dumps(scope.to_json()))) == scope


def test_callers_list_every_line_of_each_call(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(dedent(text).lstrip(), encoding="utf-8")
    eng = Engine.open(root, config={"embed.provider": "none"})
    eng.index()
    walk = eng.callers("eng.stack.Stack.push")
    sites = sorted((x.edge.path, n) for x in walk.links for n in x.lines)
    uses = [("eng/use.py", n) for n in (19, 20, 21, 22, 23, 25, 26, 27, 28, 31, 36, 44, 58, 60)]
    assert sites == [("eng/stack.py", 25), ("eng/stack.py", 48), *uses]
    [local] = [j for j in walk.to_json() if j["start_line"] == 19]
    assert local["lines"] == [19, 20, 22] and local["resolved"] is True  # one ref: one edge
    assert walk.name_only_hidden == 5  # `item.push`, `d.push`, `a.push`, `v.push`, `e.push`
    guessed = eng.callers("eng.stack.Stack.push", name_matches=True)
    guesses = [(x.edge.path, x.edge.span_start) for x in guessed.links if x.match == "name"]
    assert guesses == [("eng/stack.py", 29)] + [("eng/use.py", n) for n in (24, 42, 51, 56)]
    plain = eng.callees("eng.use.Holder.again")  # `a.push` unresolved; `b.push` a Stack's
    assert [(x.symbol.qname, x.match) for x in plain.links] == [
        ("eng.stack.Base", "resolved"),
        ("a.push", "unresolved"),
        ("eng.stack.Stack", "resolved"),
        ("eng.stack.Stack.push", "resolved"),
    ]
    assert plain.name_only_hidden == 1
    named = eng.callees("eng.use.Holder.again", name_matches=True)  # the one `push` there is
    assert [x.match for x in named.links if x.edge.span_start == 42] == ["name"]
    eng.close()


@pytest.mark.parametrize(
    ("source", "gives"),
    [
        ("def f() -> 'm.Foo': ...", ("m.Foo()", False)),
        ("def f(self) -> Self: ...", ("p.C()", True)),
        ("def f(self):\n    return self", ("p.C()", True)),
        ("def f(cls, it):\n    return cls(it)", ("p.C()", True)),
        ("def f(self):\n    return self.g(1)", ("p.C.g()", True)),
        ("def f(x):\n    if x:\n        return None\n    return Foo(x)", ("Foo()", False)),
        ("def f(x):\n    if x:\n        return Foo()\n    return Bar()", None),
        ("def f(self, x):\n    return x", None),
        ("def f():\n    yield Foo()", None),
        ("async def f():\n    return Foo()", None),
        ("def f() -> list[Foo]:\n    return [Foo()]", None),
    ],
)
def test_what_a_call_gives(source: str, gives: tuple[str, bool] | None) -> None:
    import ast

    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    assert returned(node, "p.C") == gives


def test_a_copy_keeps_the_class_of_the_attribute() -> None:
    text = dedent(
        """
        import copy


        class Field:
            def load(self):
                pass


        def make() -> Field:
            return Field()


        class List:
            def __init__(self):
                self.inner = make()
                self.inner = copy.deepcopy(self.inner)
                self.other = make()
                self.other = list(self.other)

            def load(self):
                self.inner.load()
                self.other.load()
        """
    ).lstrip()
    syms = extract_symbols(text, "m.py")
    table = build_table(syms, [module_scope(text, "m.py")])
    found = resolve_edges(extract_edges(text, "m.py", syms), table)
    by_ref = {e.dst_ref: e for e in found if e.src_qname == "m.List.load"}
    assert by_ref["m.List().inner.load"].dst_qname == "m.Field.load"  # a copy adds no class
    assert by_ref["m.List().other.load"].resolution != "resolved"  # `list(...)`: another one
