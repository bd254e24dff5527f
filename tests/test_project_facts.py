"""What the project's manifests answer: its dependencies ("what are the dependencies of
this project") and its version ("what version is this"); the lines that state them come
first, the root's manifest before a vendored copy's, a written number before a pointer."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query.project_facts import LINES, asks_about_project, is_source
from strata.query.router import route
from tests.sources import indexed_tree

SOURCES = {
    "pyproject.toml": """
        [project]
        name = "shop"
        dynamic = ["version"]
        dependencies = [
            "httpx>=0.27",
            "pydantic>=2",
        ]

        [tool.setuptools.dynamic]
        version = {attr = "shop.__version__"}
    """,
    "shop/__init__.py": """
        \"\"\"The shop: carts and checkout.\"\"\"

        __version__ = "2.4.1"
    """,
    "shop/_vendor/tinyjson/__init__.py": """
        __version__ = "0.9.0"
    """,
    "shop/cart.py": """
        def version_of(cart):
            \"\"\"A cart's version: how often it changed, not the package's.\"\"\"
            return cart.changes


        def resolve_dependencies(items):
            \"\"\"The items each item needs in the cart.\"\"\"
            return {item: [] for item in items}
    """,
    "web/package.json": """
        {
          "name": "shop-web",
          "version": "1.0.0",
          "dependencies": {
            "react": "^18.0.0"
          }
        }
    """,
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("project"), SOURCES)


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("what are the dependencies of this project", "dependencies"),
        ("which packages does this depend on", "dependencies"),
        ("list the dependencies", "dependencies"),
        ("where are the dependencies declared", "dependencies"),
        ("какие зависимости у проекта", "dependencies"),
        ("what version is this", "version"),
        ("what is the current version", "version"),
        ("what is the latest version", "version"),
        ("which version is this", "version"),
        ("where is the version number defined", "version"),
        ("where is version defined", ""),  # a name `version`: the symbol
        ("how does dependency injection work", ""),
        ("what does resolve_dependencies do", ""),
        ("Resolve the dependencies of a target.", ""),
    ],
)
def test_a_question_about_the_project(query: str, kind: str) -> None:
    assert asks_about_project(query) == kind
    assert (route(query).intent == "project") is bool(kind)


@pytest.mark.parametrize(
    ("kind", "line", "states"),
    [
        ("dependencies", "dependencies = [", True),
        ("dependencies", "[tool.poetry.dependencies]", True),
        ("dependencies", "install_requires =", True),
        ("dependencies", '  "dependencies": {', True),
        ("dependencies", "[dependencies]", True),  # Cargo.toml
        ("dependencies", "require (", True),  # go.mod
        ("dependencies", "  spec.add_dependency 'rack'", True),
        ("dependencies", "def resolve_dependencies(items):", False),
        ("version", '__version__ = "2.4.1"', True),
        ("version", "APP_VERSION = '1.35.1'", True),
        ("version", 'version_info = (7, 6, 1, "final", 0)', True),
        ("version", '  "version": "1.0.0",', True),
        ("version", "VERSION = os.getenv('V')", False),
        ("version", "def version_of(cart):", False),
    ],
)
def test_the_lines_that_state_it(kind: str, line: str, states: bool) -> None:
    assert bool(LINES[kind].search(line)) is states


def test_the_files_that_state_it() -> None:
    assert is_source("dependencies", "Cargo.toml") and is_source("dependencies", "a/go.mod")
    assert is_source("version", "shop/__init__.py") and is_source("version", "src/_version.py")
    assert not is_source("dependencies", "shop/__init__.py")


def test_the_roots_manifest_states_the_dependencies(shop: Engine) -> None:
    result = shop.search("what are the dependencies of this project", k=4, mode="lexical")
    assert result.plan["route"]["intent"] == "project"
    paths = [h.record.path for h in result.hits]
    assert paths[:2] == ["pyproject.toml", "web/package.json"]
    assert paths.index("web/package.json") < paths.index("shop/cart.py")


def test_the_version_is_where_its_number_is_written(shop: Engine) -> None:
    paths = [h.record.path for h in shop.search("what version is this", k=5, mode="lexical")]
    # the numbers first (the root's pyproject only points to one), a vendored copy's after
    assert set(paths[:2]) == {"shop/__init__.py", "web/package.json"}
    assert paths.index("shop/_vendor/tinyjson/__init__.py") == 2


def test_a_tree_without_manifests_says_so_and_searches(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, {"lib/util.py": "def version_string():\n    return 'x'\n"})
    result = eng.search("what version is this", k=3, mode="lexical")
    assert "no manifest line states the version: plain search instead" in result.notes
    assert [h.record.path for h in result.hits] == ["lib/util.py"]
