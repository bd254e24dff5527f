"""Large plain-text and Markdown files read, chunked and written a part at a time.

A file over `STREAM_BYTES` whose format allows it (plain text: `.txt`, `.log`, names of no
known language; Markdown) is not read whole. Its bytes are decoded and cut into parts of
about `PART_BYTES` at a paragraph (else a line) boundary, Markdown before a heading (else
between two blocks); each part is chunked alone (D0 windows or sections, lines numbered
from where the part starts; a Markdown part's sections nest under the headings still open
at its start, `Outline`) and its rows go to the store as they are made,
all in one commit (`capabilities.write_streamed`). So peak memory does not grow with the
file, and the file's old rows are still replaced atomically: a file whose bytes no longer
hash to what its rows were stamped with (it changed while it was read) raises
`ChangedWhileRead` from inside the write, which is then not committed.

The D1 card comes from the first part (a Markdown file's frontmatter too); D2 facts, D4-D6
and the corpus pass's entities are not built for such a file (a multi-MB log's "facts" and
"entities" are noise; a Markdown file that large is mostly generated, a changelog or a dump).
"""

from __future__ import annotations

import codecs
import logging
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import PurePosixPath
from typing import Final

from strata.config import ChunkConfig, Config
from strata.index.corpus.artifacts import NONE, Artifact
from strata.index.docs.blocks import Block, markdown_blocks
from strata.index.docs.build import card_record, section_records
from strata.index.docs.chunker import chunk_sections, file_lines
from strata.index.docs.document import parse_document
from strata.index.docs.sections import Outline, outline_of, sections_after
from strata.index.extraction import normalise_newlines, sniff_binary
from strata.index.summary import IndexSummary
from strata.store import Store, capabilities
from strata.store.arrow import PreparedRows, prepare
from strata.text.langs import BINARY_EXTENSIONS, IMAGE_EXTENSIONS, language_of
from strata.types import FileState, Record, SkipReason, SourceFile
from strata.workspace.fileread import (
    Refused,
    content_digest,
    file_hash,
    iter_inside,
    skip_of,
    source_root,
)

__all__ = [
    "PART_BYTES",
    "STREAM_BYTES",
    "ChangedWhileRead",
    "index_streamed",
    "stream_records",
    "streams",
]

log = logging.getLogger(__name__)

STREAM_BYTES: Final = 1 << 20  # files larger than this are streamed (when plain text)
PART_BYTES: Final = 128 * 1024  # about this much text is chunked and written at a time


class ChangedWhileRead(Exception):
    """The file's bytes changed between hashing it and reading it: nothing is committed."""


def streams(f: SourceFile) -> bool:
    """Whether `f` is read a part at a time: plain text or Markdown over `STREAM_BYTES`."""
    ext = PurePosixPath(f.rel).suffix.lower()
    if f.size <= STREAM_BYTES or ext in IMAGE_EXTENSIONS or ext in BINARY_EXTENSIONS:
        return False
    if ext == ".ipynb":  # its outputs make it large; its cells are read whole (extraction)
        return False
    return language_of(f.rel) in (None, "text", "markdown")


def _lang(f: SourceFile) -> str:
    """The document language a streamed file is chunked as: Markdown, else plain text."""
    return "markdown" if language_of(f.rel) == "markdown" else "text"


def stream_records(
    f: SourceFile, cfg: ChunkConfig, file_hash: str, max_bytes: int | None = None
) -> Iterator[list[Record]]:
    """The D0 (and, first, D1) records of `f`, a part at a time, stamped `file_hash`.

    Raises:
        Refused: the file is not safe to read or not text (`BINARY`), as `read_source` says.
        OSError: it cannot be read.
        ChangedWhileRead: after the last part, when the bytes read hash otherwise.
    """
    lang = _lang(f)
    ordinal, first, outline = 0, None, Outline()
    cut = _markdown_cut if lang == "markdown" else _cut
    for offset, text in text_parts(f, file_hash, max_bytes, cut):
        if first is None:  # the document's metadata and card: the first part's
            first = parse_document(f.rel, text, lang)
            rows, lines, sections = [card_record(first, file_hash)], first.lines, first.sections
            outline = outline_of(sections)
        elif lang == "markdown":
            lines = tuple(file_lines(text))
            found, outline = sections_after(markdown_blocks(lines, 1), outline)
            rows, sections = [], tuple(found)
        else:
            doc = parse_document(f.rel, text, lang)
            rows, lines, sections = [], doc.lines, doc.sections
        chunks = chunk_sections(lines, sections, cfg)
        rows += section_records(first, chunks, file_hash, ordinal, offset)
        ordinal += len(chunks)
        yield rows


