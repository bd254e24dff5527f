"""A cold run over many files writes passage rows first, then every layer; a run killed in
between leaves rows marked unfinished, which the next run completes."""

from __future__ import annotations

from pathlib import Path

import pytest

import strata.indexer
from strata import Engine
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG

LEXICAL = {"embed.provider": "none", "index.workers": 1}
FILES = strata.indexer.LEXICAL_FIRST_MIN_FILES + 10


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
    real = strata.indexer.process_batch

    def full_pass(files: list, cfg: object) -> list:  # type: ignore[type-arg]
        if not seen:  # the moment the full pass starts
            hits = eng.search("field_7", route=False, mode="lexical").hits
            symbols = eng.store.count(C1_SYMBOL_CATALOG)
            seen.append((bool(hits) and hits[0].record.path == "pkg/m7.py", symbols))
        return real(files, cfg)  # type: ignore[arg-type]

    monkeypatch.setattr(strata.indexer, "process_batch", full_pass)
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

    monkeypatch.setattr(strata.indexer, "process_batch", killed)
    with pytest.raises(KeyboardInterrupt):
        eng.index()
    partial = eng.records([C0_SOURCE_CHUNKS])
    assert len({r.path for r in partial}) == FILES and not any(r.file_hash for r in partial)
    assert eng.status()["files_pending"] == FILES
    monkeypatch.undo()
    again = eng.index()
    assert again.indexed == FILES
    assert all(r.file_hash for r in eng.records([C0_SOURCE_CHUNKS]))
    assert eng.store.count(C1_SYMBOL_CATALOG) == FILES
    assert eng.status()["files_pending"] == 0
