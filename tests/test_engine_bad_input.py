"""Indexing hostile input through the whole engine: no crash, every file accounted for."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from strata import Engine
from strata.layers import C0_SOURCE_CHUNKS
from tests.nasty_corpus import IGNORED, INDEXED, build_nasty_corpus


def test_nasty_corpus_indexes_with_every_file_accounted_for(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    expected = build_nasty_corpus(root)
    eng = Engine.open(root, index_dir=tmp_path / "idx", config={"embed.provider": "none"})
    summary = eng.index()
    want_skips = Counter(v for v in expected.values() if v not in (INDEXED, IGNORED))
    got_skips = Counter(s.reason.value for s in summary.skips)
    assert got_skips == want_skips
    indexed = {p for p, v in expected.items() if v == INDEXED}
    assert summary.indexed == len(indexed)
    assert summary.files_seen == len(indexed) + sum(want_skips.values())
    stored = {r.path for r in eng.records()}
    assert stored == indexed
    # a second run over the same hostile tree changes nothing and still does not crash
    again = eng.index()
    assert again.indexed == 0 and again.removed == 0


def test_python_with_a_syntax_error_is_still_indexed_by_windows(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def ok():\n    return 1\n\ndef broken(:\n    pass\n")
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    eng.index()
    rows = eng.records([C0_SOURCE_CHUNKS])
    assert rows and "def broken(" in "\n".join(r.content for r in rows)


def test_malformed_frontmatter_warns_and_still_indexes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "doc.md").write_text(
        "---\nid: [unclosed\n---\n# Title\n\nBody text about refunds.\n"
    )
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    summary = eng.index()
    assert summary.indexed == 1
    assert eng.search("refunds").hits


def test_twenty_thousand_small_files(tmp_path: Path) -> None:
    root = tmp_path / "many"
    for i in range(20_000):
        d = root / f"d{i // 1000}"
        if i % 1000 == 0:
            d.mkdir(parents=True)
        (d / f"f{i}.txt").write_text(f"note number {i} about topic{i % 97}\n")
    eng = Engine.open(root, index_dir=tmp_path / "idx", config={"embed.provider": "none"})
    summary = eng.index()
    assert summary.indexed == 20_000 and not summary.skips
    hits = eng.search("topic13", k=5)
    assert len(hits) == 5 and all("topic13" in h.record.content for h in hits)
