"""Markdown over 1 MB is read, chunked and written a part at a time as plain text is
(issue 15 item 11): peak memory does not grow with the file, and a part's sections nest
under the headings still open where it starts, so the sections are those of the whole file."""

from __future__ import annotations

import random
from pathlib import Path

from strata import Engine
from strata.config import load_config
from strata.index import stream
from strata.index.docs.build import document_records
from strata.layers import D0_DOC_CHUNKS, D1_DOCUMENT_CATALOG
from strata.types import Record, SourceFile, bytes_hash
from tests.test_stream import _peak

_WORDS = [
    "refund",
    "order",
    "ledger",
    "shard",
    "replica",
    "invoice",
    "tenant",
    "quota",
    "cursor",
    "batch",
]


def _markdown(path: Path, chapters: int, seed: int = 1, needle_at: int | None = None) -> int:
    """A long manual: frontmatter, `#` chapters of `##`/`###` sections with prose, lists,
    fences (holding `#` lines that are no headings), tables, a setext heading and
    sections with nothing under their heading."""
    rnd = random.Random(seed)

    def para(n: int) -> str:
        return " ".join(rnd.choice(_WORDS) for _ in range(n)) + "."

    out = ["---", "title: The operations manual", "tags: [ops, manual]", "---", "", para(30)]
    for c in range(chapters):
        out += ["", f"# Chapter {c}", "", para(40)]
        for s in range(6):
            out += ["", f"## Section {c}.{s}", "", para(60), "", "- " + para(8), "- " + para(8)]
            if s % 3 == 0:
                out += ["", "```sh", "# not a heading", f"run --chapter {c}", "```"]
            if s % 3 == 1:
                out += ["", "| key | value |", "|---|---|", f"| c{c} | s{s} |"]
            if s == 2:
                out += ["", "### Details", "", "### Steps", "", para(50)]  # heading-only
            if s == 4:
                out += ["", f"Setext {c}", "---------", "", para(20)]
        if needle_at == c:
            out += ["", "## Incident", "", "the needle_unicorn_overflow happened here."]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")
    return path.stat().st_size


def _source(path: Path) -> SourceFile:
    st = path.stat()
    return SourceFile(path, path.name, st.st_size, st.st_mtime_ns)


def _d0(records: list[Record]) -> list[tuple[object, ...]]:
    return [
        (
            r.id,
            r.span_start,
            r.span_end,
            r.title,
            r.content,
            tuple(r.metadata["section_path"]),
            r.metadata["order"],
        )
        for r in records
        if r.layer == D0_DOC_CHUNKS
    ]


def test_streamed_markdown_has_the_sections_of_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "manual.md"
    size = _markdown(path, 140)
    assert size > 4 * stream.PART_BYTES
    cfg = load_config(None, {"embed.provider": "none"}).chunk
    digest = bytes_hash(path.read_bytes())
    parts = list(stream.stream_records(_source(path), cfg, digest))
    assert len(parts) >= 4
    streamed = [r for part in parts for r in part]
    whole = list(document_records("manual.md", path.read_text(), "markdown", digest, cfg).records)
    assert _d0(streamed) == _d0(whole)
    (card,) = [r for r in streamed if r.layer == D1_DOCUMENT_CATALOG]
    (whole_card,) = [r for r in whole if r.layer == D1_DOCUMENT_CATALOG]
    assert (card.title, card.content) == (whole_card.title, whole_card.content)
    assert card.title == "The operations manual"  # the frontmatter, read from the first part


def test_a_multi_megabyte_markdown_file_indexes_in_bounded_memory(tmp_path: Path) -> None:
    # imports and the token cache warm first, not measured
    _markdown(tmp_path / "warm" / "manual.md", 250)
    Engine.open(tmp_path / "warm", config={"embed.provider": "none"}).index()
    small = _markdown(tmp_path / "small" / "manual.md", 250, seed=2)
    size = _markdown(tmp_path / "big" / "manual.md", 750, seed=3, needle_at=700)
    assert small > stream.STREAM_BYTES and size > 3 * small
    peak_small, _ = _peak(tmp_path / "small")
    peak, summary = _peak(tmp_path / "big")
    # 3x the file, about the same peak (read whole, its rows and text cost several times
    # its size)
    assert peak - peak_small < (size - small) / 4, f"{peak_small / 1e6:.1f} -> {peak / 1e6:.1f} MB"
    assert peak < size
    assert summary.indexed == 1 and summary.rows_by_layer[D1_DOCUMENT_CATALOG] == 1
    eng = Engine.open(tmp_path / "big", config={"embed.provider": "none"})
    (hit, *_) = eng.search("needle_unicorn_overflow", mode="lexical").hits
    assert hit.record.path == "manual.md"
    assert hit.record.metadata["section_path"] == ["Chapter 700", "Incident"]
    lines = (tmp_path / "big" / "manual.md").read_text().split("\n")
    assert hit.record.span_start is not None and hit.record.span_end is not None
    window = lines[hit.record.span_start - 1 : hit.record.span_end]
    assert "\n".join(window) == hit.record.content
    assert eng.index().unchanged == 1
