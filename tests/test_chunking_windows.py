"""Line windows, text paragraphs, column windows and the dispatcher's budget enforcement."""

from __future__ import annotations

import subprocess
import sys

import pytest

from strata.config import ChunkConfig
from strata.index.chunking import chunk, chunker_for, chunkers, register
from strata.index.chunking.budget import cut_columns
from strata.index.chunking.python import chunk_python
from strata.index.chunking.windows import line_windows, paragraphs
from strata.types import Chunk, Extracted

CFG = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=5)


def spans(chunks: list[Chunk]) -> list[tuple[int, int]]:
    return [(c.start_line, c.end_line) for c in chunks]


def numbered(n: int) -> list[str]:
    return [f"line {i}" for i in range(1, n + 1)]


def test_windows_overlap_by_the_configured_lines() -> None:
    chunks = line_windows("\n".join(numbered(100)), CFG)
    assert spans(chunks) == [(1, 40), (36, 75), (71, 100)]
    assert chunks[1].text.splitlines()[0] == "line 36"
    assert {c.kind for c in chunks} == {"text"}


def test_window_ends_at_a_nearby_blank_line() -> None:
    lines = numbered(100)
    lines[36] = ""  # line 37
    assert spans(line_windows("\n".join(lines), CFG)) == [(1, 36), (32, 71), (67, 100)]


def test_windows_skip_leading_and_trailing_blank_lines() -> None:
    text = "\n\n\nonly line\n\n\n"
    [only] = line_windows(text, CFG)
    assert (only.start_line, only.end_line, only.text) == (4, 4, "only line")


def test_windows_stay_within_the_character_budget() -> None:
    cfg = ChunkConfig(max_lines=80, max_chars=100, window_lines=40, overlap_lines=0)
    chunks = line_windows("\n".join("x" * 30 for _ in range(10)), cfg)
    assert spans(chunks) == [(1, 3), (4, 6), (7, 9), (10, 10)]
    assert all(len(c.text) <= 100 for c in chunks)


def test_no_windows_for_empty_text() -> None:
    assert line_windows("", CFG) == []
    assert paragraphs("  \n\n", CFG) == []


def test_overlong_line_becomes_column_windows_between_line_windows() -> None:
    cfg = ChunkConfig(max_lines=80, max_chars=50, window_lines=40, overlap_lines=5)
    long = " ".join(["word"] * 40)  # 199 characters
    text = f"before\n{long}\nafter"
    chunks = line_windows(text, cfg)
    assert spans(chunks) == [(1, 1), (2, 2), (2, 2), (2, 2), (2, 2), (3, 3)]
    cols = [c for c in chunks if "col_start" in c.metadata]
    assert "".join(c.text for c in cols) == long
    for c in cols:
        assert c.text == long[c.metadata["col_start"] : c.metadata["col_end"]]
        assert len(c.text) <= 50 and not c.text.startswith(" ")


def test_column_cuts_prefer_spaces_then_punctuation() -> None:
    assert cut_columns("alpha beta gamma delta", 12) == [(0, 11), (11, 22)]
    assert cut_columns("a=1;b=2;c=3;d=4", 6) == [(0, 4), (4, 8), (8, 12), (12, 15)]
    assert cut_columns("abcdefghij", 4) == [(0, 4), (4, 8), (8, 10)]


def test_column_cuts_leave_out_whitespace_only_windows() -> None:
    assert cut_columns("abc" + " " * 20 + "def", 5) == [(0, 5), (23, 26)]


def test_paragraphs_are_grouped_up_to_the_budget() -> None:
    cfg = ChunkConfig(max_lines=5, max_chars=3000, window_lines=40, overlap_lines=5)
    text = "one\ntwo\n\nthree\n\nfour\nfive\nsix\n\nseven"
    chunks = paragraphs(text, cfg)
    assert spans(chunks) == [(1, 4), (6, 10)]
    assert chunks[0].text == "one\ntwo\n\nthree"
    assert {c.kind for c in chunks} == {"text"}


