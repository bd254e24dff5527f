"""PostgreSQL BM25 on a large table: the bounded first stage (`store/postgres/shortlist.py`)
gives what reading every match gives while its budget suffices, reads at most its budget
of rows otherwise (the shortest matches first), and keeps filters."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from strata.index.records import make_record
from strata.layers import C0_SOURCE_CHUNKS
from strata.store import Filter, open_store
from strata.store.postgres import search, shortlist
from strata.store.postgres.store import PgStore
from strata.types import Record

WORDS = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta"]


def rec(path: str, i: int, content: str, repo: str = "r") -> Record:
    r = make_record(
        id=f"{path}:{i}", path=path, layer=C0_SOURCE_CHUNKS, title="", content=content,
        lang="python", file_hash="h", span=(i + 1, i + 1), kind="function", metadata={},
    )  # fmt: skip
    return dataclasses.replace(r, repo_id=repo, is_test=path.startswith("test"))


@pytest.fixture
def store(pg_uri: str) -> Iterator[PgStore]:
    s = open_store(pg_uri, 0)
    assert isinstance(s, PgStore)
    yield s
    s.close()


def corpus(store: PgStore) -> None:
    """400 rows of 3 to 60 words, common words and rare ones, tests and not, two repos."""
    rng = random.Random(19)
    files: dict[str, list[Record]] = {}
    for n in range(400):
        words = [*rng.choices(WORDS[:4], k=rng.randint(2, 59)), rng.choice(WORDS[4:])]
        path = f"{'test_' if n % 3 == 0 else ''}m{n // 10}.py"
        files.setdefault(path, []).append(rec(path, n % 10, " ".join(words)))
    store.replace_sources(files)
    store.optimize()  # ANALYZE: the length histogram the first stage walks


def hits(store: PgStore, terms: list[str], where: Filter, k: int = 10) -> list[tuple[str, float]]:
    return [(r.id, round(s, 6)) for r, s in store.lexical_search(terms, k, where)]


QUERIES = [["alpha"], ["alpha", "beta"], ["gamma", "omega"], ["alpha", "beta", "delta"]]
FILTERS = [Filter(), Filter(is_test=True), Filter(is_test=False, repo_id="r")]


def test_the_shortlist_gives_what_reading_every_match_gives(
    store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus(store)
    full = {(i, j): hits(store, q, f) for i, q in enumerate(QUERIES) for j, f in enumerate(FILTERS)}
    assert all(full.values())
    monkeypatch.setattr(search, "FULL_SCAN", 0)  # every query takes the bounded path
    monkeypatch.setattr(shortlist, "RARE", 30)  # the rare words are read in full
    store._corpus.forget()
    walked = {
        (i, j): hits(store, q, f) for i, q in enumerate(QUERIES) for j, f in enumerate(FILTERS)
    }
    assert store._corpus.lengths  # the walk had a histogram to follow
    assert walked == full


def test_a_spent_budget_keeps_the_shortest_matches(
    store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every row holds "alpha" once: BM25 ranks the shortest rows first
    rows = [" ".join(["alpha"] + ["filler"] * (n % 97)) for n in range(300)]
    store.replace_sources({f"m{n}.py": [rec(f"m{n}.py", 0, t)] for n, t in enumerate(rows)})
    store.optimize()
    full = hits(store, ["alpha"], Filter(), 5)
    monkeypatch.setattr(search, "FULL_SCAN", 0)
    monkeypatch.setattr(shortlist, "RARE", 0)
    monkeypatch.setattr(shortlist, "BUDGET", 40)
    store._corpus.forget()
    read: list[int] = []
    add = shortlist._Found.add

    def counted(found: shortlist._Found, cursor: Any, *, whole: bool = False) -> int:
        read.append(add(found, cursor, whole=whole))
        return read[-1]

    monkeypatch.setattr(shortlist._Found, "add", counted)
    assert hits(store, ["alpha"], Filter(), 5) == full
    assert 5 <= sum(read) <= 40  # of 300 matches


def test_the_length_index_is_made_by_a_migration(store: PgStore) -> None:
    assert "rag_chunks_len" not in store.integrity().missing
    assert "rag_chunks_len" in search_indexes(store)


def search_indexes(store: PgStore) -> set[str]:
    with store._read() as conn:
        rows = conn.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
        ).fetchall()
    return {name for (name,) in rows}
