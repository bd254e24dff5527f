"""D0 chunking: the chunk contract on Markdown, RST and plain text, by example and by property."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from strata.config import ChunkConfig
from strata.index.docs import chunk_markdown, chunk_rst, chunk_text
from strata.text.frontmatter import split_frontmatter
from strata.types import Chunk

CFG = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=5)


def lines_of(text: str, chunk: Chunk) -> str:
    return "\n".join(text.split("\n")[chunk.start_line - 1 : chunk.end_line])


def test_frontmatter_lines_shift_the_body_and_are_in_no_chunk() -> None:
    text = "---\nid: x\ntags: [a]\n---\n# Title\nBody line.\n"
    chunks = chunk_markdown(text, CFG)
    assert [(c.start_line, c.end_line, c.text) for c in chunks] == [(5, 6, "# Title\nBody line.")]
    assert chunks[0].metadata["section_path"] == ["Title"]


def test_headings_inside_code_fences_are_not_sections() -> None:
    text = "# Guide\n\n```bash\n# install\npip install x\n```\n\n## Next\nmore\n"
    chunks = chunk_markdown(text, CFG)
    assert [c.metadata["section_path"] for c in chunks] == [["Guide"], ["Guide", "Next"]]
    assert chunks[0].text == "# Guide\n\n```bash\n# install\npip install x\n```"


def test_headings_inside_an_html_comment_are_not_sections() -> None:
    # Apache projects open every Markdown file with their licence in a comment
    text = (
        "<!--\n#\n# Licensed to the Apache Software Foundation (ASF) under one\n#\n-->\n\n"
        "# Cordova Android\n\nintro <!-- one line -->\n<!-- # Hidden -->\n\n## Requirements\nx\n"
    )
    chunks = chunk_markdown(text, CFG)
    paths = [c.metadata.get("section_path") for c in chunks]
    assert ["Cordova Android"] in paths and ["Cordova Android", "Requirements"] in paths
    assert not any(p and "Licensed" in " ".join(p) for p in paths)
    assert not any(p and "Hidden" in " ".join(p) for p in paths)
    assert "# Licensed to" in "\n".join(c.text for c in chunks)  # still indexed, as text


def test_setext_headings_and_out_of_order_levels() -> None:
    text = "Top\n===\n\nintro\n\n### Deep\nx\n\nSide\n----\ny\n"
    chunks = chunk_markdown(text, CFG)
    assert [(c.metadata["section_path"], c.start_line, c.end_line) for c in chunks] == [
        (["Top"], 1, 4),
        (["Top", "Deep"], 6, 7),
        (["Top", "Side"], 9, 11),
    ]
    assert [c.metadata["order"] for c in chunks] == [0, 1, 2]


def test_oversized_fence_stays_whole_and_long_section_splits_between_blocks() -> None:
    cfg = ChunkConfig(max_lines=6, max_chars=3000, window_lines=40, overlap_lines=0)
    fence = "```\n" + "\n".join(f"line {i}" for i in range(10)) + "\n```"
    text = f"# A\n\npara one\n\n{fence}\n\npara two\npara two b\n"
    chunks = chunk_markdown(text, cfg)
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 3), (5, 16), (18, 19)]
    assert chunks[1].metadata.get("oversized") is True
    assert chunks[1].text == fence
    assert all(c.metadata["section_path"] == ["A"] for c in chunks)
    assert "oversized" not in chunks[2].metadata


def test_table_is_never_split() -> None:
    cfg = ChunkConfig(max_lines=3, max_chars=3000, window_lines=40, overlap_lines=0)
    table = "| a | b |\n|---|---|\n" + "\n".join(f"| {i} | {i} |" for i in range(5))
    chunks = chunk_markdown(f"# T\n{table}\n", cfg)
    assert [c.text for c in chunks] == ["# T", table]
    assert chunks[1].metadata["oversized"] is True


def test_overlong_line_is_cut_into_column_windows() -> None:
    cfg = ChunkConfig(max_lines=10, max_chars=100, window_lines=40, overlap_lines=0)
    line = "x" * 250
    chunks = chunk_markdown(f"# H\n{line}\n", cfg)
    pieces = [c for c in chunks if c.start_line == 2]
    assert [(c.metadata["col_start"], c.metadata["col_end"]) for c in pieces] == [
        (0, 100),
        (100, 200),
        (200, 250),
    ]
    assert "".join(c.text for c in pieces) == line


def test_rst_levels_follow_adornment_styles_in_order_of_first_appearance() -> None:
    text = "=====\nTitle\n=====\n\nIntro.\n\nPart\n====\n\nSub\n---\n\ntext\n\nOther\n=====\n"
    chunks = chunk_rst(text, CFG)
    # `Part` has only a heading: it opens its subsection's chunk; `Other`, empty, closes it
    assert [c.metadata["section_path"] for c in chunks] == [["Title"], ["Title", "Part", "Sub"]]
    assert chunks[0].text == "=====\nTitle\n=====\n\nIntro."
    assert chunks[1].text == "Part\n====\n\nSub\n---\n\ntext\n\nOther\n====="


def test_heading_only_sections_open_what_is_nested_under_them() -> None:
    text = (
        "# Shop\n\n## Refunds\n\n### Details\n\nA refund returns the money.\n\n"
        "## Returns\n\n### Policy\n\nBring it back.\n"
    )
    chunks = chunk_markdown(text, CFG)
    assert [(c.start_line, c.end_line, c.title) for c in chunks] == [
        (1, 7, "Details"),  # `# Shop` and `## Refunds` open the first content they hold
        (9, 13, "Policy"),
    ]
    assert chunks[0].metadata["section_path"] == ["Shop", "Refunds", "Details"]
    assert chunks[1].metadata["section_path"] == ["Shop", "Returns", "Policy"]
    assert [c.text for c in chunk_markdown("# Title\n", CFG)] == ["# Title"]  # all it has


def test_a_heading_only_section_before_a_sibling_is_a_chunk_of_its_own() -> None:
    # an empty `## Semver` leads to nothing: under the sibling's title it would be hidden
    text = (
        "# Lib\n\nIntro.\n\n## Semver\n\n## Promises\n\nNeeds ES6 promises.\n\n"
        "### Aliases\n\n##### get(url)\n##### post(url)\n\n### Concurrency\n\nUse all.\n\n"
        "## Credits\n"
    )
    chunks = chunk_markdown(text, CFG)
    assert [(c.start_line, c.end_line, c.title) for c in chunks] == [
        (1, 3, "Lib"),
        (5, 5, "Semver"),
        (7, 9, "Promises"),
        (11, 14, "Aliases"),  # with the empty headings nested under it
        (16, 20, "Concurrency"),  # last in the file, `## Credits` closes the one before
    ]
    assert chunks[1].metadata["section_path"] == ["Lib", "Semver"]
    assert chunks[2].metadata["section_path"] == ["Lib", "Promises"]
    for c in chunks:
        assert c.text == lines_of(text, c)


def test_text_without_headings_is_cut_into_windows_of_paragraphs() -> None:
    cfg = ChunkConfig(max_lines=80, max_chars=3000, window_lines=4, overlap_lines=0)
    text = "a1\na2\n\nb1\nb2\n\nc1\n"
    chunks = chunk_text(text, cfg)
    # a window holds whole paragraphs up to 4 lines (blank lines between count)
    assert [(c.start_line, c.end_line, c.kind) for c in chunks] == [(1, 2, "text"), (4, 7, "text")]


_LINE = st.one_of(
    st.just(""),
    st.just("# Head"),
    st.just("## Sub"),
    st.just("```"),
    st.just("| a | b |"),
    st.just("|---|---|"),
    st.just("- item"),
    st.just("Title"),
    st.just("==="),
    st.just("---"),
    st.text(alphabet="ab #|-`=\t", max_size=30),
    st.text(alphabet="xy ", min_size=90, max_size=200),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINE, max_size=60), st.integers(2, 12), st.integers(40, 400), st.booleans())
def test_chunk_contract_holds_for_any_markdown(
    lines: list[str], max_lines: int, max_chars: int, frontmatter: bool
) -> None:
    cfg = ChunkConfig(max_lines=max_lines, max_chars=max_chars, window_lines=5, overlap_lines=0)
    head = "---\nid: p\n---\n" if frontmatter else ""
    text = head + "\n".join(lines)
    file_lines = text.split("\n")
    chunks = chunk_markdown(text, cfg)
    covered: list[int] = []
    last = (0, -1)
    for c in chunks:
        cols = (c.metadata.get("col_start"), c.metadata.get("col_end"))
        if cols[0] is not None:
            assert c.text == file_lines[c.start_line - 1][cols[0] : cols[1]]
        else:
            assert c.text == lines_of(text, c)
            covered.extend(range(c.start_line, c.end_line + 1))
        assert (c.start_line, cols[0] or 0) > last, "chunks in order, no overlap"
        last = (c.end_line, cols[0] or 0) if cols[0] is not None else (c.end_line, 10**9)
        if not c.metadata.get("oversized"):
            assert c.end_line - c.start_line + 1 <= max_lines
            assert len(c.text) <= max_chars
    body_start = split_frontmatter(text).body_start_line
    assert body_start == 4 or not frontmatter
    assert all(n >= body_start for n in covered), "frontmatter is in no chunk"
    non_blank = {n for n in range(body_start, len(file_lines) + 1) if file_lines[n - 1].strip()}
    cut = {c.start_line for c in chunks if "col_start" in c.metadata}
    assert non_blank - cut <= set(covered), "every non-blank body line is in a chunk"


def test_document_windows_overlap_by_chunk_overlap_lines() -> None:
    text = "\n".join(f"line {i}" for i in range(1, 101))
    for overlap, want in ((5, [(1, 40), (36, 80), (76, 100)]), (0, [(1, 40), (41, 80), (81, 100)])):
        cfg = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=overlap)
        chunks = chunk_text(text, cfg)
        assert [(c.start_line, c.end_line) for c in chunks] == want
        assert all(c.text == lines_of(text, c) for c in chunks)
    md = chunk_markdown(text, CFG)  # a Markdown file without headings: the same windows
    assert md[1].start_line == 36 and md[1].text.startswith("line 36\n")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["", "word word", "x" * 70, "é𝔘", "  "]), max_size=120),
    st.integers(1, 80),
    st.integers(1, 3000),
    st.integers(0, 30),
    st.integers(0, 12),
)
def test_overlapping_document_windows_keep_the_contract(
    lines: list[str], max_lines: int, max_chars: int, window: int, overlap: int
) -> None:
    cfg = ChunkConfig(max_lines, max_chars, window, overlap)
    text = "\n".join(lines)
    chunks = [c for c in chunk_text(text, cfg) if "col_start" not in c.metadata]
    for i, c in enumerate(chunks):
        assert c.text == lines_of(text, c) and c.text.strip()
        assert c.end_line - c.start_line + 1 <= max_lines and len(c.text) <= max_chars
        if i:
            prev = chunks[i - 1]
            assert prev.start_line < c.start_line and prev.end_line < c.end_line
            assert prev.end_line - c.start_line + 1 <= overlap
        if i >= 2:  # a line is in two consecutive windows at most
            assert c.start_line > chunks[i - 2].end_line


ADOC = """= Shop Guide
:toc:

