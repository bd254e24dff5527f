"""Extraction: formats, decoding fallbacks, binary sniffing, PDF and HTML, never a crash."""

from __future__ import annotations

import codecs
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strata.index.extraction import decode, extract, sniff_binary
from strata.text.html import html_to_text
from strata.types import Extracted, Skip, SkipReason, SourceFile, bytes_hash
from tests.nasty_corpus import minimal_pdf


def source(root: Path, rel: str, data: bytes | str) -> SourceFile:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return SourceFile(path, rel, path.stat().st_size, path.stat().st_mtime_ns)


def text_of(root: Path, rel: str, data: bytes | str) -> Extracted:
    got = extract(source(root, rel, data))
    assert isinstance(got, Extracted), got
    return got


def skip_of(root: Path, rel: str, data: bytes | str) -> Skip:
    got = extract(source(root, rel, data))
    assert isinstance(got, Skip), got
    return got


@pytest.mark.parametrize(
    ("rel", "lang", "kind"),
    [
        ("pkg/mod.py", "python", "code"),
        ("web/app.tsx", "tsx", "code"),
        ("Makefile", "make", "code"),
        ("conf/app.yaml", "yaml", "code"),
        ("README.md", "markdown", "markdown"),
        ("docs/guide.rst", "rst", "rst"),
        ("notes.txt", "text", "text"),
        ("LICENSE", "text", "text"),
        ("data.weird", "text", "text"),
    ],
)
def test_format_by_file_name(tmp_path: Path, rel: str, lang: str, kind: str) -> None:
    got = text_of(tmp_path, rel, "some content\n  indented\n")
    assert (got.rel, got.lang, got.kind) == (rel, lang, kind)
    assert got.text == "some content\n  indented\n"
    assert got.warnings == ()


@pytest.mark.parametrize(
    ("rel", "head", "lang"),
    [
        ("bin/deploy", "#!/usr/bin/env bash\nset -e\n", "bash"),
        ("bin/tool", "#!/usr/bin/python3.11 -u\nprint(1)\n", "python"),
        ("bin/serve", "#!/usr/bin/env -S node --no-warnings\n", "javascript"),
        ("script/rake", "#!/usr/bin/env ruby\n", "ruby"),
        ("completions/ssh", "# ssh(1) completion   -*- shell-script -*-\n\n_ssh()\n", "bash"),
        ("bin/other", "#!/usr/bin/env awk -f\n", "text"),  # an interpreter with no chunker
        ("run.cfg", "#!/usr/bin/env bash\n", "ini"),  # the extension still decides
    ],
)
def test_a_script_without_an_extension_by_its_interpreter(
    tmp_path: Path, rel: str, head: str, lang: str
) -> None:
    assert text_of(tmp_path, rel, head).lang == lang


def test_a_source_map_is_build_output_and_other_map_files_are_text(tmp_path: Path) -> None:
    made = b'{"version":3,"file":"mocha.js","sources":["lib/a.js"],"mappings":"AAAA;AACA"}'
    got = skip_of(tmp_path, "mocha.js.map", made)
    assert (got.reason, got.detail) == (SkipReason.GENERATED, "a source map")
    assert text_of(tmp_path, "world.map", "a level map: walls # and floors .\n").lang == "text"


def test_file_hash_is_of_the_raw_bytes(tmp_path: Path) -> None:
    raw = codecs.BOM_UTF8 + b"a\r\nb\r\n"
    got = text_of(tmp_path, "a.txt", raw)
    assert got.file_hash == bytes_hash(raw)
    assert got.text == "a\nb\n"


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (b"one\r\ntwo\r\n", "one\ntwo\n"),
        (b"one\rtwo\r", "one\ntwo\n"),
        (b"a\nb\r\nc\rd", "a\nb\nc\nd"),
        (b"blank\r\n\r\n\r\nlines", "blank\n\n\nlines"),
    ],
)
def test_line_endings_become_lf(tmp_path: Path, raw: bytes, text: str) -> None:
    assert text_of(tmp_path, "f.py", raw).text == text


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (codecs.BOM_UTF8 + "caf\u00e9\n".encode(), "caf\u00e9\n"),
        (codecs.BOM_UTF16_LE + "caf\u00e9\n".encode("utf-16-le"), "caf\u00e9\n"),
        (codecs.BOM_UTF16_BE + "caf\u00e9\n".encode("utf-16-be"), "caf\u00e9\n"),
        (codecs.BOM_UTF32_LE + "caf\u00e9\n".encode("utf-32-le"), "caf\u00e9\n"),
        (codecs.BOM_UTF32_BE + "\U0001f600\n".encode("utf-32-be"), "\U0001f600\n"),
    ],
)
def test_unicode_by_bom_without_the_bom(tmp_path: Path, raw: bytes, text: str) -> None:
    got = text_of(tmp_path, "u.txt", raw)
    assert (got.text, got.warnings) == (text, ())