def test_large_paragraph_is_split_into_numbered_parts() -> None:
    cfg = ChunkConfig(max_lines=4, max_chars=3000, window_lines=40, overlap_lines=5)
    chunks = paragraphs("intro\n\n" + "\n".join(numbered(10)), cfg)
    assert spans(chunks) == [(1, 1), (3, 6), (7, 10), (11, 12)]
    assert [c.metadata.get("part") for c in chunks] == [None, 1, 2, 3]


def test_dispatcher_picks_chunkers_by_language() -> None:
    assert chunker_for("python") is chunk_python
    assert chunker_for("text") is paragraphs
    assert chunker_for("pdf") is paragraphs
    assert chunker_for("less") is line_windows  # no grammar
    assert chunker_for("json") is line_windows  # a grammar, but a data format
    assert chunker_for("sql") is not line_windows  # a grammar: its nodes merged


def test_tree_sitter_chunkers_need_no_other_import() -> None:
    # In a fresh process that imports only the dispatcher (no `passages`, no pipeline):
    # Go, TypeScript and Lua get their tree-sitter chunker, not line windows; JSON keeps them.
    probe = (
        "import sys\n"
        "from strata.index.chunking import chunker_for, line_windows\n"
        "assert 'strata.index.passages' not in sys.modules\n"
        "langs = ('go', 'typescript', 'lua', 'json')\n"
        "print([chunker_for(lang) is line_windows for lang in langs])\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[False, False, False, True]"


def test_registered_chunker_is_used_and_held_to_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def whole_file(text: str, cfg: ChunkConfig) -> list[Chunk]:
        end = text.count("\n") + 1
        return [Chunk(text, 1, end, "section", "Guide", {"section_path": ["Guide"]})]

    monkeypatch.setitem(chunkers(), "markdown", chunkers().get("markdown", whole_file))
    register("markdown", whole_file)
    text = "\n".join(numbered(200))
    chunks = chunk(Extracted("guide.md", text, "markdown", "markdown", "h"), CFG)
    assert spans(chunks) == [(1, 80), (81, 160), (161, 200)]
    assert {(c.kind, c.title) for c in chunks} == {("section", "Guide")}
    assert [c.metadata["part"] for c in chunks] == [1, 2, 3]
    assert all(c.metadata["section_path"] == ["Guide"] for c in chunks)


def test_dispatcher_recuts_an_oversized_column_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    line = "x" * 10 + " word" * 1000

    def one_slice(text: str, cfg: ChunkConfig) -> list[Chunk]:
        return [Chunk(line[10:], 1, 1, "text", "", {"col_start": 10, "col_end": len(line)})]

    monkeypatch.setitem(chunkers(), "weird", one_slice)
    chunks = chunk(Extracted("f.weird", line, "weird", "code", "h"), CFG)
    assert len(chunks) == 2
    for c in chunks:
        assert c.text == line[c.metadata["col_start"] : c.metadata["col_end"]]
        assert len(c.text) <= 3000
    assert chunks[0].metadata["col_start"] == 10
    assert chunks[-1].metadata["col_end"] == len(line)


def test_minified_file_never_becomes_one_giant_chunk() -> None:
    line = "var a=function(b){return b+1};" * 170_000  # ~5 MB on one line
    text = f"/* bundle */\n{line}\n"
    chunks = chunk(Extracted("app.min.js", text, "javascript", "code", "h"), CFG)
    assert chunks[0].text == "/* bundle */"
    cols = chunks[1:]
    assert len(cols) >= len(line) // 3000
    assert all(len(c.text) <= 3000 for c in chunks)
    assert "".join(c.text for c in cols) == line
    assert all(c.text[-1] in " ;}" for c in cols[:-1])  # cut between words or statements


def test_python_syntax_error_is_windowed_through_the_dispatcher() -> None:
    text = "\n".join(["def broken(:", *numbered(100)])
    chunks = chunk(Extracted("bad.py", text, "python", "code", "h"), CFG)
    assert spans(chunks) == [(1, 40), (36, 75), (71, 101)]
    assert {c.metadata["fallback"] for c in chunks} == {"syntax error line 1"}
