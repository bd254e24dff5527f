"""Heading-only Markdown sections never outrank real content (issue 15, item 2)."""

from __future__ import annotations

from pathlib import Path

from strata import Engine
from strata import layers as L


def test_an_empty_details_section_does_not_come_first(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "refund.md").write_text(
        "# Refund\n\n## Details\n\n## Policy\n\n"
        "Money goes back to the card it came from within five working days of the request.\n",
        encoding="utf-8",
    )
    (tmp_path / "docs" / "orders.md").write_text(
        "# Orders\n\nAn order is paid once; a refund of it is described elsewhere.\n",
        encoding="utf-8",
    )
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    eng.index()
    rows = [r for r in eng.records(layers=[L.D0_DOC_CHUNKS]) if r.path == "docs/refund.md"]
    assert [r.content.strip() for r in rows if not r.content.strip().lstrip("#").strip()] == []
    assert all("Money goes back" in r.content for r in rows)  # headings open the content
    hits = eng.search("refund", mode="lexical", layers=[L.D0_DOC_CHUNKS])
    assert hits[0].record.path == "docs/refund.md"
    assert "Money goes back" in hits[0].record.content
