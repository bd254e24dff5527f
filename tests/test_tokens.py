"""Code-aware tokens: ASCII text takes a faster pattern that must find the same words."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from strata.text.tokens import _WORD, lexical_text, words

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
