"""Where an error is raised or thrown: the lines that raise it, whether the language makes
that a call (`raise PaymentError(...)`) or not (`raise LintError, msg`, `throw X.create()`)."""

from __future__ import annotations

import dataclasses

import pytest

from strata import Engine
from strata.query.fallback import raising
from strata.query.router import route
from strata.types import Hit
from tests.sources import indexed_tree

SOURCES = {
    "shop/errors.py": '''
        class PaymentError(Exception):
            """A payment the gateway refused."""
    ''',
    "shop/pay.py": """
        from shop.errors import PaymentError


        def charge(card, amount):
            if amount <= 0:
                raise PaymentError("amount must be positive")
            return card
    """,
    "lib/lint.rb": """
        module Lint
          class LintError < RuntimeError; end

          def self.check(env)
            raise LintError, "no env given" unless env
            env
          end
        end
    """,
    "src/Reader.cs": """
        public class ReaderException : System.Exception
        {
            public static ReaderException Create(string message) { return null; }
        }

        public class Reader
        {
            public void Read(string text)
            {
                if (text == null)
                    throw ReaderException.Create("nothing to read");
            }
        }
    """,
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("raised"), SOURCES)


@pytest.mark.parametrize(
    "query",
    [
        "where is PaymentError raised",
        "where is PaymentError thrown",
        "who raises PaymentError",
        "what throws PaymentError",
        "which functions raise PaymentError",
        "where do we raise PaymentError",
        "где выбрасывается PaymentError",
    ],
)
def test_a_question_about_raising_an_error_asks_for_its_callers(query: str) -> None:
    plan = route(query)
    assert (plan.intent, plan.names) == ("callers", ("PaymentError",)), plan.reasons
    assert plan.steps[0].args.get("raised") is True


def test_how_errors_are_raised_is_a_topic() -> None:
    assert route("how are errors raised in the parser").intent == "free_text"
    assert "raised" not in route("who calls PaymentError").steps[0].args


@pytest.mark.parametrize(
    ("query", "path", "line"),
    [
        ("where is PaymentError raised", "shop/pay.py", "raise PaymentError("),  # a call
        ("where is LintError raised", "lib/lint.rb", "raise LintError, "),  # not a call
        ("what throws ReaderException", "src/Reader.cs", "throw ReaderException.Create("),
    ],
)
def test_the_lines_that_raise_an_error_come_first(
    shop: Engine, query: str, path: str, line: str
) -> None:
    top = shop.search(query, k=3, mode="lexical")[0].record
    assert top.path == path and line in top.content, top


def test_a_raising_line_is_told_from_a_mention(shop: Engine) -> None:
    row = shop.records(limit=1)[0]

    def _hit(content: str) -> Hit:
        return Hit(dataclasses.replace(row, id=content, content=content), 1.0)

    hits = [
        _hit("class LintError(Exception): pass"),
        _hit("    raise LintError, 'no env'"),
        _hit("throw new Foo.Bar.LintError(msg);"),
        _hit("throw LintError.Create(msg);"),
        _hit("raise LintErrors('x')"),  # another name
        _hit("# we raise LintError when ..."),  # prose, no statement: still a raise line
    ]
    assert [h.record.content for h in raising("LintError", hits)] == [
        "    raise LintError, 'no env'",
        "throw new Foo.Bar.LintError(msg);",
        "throw LintError.Create(msg);",
        "# we raise LintError when ...",
    ]
