"""D0/D1 over a real documentation folder: structlog's Markdown (MyST) docs from its sdist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from strata.config import ChunkConfig
from strata.index.docs import document_records

CFG = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=5)
_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


@pytest.fixture(scope="module")
def docs_dir() -> Path:
    from benchmarks.sdists import fetch_sdist

    try:
        root = fetch_sdist("structlog", "25.4.0")
    except Exception as exc:  # no network and no cache: nothing to run on
        pytest.skip(f"structlog sdist unavailable: {exc}")
    return root / "docs"


def expected_paths(text: str) -> list[list[str]]:
    """Section paths by a naive reading: ATX headings outside ``` fences and HTML comments
    (`<!-- … -->`, a licence header's `#` lines), stack by level;
    a heading with nothing under it has no chunk of its own when a heading nested under it
    follows (it opens that one's chunk), and one when a heading of its level or above does."""
    stack: list[tuple[int, str]] = []
    out: list[tuple[list[str], bool, int]] = []
    fenced = commented = False
    for line in text.split("\n"):
        opens = not fenced and not commented and line.lstrip().startswith("<!--")
        commented = commented or opens
        m = None if fenced or commented else _ATX.match(line)
        if commented and "-->" in line[line.find("<!--") + 4 if opens else 0 :]:
            commented = False
        elif line.lstrip().startswith(("```", "~~~")) and not commented:
            fenced = not fenced
        if m:
            level = len(m.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, m.group(2)))
            out.append(([t for _, t in stack], False, level))
        elif line.strip() and out:
            out[-1] = (out[-1][0], True, out[-1][2])
    paths: list[list[str]] = []
    carried: tuple[list[str], int] | None = None
    for i, (path, has_content, level) in enumerate(out):
        if carried and level <= carried[1]:
            paths.append(carried[0])
            carried = None
        if not has_content and i + 1 < len(out):
            carried = carried or (path, level)
            continue
        carried = None
        if has_content:
            paths.append(path)
    return paths


def test_every_real_doc_gets_a_card_and_correct_section_paths(docs_dir: Path) -> None:
    files = sorted(docs_dir.rglob("*.md"))
    assert len(files) >= 20
    for path in files:
        rel = path.relative_to(docs_dir.parent).as_posix()
        text = path.read_text(encoding="utf-8")
        res = document_records(rel, text, "markdown", "h", CFG)
        cards = [r for r in res.records if r.layer == "D1_DOCUMENT_CATALOG"]
        assert len(cards) == 1 and cards[0].content.strip(), rel
        assert len(cards[0].content) < len(text), f"{rel}: card is not the whole document"
        chunks = [r for r in res.records if r.layer == "D0_DOC_CHUNKS"]
        lines = text.split("\n")
        for c in chunks:
            assert c.content == "\n".join(lines[c.span_start - 1 : c.span_end]), rel
        seen: list[list[str]] = []
        for c in chunks:
            p = c.metadata["section_path"]
            if p and (not seen or seen[-1] != p):
                seen.append(p)
        assert seen == expected_paths(text), rel


def test_getting_started_sections(docs_dir: Path) -> None:
    text = (docs_dir / "getting-started.md").read_text(encoding="utf-8")
    res = document_records("docs/getting-started.md", text, "markdown", "h", CFG)
    paths = [r.metadata["section_path"] for r in res.records if r.layer == "D0_DOC_CHUNKS"]
    assert ["Getting Started", "Installation"] in paths
    card = next(r for r in res.records if r.layer == "D1_DOCUMENT_CATALOG")
    assert card.metadata["doc_kind"] == "guide"
    assert card.title == "Getting Started"
