"""A question that names the kind of definition besides its name: urfave/cli's `Command`
is a struct and `App.Command` a method; "where is the Command struct defined" asks for the
first, "the Command method" for the second (query/said_kinds.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata.query.said_kinds import of_kinds, said_kinds
from tests.sources import indexed_tree

FILES = {
    "app.go": (
        "package cli\n\ntype App struct {\n\tName string\n}\n\n"
        "// Command returns the named command on App.\n"
        "func (a *App) Command(name string) *Command {\n\treturn nil\n}\n"
    ),
    "command.go": (
        "package cli\n\n// Command is a subcommand.\ntype Command struct {\n\tName string\n}\n"
    ),
}


@pytest.mark.parametrize(
    ("query", "has", "lacks"),
    [
        ("where is the Command struct defined", "struct", "method"),
        ("where is the class Context defined", "class", "function"),
        ("where is the retry decorator defined", "function", "class"),
        ("where is the MAX_SIZE constant defined", "constant", "class"),
    ],
)
def test_the_kinds_a_question_says(query: str, has: str, lacks: str) -> None:
    name = query.split()[3] if "class" not in query else "Context"
    kinds = said_kinds(query, name)
    assert has in kinds and lacks not in kinds


def test_no_kind_said_keeps_every_match() -> None:
    assert said_kinds("where is Command defined", "Command") == ()
    assert said_kinds("where is the Class defined", "Class") == ()  # the name is no kind word

    class M:
        def __init__(self, kind: str) -> None:
            self.kind = kind

    both = [M("method"), M("struct")]
    assert [m.kind for m in of_kinds(both, said_kinds("the Command struct", "Command"))] == [
        "struct"
    ]
    assert of_kinds(both, ("enum",)) == both  # none of that kind: every match


def test_the_definition_of_the_kind_asked_first(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, FILES)

    def top(query: str) -> tuple[str, str]:
        hit = eng.search(query, k=3, mode="lexical").hits[0]
        return hit.record.path, hit.record.title

    assert top("where is the Command struct defined") == ("command.go", "Command")
    assert top("where is the class Command defined") == ("command.go", "Command")
    assert top("where is the Command method defined") == ("app.go", "App.Command")