def test_invalid_utf8_falls_back_to_cp1252_with_a_warning(tmp_path: Path) -> None:
    got = text_of(tmp_path, "legacy.txt", "na\u00efve \u201cquotes\u201d\n".encode("cp1252"))
    assert got.text == "na\u00efve \u201cquotes\u201d\n"
    assert got.warnings == ("decoded as cp1252: invalid UTF-8 at byte 2",)


def test_bytes_undefined_in_cp1252_fall_back_to_latin1(tmp_path: Path) -> None:
    got = text_of(tmp_path, "odd.txt", b"ok \x81\x8d done\n")
    assert got.text == "ok \x81\x8d done\n"
    assert got.warnings == ("decoded as latin-1: invalid UTF-8 at byte 3",)


def test_a_bad_utf16_body_is_decoded_with_replacements(tmp_path: Path) -> None:
    raw = codecs.BOM_UTF16_LE + "ok".encode("utf-16-le") + b"\x00\xd8"  # lone surrogate
    got = text_of(tmp_path, "bad16.txt", raw)
    assert got.text.startswith("ok")
    assert got.warnings[0].startswith("decoded as utf-16 with replacements")


@pytest.mark.parametrize(
    ("rel", "raw", "reason"),
    [
        ("empty.py", b"", SkipReason.EMPTY),
        ("blank.md", b" \n\t\r\n  \n", SkipReason.EMPTY),
        ("blank16.txt", codecs.BOM_UTF16_LE + " \n".encode("utf-16-le"), SkipReason.EMPTY),
        ("logo.PNG", b"not really a png but named so", SkipReason.IMAGE),
        ("photo.jpeg", b"\xff\xd8\xff\xe0", SkipReason.IMAGE),
        ("lib.so", b"plain text in a .so", SkipReason.BINARY),
        ("model.pkl", b"\x80\x04\x95", SkipReason.BINARY),
        ("nul.py", b"x = 1\n\x00\n", SkipReason.BINARY),
        ("ctrl.txt", bytes(range(1, 8)) * 50, SkipReason.BINARY),
        ("page.html", b"<html><head><title>only</title></head><body> </body></html>", "empty"),
    ],
)
def test_files_without_text_are_skips(tmp_path: Path, rel: str, raw: bytes, reason: str) -> None:
    assert skip_of(tmp_path, rel, raw).reason == SkipReason(reason)


def test_sniffing_lets_text_with_escapes_and_form_feeds_through() -> None:
    assert sniff_binary(b"\x1b[31mred\x1b[0m log line\n\x0cnext page\n" * 20) is None
    assert sniff_binary(codecs.BOM_UTF16_LE + "abc".encode("utf-16-le")) is None
    assert sniff_binary(b"abc\x00def") == "NUL bytes"


def test_a_path_that_is_not_a_regular_file_is_never_opened_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "was_a_file.py")  # swapped for a FIFO after discovery
    got = extract(SourceFile(tmp_path / "was_a_file.py", "was_a_file.py", 10, 0))
    assert got == Skip("was_a_file.py", SkipReason.NOT_A_FILE, "no longer a regular file (FIFO)")
    (tmp_path / "dir.py").mkdir()
    got = extract(SourceFile(tmp_path / "dir.py", "dir.py", 10, 0))
    assert isinstance(got, Skip) and got.reason is SkipReason.NOT_A_FILE


def test_a_vanished_file_is_a_skip(tmp_path: Path) -> None:
    got = extract(SourceFile(tmp_path / "gone.py", "gone.py", 10, 0))
    assert got == Skip("gone.py", SkipReason.VANISHED, "deleted before it was read")


def test_pdf_pages_are_joined_with_a_blank_line(tmp_path: Path) -> None:
    pdf = minimal_pdf([["First line", "Second line"], [], ["Last page"]])
    got = text_of(tmp_path, "doc/manual.PDF", pdf)
    assert (got.lang, got.kind) == ("pdf", "pdf")
    assert got.text == "First line\nSecond line\n\nLast page\n"
    assert got.file_hash == bytes_hash(pdf)


