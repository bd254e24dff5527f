"""What the code marks in its lines: the TODO and FIXME comments it leaves, and what it
declares deprecated, asked for as a listing ("what TODOs are there", "which functions are
deprecated"); the passages with such a line come first, shown from it."""

from __future__ import annotations

import pytest

from strata import Engine
from strata.query.marked import MARKS, asks_for_marks
from strata.query.router import route
from tests.sources import indexed_tree

_FILLER = "\n".join(f"    total += {n}" for n in range(40))
SOURCES = {
    "app/billing.py": f"""
import warnings


def charge(amount):
    total = 0
{_FILLER}
    # TODO: retry when the gateway times out
    return total + amount


def old_charge(amount):
    warnings.warn("old_charge is deprecated, use charge", DeprecationWarning)
    return charge(amount)
""",
    "app/todo_list.py": """
        class TodoList:
            \"\"\"The todo app's list: items, not comments.\"\"\"

            def add(self, item):
                return [item]
    """,
    "tests/test_billing.py": """
        import pytest


        @pytest.mark.skip(reason="the gateway sandbox is down")
        def test_charge_retries():
            assert charge(1) == 1


        def test_charge_adds():
            assert charge(2) == 2
    """,
    "web/api.ts": """
        /** @deprecated use fetchUser */
        export function getUser(id: string) {
          return fetchUser(id);
        }

        export function fetchUser(id: string) {
          // FIXME: cache the answer
          return { id };
        }
    """,
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("marked"), SOURCES)


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("what TODOs are there", "todo"),
        ("list the TODO comments", "todo"),
        ("where are the FIXMEs", "todo"),
        ("any todos left?", "todo"),
        ("TODOs", "todo"),
        ("какие TODO есть", "todo"),
        ("which functions are deprecated", "deprecated"),
        ("what is deprecated", "deprecated"),
        ("list the deprecated APIs", "deprecated"),
        ("where are deprecation warnings emitted", "deprecated"),
        ("which tests are skipped", "skipped"),
        ("list the skipped tests", "skipped"),
        ("which tests are marked xfail", "skipped"),
        ("какие тесты пропущены", "skipped"),
        ("what does the test runner do", ""),
        ("what does the todo app do", ""),  # a todo list, no comment
        ("is old_charge deprecated", ""),  # about one name: the plain search
        ("Remove this hack once the gateway is fixed.", ""),  # a sentence, not a question
    ],
)
def test_a_question_asking_for_marked_lines(query: str, kind: str) -> None:
    assert asks_for_marks(query) == kind
    assert (route(query).intent == "marked") is bool(kind)


@pytest.mark.parametrize(
    ("kind", "line", "marks"),
    [
        ("todo", "    # TODO: retry", True),
        ("todo", "  // FIXME(ana): cache it", True),
        ("todo", " * XXX this breaks on Windows", True),
        ("todo", "-- HACK: until the driver is fixed", True),
        ("todo", 'label = "TODO list"', False),
        ("deprecated", "@Deprecated", True),
        ("deprecated", '#[deprecated(since = "1.2")]', True),
        ("deprecated", '[Obsolete("use Parse")]', True),
        ("deprecated", "warnings.warn(msg, DeprecationWarning)", True),
        ("deprecated", "// Deprecated: use NewReader.", True),
        ("deprecated", "    .. deprecated:: 3.0", True),
        ("deprecated", "deprecated = False", False),
        ("skipped", '@pytest.mark.skip(reason="down")', True),
        ("skipped", "@unittest.skipIf(WINDOWS, 'posix only')", True),
        ("skipped", "  it.skip('retries', () => {})", True),
        ("skipped", "xit('retries', function () {", True),
        ("skipped", '    t.Skip("slow")', True),
        ("skipped", "@Disabled", True),
        ("skipped", "#[ignore]", True),
        ("skipped", "def skip_whitespace(self):", False),
    ],
)
def test_the_lines_each_kind_marks(kind: str, line: str, marks: bool) -> None:
    assert bool(MARKS[kind].search(line)) is marks


@pytest.mark.parametrize(
    ("query", "kind", "files"),
    [
        ("what TODOs are there", "todo", {"app/billing.py", "web/api.ts"}),
        ("where are the FIXMEs", "todo", {"app/billing.py", "web/api.ts"}),
        ("which functions are deprecated", "deprecated", {"app/billing.py", "web/api.ts"}),
    ],
)
def test_the_marked_passages_come_first(
    app: Engine, query: str, kind: str, files: set[str]
) -> None:
    result = app.search(query, k=5, mode="lexical")
    assert result.plan["route"]["intent"] == "marked"
    first_two = result.hits[:2]
    assert {h.record.path for h in first_two} == files
    assert all(MARKS[kind].search(h.record.content) for h in first_two)
    assert "app/todo_list.py" not in [h.record.path for h in first_two]


def test_a_long_passage_is_shown_from_its_marked_line(app: Engine) -> None:
    top = app.search("any todos left?", k=3, mode="lexical").hits[0].record
    start, end = top.metadata["focus_start"], top.metadata["focus_end"]
    lines = (app.root / "app/billing.py").read_text(encoding="utf-8").split("\n")
    assert any("# TODO: retry" in text for text in lines[start - 1 : end])


def test_a_skipped_test_comes_first(app: Engine) -> None:
    result = app.search("which tests are skipped", k=3, mode="lexical")
    assert result.plan["route"]["intent"] == "marked"
    first = result.hits[0].record
    assert first.path == "tests/test_billing.py" and "@pytest.mark.skip" in first.content
