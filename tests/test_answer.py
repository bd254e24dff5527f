"""The pure parts of `strata ask`: packing the context, checking citations, hiding thinking."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from strata.answer.cite import CitationFilter, check
from strata.answer.prompt import estimate_tokens, messages, pack
from strata.answer.think import ThinkSplitter
from strata.types import Hit, Record


def record(path: str, start: int, lines: int, title: str = "f", width: int = 30) -> Record:
    text = "\n".join(f"line {start + i} ".ljust(width, "x") for i in range(lines))
    return Record(
        id=f"{path}:{start}",
        path=path,
        layer="C0_SOURCE_CHUNKS",
        title=title,
        content=text,
        lang="python",
        span_start=start,
        span_end=start + lines - 1,
        kind="function",
        is_test=False,
        metadata={},
        file_hash="h",
        content_hash="c",
    )


def hit(path: str, start: int, lines: int, **kw: object) -> Hit:
    return Hit(record(path, start, lines, **kw), 1.0)  # type: ignore[arg-type]


# ---- prompt ----------------------------------------------------------------------------


def test_pack_keeps_rank_order_and_numbers_from_one() -> None:
    hits = [hit("b.py", 10, 5), hit("a.py", 1, 5)]
    ctx = pack(hits, budget=10_000)
    assert [(s.n, s.hit.record.path) for s in ctx.sources] == [(1, "b.py"), (2, "a.py")]
    assert ctx.left_out == 0
    assert ctx.tokens == sum(estimate_tokens(s.block()) for s in ctx.sources)


def test_pack_never_exceeds_the_budget_and_cuts_only_at_line_ends() -> None:
    hits = [hit("a.py", 1, 10), hit("b.py", 100, 200), hit("c.py", 5, 4)]
    budget = estimate_tokens(pack(hits[:1], 10_000).sources[0].block()) + 300
    ctx = pack(hits, budget)
    assert ctx.tokens <= budget
    cut = ctx.sources[1]
    assert cut.hit.record.path == "b.py"
    assert cut.start_line == 100
    assert cut.end_line is not None and 100 + 3 <= cut.end_line < 299
    kept = cut.text.split("\n")
    assert len(kept) == cut.end_line - cut.start_line + 1
    assert kept == cut.hit.record.content.split("\n")[: len(kept)]  # whole lines, in order


def test_pack_leaves_out_what_does_not_fit_and_skips_what_is_covered() -> None:
    big = hit("a.py", 1, 2, width=4000)  # two huge lines: no three whole lines fit
    inner = hit("c.py", 3, 2)
    hits = [hit("c.py", 1, 10), big, inner, hit("d.py", 1, 3)]
    ctx = pack(hits, budget=1000)
    assert [s.hit.record.path for s in ctx.sources] == ["c.py", "d.py"]
    assert ctx.left_out == 1  # the huge one; the covered one is not counted


def test_messages_hold_every_source_block_and_the_question() -> None:
    ctx = pack([hit("pkg/mod.py", 7, 3, title="Client.send")], 10_000)
    system, user = messages("  how does send work? ", ctx)
    assert system.role == "system" and "[1]" in system.content
    assert "[1] pkg/mod.py:7-9 C0_SOURCE_CHUNKS (Client.send)\nline 7" in user.content
    assert user.content.endswith("Question: how does send work?")


# ---- citations -------------------------------------------------------------------------


def test_check_keeps_valid_markers_and_removes_invented_ones() -> None:
    checked = check("Retries live in the transport [1]. Backoff is exponential [7][2].", 3)
    assert checked.text == "Retries live in the transport [1]. Backoff is exponential [2]."
    assert checked.cited == (1, 2)
    assert checked.invalid == (7,)


def test_check_rewrites_a_list_and_leaves_code_alone() -> None:
    checked = check("See [1, 9; 3] and items[5] and f()[0] but not [0].", 3)
    assert checked.text == "See [1, 3] and items[5] and f()[0] but not."
    assert checked.cited == (1, 3)
    assert checked.invalid == (9, 0)


def test_check_of_an_answer_without_markers_cites_nothing() -> None:
    checked = check("I do not know.", 4)
    assert (checked.cited, checked.invalid) == ((), ())


ANSWER = st.lists(
    st.sampled_from(["word", " ", "[", "]", "1", "7", ",", "x[", "2]", ".", "(", ")", "\n"]),
    max_size=40,
).map("".join)


@given(ANSWER, st.lists(st.integers(1, 6), max_size=20), st.integers(0, 4))
def test_the_stream_filter_shows_exactly_what_check_returns(
    text: str, cuts: list[int], count: int
) -> None:
    f = CitationFilter(count)
    shown, at = [], 0
    for size in cuts:
        shown.append(f.feed(text[at : at + size]))
        at += size
    shown.append(f.feed(text[at:]))
    shown.append(f.flush())
    assert "".join(shown) == check(text, count).text == f.result().text


# ---- thinking --------------------------------------------------------------------------


def split_all(text: str, size: int) -> tuple[str, str]:
    s = ThinkSplitter()
    pieces = [p for i in range(0, len(text), size) for p in s.feed(text[i : i + size])]
    pieces += s.flush()
    answer = "".join(p.text for p in pieces if not p.thinking)
    thinking = "".join(p.text for p in pieces if p.thinking)
    return answer, thinking


def test_thinking_is_split_off_however_the_stream_is_cut() -> None:
    text = "<think>\nthe user wants retries</think>\n\nRetries are set on the transport [1]."
    for size in (1, 2, 3, 7, 100):
        assert split_all(text, size) == (
            "Retries are set on the transport [1].",
            "\nthe user wants retries",
        )


def test_a_lone_angle_bracket_is_answer_text() -> None:
    assert split_all("a < b and <thin x", 1) == ("a < b and <thin x", "")
