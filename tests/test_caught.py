"""Where an error is caught ("where is TemplateNotFound caught", "who catches IOException"):
the passages with a line that catches it come first, in each language's way, shown from
that line; not the error's own definition."""

from __future__ import annotations

import pytest

from strata import Engine
from strata.query.caught import catching, caught_name
from strata.query.router import route
from tests.sources import indexed_tree

_FILLER = "\n".join(f"        names.append({n})" for n in range(40))
SOURCES = {
    "tmpl/errors.py": """
        class TemplateNotFound(IOError):
            \"\"\"Raised when a template does not exist.\"\"\"
    """,
    "tmpl/loaders.py": f"""
from tmpl.errors import TemplateNotFound


def first_found(loaders, name):
    names = []
{_FILLER}
    for loader in loaders:
        try:
            return loader.load(name)
        except (KeyError, TemplateNotFound):
            continue
    raise TemplateNotFound(name)
""",
    "app/Reader.java": """
        package app;

        public class Reader {
            public String read(String path) {
                try {
                    return Files.readString(path);
                } catch (IOException | SecurityException e) {
                    return "";
                }
            }
        }
    """,
    "lib/server.rb": """
        module Server
          def self.serve(app)
            app.call
          rescue Errno::ECONNRESET, Timeout::Error => e
            nil
          end
        end
    """,
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("caught"), SOURCES)


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("where is TemplateNotFound caught", "TemplateNotFound"),
        ("where is TemplateNotFound handled", "TemplateNotFound"),
        ("where is ValueError being caught", "ValueError"),
        ("who catches IOException", "IOException"),
        ("which functions handle ValidationError", "ValidationError"),
        ("where do we handle io.EOF", "io.EOF"),
        ("где перехватывается KeyError", "KeyError"),
        ("where are errors handled", ""),  # a topic
        ("where is ParseError handled in the loader", "ParseError"),
        ("where is ParseError handled differently", ""),
        ("how is ValueError handled", ""),  # how, not where: the plain search
        ("CouchDB handler for Doctrine CouchDB ODM", ""),  # a class's summary
    ],
)
def test_a_question_about_where_an_error_is_caught(query: str, name: str) -> None:
    assert caught_name(query) == name
    assert (route(query).intent == "caught") is bool(name)


@pytest.mark.parametrize(
    ("line", "catches"),
    [
        ("        except TemplateNotFound as e:", True),
        ("except (KeyError, jinja2.TemplateNotFound):", True),
        ("} catch (TemplateNotFound e) {", True),
        ("catch (IOException | TemplateNotFound e)", True),
        ("catch (e: TemplateNotFound) {", True),
        ("rescue Foo::TemplateNotFound => e", True),
        ("rescue e in TemplateNotFound ->", True),
        ("case e: TemplateNotFound =>", True),
        ("if (err instanceof TemplateNotFound) {", True),
        ("if errors.Is(err, TemplateNotFound) {", True),
        ("except TemplateNotFoundError:", False),
        ("raise TemplateNotFound(name)", False),
        ("class TemplateNotFound(IOError):", False),
    ],
)
def test_the_lines_that_catch_an_error(line: str, catches: bool) -> None:
    assert bool(catching("TemplateNotFound").search(line)) is catches


@pytest.mark.parametrize(
    ("query", "path", "line"),
    [
        ("where is TemplateNotFound caught", "tmpl/loaders.py", "except (KeyError, Templ"),
        ("who catches SecurityException", "app/Reader.java", "catch (IOException | Secu"),
        ("where is Timeout::Error rescued", "lib/server.rb", "rescue Errno::ECONNRESET"),
    ],
)
def test_the_catching_line_comes_first(app: Engine, query: str, path: str, line: str) -> None:
    result = app.search(query, k=3, mode="lexical")
    assert result.plan["route"]["intent"] == "caught"
    first = result.hits[0].record
    assert first.path == path
    start = first.metadata.get("focus_start", first.span_start)
    end = first.metadata.get("focus_end", first.span_end)
    text = (app.root / path).read_text(encoding="utf-8").split("\n")[start - 1 : end]
    assert any(line in shown for shown in text)


def test_an_error_nothing_catches_says_so(app: Engine) -> None:
    result = app.search("where is ZeroDivisionError caught", k=3, mode="lexical")
    assert "no line catches 'ZeroDivisionError': plain search instead" in result.notes
