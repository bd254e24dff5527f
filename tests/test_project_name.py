"""A question that names the project it is asked of is embedded without the name
(query/project_name): the docs say the name in every section, the code seldom, so the
name pulls a question's vector towards the docs. The packaged model, a real index."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query.project_name import name_words, unnamed


def _kinds(defined: dict[str, set[str]]):  # type: ignore[no-untyped-def]
    return lambda name: defined.get(name, set())


def test_a_repositorys_name_gives_its_words() -> None:
    assert name_words(["devqs-structlog", "commander.js", "v2", "logrus"]) == {
        "devqs": False,
        "structlog": False,
        "commander": False,
        "logrus": True,  # a whole name
    }


@pytest.mark.parametrize(
    ("question", "defined", "expected"),
    [
        (
            "How does structlog skip its own frames?",
            {},
            "How does skip its own frames?",
        ),
        ("what is Structlog's default processor chain", {}, "what is default processor chain"),
        # a module or package so named is the project itself
        ("how does structlog bind loggers", {"structlog": {"module"}}, "how does bind loggers"),
        # a class so named is what may be asked about
        ("how does the Structlog class configure", {"Structlog": {"class"}}, None),
        ("what is structlog", {}, None),  # too little left
        ("how are frames skipped", {}, None),  # not named
    ],
)
def test_a_question_without_the_projects_name(
    question: str, defined: dict[str, set[str]], expected: str | None
) -> None:
    names = {"devqs": False, "structlog": True}
    assert unnamed(question, names, _kinds(defined)) == (expected or question)


def test_a_part_of_a_name_defined_as_a_module_is_that_module() -> None:
    # `web-server`'s `server.py`: "server" is no name of the whole project
    kinds = _kinds({"server": {"module"}})
    names = name_words(["web-server"])
    assert unnamed("how does the server handle requests", names, kinds).endswith(
        "server handle requests"
    )


README = "# Zephyrlog\n\n" + "\n\n".join(
    f"## {title}\n\nZephyrlog {text}. With zephyrlog you {more}.\n"
    for title, text, more in [
        ("Fields", "adds structured fields to every entry", "pass a map of fields"),
        ("Hooks", "fires hooks on every level", "add a hook to the logger"),
        ("Levels", "has seven levels", "set the level of the logger"),
        ("Formatters", "ships a text and a JSON formatter", "pick one at start"),
        ("Environments", "reads the environment for its settings", "configure it with vars"),
        ("Testing", "captures entries in tests", "assert on what was logged"),
    ]
)
GO = """package zephyr

import "os"

type TextFormatter struct {
\tForceColors   bool
\tDisableColors bool
\tisTerminal    bool
}

func (f *TextFormatter) isColored() bool {
\tcolored := f.ForceColors || f.isTerminal
\tif os.Getenv("CLICOLOR") == "0" {
\t\tcolored = false
\t}
\treturn colored && !f.DisableColors
}

func (f *TextFormatter) pad(s string, n int) string {
\tfor len(s) < n {
\t\ts += " "
\t}
\treturn s
}

func (f *TextFormatter) quote(s string) string {
\treturn "\\"" + s + "\\""
}
"""


def test_a_question_naming_the_project_finds_the_code(tmp_path: Path) -> None:
    root = tmp_path / "zephyrlog"
    root.mkdir()
    (root / "README.md").write_text(README, encoding="utf-8")
    (root / "text_formatter.go").write_text(GO, encoding="utf-8")
    eng = Engine.open(root)  # the packaged model
    eng.index()
    result = eng.search("how does zephyrlog decide whether to use colors", k=3)
    assert result.plan["embedded"] == "how does decide whether to use colors"
    assert result.hits[0].record.title == "TextFormatter.isColored"
    # a statement keeps the name: a doc comment says what the code says
    said = eng.search("Zephyrlog decides whether to use colors from the environment.", k=3)
    assert "embedded" not in said.plan
