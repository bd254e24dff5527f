"""Chunks of a language with a grammar but no tag query: its syntax nodes merged to the window."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strata.config import ChunkConfig
from strata.index.chunking import WINDOWED, chunk, chunker_for, line_windows
from strata.index.code.treesitter import grammars, tagquery
from strata.index.code.treesitter.generic import chunk as generic_chunk
from strata.types import Chunk, Extracted
from tests.test_chunking_properties import check_chunks, configs

CORPUS = Path(__file__).parent / "corpora" / "langs"
SMALL = ChunkConfig(max_lines=80, max_chars=3000, window_lines=8, overlap_lines=5)


def _chunks(name: str, lang: str, cfg: ChunkConfig) -> tuple[str, list[Chunk]]:
    text = (CORPUS / name).read_text(encoding="utf-8")
    return text, chunk(Extracted(name, text, lang, "code", "h"), cfg)


def test_sql_statements_are_never_cut_and_comments_go_with_the_statement_below() -> None:
    # SQL has a tag query now; its grammar still shows how syntax nodes are merged
    text = (CORPUS / "schema.sql").read_text(encoding="utf-8")
    chunks = generic_chunk(text, "sql", SMALL)
    check_chunks(text, chunks, SMALL, windows=False)
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 6), (8, 13), (15, 22), (24, 31)]
    assert chunks[3].text.startswith("-- The total of an account's paid orders.\nCREATE FUNCTION")
    assert {c.kind for c in chunks} == {"block"}


def test_a_node_larger_than_the_window_is_opened_at_its_children() -> None:
    text, chunks = _chunks("default.nix", "nix", SMALL)
    check_chunks(text, chunks, SMALL, windows=False)
    firsts = [text.split("\n")[c.start_line - 1].strip() for c in chunks]
    assert firsts == [
        "{ lib, stdenv, fetchurl, pkg-config, openssl, zlib }:",
        "src = fetchurl {",
        "# The tests need network access.",
        "postInstall = ''",
        "meta = with lib; {",
    ]
    windows = line_windows(text, SMALL)
    assert any(text.split("\n")[c.start_line - 1].strip() == "};" for c in windows)


def test_a_small_file_is_one_chunk_and_nodes_on_one_line_share_it() -> None:
    text = "SELECT 1; SELECT 2;\nSELECT 3;\n"
    chunks = generic_chunk(text, "sql", ChunkConfig(80, 3000, 1, 5))
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 1), (2, 2)]
    assert [c.text for c in generic_chunk(text, "sql", SMALL)] == [text.rstrip("\n")]


def test_every_grammar_without_a_query_is_chunked_by_syntax_unless_windowed() -> None:
    for lang in grammars.supported():
        if tagquery.has_query(lang) or lang in WINDOWED:
            continue
        assert chunker_for(lang) is not line_windows, lang
        probe = chunker_for(lang)("a\n\nb\n", SMALL)
        assert [c.text for c in probe] == ["a\n\nb"], lang
    assert {"json", "yaml", "toml", "xml", "css"} <= WINDOWED
    assert all(chunker_for(lang) is line_windows for lang in WINDOWED)


SQL_PIECES = [
    "CREATE TABLE t{n} (\n    id INT PRIMARY KEY,\n    name TEXT NOT NULL\n);",
    "-- about t{n}\nSELECT * FROM t{n} WHERE id = {n};",
    "INSERT INTO t{n} VALUES ({n}, 'x'); INSERT INTO t{n} VALUES (2, 'y');",
    "CREATE VIEW v{n} AS\nSELECT id\nFROM t{n};",
    "SELECT (",
    "",
    "-- " + "w" * 120,
    "UPDATE t{n} SET name = '" + "z" * 200 + "' WHERE id = 1;",
]
NIX_PIECES = [
    "  a{n} = {n};",
    "  # the set {n}\n  s{n} = {{\n    x = 1;\n    y = [ 1 2 3 ];\n  }};",
    "  f{n} = x: y: x + y;",
    "  l{n} = ''\n    text {n}\n  '';",
    "  broken{n} = {{",
    "",
]


def _program(pieces: list[str], picks: list[int], head: str, tail: str) -> str:
    return "\n".join([head, *(pieces[p].format(n=i) for i, p in enumerate(picks)), tail]) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, len(SQL_PIECES) - 1), max_size=25), configs)
def test_property_sql_chunks_cover_without_overlap(picks: list[int], cfg: ChunkConfig) -> None:
    text = _program(SQL_PIECES, picks, "-- schema", "")
    check_chunks(text, chunk(Extracted("s.sql", text, "sql", "code", "h"), cfg), cfg, windows=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, len(NIX_PIECES) - 1), max_size=25), configs)
def test_property_nix_chunks_cover_without_overlap(picks: list[int], cfg: ChunkConfig) -> None:
    text = _program(NIX_PIECES, picks, "{ lib }:\n{", "}")
    check_chunks(text, chunk(Extracted("d.nix", text, "nix", "code", "h"), cfg), cfg, windows=False)
