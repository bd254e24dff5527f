"""How to run a project's own commands ("how do I run the tests", "how do I build the
docs", "what npm scripts are there"): the developers' documents' sections on it first,
then the lines that define such a command (scripts, targets, tox environments, nox
sessions), then the other documents' sections; a listing puts the definitions first."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query.dev_tasks import defines_task, task_asked
from strata.query.router import route
from tests.sources import indexed_tree

SOURCES = {
    "CONTRIBUTING.md": """
        # Contributing

        Thanks for helping.

        ## Running the tests

        Run `make test`, or `tox` for every Python.

        ## Building the docs

        Run `make docs`; the pages land in `docs/_build`.
    """,
    "README.md": """
        # Shop

        A shop.

        ## Testing

        See CONTRIBUTING.md.
    """,
    "Makefile": """
        .PHONY: test docs
        PYTHON := python3

        test:
        \t$(PYTHON) -m pytest

        docs:
        \tsphinx-build docs docs/_build
    """,
    "tox.ini": """
        [tox]
        envlist = py311

        [testenv]
        commands = pytest
    """,
    "web/package.json": """
        {
          "name": "shop-web",
          "scripts": {
            "build": "tsc",
            "test": "mocha"
          },
          "dependencies": {
            "test-utils": "1.0.0"
          }
        }
    """,
    "shop/runner.py": """
        def run_tests(suite):
            \"\"\"Run the tests of a suite (the shop's own test runner).\"\"\"
            return [case() for case in suite]
    """,
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("tasks"), SOURCES)


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("how do I run the tests", "test"),
        ("how to run the unit tests?", "test"),
        ("how are the tests run", "test"),
        ("how do I build the docs", "docs"),
        ("how do I build the project", "build"),
        ("how do I run the linter", "lint"),
        ("how do I format the code", "format"),
        ("how do I start the dev server", "dev"),
        ("what npm scripts are there", "list"),
        ("list the make targets", "list"),
        ("which tox environments are defined", "list"),
        ("как запустить тесты", "test"),
        ("how is the project tested", "test"),
        ("how do I test my changes?", "test"),
        ("what test framework does this project use", "test"),
        ("how is the parser tested", ""),  # a part's tests: the tests intent
        ("how does the test runner work", ""),
        ("how do I test a view", ""),
        ("how do I build a query", ""),
    ],
)
def test_a_question_about_the_projects_commands(query: str, kind: str) -> None:
    assert task_asked(query) == kind
    assert (route(query).intent == "tasks") is bool(kind)


@pytest.mark.parametrize(
    ("path", "text", "kind", "line"),
    [
        (
            "package.json",
            '{\n  "scripts": {\n    "build": "tsc",\n    "test": "jest"\n  }\n}',
            "test",
            3,
        ),
        ("package.json", '{\n  "devDependencies": {\n    "test-lib": "1"\n  }\n}', "test", None),
        ("Makefile", ".PHONY: test\nX := 1\ntest: deps\n\tpytest\n", "test", 2),
        ("Makefile", ".PHONY: test\nX := 1\ntest: deps\n\tpytest\n", "list", 2),
        ("tox.ini", "[tox]\nenvlist = py3\n\n[testenv]\ncommands = pytest\n", "test", 3),
        ("tox.ini", "[testenv]\n\n[testenv:docs]\ncommands = sphinx-build\n", "docs", 2),
        ("noxfile.py", "@nox.session\ndef tests(session):\n    session.run('pytest')\n", "test", 1),
        ("pyproject.toml", '[tool.poe.tasks]\ntest = "pytest"\n\n[tool.x]\nlint = 1\n', "test", 1),
        (
            "pyproject.toml",
            '[tool.poe.tasks]\ntest = "pytest"\n\n[tool.x]\nlint = 1\n',
            "lint",
            None,
        ),
        ("setup.py", "test: 1\n", "test", None),
        ("setup.cfg", "[metadata]\nname = x\n\n[tool:pytest]\naddopts = -q\n", "test", 3),
        ("pyproject.toml", '[project]\nname = "x"\n\n[tool.pytest.ini_options]\n', "test", 3),
        ("pyproject.toml", '[project]\nname = "x"\n\n[tool.pytest.ini_options]\n', "lint", None),
    ],
)
def test_the_lines_that_define_a_command(path: str, text: str, kind: str, line: int | None) -> None:
    assert defines_task(path, text, kind) == line


def _first(eng: Engine, query: str, k: int) -> list[tuple[str, str]]:
    result = eng.search(query, k=k, mode="lexical")
    assert result.plan["route"]["intent"] == "tasks"
    return [(h.record.path, h.record.title) for h in result.hits]


def test_the_developers_guide_then_the_definitions(shop: Engine) -> None:
    hits = _first(shop, "how do I run the tests", k=5)
    assert hits[0] == ("CONTRIBUTING.md", "Running the tests")
    paths = [p for p, _ in hits]
    # the definitions (the root's first), then the read-me's section
    assert paths[1:4] == ["Makefile", "tox.ini", "web/package.json"]
    assert paths[4] == "README.md"
    assert _first(shop, "how do I build the docs", k=2) == [
        ("CONTRIBUTING.md", "Building the docs"),
        ("Makefile", "docs"),
    ]


def test_pytests_table_after_the_tasks(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n',
        "tox.ini": "[tox]\nenvlist = py3\n\n[testenv]\ncommands = pytest\n",
        "lib/util.py": "def f():\n    pass\n",
    }
    paths = [p for p, _ in _first(indexed_tree(tmp_path, files), "how do I run the tests", k=2)]
    assert paths == ["tox.ini", "pyproject.toml"]


def test_a_listing_is_the_definitions_the_named_tools_first(shop: Engine) -> None:
    assert [p for p, _ in _first(shop, "what npm scripts are there", k=4)] == [
        "web/package.json",
        "CONTRIBUTING.md",  # its developers' guide on them, then the other tools' files
        "Makefile",
        "Makefile",
    ]
    assert [p for p, _ in _first(shop, "list the make targets", k=3)] == ["Makefile"] * 2 + [
        "CONTRIBUTING.md"
    ]


def test_no_command_says_so_and_searches(tmp_path: Path) -> None:
    files = {"README.md": "# Util\n\nHelpers.\n", "lib/util.py": "def run_tests():\n    pass\n"}
    result = indexed_tree(tmp_path, files).search("how do I run the tests", k=1, mode="lexical")
    assert "no document or manifest says how: plain search instead" in result.notes
    assert [h.record.path for h in result.hits] == ["lib/util.py"]
