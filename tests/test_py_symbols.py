"""C1 for Python: what `strata symbols` would list for a small real-looking module."""

from __future__ import annotations

from pathlib import Path

from strata.index.code.python.symbols import extract_symbols
from tests.sources import indexed_tree

SOURCE = '''
"""HTTP client."""
import typing

DEFAULT_TIMEOUT = 5.0
Headers = dict[str, str]


class Client(BaseClient):
    """Sends requests. Keeps a pool."""

    @retry(times=3)
    def send(self, request: Request, *, timeout: float | None = None) -> Response:
        """Send one request and return its response."""
        return request

    async def close(self) -> None:
        pass


def parse_cookies(header: str) -> dict[str, str]:
    """Parse a Cookie header into a dict."""
    return {}
'''


def _by_qname(path: str = "src/http/client.py") -> dict[str, object]:
    return {s.qname: s for s in extract_symbols(SOURCE, path)}


def test_every_definition_is_listed_with_its_qualified_name() -> None:
    syms = _by_qname()
    assert set(syms) == {
        "http.client.DEFAULT_TIMEOUT",
        "http.client.Headers",
        "http.client.Client",
        "http.client.Client.send",
        "http.client.Client.close",
        "http.client.parse_cookies",
    }
    kinds = {q: s.kind for q, s in syms.items()}  # type: ignore[attr-defined]
    assert kinds["http.client.Client.send"] == "method"
    assert kinds["http.client.Headers"] == "type_alias"
    assert kinds["http.client.DEFAULT_TIMEOUT"] == "constant"


def test_method_signature_span_summary_and_parent() -> None:
    syms = extract_symbols(SOURCE, "src/http/client.py")
    send = next(s for s in syms if s.name == "send")
    cls = next(s for s in syms if s.name == "Client")
    assert send.signature == (
        "def send(self, request: Request, *, timeout: float | None = None) -> Response"
    )
    assert send.summary == "Send one request and return its response."
    assert send.decorators == ("retry(times=3)",)
    assert (send.start_line, send.end_line) == (12, 15)  # the decorator line starts the span
    assert send.parent_symbol_id == cls.symbol_id == "src/http/client.py::http.client.Client"
    assert cls.bases == ("BaseClient",) and cls.summary == "Sends requests."
    assert next(s for s in syms if s.name == "close").signature.startswith("async def close(self)")


def test_test_files_are_flagged_and_redefinitions_get_distinct_ids() -> None:
    syms = extract_symbols("def f():\n    pass\n\ndef f():\n    pass\n", "tests/test_x.py")
    assert [s.symbol_id for s in syms] == [
        "tests/test_x.py::tests.test_x.f",
        "tests/test_x.py::tests.test_x.f#2",
    ]
    assert all(s.is_test for s in syms)


def test_overloads_declare_the_definition_after_them(tmp_path: Path) -> None:
    # tenacity's `retry`: two `@overload` signatures, then the body
    text = (
        "import typing as t\nfrom typing import overload\n\n"
        "@overload\ndef retry(func: t.Callable) -> t.Callable: ...\n\n"
        "@t.overload\ndef retry(*, times: int) -> t.Callable: ...\n\n"
        "def retry(*args, **kw):\n    return args[0]\n"
    )
    syms = [s for s in extract_symbols(text, "pkg/retrying.py") if s.name == "retry"]
    assert [s.declaration for s in syms] == [True, True, False]
    eng = indexed_tree(tmp_path, {"pkg/retrying.py": text})
    for query in ("retry", "where is retry defined", "where is the retry decorator defined"):
        hits = eng.search(query, k=3, mode="lexical").hits
        assert (hits[0].record.span_start, hits[0].record.title) == (10, "retry"), query


def test_invalid_python_yields_nothing() -> None:
    assert extract_symbols("def broken(:\n", "pkg/bad.py") == []


def test_class_attributes_are_fields() -> None:
    source = (
        "class Color(Enum):\n    RED = 1\n\n\n@dataclass\nclass Request:\n"
        '    """A request."""\n\n    url: str\n    retries: int = 3\n    _pool = {}\n\n'
        "    def send(self):\n        local = 1\n        self.sent = True\n"
    )
    syms = {s.qname: s for s in extract_symbols(source, "app/req.py")}
    fields = {q: (s.kind, s.start_line, s.signature) for q, s in syms.items() if s.kind != "class"}
    assert fields == {
        "app.req.Color.RED": ("field", 2, "RED = 1"),  # an enum member
        "app.req.Request.url": ("field", 9, "url: str"),
        "app.req.Request.retries": ("field", 10, "retries: int = 3"),
        "app.req.Request._pool": ("field", 11, "_pool = {}"),
        "app.req.Request.send": ("method", 13, "def send(self)"),  # its locals are no fields
    }
    assert syms["app.req.Request.url"].parent_symbol_id == syms["app.req.Request"].symbol_id
