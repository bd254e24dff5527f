"""A cold run over many files writes passage rows first, then every layer; a run killed in
between leaves rows marked unfinished, which the next run completes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import strata.engine.indexing
import strata.index.indexer
from strata import Engine
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG
from tests.embed_server import serve

LEXICAL = {"embed.provider": "none", "index.workers": 1}
FILES = strata.index.indexer.LEXICAL_FIRST_MIN_FILES + 10


@pytest.fixture
def many(tmp_path: Path) -> Path:
    root = tmp_path / "many"
    (root / "pkg").mkdir(parents=True)
    for i in range(FILES):
        (root / "pkg" / f"m{i}.py").write_text(
            f"def handler_{i}(event):\n    return event.get('field_{i}')\n"
        )
    return root


def test_passages_are_searchable_before_the_other_layers(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eng = Engine.open(many, config=LEXICAL)
    seen: list[tuple[bool, int]] = []
    real = strata.index.indexer.process_batch

    def full_pass(files: list, cfg: object) -> list:  # type: ignore[type-arg]
        if not seen:  # the moment the full pass starts
            hits = eng.search("field_7", route=False, mode="lexical").hits
            symbols = eng.store.count(C1_SYMBOL_CATALOG)
            seen.append((bool(hits) and hits[0].record.path == "pkg/m7.py", symbols))
        return real(files, cfg)  # type: ignore[arg-type]

    monkeypatch.setattr(strata.index.indexer, "process_batch", full_pass)
    summary = eng.index()
    assert seen == [(True, 0)]  # BM25 answered before any symbol row existed
    assert summary.indexed == FILES and 0 < summary.searchable_seconds < summary.seconds
    rows = eng.records([C0_SOURCE_CHUNKS])
    assert all(r.file_hash for r in rows)  # the full pass finished them
    assert eng.store.count(C1_SYMBOL_CATALOG) == FILES
    assert eng.index().indexed == 0


def test_a_run_killed_after_the_first_look_is_completed_next_time(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eng = Engine.open(many, config=LEXICAL)

    def killed(files: list, cfg: object) -> list:  # type: ignore[type-arg]
        raise KeyboardInterrupt

    monkeypatch.setattr(strata.index.indexer, "process_batch", killed)
    with pytest.raises(KeyboardInterrupt):
        eng.index()
    partial = eng.records([C0_SOURCE_CHUNKS])
    assert len({r.path for r in partial}) == FILES and not any(r.file_hash for r in partial)
    assert eng.status().to_json()["files_pending"] == FILES
    monkeypatch.undo()
    again = eng.index()
    assert again.indexed == FILES
    assert all(r.file_hash for r in eng.records([C0_SOURCE_CHUNKS]))
    assert eng.store.count(C1_SYMBOL_CATALOG) == FILES
    assert eng.status().to_json()["files_pending"] == 0


def test_a_second_repository_gets_its_first_look_under_its_own_ids(
    many: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers' prepared rows pass through the repository's view: ids prefixed,
    `repo_id` set, and the home repository's rows of the same paths untouched."""
    other = tmp_path / "other"
    shutil.copytree(many, other)
    eng = Engine.open(many, config=LEXICAL)
    eng.index()
    home = sorted((r.id, r.content_hash) for r in eng.records([C0_SOURCE_CHUNKS]))
    seen: list[set[str]] = []
    real = strata.index.indexer.process_batch

    def full_pass(files: list, cfg: object) -> list:  # type: ignore[type-arg]
        if not seen:  # the first look of `other` is written, its full pass not begun
            seen.append({r.id for r in eng.records([C0_SOURCE_CHUNKS]) if r.repo_id == "other"})
        return real(files, cfg)  # type: ignore[arg-type]

    monkeypatch.setattr(strata.index.indexer, "process_batch", full_pass)
    eng.index(other, repo="other")
    assert len(seen[0]) >= FILES and all(i.startswith("other//") for i in seen[0])
    rows = eng.records([C0_SOURCE_CHUNKS])
    assert sorted((r.id, r.content_hash) for r in rows if r.repo_id != "other") == home
    assert {r.path for r in rows if r.repo_id == "other"} == {f"pkg/m{i}.py" for i in range(FILES)}


def test_a_first_run_starts_its_workers_before_the_store_opens(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eng = Engine.open(many, config={**LEXICAL, "index.workers": 2})
    asked: list[tuple[int, bool]] = []
    real = strata.engine.indexing.worker_pool

    def spy(workers: int):  # type: ignore[no-untyped-def]
        asked.append((workers, not eng.parts.store_open))
        return real(workers)

    monkeypatch.setattr(strata.engine.indexing, "worker_pool", spy)
    first = eng.index()
    (many / "pkg" / "m0.py").write_text("def changed():\n    return 0\n")
    again = eng.index()
    assert asked == [(2, True), (1, False)]  # ahead on the first run only
    assert (first.workers, first.indexed, again.indexed) == (2, FILES, 1)
    assert eng.search("field_7", route=False, mode="lexical").hits[0].record.path == "pkg/m7.py"


def test_a_first_look_with_an_embedder_writes_null_vectors_that_fill_in(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first look leaves the vector column out (the store keeps nulls); the full pass
    and the embedding that follows give every passage its vector."""
    running = serve()
    server = next(running)
    config = {"embed.provider": "ollama", "embed.base_url": server.url, "embed.model": "m1"}
    eng = Engine.open(many, config={**config, "index.workers": 1})
    seen: list[dict[str, int]] = []
    real = strata.index.indexer.process_batch

    def full_pass(files: list, cfg: object) -> list:  # type: ignore[type-arg]
        if not seen:
            seen.append(eng.store.counts()[C0_SOURCE_CHUNKS])
        return real(files, cfg)  # type: ignore[arg-type]

    monkeypatch.setattr(strata.index.indexer, "process_batch", full_pass)
    try:
        eng.index()
        assert seen == [{"rows": FILES, "vectors": 0}]
        assert eng.store.counts()[C0_SOURCE_CHUNKS] == {"rows": FILES, "vectors": FILES}
        result = eng.search("field_7", route=False)
        assert result.mode == "hybrid" and result[0].record.path == "pkg/m7.py"
    finally:
        running.close()