def text_parts(
    f: SourceFile,
    file_hash: str,
    max_bytes: int | None = None,
    cut: Callable[[str], int] | None = None,
) -> Iterator[tuple[int, str]]:
    """(lines before it, its text) of each part of `f`: whole lines, newlines normalised,
    each cut where `cut` says (by default `_cut`: at a paragraph, else a line)."""
    cut = cut or _cut
    digest = content_digest()
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending, offset = "", 0
    for i, piece in enumerate(iter_inside(f.abspath, source_root(f), max_bytes, PART_BYTES)):
        digest.update(piece)
        if i == 0:
            why = sniff_binary(piece)
            if why:
                raise Refused(SkipReason.BINARY, why)
            piece = piece.removeprefix(codecs.BOM_UTF8)
        pending += decoder.decode(piece)
        at = cut(pending)
        if at:
            text, pending = normalise_newlines(pending[:at]), pending[at:]
            yield offset, text
            offset += text.count("\n")
    pending += decoder.decode(b"", final=True)
    if pending:
        yield offset, normalise_newlines(pending)
    if digest.hexdigest() != file_hash:
        raise ChangedWhileRead(f"{f.rel} changed while it was read")


def _cut(text: str) -> int:
    """Where a part ends in `text` (0: not yet): after its last paragraph break in the
    second half, else after its last newline; a part of one line of 4 parts is cut anyway."""
    if len(text) < PART_BYTES:
        return 0
    blank = text.rfind("\n\n", len(text) // 2)
    if blank >= 0:
        return blank + 1
    line = text.rfind("\n")
    if line >= 0:
        return line + 1
    return len(text) if len(text) >= 4 * PART_BYTES else 0


def _markdown_cut(text: str) -> int:
    """Where a Markdown part ends in `text` (0: not yet): before its last heading past the
    first quarter, else before its last block past the half, never right after a heading
    (a heading with nothing under it is the next section's); else as `_cut` does, for a
    fence or table larger than 4 parts."""
    if len(text) < PART_BYTES:
        return 0
    lines = text[: text.rfind("\n") + 1].split("\n")[:-1]  # whole lines, CRLF kept
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    blocks = markdown_blocks([line.removesuffix("\r") for line in lines], 1)
    best = _block_cut(blocks, starts, len(text) // 4, headings=True)
    best = best or _block_cut(blocks, starts, len(text) // 2, headings=False)
    if best:
        return best
    return _cut(text) if len(text) >= 4 * PART_BYTES else 0


def _block_cut(blocks: list[Block], starts: list[int], after: int, *, headings: bool) -> int:
    """The offset of the last block starting past `after` (a heading, with `headings`)
    that does not follow a heading; 0 for none."""
    for prev, block in zip(reversed(blocks[:-1]), reversed(blocks[1:]), strict=True):
        at = starts[block.start - 1]
        if at <= after:
            return 0
        if prev.kind != "heading" and (block.kind == "heading" or not headings):
            return at
    return 0


def index_streamed(
    store: Store,
    f: SourceFile,
    cfg: Config,
    previous: FileState | None,
    ready: Callable[[list[Record]], list[Record]],
    summary: IndexSummary,
) -> Artifact | None:
    """Index one streamed file into `store` (its rows made `ready`: stamped, cached vectors
    attached), counted in `summary`; its corpus artifact, None if it was not written."""
    digest = file_hash(f, cfg.index.max_file_bytes)
    if digest and previous is not None and previous.file_hash == digest:
        summary.unchanged += 1  # the same bytes: only the stat is new
        capabilities.restat(store, {f.rel: (f.size, f.mtime_ns)})
        return None
    layers: Counter[str] = Counter()
    failed: list[Exception] = []

    def parts() -> Iterator[PreparedRows]:
        try:
            for rows in stream_records(f, cfg.chunk, digest, cfg.index.max_file_bytes):
                rows = ready(rows)
                layers.update(r.layer for r in rows)
                yield prepare({f.rel: rows}, store.dim)
        except Exception as exc:  # the store's own error hides it; re-raised below
            failed.append(exc)
            raise

    try:
        capabilities.write_streamed(store, f.rel, parts())
    except Exception as exc:
        cause = failed[0] if failed else exc
        if isinstance(cause, ChangedWhileRead):
            summary.warnings.append(f"{cause}; indexed on the next run")
            log.warning("%s", summary.warnings[-1])
            return None
        if not isinstance(cause, OSError):
            raise
        skip = skip_of(f.rel, cause)
        log.warning(skip.line())
        summary.skips.append(skip)
        if previous is not None:  # now unindexable: its old rows go
            store.replace_sources({f.rel: []})
            summary.removed += 1
        return None
    summary.indexed += 1
    for layer, n in layers.items():
        summary.rows_by_layer[layer] = summary.rows_by_layer.get(layer, 0) + n
    return Artifact(f.rel, digest, NONE, _lang(f))
