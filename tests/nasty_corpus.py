"""A corpus of hostile files (binary, bad encodings, links, FIFOs, huge) and their expected fate."""

from __future__ import annotations

import codecs
import os
import random
import socket
from pathlib import Path

INDEXED = "indexed"
IGNORED = "ignored"
MB = 1024 * 1024


def minimal_pdf(pages: list[list[str]]) -> bytes:
    """A valid PDF written by hand: one page per item, each line drawn as text (none = no text)."""
    n = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n))
    font = 3 + 2 * n
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode(),
    ]
    for i, lines in enumerate(pages):
        ops = "".join(f"({line}) Tj 0 -20 Td " for line in lines)
        stream = f"BT /F1 14 Tf 72 720 Td {ops}ET".encode() if lines else b""
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def build_nasty_corpus(root: Path) -> dict[str, str]:
    """Create the hostile files under `root` (a directory outside of which nothing is indexed).

    Returns:
        Each created path relative to `root` -> `"indexed"`, `"ignored"` or the
        `SkipReason` value expected for it (with the default index config).
    """
    root.mkdir(parents=True, exist_ok=True)
    expected: dict[str, str] = {}
    for build in (_encodings, _binaries, _sizes, _links, _specials, _names, _formats, _ignores):
        expected.update(build(root))
    return expected


