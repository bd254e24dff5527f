"""Pseudo-relevance feedback: the code names a sentence's first candidates share."""

from __future__ import annotations

from strata.index.records import make_record
from strata.query import feedback
from strata.types import Record

# Three chunks as Strata cuts structlog 25.4's processors.py: the TimeStamper class
# header, its __setstate__, and the module's ExceptionRenderer header.
STAMPER = '''class TimeStamper:
    """
    Add a timestamp to ``event_dict``.
    """

    __slots__ = ("_stamper", "fmt", "key", "utc")

    def __init__(
        self,
        fmt: str | None = None,
        utc: bool = True,
        key: str = "timestamp",
    ) -> None:
        self.fmt, self.utc, self.key = fmt, utc, key

        self._stamper = _make_stamper(fmt, utc, key)'''
SETSTATE = """    def __setstate__(self, state: dict[str, Any]) -> None:
        self.fmt = state["fmt"]
        self.utc = state["utc"]
        self.key = state["key"]

        self._stamper = _make_stamper(**state)"""
RENDERER = """class ExceptionRenderer:
    def __init__(
        self,
        exception_formatter: ExceptionTransformer = _format_exception,
    ) -> None:
        self.format_exception = exception_formatter"""


def _chunk(title: str, text: str, start: int) -> Record:
    return make_record(
        id=f"src/structlog/processors.py:{start}",
        path="src/structlog/processors.py",
        layer="C0_SOURCE_CHUNKS",
        title=title,
        content=text,
        lang="python",
        file_hash="h",
        span=(start, start + text.count("\n")),
        kind="class",
    )


def test_code_names_are_the_identifier_shaped_words_as_lexical_tokens() -> None:
    names = feedback.code_names(STAMPER)
    assert {"make_stamper", "timestamper", "event_dict"} <= names
    assert not names & {"self", "timestamp", "fmt", "utc", "key"}  # plain words, short names


def test_names_two_first_candidates_share_extend_the_query() -> None:
    first = [
        _chunk("TimeStamper", STAMPER, 463),
        _chunk("TimeStamper.__setstate__", SETSTATE, 500),
        _chunk("ExceptionRenderer", RENDERER, 400),
    ]
    terms = ["timestamp", "string", "produced", "different", "formats"]
    assert feedback.expansion(first, terms) == ["make_stamper"]
    # a name the query already holds is not added again; one chunk's own names are not shared
    assert feedback.expansion(first, [*terms, "make_stamper"]) == []
    assert feedback.expansion(first[:1], terms) == []


def test_the_head_is_both_lists_fused() -> None:
    a, b, c = (_chunk(t, STAMPER, n) for t, n in (("a", 1), ("b", 40), ("c", 80)))
    lists = {"lexical": [(a, 9.0), (b, 5.0)], "semantic": [(c, 0.6), (b, 0.5)]}
    assert [r.id for r in feedback.head(lists, 2)] == [b.id, a.id]  # b in both lists
