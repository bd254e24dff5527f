"""BM25 from memory in a warm store: LanceDB's full-text scores and ranks, on real text."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from strata.index.records import make_record
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG, D0_DOC_CHUNKS, PASSAGE_LAYERS
from strata.store import Filter
from strata.store.lance import LanceStore
from strata.text.tokens import query_terms
from strata.types import Record
from tests.test_store_hot import assert_same_ranking

SOURCES = Path(__file__).resolve().parents[1] / "src" / "strata"
PASSAGES = Filter(layers=PASSAGE_LAYERS)
QUERIES = [
    "open the store",
    "connection connections",  # one stem twice: LanceDB counts it twice
    "full text index rows",
    "vector search filter",
    "Record path layer",
    "the",
    "nothing_like_this_anywhere",
]


def records(files: list[Path]) -> dict[str, list[Record]]:
    """Each file in chunks of 15 lines (C0; a .md file's are D0), plus one C1 row per
    `def` line: the index's statistics count every layer, the passages are only C0/D0."""
    out: dict[str, list[Record]] = {}
    for f in files:
        rel = f.relative_to(SOURCES).as_posix()
        lines = f.read_text(encoding="utf-8").splitlines()
        layer = D0_DOC_CHUNKS if f.suffix == ".md" else C0_SOURCE_CHUNKS
        rows = [
            make_record(
                id=f"{rel}:{i}",
                path=rel,
                layer=layer,
                title=f"{rel} {i}",
                content="\n".join(lines[i : i + 15]),
                lang="python",
                file_hash=rel,
                span=(i + 1, min(len(lines), i + 15)),
            )
            for i in range(0, len(lines), 15)
        ]
        rows += [
            make_record(
                id=f"{rel}:def{n}",
                path=rel,
                layer=C1_SYMBOL_CATALOG,
                title=line.strip(),
                content=line.strip(),
                lang="python",
                file_hash=rel,
                span=(n + 1, n + 1),
            )
            for n, line in enumerate(lines)
            if line.lstrip().startswith("def ")
        ]
        out[rel] = rows
    return out


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("bm25") / "lance"
    store = LanceStore(where, 0)
    store.replace_sources(records(sorted((SOURCES / "store").glob("*.py"))))
    return where


def warmed(where: Path) -> LanceStore:
    store = LanceStore(where, 0)
    store.keep_warm()
    assert store._warm.wait(30.0)
    return store


@pytest.mark.parametrize(
    "where",
    [PASSAGES, Filter(layers=(C0_SOURCE_CHUNKS,)), Filter(layers=PASSAGE_LAYERS, is_test=False)],
)
def test_memory_ranks_as_the_full_text_index_does(index: Path, where: Filter) -> None:
    cold = LanceStore(index, 0)  # never warm: every query goes to LanceDB
    warm = warmed(index)
    hot = warm._warm.get()
    assert hot is not None and hot.bm25 is not None
    distinct = 0
    for q in QUERIES:
        want = cold.lexical_search(query_terms(q), 40, where)
        got = warm.lexical_search(query_terms(q), 40, where)
        assert_same_ranking(got, want)
        distinct += len({round(s, 4) for _, s in want})
    assert distinct > 100  # mostly distinct scores: the order itself was compared


def test_rows_the_index_has_not_folded_in_leave_bm25_to_lancedb(tmp_path: Path) -> None:
    store = LanceStore(tmp_path / "lance", 0)
    store.replace_sources(records(sorted((SOURCES / "store").glob("*.py"))[:3]))
    store.replace_sources(records(sorted((SOURCES / "store").glob("*.py"))[3:6]))  # unindexed
    cold = LanceStore(tmp_path / "lance", 0)
    warm = warmed(tmp_path / "lance")
    hot = warm._warm.get()
    assert hot is not None and hot.bm25 is None  # the copy is kept, BM25 stays LanceDB's
    for q in QUERIES:  # LanceDB orders a tie as it likes, from run to run
        want = cold.lexical_search(query_terms(q), 20, PASSAGES)
        assert_same_ranking(warm.lexical_search(query_terms(q), 20, PASSAGES), want)
    store.optimize()  # folded in: the next copy answers BM25 itself
    again = warmed(tmp_path / "lance")
    found = again._warm.get()
    assert found is not None and found.bm25 is not None
    assert np.isfinite([s for _, s in again.lexical_search(["store"], 5, PASSAGES)]).all()