def _write(root: Path, rel: str, data: bytes | str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def _encodings(root: Path) -> dict[str, str]:
    _write(root, "enc/invalid_utf8.txt", b"caf\xe9 ol\xe9 \x81 and a broken \xc3 sequence\n")
    _write(root, "enc/cp1252.md", "# Caf\u00e9 \u2014 \u201cquoted\u201d\n".encode("cp1252"))
    _write(
        root, "enc/utf16_bom.txt", codecs.BOM_UTF16_LE + "h\u00e9llo utf16\n".encode("utf-16-le")
    )
    _write(root, "enc/utf16be_bom.py", codecs.BOM_UTF16_BE + "x = 'be'\n".encode("utf-16-be"))
    _write(root, "enc/utf32_bom.txt", codecs.BOM_UTF32_LE + "wide text\n".encode("utf-32-le"))
    _write(root, "enc/utf8_bom.md", codecs.BOM_UTF8 + b"# Title with BOM\n\nBody.\n")
    _write(root, "enc/crlf.py", b"def f():\r\n    return 1\r\n")
    _write(root, "enc/mixed_endings.txt", b"unix\nwindows\r\nold mac\rend\n")
    _write(root, "enc/lone_cr.txt", b"one\rtwo\rthree\r")
    return {
        rel: INDEXED
        for rel in (
            "enc/invalid_utf8.txt", "enc/cp1252.md", "enc/utf16_bom.txt", "enc/utf16be_bom.py",
            "enc/utf32_bom.txt", "enc/utf8_bom.md", "enc/crlf.py", "enc/mixed_endings.txt",
            "enc/lone_cr.txt",
        )
    }  # fmt: skip


def _binaries(root: Path) -> dict[str, str]:
    noise = random.Random(7).randbytes(4096)
    _write(root, "bin/looks_like.py", noise)
    _write(root, "bin/looks_like.txt", b"\x7fELF\x02\x01\x01" + noise)
    _write(root, "bin/nul_bytes.py", b"print('hi')\n\x00\x00\x00print('there')\n")
    _write(root, "bin/control_chars.txt", bytes(range(1, 8)) * 300 + b"some text")
    _write(root, "bin/archive.zip", b"PK\x03\x04" + noise)
    _write(root, "bin/photo.png", b"\x89PNG\r\n\x1a\n" + noise)
    _write(root, "bin/empty.py", b"")
    _write(root, "bin/whitespace.txt", b"  \n\t\n   \r\n\n")
    _write(root, "bin/app.js.map", b'{"version":3,"sources":["app.ts"],"mappings":"AAAA"}')
    return {
        "bin/looks_like.py": "binary", "bin/looks_like.txt": "binary",
        "bin/nul_bytes.py": "binary", "bin/control_chars.txt": "binary",
        "bin/archive.zip": "binary", "bin/photo.png": "image",
        "bin/empty.py": "empty", "bin/whitespace.txt": "empty",
        "bin/app.js.map": "generated",
    }  # fmt: skip


def _sizes(root: Path) -> dict[str, str]:
    with (root / "huge_50mb.log").open("wb") as fh:  # sparse: instant, takes no disk
        fh.truncate(50 * MB)
    _write(root, "one_line_5mb.txt", b"word " * (MB + 10))
    _write(root, "minified.js", b"var a=1;" + b"function f(x){return x*2};" * (2 * MB // 26))
    _write(
        root, "big.log", b"".join(b"2024-01-01 INFO request %07d ok\n" % i for i in range(200_000))
    )
    return {
        "huge_50mb.log": "too large", "one_line_5mb.txt": INDEXED,
        "minified.js": INDEXED, "big.log": INDEXED,
    }  # fmt: skip


def _links(root: Path) -> dict[str, str]:
    links = root / "links"
    links.mkdir()
    (links / "real.md").write_text("# Real\n\nThe linked document.\n")
    (links / "alias.md").symlink_to("real.md")
    (links / "loop_a").symlink_to("loop_b")
    (links / "loop_b").symlink_to("loop_a")
    (links / "up").symlink_to("..")  # a directory loop: must not hang
    (links / "dangling.txt").symlink_to("no_such_file.txt")
    outside = root.parent / f"{root.name}_outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text("outside the root\n")
    (links / "escape.txt").symlink_to(outside / "secret.txt")
    (links / "escape_dir").symlink_to(outside)
    return {
        "links/real.md": INDEXED, "links/alias.md": INDEXED,
        "links/loop_a": "not a regular file", "links/loop_b": "not a regular file",
        "links/up": IGNORED, "links/dangling.txt": "not a regular file",
        "links/escape.txt": "not a regular file", "links/escape_dir": "not a regular file",
    }  # fmt: skip


def _specials(root: Path) -> dict[str, str]:
    special = root / "special"
    special.mkdir()
    os.mkfifo(special / "pipe.fifo")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(special / "app.sock"))
    finally:
        sock.close()
    locked = _write(root, "special/locked.txt", "chmod 000\n")
    locked.chmod(0)
    # root reads a chmod-000 file; the real refusal is tested with a dropped uid elsewhere.
    locked_outcome = INDEXED if os.geteuid() == 0 else "unreadable"
    return {
        "special/pipe.fifo": "not a regular file",
        "special/app.sock": "not a regular file",
        "special/locked.txt": locked_outcome,
    }


def _names(root: Path) -> dict[str, str]:
    names = [
        "names/with space.py", "names/new\nline.txt", "names/emoji_\U0001f600.md",
        "names/\u00fcn\u00ef\u00e7\u00f8d\u00e9/\u65e5\u672c\u8a9e.txt", "names/-dash.txt",
        "names/tab\tname.txt",
    ]  # fmt: skip
    for rel in names:
        _write(root, rel, f"content of {rel!r}\n")
    deep = "/".join(f"d{i}" for i in range(60)) + "/deep.py"
    _write(root, deep, "DEPTH = 60\n")
    return dict.fromkeys([*names, deep], INDEXED)


def _formats(root: Path) -> dict[str, str]:
    _write(root, "docs/real.pdf", minimal_pdf([["Strata PDF text layer"], ["Second page"]]))
    _write(root, "docs/scanned.pdf", minimal_pdf([[]]))
    _write(root, "docs/broken.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage\x00\xff")
    _write(root, "docs/page.html", _HTML)
    _write(root, "docs/guide.rst", "Guide\n=====\n\nSome *RST* text.\n")
    _write(root, "docs/bad_frontmatter.md", "---\ntitle: [unclosed\n: : :\n---\n# Body\n")
    _write(root, "src/syntax_error.py", "def broken(:\n    return ((\n")
    _write(root, "Makefile", "all:\n\techo hi\n")
    _write(root, "notes.unknownext", "plain words in an unknown format\n")
    return {
        "docs/real.pdf": INDEXED, "docs/scanned.pdf": "no text", "docs/broken.pdf": "unreadable",
        "docs/page.html": INDEXED, "docs/guide.rst": INDEXED, "docs/bad_frontmatter.md": INDEXED,
        "src/syntax_error.py": INDEXED, "Makefile": INDEXED, "notes.unknownext": INDEXED,
    }  # fmt: skip


def _ignores(root: Path) -> dict[str, str]:
    files = {
        "node_modules/pkg/index.js": IGNORED, ".git/config": IGNORED, "build/out.py": IGNORED,
        "sub/dist/bundle.js": IGNORED, "__pycache__/m.cpython-311.pyc": IGNORED,
        ".venv/lib/site.py": IGNORED, ".hidden/notes.md": IGNORED,
        "debug.trace": IGNORED, "logs/keep.trace": INDEXED, "logs/other.trace": IGNORED,
        "private/plan.md": IGNORED,
        "my-env-projects/app.py": INDEXED, "builds/run.py": INDEXED, "distance.py": INDEXED,
        "outputs/result.txt": INDEXED, "vendored.py": INDEXED, ".env.example": IGNORED,
        ".gitignore": IGNORED, ".strataignore": IGNORED, "logs/.gitignore": IGNORED,
    }  # fmt: skip
    for rel in files:
        if not rel.endswith("ignore"):
            _write(root, rel, f"# {rel}\nvalue = 1\n")
    _write(root, ".gitignore", "*.trace\n")
    _write(root, "logs/.gitignore", "!keep.trace\n")
    _write(root, ".strataignore", "private/\n")
    return files


_HTML = """<!doctype html>
<html><head><title>Page title</title><style>body { color: red }</style>
<script>var hidden = "script text";</script></head>
<body><h1>Install</h1><p>Run the <b>installer</b> &amp; wait.</p>
<ul><li>first</li><li>second</li></ul><pre>code  block
  indented</pre></body></html>
"""
