"""Two names compared ("what is the difference between ChoiceLoader and PrefixLoader",
"FileSystemLoader vs PackageLoader"): both definitions first, at their headers."""

from __future__ import annotations

import pytest

from strata import Engine
from strata.query.compare import compared
from strata.query.router import IndexFacts, route
from tests.sources import indexed_tree

SOURCES = {
    "app/loaders.py": """
        class ChoiceLoader:
            \"\"\"Tries each loader in turn.\"\"\"

            def load(self, name):
                return name


        class PrefixLoader:
            \"\"\"Picks a loader by the name's prefix.\"\"\"

            def load(self, name):
                return name


        def choose(loaders):
            \"\"\"The loader to use: a prefix loader or a choice loader.\"\"\"
            return ChoiceLoader() if loaders else PrefixLoader()
    """,
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("compare"), SOURCES)


@pytest.mark.parametrize(
    ("query", "pair"),
    [
        ("what is the difference between Template and Environment", ("Template", "Environment")),
        ("BoundLogger vs BoundLoggerLazyProxy", ("BoundLogger", "BoundLoggerLazyProxy")),
        ("compare dumps and dump", ("dumps", "dump")),
        ("how does ChoiceLoader differ from PrefixLoader?", ("ChoiceLoader", "PrefixLoader")),
        ("when should I use load instead of loads", ("load", "loads")),
        ("read_file or write_file", ("read_file", "write_file")),
        ("разница между dump и dumps", ("dump", "dumps")),
        ("cats and dogs", None),  # two words, not code
        ("Template or Environment", None),  # two words that may be code: not on their own
        ("what is the difference between A and A", None),
    ],
)
def test_two_names_compared(query: str, pair: tuple[str, str] | None) -> None:
    assert compared(query) == pair


def test_plain_words_only_when_the_index_defines_both() -> None:
    def kinds(name: str) -> set[str]:
        return {"list": {"class"}, "tuple": {"class"}}.get(name, set())

    facts = IndexFacts(defines=kinds)
    assert route("what is the difference between a list and a tuple?", facts).intent == "compare"
    assert route("what is the difference between a list and a set?", facts).intent != "compare"


def test_both_definitions_come_first(app: Engine) -> None:
    query = "what is the difference between ChoiceLoader and PrefixLoader"
    result = app.search(query, k=4, mode="lexical")
    assert result.plan["route"]["intent"] == "compare"
    assert {h.record.title for h in result.hits[:2]} == {"ChoiceLoader", "PrefixLoader"}
