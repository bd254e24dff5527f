"""Where a variable, field or attribute is written ("where is autoescape set", "who sets
self.cache", "what modifies _count"): the passages with a line that assigns it come first,
shown from that line; a comparison, a keyword argument or a longer name is no write."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query import line_steps
from strata.query.assigned import assigned_name, assigning
from strata.query.router import route
from tests.sources import indexed_tree

_FILLER = "\n".join(f"        self.knob_{n} = {n}" for n in range(40))
SOURCES = {
    "app/env.py": f"""
class Environment:
    \"\"\"Holds the settings; autoescape among them.\"\"\"

    def __init__(self, autoescape=False):
{_FILLER}
        self.autoescape = autoescape

    def render(self, text):
        if self.autoescape == True:
            return escape(text)
        return make(text, autoescape=self.autoescape)
""",
    "app/overlay.py": """
        def overlay(env, **options):
            \"\"\"A copy of `env` with other options; it may turn autoescape on.\"\"\"
            copy = clone(env)
            if "autoescape" in options:
                copy.autoescape = options["autoescape"]
            return copy
    """,
    "web/counter.ts": """
        export class Counter {
          private count = 0;

          hit(): number {
            this.count += 1;
            return this.count;
          }
        }
    """,
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("assigned"), SOURCES)


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("where is autoescape set", "autoescape"),
        ("where is self.environment assigned", "self.environment"),
        ("where is self.cache being set", "self.cache"),
        ("where is the globals attribute modified", "globals"),
        ("who sets _last_checked", "_last_checked"),
        ("what modifies self.cache", "self.cache"),
        ("where do we update the count", "count"),
        ("где присваивается count", "count"),
        ("where is logging set up", ""),  # a topic's verb
        ("where is autoescape defined", ""),  # a definition, not a write
        ("where is the stream set defined", ""),  # a `stream set`'s definition
        ("where is autoescape set in the environment?", "autoescape"),
    ],
)
def test_a_question_about_where_a_name_is_written(query: str, name: str) -> None:
    assert assigned_name(query) == name
    assert (route(query).intent == "assigned") is bool(name)


@pytest.mark.parametrize(
    ("line", "writes"),
    [
        ("        self.autoescape = autoescape", True),
        ("autoescape = True", True),
        ("this.autoescape += 1", True),
        ("@autoescape = true", True),
        ("$this->autoescape = $value;", True),
        ("autoescape := true", True),
        ("autoescape: bool = False", True),
        ("let autoescape = 1;", True),
        ("    self.autoescape == other", False),
        ("    autoescape=autoescape,", False),  # a keyword argument
        ("default_autoescape = 2", False),
        ("if autoescape:", False),
    ],
)
def test_the_lines_that_write_a_name(line: str, writes: bool) -> None:
    assert bool(assigning("autoescape").search(line)) is writes


def test_the_writing_lines_come_first_shown_from_them(app: Engine) -> None:
    result = app.search("where is autoescape set", k=4, mode="lexical")
    assert result.plan["route"]["intent"] == "assigned"
    first = result.hits[0].record
    assert {h.record.path for h in result.hits[:2]} == {"app/env.py", "app/overlay.py"}
    env = next(h.record for h in result.hits if h.record.path == "app/env.py")
    start, end = env.metadata["focus_start"], env.metadata["focus_end"]
    lines = (app.root / "app/env.py").read_text(encoding="utf-8").split("\n")
    assert any("self.autoescape = autoescape" in text for text in lines[start - 1 : end])
    assert first.path in {"app/env.py", "app/overlay.py"}


def test_an_augmented_write_through_this(app: Engine) -> None:
    first = app.search("what modifies count", k=3, mode="lexical").hits[0].record
    assert first.path == "web/counter.ts"


def test_a_name_nothing_writes_says_so(app: Engine) -> None:
    result = app.search("where is _last_checked assigned", k=3, mode="lexical")
    assert "no line assigns '_last_checked': plain search instead" in result.notes


def test_a_write_the_first_passages_lack_is_looked_for_deeper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # many passages say "constraints"; the one that writes it ranks past the first pool
    files = {
        f"framework/c{n}.py": f"def check_{n}(self, constraints):\n"
        "    return self.apply(constraints, self.constraints, this.constraints)\n"
        for n in range(6)
    }
    unrelated = "".join(f"        self.option_{n} = make_option({n})\n" for n in range(30))
    files["framework/builder.py"] = (
        f"class Builder:\n    def __init__(self, stack):\n{unrelated}"
        "        self.constraints = stack\n"
    )
    eng = indexed_tree(tmp_path, files)
    monkeypatch.setattr(line_steps, "POOL", 2)
    first = eng.search("where is constraints set", k=3, mode="lexical").hits[0].record
    assert first.path == "framework/builder.py"
    monkeypatch.setattr(line_steps, "DEEP_POOL", 2)  # no deeper look: the plain search
    result = eng.search("where is constraints set", k=3, mode="lexical")
    assert "no line assigns 'constraints': plain search instead" in result.notes