The shop keeps orders.

== Installing

Run the installer.

[source,bash]
----
== not a heading
./install.sh
----

=== On Windows

Use the MSI.

== Configuring

|===
| Key | Meaning
| port | where it listens
|===
"""

ORG = """#+TITLE: Shop notes
* Orders
An order holds items.
** TODO Refunds                                                        :billing:
#+BEGIN_SRC python
* not a heading
refund(order)
#+END_SRC
* Shipping
| carrier | days |
| post    | 3    |
"""


def test_asciidoc_and_org_documents_are_split_by_their_headings(tmp_path: Path) -> None:
    from strata.engine import Engine

    (tmp_path / "guide.adoc").write_text(ADOC, encoding="utf-8")
    (tmp_path / "notes.org").write_text(ORG, encoding="utf-8")
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        chunks = sorted(
            (r.path, r.span_start, r.span_end, tuple(r.metadata["section_path"]))
            for r in eng.records(layers=["D0_DOC_CHUNKS"])
        )
        hit = eng.search("Windows MSI", k=1).hits[0].record
    assert chunks == [
        ("guide.adoc", 1, 4, ("Shop Guide",)),
        ("guide.adoc", 6, 14, ("Shop Guide", "Installing")),  # the listing's `==` is code
        ("guide.adoc", 16, 18, ("Shop Guide", "Installing", "On Windows")),
        ("guide.adoc", 20, 25, ("Shop Guide", "Configuring")),
        ("notes.org", 1, 1, ()),
        ("notes.org", 2, 3, ("Orders",)),
        ("notes.org", 4, 8, ("Orders", "Refunds")),  # no TODO, no tags; the block is code
        ("notes.org", 9, 11, ("Shipping",)),
    ]
    assert (hit.path, hit.span_start) == ("guide.adoc", 16)
