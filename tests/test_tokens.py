"""Code-aware tokens: ASCII text takes a faster pattern that must find the same words."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from strata.text.tokens import _WORD, lexical_text, query_terms, words

ascii_code = st.text(alphabet=string.printable, max_size=300)
any_text = st.text(max_size=300)


@given(ascii_code)
def test_ascii_text_gives_the_words_of_the_unicode_pattern(text: str) -> None:
    assert words(text) == _WORD.findall(text)


@given(any_text)
def test_any_text_gives_the_words_of_the_unicode_pattern(text: str) -> None:
    assert words(text) == _WORD.findall(text)


def test_identifiers_are_split_and_kept_whole() -> None:
    assert words("__init__(self, raw_header) -> HTTPServerError") == [
        "init",
        "self",
        "raw_header",
        "HTTPServerError",
    ]
    assert lexical_text("parse_header(raw)") == "parseheader parse_header parse header raw"
    assert lexical_text("сумма_заказа") == "суммазаказа сумма_заказа сумма заказа"


def test_a_name_and_its_number_as_code_joins_them() -> None:
    # prose writes `HTTP/2`, `UTF-8`, `SHA-256`; code `http2`, `utf8`, `sha256`: a query
    # finds both (a document's `http2` is indexed as `http2 http 2`)
    assert query_terms("where is HTTP/2 enabled") == ["http", "2", "enabled", "http2"]
    assert "utf8" in query_terms("decode UTF-8 text") and "sha256" in query_terms("SHA-256")
    assert "http2" in lexical_text("def connect(http2: bool)").split()
    # numbers alone and one letter are no such name: nothing joined
    assert query_terms("a 2-3 range, x-1 and v1.2") == ["2", "3", "range", "x", "1", "v1", "v"]
