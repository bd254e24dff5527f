"""A pasted message is found where the code writes it (`strata.query.verbatim`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata.engine import Engine
from strata.query.verbatim import is_question, message_words, verbatim_parts
from strata.types import Record


def _rec(rid: str, content: str) -> Record:
    return Record(
        id=rid,
        path=f"{rid}.py",
        layer="C0_SOURCE_CHUNKS",
        title=rid,
        content=content,
        lang="python",
        span_start=1,
        span_end=content.count("\n") + 1,
        kind="function",
        is_test=False,
        metadata={},
        file_hash="h",
        content_hash=rid,
    )


def _recs(**contents: str) -> dict[str, Record]:
    return {rid: _rec(rid, text) for rid, text in contents.items()}


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("n must be greater than 0", ("n", "must", "be", "greater", "than", "0")),
        ('"n must be greater than 0"', ("n", "must", "be", "greater", "than", "0")),
        ("ValueError: n must be greater than 0", ("n", "must", "be", "greater", "than", "0")),
        ("[WARN] disk  almost full", ("disk", "almost", "full")),
        ("how do I retry a request", ()),  # a question is no message
        ("which tests are slow?", ()),
        ("retry policy", ()),  # two words are a phrase
    ],
)
def test_what_reads_as_a_pasted_message(query: str, words: tuple[str, ...]) -> None:
    assert message_words(query) == words


def test_a_message_counts_where_it_is_a_string_literal() -> None:
    words = message_words("window size must be at least 1")
    records = _recs(
        raises='if n < 1:\n    raise ValueError("window  size must be at least 1")',
        comment="# the window size must be at least 1 here\nreturn n",
        part='raise ValueError("size must be at least")',  # 4 of 7 words
        other="def windowed(seq, n):\n    return seq[:n]",
    )
    parts = verbatim_parts(records, words, unit=1.0)
    assert set(parts) == {"raises"}
    assert parts["raises"] == pytest.approx(2.0)  # the whole message: VERBATIM_BOOST units


def test_a_message_with_a_value_after_it_still_counts() -> None:
    words = message_words("unrecognized traceback string format 'xyz'")  # 5 words, 4 held
    records = _recs(t='raise ValueError("unrecognized traceback string format")')
    assert verbatim_parts(records, words, unit=1.0)["t"] == pytest.approx(2.0 * 4 / 5)


def test_a_sentence_counts_in_the_one_comment_that_says_it() -> None:
    words = message_words("Set the location header to the given url.")
    doc = "/**\n * Set the location header to\n * the given url.\n */\nres.location = f"
    records = _recs(
        location=doc,  # across the comment's lines, its marks aside
        redirect="/**\n * Redirect to the given url.\n */\nres.redirect = g",
        other="// the header\nconst url = 1",
    )
    assert verbatim_parts(records, words, unit=1.0) == {"location": pytest.approx(2.0)}
    # said in two places (a `.d.ts` beside its `.js`): neither is the one place
    twins = _recs(js=doc, dts=doc.replace("res.location = f", "location(url: string): this"))
    assert verbatim_parts(twins, words, unit=1.0) == {}
    # one place, and another within a fifth of the words of it: not the one place either
    near = _recs(set=doc, get=doc.replace("Set the", "Get the"))
    assert verbatim_parts(near, words, unit=1.0) == {}
    # a doc's markup reads as its rendered text does: `<see cref=".."/>`, `{@link ..}`
    xml = _recs(
        cs='/// <summary>\n/// Converts a <see cref="T:System.DateTime"/> to and from JSON.\n'
        "/// </summary>\npublic class IsoDateTimeConverter {}",
        java="/**\n * Converts a {@link DateTime} to and from XML.\n */\nclass Xml {}",
    )
    words = message_words("Converts a System.DateTime to and from JSON.")
    assert verbatim_parts(xml, words, unit=1.0) == {"cs": pytest.approx(2.0)}
    words = message_words("Converts a DateTime to and from XML.")
    assert verbatim_parts(xml, words, unit=1.0) == {"java": pytest.approx(2.0)}
    # a doc comment's line tags are markup (NatSpec's `@notice`, `@dev`): the summary and
    # the note after it read as one text, as the rendered doc shows them
    natspec = _recs(
        sol="/// @notice Returns the pool address for a pair of tokens\n"
        "/// @dev tokenA and tokenB may be passed in either order\n"
        "function getPool(address tokenA, address tokenB) external view returns (address);",
        other="/// @notice Returns the fee of the pool\nfunction fee() external view;",
    )
    words = message_words(
        "Returns the pool address for a pair of tokens tokenA and tokenB may be passed in "
        "either order"
    )
    assert verbatim_parts(natspec, words, unit=1.0) == {"sol": pytest.approx(2.0)}
    # four words are a phrase many places share, not a sentence to find
    assert verbatim_parts(records, message_words("the location header to"), unit=1.0) == {}


SOURCES = {
    "windows.py": """
def windowed(seq, n, fillvalue=None, step=1):
    items = list(seq)
    if n < 0:
        raise ValueError("window size must be at least 1")
    out = []
    for start in range(0, max(len(items) - n + 1, 1), step):
        chunk = items[start : start + n]
        out.append(tuple(chunk) + (fillvalue,) * (n - len(chunk)))
    return out
""",
    "sizes.py": """
def check_window_size(size):
    # A window size must be at least 1: a window of size 0 holds nothing, and the size
    # must be at least as small as the data. Each window size is checked here.
    return 1 <= size


def window_sizes(seq):
    # Every window size from at least 1 up to the size of seq: window size after size.
    return list(range(1, len(seq) + 1))
""",
    "README.md": "# Windows\n\nThe window size must be at least 1. A size of 1 is the least.\n",
}


def test_a_pasted_error_finds_the_line_that_raises_it(tmp_path: Path) -> None:
    for name, text in SOURCES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        for query in (
            "window size must be at least 1",
            "ValueError: window size must be at least 1",
            '"window size must be at least 1"',
        ):
            hit = eng.search(query, k=3).hits[0]
            assert (hit.record.path, hit.record.title) == ("windows.py", "windowed"), query
            assert "verbatim" in hit.parts


def test_a_pasted_line_of_code_counts_whole_anywhere_in_a_candidate() -> None:
    words = message_words("for start in range(0, len(items) - n + 1, step):")
    records = _recs(
        loop="out = []\nfor start in range(0,  len(items) - n + 1, step):\n  pass",
        near="for start in range(0, len(items), step):\n  pass",
    )
    assert set(verbatim_parts(records, words, unit=1.0)) == {"loop"}
    # a sentence with a name or two in it is prose, not a line of code: a doc comment that
    # says it counts as the one place that does, and two that do (twins) count for nothing
    sentence = "See `std.json.Token` for documentation of `nextAlloc*()` behavior."
    twins = _recs(a=f"/// {sentence}\nfn a() void {{}}", b=f"/// {sentence}\nfn b() void {{}}")
    assert verbatim_parts(twins, message_words(sentence), unit=1.0) == {}


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("how are routes registered", True),
        ("Why does get_logger return a proxy?", True),
        ("Is it a horizontal space character?", True),
        ("the reader's buffer size?", True),
        ("When the stream ends, the reader closes.", False),  # a statement that opens so
        ("HTTP router and middleware composition", False),  # a topic, not a question
        ("Returns the value of the header.", False),
    ],
)
def test_what_reads_as_a_question(query: str, asked: bool) -> None:
    assert is_question(query) is asked