def test_pdf_without_a_text_layer_is_no_text(tmp_path: Path) -> None:
    got = skip_of(tmp_path, "scan.pdf", minimal_pdf([[], []]))
    assert got == Skip("scan.pdf", SkipReason.NO_TEXT, "scanned PDF? no text layer")


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.9])
def test_truncated_pdfs_never_crash(tmp_path: Path, cut: float) -> None:
    pdf = minimal_pdf([["Some words"]])
    got = extract(source(tmp_path, "cut.pdf", pdf[: int(len(pdf) * cut)]))
    assert isinstance(got, Skip | Extracted)


def test_a_broken_pdf_is_unreadable_and_quiet(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    got = skip_of(tmp_path, "bad.pdf", b"%PDF-1.4\n%\xe2\xe3\n1 0 obj <<>> trailer junk")
    assert got.reason is SkipReason.UNREADABLE
    assert got.detail.startswith("broken PDF: ")
    assert "\n" not in got.detail
    assert capfd.readouterr().err == ""


HTML = """<!DOCTYPE html><html><head><title>T</title><meta charset="utf-8">
<style>p { color: red }</style><script>alert("no")</script></head>
<body><nav><a href="/">Home</a></nav>
<h1>Retry   policy</h1><p>Calls are <em>retried</em>
three times &mdash; with backoff.</p>
<h2>Limits</h2><ul><li>max 3</li><li>base 0.5 s</li></ul>
<script>var skipped = 1;</script><noscript>enable js</noscript>
<pre>retry(
    n=3)</pre><table><tr><td>a</td><td>b</td></tr></table></body></html>"""


def test_html_becomes_markdown_like_text() -> None:
    assert html_to_text(HTML) == (
        "Home\n\n# Retry policy\n\nCalls are retried three times \u2014 with backoff.\n\n"
        "## Limits\n\n- max 3\n\n- base 0.5 s\n\n```\nretry(\n    n=3)\n```\n\na\n\nb\n"
    )


def test_html_file_is_kind_html(tmp_path: Path) -> None:
    got = text_of(tmp_path, "site/index.htm", HTML.replace("\n", "\r\n"))
    assert (got.lang, got.kind) == ("html", "html")
    assert got.text.startswith("Home\n\n# Retry policy\n")
    assert "alert" not in got.text and "color" not in got.text and "T\n" not in got.text


@pytest.mark.parametrize(
    "markup",
    ["<p>unclosed <b>bold", "<head><title>x</title><p>no body", "</div></p>text</pre>",
     "<pre>open pre", "<<<>>>&&&;", "<script>never closed", "<h7>not a heading</h7>"],
)  # fmt: skip
def test_malformed_html_never_crashes(markup: str) -> None:
    assert isinstance(html_to_text(markup), str)


def test_malformed_html_keeps_its_text() -> None:
    assert html_to_text("<head><title>x</title><body><p>after an unclosed head") == (
        "after an unclosed head\n"
    )
    assert html_to_text("<pre>open pre") == "```\nopen pre\n```\n"


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=2000))
def test_decode_never_raises(raw: bytes) -> None:
    text, warnings = decode(raw)
    assert isinstance(text, str)
    assert len(warnings) <= 1


@settings(max_examples=60, deadline=None)
@given(
    st.binary(max_size=1500),
    st.sampled_from(["a.py", "b.md", "c.txt", "d.html", "e.pdf", "f", "g.rst", "h.js"]),
)
def test_extract_never_raises(raw: bytes, rel: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        got = extract(source(Path(d), rel, raw))
    assert isinstance(got, Skip | Extracted)
    if isinstance(got, Extracted):
        assert "\r" not in got.text and got.text.strip()


_NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "source": ["# Sales\n", "Monthly totals by region."]},
        {
            "cell_type": "code",
            "source": ["def load_sales(path):\n", "    return open(path).read()\n"],
            "outputs": [{"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo="}}],
        },
    ],
    "metadata": {"language_info": {"name": "python"}},
    "nbformat": 4,
}


def test_a_notebook_is_the_script_its_cells_make(tmp_path: Path) -> None:
    import json

    got = text_of(tmp_path, "nb/sales.ipynb", json.dumps(_NOTEBOOK, indent=1))
    assert (got.lang, got.kind) == ("python", "code")
    assert got.text == (
        "# %% [markdown]\n# # Sales\n# Monthly totals by region.\n\n"
        "# %%\ndef load_sales(path):\n    return open(path).read()\n"
    )  # outputs (the image) are left out
    assert text_of(tmp_path, "nb/broken.ipynb", '{"cells": [').lang == "text"  # read as is
