"""What a default is ("what is the default timeout", "what does follow_redirects default
to"): the lines that state it come first, a constant named for it, then a parameter or
field given a literal, then anything else, then a line saying `default`; the code's before
the tests'."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query.defaults import (
    Stated,
    default_asked,
    keyed,
    name_pattern,
    signature_defaults,
    stated,
)
from strata.query.lookup.given import given_defaults
from strata.query.router import route
from tests.sources import indexed_tree

SOURCES = {
    "client/config.py": """
        \"\"\"Settings of the client.\"\"\"

        DEFAULT_TIMEOUT = 5.0
        DEFAULT_MAX_REDIRECTS = 20


        def log_timeout(timeout):
            \"\"\"Log how long the timeout was.\"\"\"
            print("timeout", timeout)
    """,
    "client/session.py": """
        from client.config import DEFAULT_MAX_REDIRECTS


        class Session:
            def __init__(self, follow_redirects: bool = False, max_redirects=DEFAULT_MAX_REDIRECTS):
                self.follow_redirects = follow_redirects
                self.max_redirects = max_redirects

            def send(self, request, follow_redirects=None):
                if follow_redirects is None:
                    follow_redirects = self.follow_redirects
                return request.go(follow_redirects)
    """,
    "web/client.js": """
        export function get(url, { retries = 3, backoff = 'linear' } = {}) {
          return fetch(url, { retries, backoff });
        }
    """,
    "web/config.js": """
        const defaults = {
          adapter: ['xhr', 'http'],
          maxContentLength: -1,
          transformResponse: [function transformResponse(data) {
            return data;
          }],
        };

        export default defaults;
    """,
    "web/http.js": """
        // maxContentLength: the caller's, else the default one
        export function send(request, maxContentLength) {
          return request.body.length <= maxContentLength;
        }
    """,
    "tests/test_session.py": """
        from client.session import Session


        def test_follow_redirects():
            follow_redirects = True
            assert Session(follow_redirects=follow_redirects).follow_redirects
    """,
    "docs/usage.md": """
        # Usage

        The `follow_redirects` flag defaults to off; set it per request.
    """,
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("defaults"), SOURCES)


@pytest.mark.parametrize(
    ("query", "thing"),
    [
        ("what is the default timeout", "timeout"),
        ("what is the default value of max_redirects", "max_redirects"),
        ("what does follow_redirects default to", "follow_redirects"),
        ("what's the default line length", "line length"),
        ("what is the default timeout for the client", "timeout"),
        ("what is the default value for the line-length option", "line-length"),
        ("where is the default timeout set", "timeout"),
        ("how many retries by default", "retries"),
        ("what port does the server listen on by default", "port"),
        ("which encoding does it use by default", "encoding"),
        ("what is timeout set to by default", "timeout"),
        ("what is the default port number", "port"),
        ("значение по умолчанию для timeout", "timeout"),
        ("what is the default", ""),
        ("what is the default value", ""),
        ("what does the default encoder do", ""),  # a thing that is a default
        ("where is the timeout set", ""),  # where it is written: `assigned`
        ("where is the default tab width defined", ""),  # `default_tab_width`, a name
    ],
)
def test_a_question_about_a_default(query: str, thing: str) -> None:
    assert default_asked(query) == thing
    assert (route(query).intent == "default") is bool(thing)


@pytest.mark.parametrize(
    ("line", "how"),
    [
        ("DEFAULT_MAX_REDIRECTS = 20", Stated.NAMED),
        ("static final int DEFAULT_MAX_REDIRECTS = 20;", Stated.NAMED),
        ("#define DEFAULT_MAX_REDIRECTS 20", Stated.NAMED),
        ("const defaultMaxRedirects = 20", Stated.NAMED),
        ("def __init__(self, max_redirects=20):", Stated.GIVEN),
        ("def __init__(self, max_redirects=None):", Stated.PASSED),
        ("    max_redirects: int = 20,", Stated.GIVEN),
        ("    max_redirects: int = DEFAULT_MAX_REDIRECTS,", Stated.PASSED),
        ("  maxRedirects: 21, // the default", Stated.SAID),
        ("client.get(url, max_redirects=5)", None),  # a call's keyword
        ("self.max_redirects = max_redirects", None),  # a write
        ("if max_redirects == 20:", None),
    ],
)
def test_the_lines_that_state_it(line: str, how: Stated | None) -> None:
    assert stated(line, name_pattern("max redirects")) == how


def _first(eng: Engine, query: str, k: int = 3) -> list[tuple[str, str]]:
    result = eng.search(query, k=k, mode="lexical")
    assert result.plan["route"]["intent"] == "default"
    return [(h.record.path, h.record.title) for h in result.hits]


def test_a_constant_named_for_it_comes_first(client: Engine) -> None:
    assert _first(client, "what is the default timeout")[0][0] == "client/config.py"
    hits = _first(client, "what is the default value of max_redirects")
    assert hits[:2] == [("client/config.py", ""), ("client/session.py", "Session.__init__")]


def test_a_parameter_given_a_literal_before_a_test_or_a_doc(client: Engine) -> None:
    hits = _first(client, "what does follow_redirects default to", k=5)
    assert hits[0] == ("client/session.py", "Session.__init__")
    paths = [p for p, _ in hits]
    assert paths.index("docs/usage.md") < paths.index("tests/test_session.py")
    assert _first(client, "how many retries by default", k=1) == [("web/client.js", "get")]


def test_nothing_states_it_says_so_and_searches(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, {"lib/util.py": "def colour(name):\n    return name\n"})
    result = eng.search("what is the default colour", k=1, mode="lexical")
    assert "no line states the default of 'colour': plain search instead" in result.notes
    assert [h.record.path for h in result.hits] == ["lib/util.py"]


@pytest.mark.parametrize(
    ("signature", "given"),
    [
        ("def f(a, timeout: float = 5.0, mode=MODE)", [("timeout", 1), ("mode", 2)]),
        ("def g(self, *, retries=3, hook=None) -> None", [("retries", 1), ("hook", 2)]),
        ("export function get(url, { retries = 3 } = {})", [("retries", 1)]),
        ("fun connect(host: String, port: Int = 8080)", [("port", 1)]),
        ("def h(a, b)", []),
    ],
)
def test_the_defaults_a_signature_gives(signature: str, given: list[tuple[str, int]]) -> None:
    assert signature_defaults(signature) == [(n, Stated(how)) for n, how in given]


def test_the_catalogue_knows_which_signatures_give_a_default(client: Engine) -> None:
    # however many passages write the name, the definitions that give it one are found
    found = given_defaults(client.store, "max redirects")
    assert [(m.record.title.rsplit(".", 2)[-2:], how) for m, how in found] == [
        (["Session", "__init__"], Stated.PASSED)
    ]
    assert [m.name for m, _ in given_defaults(client.store, "follow_redirects")] == [
        "__init__",
        "send",
    ]


def test_a_key_of_a_mapping_of_defaults() -> None:
    # yamllint's rules: `CONF` types the options, `DEFAULT` gives their values
    lines = [
        "CONF = {'forbid': bool,",
        "        'max-spaces-inside': int}",
        "DEFAULT = {'forbid': False,",
        "           'max-spaces-inside': 0,",
        "           'max-spaces-inside-empty': -1}",
        "OTHER = {'max-spaces-inside': 5}",
    ]
    assert keyed(lines, name_pattern("max-spaces-inside")) == [(Stated.GIVEN, 3)]
    assert keyed(lines, name_pattern("forbid")) == [(Stated.GIVEN, 2)]


def test_a_js_defaults_object(client: Engine) -> None:
    hits = _first(client, "what is the default maxContentLength", k=2)
    assert [path for path, _ in hits] == ["web/config.js", "web/http.js"]  # then the comment
