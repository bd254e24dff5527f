"""Which environment variables the code reads: the passages that read one, in any of the
usual ways, those of a variable the question names first."""

from __future__ import annotations

import pytest

from strata import Engine
from strata.query.environment import READS, asks_for_env
from strata.query.router import route
from tests.sources import indexed_tree

SOURCES = {
    "app/settings.py": """
        import os


        def token():
            return os.environ.get("APP_TOKEN", "")


        def describe_environment():
            \"\"\"The environment this app runs in: a word here, no variable read.\"\"\"
            return "production"
    """,
    "web/server.js": """
        function mode() {
          return process.env.NODE_ENV || 'development';
        }
    """,
    "cmd/home.go": """
        package cmd

        import "os"

        func Home() string {
            return os.Getenv("HOME")
        }
    """,
    "lib/config.rb": """
        module Config
          def self.env
            ENV.fetch("RACK_ENV", "development")
          end
        end
    """,
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("env"), SOURCES)


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("which environment variables does this project read", True),
        ("what env vars are used", True),
        ("where are environment variables read", True),
        ("list the environment variables", True),
        ("what environment variables can I set", True),
        ("where is the NODE_ENV environment variable read", True),
        ("where is RACK_ENV read from the environment", True),
        ("какие переменные окружения читает проект", True),
        ("how does the environment work", False),  # a topic
        ("what does describe_environment do", False),
        ("where is NODE_ENV read", False),  # a name: the plain search finds it
    ],
)
def test_a_question_about_environment_variables(query: str, asks: bool) -> None:
    assert asks_for_env(query) is asks
    assert (route(query).intent == "environment") is asks


def test_the_lines_that_read_a_variable_in_each_language() -> None:
    reading = [
        'os.environ["A"]',
        'os.getenv("A")',
        "process.env.NODE_ENV",
        'System.getenv("A")',
        'os.Getenv("HOME")',
        'ENV["RACK_ENV"]',
        'ENV.fetch("RACK_ENV")',
        'getenv("LUA_PATH")',
        "$ENV{PAGER}",
        'System.get_env("EDITOR")',
        'std::env::var("CARGO")',
        'Environment.GetEnvironmentVariable("X")',
    ]
    assert all(READS.search(line) for line in reading)
    assert not any(READS.search(t) for t in ("environment = 'prod'", "env = make_env()"))


def test_every_passage_that_reads_one_comes_first(app: Engine) -> None:
    result = app.search("which environment variables does this project read", k=4, mode="lexical")
    assert result.plan["route"]["intent"] == "environment"
    assert {h.record.path for h in result.hits[:4]} == {
        "app/settings.py",
        "web/server.js",
        "cmd/home.go",
        "lib/config.rb",
    }
    assert all(READS.search(h.record.content) for h in result.hits[:4])


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("where is the APP_TOKEN environment variable read", "app/settings.py"),
        ("where is RACK_ENV read from the environment", "lib/config.rb"),
        ("where is the HOME environment variable read", "cmd/home.go"),
    ],
)
def test_a_named_variable_is_found_where_it_is_read(app: Engine, query: str, path: str) -> None:
    assert app.search(query, k=3, mode="lexical")[0].record.path == path
