"""Read one discovered file into text: sniff binaries, decode, normalise, convert PDF, HTML
and Jupyter notebooks."""

from __future__ import annotations

import codecs
import io
import logging
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import PurePosixPath
from typing import Final

from strata.text.html import html_to_text
from strata.text.langs import (
    BINARY_EXTENSIONS,
    IMAGE_EXTENSIONS,
    language_of,
    language_of_text,
)
from strata.text.notebook import notebook_to_text
from strata.types import Extracted, Skip, SkipReason, SourceFile, bytes_hash
from strata.workspace.fileread import read_source

log = logging.getLogger(__name__)

__all__ = ["decode", "extract", "normalise_newlines", "sniff_binary"]

SNIFF_BYTES: Final = 8192
# Share of control bytes (other than whitespace, backspace, ESC) above which a file is binary;
# random bytes hold about 10%, real text almost none.
CONTROL_RATIO: Final = 0.05
_CONTROL: Final = bytes(sorted(set(range(32)) - {8, 9, 10, 11, 12, 13, 27} | {127}))
# UTF-32 first: its little-endian BOM starts with the UTF-16 one.
_BOMS: Final = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_PROSE: Final = frozenset({"markdown", "rst", "text"})
# A source map's JSON opens with its version, then its `sources` or `mappings` (one blob).
_SOURCE_MAP: Final = re.compile(
    rb'\s*\{\s*"version"\s*:\s*3\s*,.*"(?:sources|mappings)"', re.DOTALL
)


def extract(f: SourceFile, max_bytes: int | None = None) -> Extracted | Skip:
    """Read a file once and return its text, or a Skip saying why it has none.

    Never raises for a bad file: vanished, unreadable, swapped for a FIFO or a link out
    of the root, grown past `max_bytes`, empty, image, binary, broken or scanned PDF all
    become a Skip; a decoding fallback becomes a warning.
    """
    raw = read_source(f, max_bytes)
    if isinstance(raw, Skip):
        return raw
    if not raw:
        return Skip(f.rel, SkipReason.EMPTY, "0 bytes")
    ext = PurePosixPath(f.rel).suffix.lower()
    if ext in IMAGE_EXTENSIONS:
        return Skip(f.rel, SkipReason.IMAGE, f"{ext} file")
    lang = language_of(f.rel)
    if lang == "pdf":
        return _pdf(f.rel, raw)
    if ext in BINARY_EXTENSIONS:
        return Skip(f.rel, SkipReason.BINARY, f"{ext} file")
    why = sniff_binary(raw)
    if why:
        return Skip(f.rel, SkipReason.BINARY, why)
    if ext == ".map" and _SOURCE_MAP.match(raw[:SNIFF_BYTES]):  # `app.js.map`: build output
        return Skip(f.rel, SkipReason.GENERATED, "a source map")
    text, notes = decode(raw)
    text = normalise_newlines(text)
    lang = language_of_text(f.rel, text)
    notebook = notebook_to_text(text) if ext == ".ipynb" else None
    if notebook is not None:
        text, lang = notebook
    if lang == "html":
        text, kind = html_to_text(text), "html"
    else:
        lang = lang or "text"
        kind = lang if lang in _PROSE else "code"
    if not text.strip():
        return Skip(f.rel, SkipReason.EMPTY, "only whitespace")
    return Extracted(f.rel, text, lang, kind, bytes_hash(raw), notes)


def sniff_binary(raw: bytes) -> str | None:
    """Why these bytes look binary (NUL bytes, many control bytes), or None for text."""
    if any(raw.startswith(bom) for bom, _ in _BOMS):
        return None
    sample = raw[:SNIFF_BYTES]
    if b"\0" in sample:
        return "NUL bytes"
    controls = len(sample) - len(sample.translate(None, _CONTROL))
    if controls > CONTROL_RATIO * len(sample):
        return f"{controls} control bytes in the first {len(sample)}"
    return None


def decode(raw: bytes) -> tuple[str, tuple[str, ...]]:
    """Decode text: by BOM, else UTF-8, else cp1252, else latin-1; never raises.

    Returns:
        The text (without BOM) and the warnings of any fallback taken.
    """
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            try:
                return raw.decode(codec), ()
            except UnicodeDecodeError as exc:
                note = f"decoded as {codec} with replacements: invalid {codec} at byte {exc.start}"
                return raw.decode(codec, errors="replace"), (note,)
    try:
        return raw.decode("utf-8"), ()
    except UnicodeDecodeError as exc:
        at = exc.start
    try:
        return raw.decode("cp1252"), (f"decoded as cp1252: invalid UTF-8 at byte {at}",)
    except UnicodeDecodeError:
        return raw.decode("latin-1"), (f"decoded as latin-1: invalid UTF-8 at byte {at}",)


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF, so line numbers mean the same everywhere."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _pdf(rel: str, raw: bytes) -> Extracted | Skip:
    try:
        with _quiet_pypdf():
            pages, notes = _pdf_pages(raw)
    except Exception as exc:  # pypdf raises many exception types on broken input
        return Skip(rel, SkipReason.UNREADABLE, f"broken PDF: {_one_line(exc)}")
    text = "\n\n".join(page.strip() for page in pages if page.strip())
    if not text:
        return Skip(rel, SkipReason.NO_TEXT, "scanned PDF? no text layer")
    return Extracted(rel, normalise_newlines(text) + "\n", "pdf", "pdf", bytes_hash(raw), notes)


def _pdf_pages(raw: bytes) -> tuple[list[str], tuple[str, ...]]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(raw))
    if reader.is_encrypted:
        reader.decrypt("")
    if not reader.pages:
        raise ValueError("no pages")
    pages: list[str] = []
    failed: list[str] = []
    for number, page in enumerate(reader.pages, start=1):
        try:
            pages.append(page.extract_text() or "")
        except Exception as exc:  # one bad page must not lose the others
            failed.append(f"page {number}: {_one_line(exc)}")
    if failed and not any(p.strip() for p in pages):
        raise ValueError(failed[0])
    return pages, tuple(f"PDF text not extracted from {note}" for note in failed)


@contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """Route pypdf's warnings about malformed files to our debug log, not stderr."""
    pypdf_log = logging.getLogger("pypdf")
    handler = _DebugHandler()
    propagate = pypdf_log.propagate
    pypdf_log.addHandler(handler)
    pypdf_log.propagate = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        pypdf_log.removeHandler(handler)
        pypdf_log.propagate = propagate


class _DebugHandler(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        log.debug("pypdf: %s", record.getMessage())


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
