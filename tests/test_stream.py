"""Large plain-text files are read, chunked and written a part at a time (issue 15 item 11):
peak memory does not grow with the file, and its old rows are still replaced atomically."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import pytest

from strata import Engine
from strata.index import stream
from strata.index.summary import IndexSummary
from strata.layers import D0_DOC_CHUNKS, D1_DOCUMENT_CATALOG
from strata.store import Filter


def _log(path: Path, lines: int, needle_at: int | None = None, seed: int = 1) -> int:
    """A web server's log of `lines` lines (a blank line every 40), maybe one needle line."""
    rnd = random.Random(seed)
    out = []
    for i in range(lines):
        out.append(
            f"2026-12-01T00:{i // 60 % 60:02d}:{i % 60:02d} INFO worker-{i % 17} "
            f"handled request {i} in {rnd.randint(1, 900)} ms"
        )
        if i % 40 == 39:
            out.append("")
    if needle_at is not None:
        out.insert(needle_at, "ERROR needle_unicorn_overflow in shard 42")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")
    return path.stat().st_size


def _rows(eng: Engine) -> list[tuple[str, str, int | None, int | None, str]]:
    found = eng.store.fetch(Filter(paths=("app.log",)), vectors=False)
    return sorted((r.layer, r.id, r.span_start, r.span_end, r.file_hash) for r in found)


def _peak(root: Path) -> tuple[int, IndexSummary]:
    """The traced memory's peak while `root` is indexed, above what the run keeps after it
    (the bounded caches it filled: tokens, and PostgreSQL's stems)."""
    eng = Engine.open(root, config={"embed.provider": "none"})
    tracemalloc.start()
    try:
        summary = eng.index()
        end, peak = tracemalloc.get_traced_memory()
        return peak - end, summary
    finally:
        tracemalloc.stop()


def test_a_multi_megabyte_log_indexes_in_bounded_memory(tmp_path: Path, both_stores: str) -> None:
    # imports, and the token cache filled (`word_tokens`: 64k words), first, not measured
    _log(tmp_path / "warm" / "app.log", 70_000)
    Engine.open(tmp_path / "warm", config={"embed.provider": "none"}).index()
    small = _log(tmp_path / "small" / "app.log", 35_000)
    size = _log(tmp_path / "big" / "app.log", 110_000, needle_at=100_000)
    assert size > 6 * stream.STREAM_BYTES
    peak_small, _ = _peak(tmp_path / "small")
    peak, summary = _peak(tmp_path / "big")
    # 3x the file, about the same peak (whole, a file's rows and text cost ~5x its size);
    assert peak - peak_small < (size - small) / 4, f"{peak_small / 1e6:.1f} -> {peak / 1e6:.1f} MB"
    assert peak < 2 * size
    eng = Engine.open(tmp_path / "big", config={"embed.provider": "none"})
    assert summary.indexed == 1 and summary.rows_by_layer[D1_DOCUMENT_CATALOG] == 1
    chunks = summary.rows_by_layer[D0_DOC_CHUNKS]
    assert chunks > 1000
    # every line is in exactly one window's lines, numbered as in the whole file
    (hit, *_) = eng.search("needle_unicorn_overflow", mode="lexical").hits
    assert hit.record.path == "app.log" and "needle_unicorn_overflow" in hit.record.content
    assert hit.record.span_start is not None and hit.record.span_end is not None
    lines = (tmp_path / "big" / "app.log").read_text().split("\n")
    window = lines[hit.record.span_start - 1 : hit.record.span_end]
    assert "\n".join(window) == hit.record.content.rstrip("\n")
    assert eng.index().unchanged == 1  # its rows carry the file's own hash and stat


def test_a_log_that_changes_while_read_keeps_its_old_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, both_stores: str
) -> None:
    log = tmp_path / "app.log"
    _log(log, 30_000)
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    eng.index()
    before = _rows(eng)
    assert len(before) > 100
    _log(log, 36_000, seed=2)  # the next version, 20 % longer
    hashed = stream.file_hash

    def hash_then_append(*args: object, **kwargs: object) -> str:
        digest = hashed(*args, **kwargs)  # type: ignore[arg-type]
        with log.open("a") as out:  # a writer appends after the hash, before the read
            out.write("one more line\n")
        return digest

    monkeypatch.setattr(stream, "file_hash", hash_then_append)
    summary = eng.index()
    assert any("changed while it was read" in w for w in summary.warnings), summary.warnings
    assert _rows(eng) == before  # no part of the new version was committed
    monkeypatch.undo()
    assert eng.index().indexed == 1
    after = _rows(eng)
    assert len(after) > len(before) and {h for *_, h in after} != {h for *_, h in before}


def test_a_streamed_file_gets_vectors_from_the_embedding_cache_in_the_stores_thread(
    tmp_path: Path,
) -> None:
    # Parts after the first are made inside LanceDB's writer thread; their cached vectors
    # come from the SQLite file the run opened in this one.
    from tests.embed_server import serve

    _log(tmp_path / "app.log", 40_000, needle_at=30_000)  # ~2.5 MB: many parts
    (tmp_path / "notes.md").write_text("# Notes\n\nthe shard overflow runbook\n")
    for server in serve():
        cfg = {"embed.provider": "ollama", "embed.base_url": server.url, "embed.model": "m"}
        with Engine.open(tmp_path, config=cfg) as eng:
            summary = eng.index()
            assert summary.indexed == 2 and summary.vectors_missing == 0
            hits = eng.search("needle_unicorn_overflow", k=1, mode="semantic").hits
            assert hits and hits[0].record.path == "app.log"
