"""Routed searches never return fewer results than the plain search (issue 15, item 1)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from strata import Engine
from tests.sources import indexed_tree

FILES = {
    "fmt/formatting.py": '''
        """Help text formatting."""


        class HelpFormatter:
            """Formats help pages."""

            def __init__(self, width: int | None = None, max_content_width: int | None = None):
                self.width = min(width or 80, max_content_width or 80)


        def wrap(text: str, width: int) -> str:
            """Show type information for each parameter in the help text."""
            return text[:width]
    ''',
    "fmt/context.py": '''
        """The invocation context."""


        class Context:
            """One invocation."""

            def __init__(self, resilient_parsing: bool = False, max_content_width: int = 0):
                self.resilient_parsing = resilient_parsing
                self.max_content_width = max_content_width

            def make_formatter(self) -> object:
                """A formatter for this context's width."""
                from fmt.formatting import HelpFormatter

                return HelpFormatter(max_content_width=self.max_content_width)
    ''',
    "fmt/core.py": '''
        """Commands."""


        def parse_args(ctx: object, args: list[str]) -> list[str]:
            """Parse the arguments unless parsing is resilient."""
            if getattr(ctx, "resilient_parsing", False):
                return []
            return list(args)


        def fine(needle_ok: bool) -> bool:
            """Whether the needle is fine."""
            return needle_ok
    ''',
    "docs/usage.md": """
        # Usage

        Set `max_content_width` on the context to widen the help page.
    """,
}
RUST = {
    "src/parser.rs": """
        /// The parser is built from a token stream.
        pub fn build_parser(tokens: Vec<String>) -> Parser {
            Parser { tokens }
        }

        pub struct Parser {
            tokens: Vec<String>,
        }
    """,
    "README.md": """
        # Parser

        How the parser is built: from tokens, in one pass.
    """,
}


@pytest.fixture(scope="module")
def fmt(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("fmt"), FILES)


@pytest.fixture(scope="module")
def rust(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("rusty"), RUST)


def _files(eng: Engine, query: str, k: int = 10) -> list[str]:
    return [h.record.path for h in eng.search(query, k, mode="lexical")]


@pytest.mark.parametrize("name", ["max_content_width", "resilient_parsing"])
def test_a_name_that_is_no_symbol_finds_where_it_occurs(fmt: Engine, name: str) -> None:
    assert not fmt.symbols(name, exact=True)  # a parameter and attribute, not a definition
    result = fmt.search(name, mode="lexical")
    assert result.plan["route"]["intent"] == "symbol"
    occurs = {rel for rel, text in FILES.items() if name in text}
    assert occurs <= {h.record.path for h in result}
    assert any(name in h.record.content for h in result.hits[:1])
    assert any(f"falling back to where {name!r} occurs" in n for n in result.notes)


def test_a_multi_word_query_with_such_a_name_is_not_empty(fmt: Engine) -> None:
    assert "fmt/core.py" in _files(fmt, "fine needle_ok")


def test_show_type_information_is_not_a_lookup_of_information(fmt: Engine) -> None:
    result = fmt.search("show type information", mode="lexical")
    assert result.plan["route"]["intent"] == "symbol"  # the rule read `information` as a name
    assert result.hits and result.hits[0].record.path == "fmt/formatting.py"
    assert "Show type information" in result.hits[0].record.content


def test_a_guessed_language_that_matches_nothing_is_dropped(rust: Engine) -> None:
    query = "how is the parser built in the Python module"
    result = rust.search(query, mode="lexical")
    assert result.plan["route"]["filters"].get("lang") == "python"
    assert {h.record.path for h in result} >= {"src/parser.rs"}
    assert any("(lang=python) matched nothing: dropped" in n for n in result.notes)
    plan = rust.plan(query)
    assert any("dropped" in line for line in plan.with_notes(result.notes).describe())


def test_a_flag_given_by_the_caller_is_never_dropped(rust: Engine) -> None:
    result = rust.search("parser built", filters={"lang": "python"}, mode="lexical")
    assert not result.hits


@pytest.mark.parametrize(
    "query",
    [
        "max_content_width",
        "where is resilient_parsing defined",
        "who calls max_content_width",
        "what does needle_ok call",
        "show type information",
        "fine needle_ok",
        "HelpFormatter",
        "which endpoints format the help page",
    ],
)
def test_routed_never_returns_fewer_than_plain(fmt: Engine, query: str) -> None:
    routed = fmt.search(query, mode="lexical")
    plain = fmt.search(query, mode="lexical", route=False)
    assert plain.hits  # each query has words the corpus holds
    assert len(routed) >= len(plain), (query, routed.notes)


def test_in_semantic_mode_the_names_occurrences_come_first(tmp_path: Path) -> None:
    files = dict(FILES)
    for i in range(12):  # chunks about widths and help pages that never name the parameter
        files[f"fmt/extra{i}.py"] = f'''
            def width_rule_{i}(columns: int) -> int:
                """The maximum width of the help content, rule {i}."""
                return min(columns, 80 - {i})
        '''
    eng = Engine.open(tmp_path, config={"embed.provider": "local"})
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    eng.index()
    result = eng.search("max_content_width", mode="semantic")
    code = [h for h in result if h.record.path.startswith("fmt/")]
    holding = [h for h in code if "max_content_width" in h.record.content]
    assert len(holding) == 3  # Context.__init__, Context.make_formatter, HelpFormatter.__init__
    assert code[:3] == holding, [h.record.path for h in result]  # before the look-alikes
    assert "docs/usage.md" in [h.record.path for h in result]
