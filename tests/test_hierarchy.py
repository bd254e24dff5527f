"""What derives from a type and what it derives from, asked in words: the `inherits`
edges of real parses (Python's ast, Java's tree-sitter grammar), through the router."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query.router import route
from tests.sources import indexed_tree

LEXICAL = {"embed.provider": "none"}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("shapes")
    (root / "shapes").mkdir()
    (root / "shapes" / "base.py").write_text(
        '"""Shapes."""\n\n\nclass Shape:\n    """Anything with an area."""\n\n'
        "    def area(self):\n        raise NotImplementedError\n",
        encoding="utf-8",
    )
    (root / "shapes" / "flat.py").write_text(
        "from shapes.base import Shape\n\n\nclass Square(Shape):\n    def area(self):\n"
        "        return 4\n\n\nclass Circle(Shape):\n    def area(self):\n        return 3\n\n\n"
        "class Unit(Square):\n    pass\n\n\ndef uses_shape(s: Shape):\n    return s.area()\n"
        "\n\nclass ShapeError(ValueError):\n    pass\n\n\nclass Sized(Shape[int]):\n    pass\n",
        encoding="utf-8",
    )
    (root / "shapes" / "__init__.py").write_text('"""Shapes."""\n', encoding="utf-8")
    (root / "use.py").write_text("import shapes\n\nprint(shapes)\n", encoding="utf-8")
    (root / "Store.java").write_text(
        "interface Store { void put(String k); }\n\n"
        "class MemoryStore implements Store {\n  public void put(String k) {}\n}\n\n"
        "class DiskStore extends MemoryStore {\n  public void flush() {}\n}\n",
        encoding="utf-8",
    )
    eng = Engine.open(root, config=LEXICAL)
    eng.index()
    return eng


@pytest.mark.parametrize(
    ("query", "intent", "name"),
    [
        ("which classes inherit from Shape", "subclasses", "Shape"),
        ("subclasses of the class Shape", "subclasses", "Shape"),
        ("what implements Store", "subclasses", "Store"),
        ("implementations of Store", "subclasses", "Store"),
        ("what does Square extend", "bases", "Square"),
        ("base classes of Square", "bases", "Square"),
        ("what is DiskStore derived from", "bases", "DiskStore"),
    ],
)
def test_the_router_reads_a_lineage_question(query: str, intent: str, name: str) -> None:
    plan = route(query)
    assert (plan.intent, plan.names) == (intent, (name,)), plan.reasons


def _titles(eng: Engine, query: str) -> list[str]:
    result = eng.search(query, k=10)
    return [h.record.title for h in result.hits[: result.plan["route"]["routed_hits"]]]


def test_the_subclasses_of_a_type_are_the_classes_that_name_it_as_a_base(shapes: Engine) -> None:
    # the children in file order, then the grandchildren
    assert _titles(shapes, "which classes inherit from Shape") == [
        *("Square", "Circle", "Sized"),  # `Shape[int]`: a generic base
        "Unit",
    ]
    assert _titles(shapes, "subclasses of Square") == ["Unit"]
    assert _titles(shapes, "what implements Store") == ["MemoryStore", "DiskStore"]  # Java
    assert _titles(shapes, "what extends MemoryStore") == ["DiskStore"]  # and `extends`
    assert _titles(shapes, "subclasses of ValueError") == ["ShapeError"]  # a builtin base


def test_the_bases_of_a_type_are_shown_at_their_headers(shapes: Engine) -> None:
    top = shapes.search("what does Unit extend", k=3)[0].record
    assert (top.path, top.title, top.span_start) == ("shapes/flat.py", "Square", 4)
    assert _titles(shapes, "what does DiskStore extend") == ["MemoryStore"]
    # a type with no bases in the index: said so, and the plain search answers
    result = shapes.search("what does Shape extend", k=3)
    assert result.hits and any("Shape" in n for n in result.notes)


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("who imports shapes.base", "shapes.base"),
        ("where is shapes.base imported", "shapes.base"),
        ("which modules import Shape", "Shape"),
        ("importers of base.py", "base.py"),
        ("who imports src/shapes/base.py", "src/shapes/base.py"),
        ("кто импортирует shapes/base.py", "shapes/base.py"),
    ],
)
def test_the_router_reads_an_import_question(query: str, name: str) -> None:
    plan = route(query)
    assert (plan.intent, plan.names) == ("importers", (name,)), plan.reasons


def test_the_importers_of_a_module_are_the_chunks_that_import_it(shapes: Engine) -> None:
    queries = ("who imports shapes.base", "importers of base.py", "where is Shape imported")
    for query in (*queries, "who imports shapes/base.py", "who imports src/shapes/base.py"):
        result = shapes.search(query, k=5)
        routed = result.hits[: result.plan["route"]["routed_hits"]]
        assert [(h.record.path, h.record.span_start) for h in routed] == [("shapes/flat.py", 1)]
        assert any("imports shapes.base" in w for w in routed[0].why), query
    # a package's own file is the package
    result = shapes.search("who imports shapes/__init__.py", k=5)
    routed = result.hits[: result.plan["route"]["routed_hits"]]
    assert ("use.py", 1) in [(h.record.path, h.record.span_start) for h in routed]
    result = shapes.search("who imports shapes.nothing", k=5)
    assert any("nothing in the index imports" in n for n in result.notes)


def test_a_bare_base_means_the_type_of_its_own_namespace(tmp_path: Path) -> None:
    # Ruby: `class Readline < Basic` inside `Thor::LineEditor` derives from
    # `Thor::LineEditor::Basic`, not from the shell's `Basic`
    files = {
        "lib/thor/shell/basic.rb": (
            "class Thor\n  module Shell\n    class Basic\n    end\n  end\nend\n"
        ),
        "lib/thor/shell/color.rb": (
            "class Thor\n  module Shell\n    class Color < Basic\n    end\n  end\nend\n"
        ),
        "lib/thor/line_editor/basic.rb": (
            "class Thor\n  module LineEditor\n    class Basic\n    end\n  end\nend\n"
        ),
        "lib/thor/line_editor/readline.rb": (
            "class Thor\n  module LineEditor\n    class Readline < Basic\n    end\n  end\nend\n"
        ),
    }
    eng = indexed_tree(tmp_path, files)
    assert _titles(eng, "what implements Thor::Shell::Basic") == ["Thor.Shell.Color"]
    assert _titles(eng, "subclasses of Thor::LineEditor::Basic") == ["Thor.LineEditor.Readline"]
