"""Where a name is documented ("where is configure documented", "docs for wrap_logger") and
an example of its use ("show me an example of using bind", "how do I use wrap_logger"): the
documents that write it (then its docstring), or the passages that call it, documents
first, then tests, then code; never a sentence that only mentions docs or use."""

from __future__ import annotations

import pytest

from strata import Engine
from strata.query.documented import asked_usage, first_call
from strata.query.router import IndexFacts, route
from tests.sources import indexed_tree

SOURCES = {
    "src/logkit/config.py": """
        def configure(processors=None):
            \"\"\"Set the processors every logger uses.\"\"\"
            return processors or []


        def wrap_logger(logger):
            \"\"\"A bound logger around `logger`.\"\"\"
            return logger
    """,
    "src/logkit/setup.py": """
        from logkit.config import configure


        def setup_defaults():
            return configure(processors=[])
    """,
    "docs/configuration.md": """
        # Configuration

        ## Global settings

        Call `configure()` once, before any logger is made:

        ```python
        configure(processors=[add_timestamp])
        ```
    """,
    "docs/index.md": """
        # logkit

        Structured logging for Python.
    """,
    "tests/test_wrap.py": """
        from logkit.config import wrap_logger


        def test_wrap_logger_keeps_the_logger():
            logger = object()
            assert wrap_logger(logger) is logger
    """,
}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("usage"), SOURCES)


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("where is configure documented", ("documented", "configure")),
        ("docs for wrap_logger", ("documented", "wrap_logger")),
        ("is BoundLogger documented?", ("documented", "BoundLogger")),
        ("где описан configure", ("documented", "configure")),
        ("show me an example of using bind", ("example", "bind")),
        ("how do I use wrap_logger?", ("example", "wrap_logger")),
        ("usage of Command.option", ("example", "Command.option")),
        ("example usage of configure", ("example", "configure")),
        ("bind examples", ("example", "bind")),
        ("an example of this", ("", "")),
        ("See [Channel] interface documentation for details.", ("", "")),
        ("How do I use structlog with a logger object I did not create?", ("", "")),
    ],
)
def test_a_question_about_a_names_docs_or_use(query: str, asked: tuple[str, str]) -> None:
    assert asked_usage(query) == asked


def test_a_plain_word_only_when_the_index_defines_it() -> None:
    def kinds(name: str) -> set[str]:
        return {"plugin": {"class"}}.get(name, set())

    assert route("example of a plugin", IndexFacts(defines=kinds)).intent == "usage"
    assert route("example of a widget", IndexFacts(defines=kinds)).intent != "usage"


def test_a_call_is_not_a_definition() -> None:
    text = "def configure(x):\n    return x\nconfigure(1)\n"
    at = first_call(text, "configure")
    assert at is not None and text[at:].startswith("configure(1)")
    assert first_call("def configure(x):\n    pass\n", "configure") is None
    assert first_call("Config::new(path)", "Config") == 0


def test_the_documents_that_write_a_name_then_its_docstring(kit: Engine) -> None:
    result = kit.search("where is configure documented", k=4, mode="lexical")
    assert result.plan["route"]["intent"] == "usage"
    first, second = (h.record for h in result.hits[:2])
    assert first.path == "docs/configuration.md" and first.layer == "D0_DOC_CHUNKS"
    assert (second.path, second.metadata.get("qname")) == (
        "src/logkit/config.py",
        "logkit.config.configure",
    )


def test_an_example_is_a_call_in_the_docs_then_the_tests_then_code(kit: Engine) -> None:
    paths = [h.record.path for h in kit.search("how do I use configure", k=4, mode="lexical")]
    assert paths[:2] == ["docs/configuration.md", "src/logkit/setup.py"]
    tests = [h.record.path for h in kit.search("how do I use wrap_logger", k=3, mode="lexical")]
    assert tests[0] == "tests/test_wrap.py"
