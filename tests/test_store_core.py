"""A backend with only the core `Store` indexes and searches as LanceDB does; `doctor` needs
only the core plus `Integrity`, and never a store's private attributes.

The stores here pass the core methods (and, for one, `integrity`) to a real LanceDB store
and have nothing else: every capability a caller might use is missing, so each caller's
fallback to the core runs. They are opened through `SCHEMES` like any backend.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from strata import Engine
from strata.engine.doctor import check
from strata.engine.repair import repair
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG
from strata.store import Filter, Hits, Store, capabilities
from strata.store.arrow import SEARCH_COLUMNS, prepare
from strata.store.capabilities import IndexHealth
from strata.store.lance import LanceStore
from strata.store.uri import SCHEMES, Backend
from strata.types import FileState, Record, Vector
from tests.embed_server import EmbedServer, serve
from tests.test_store_contract import rec, unit

LEXICAL = {"embed.provider": "none"}
CAPABILITIES = (
    capabilities.PreparedWrites,
    capabilities.StatUpdates,
    capabilities.BulkDelete,
    capabilities.ArrowReads,
    capabilities.SessionListing,
    capabilities.Maintenance,
    capabilities.WarmReads,
    capabilities.Versioned,
    capabilities.Metadata,
    capabilities.Integrity,
    capabilities.RepoLocking,
)


class CoreOnly:
    """The core of `Store`, each method passed to a LanceDB store, and nothing more.
    Reading any private attribute of it fails the test that does so. Like PostgreSQL, it
    keeps its full-text index current on every write (it has no `Maintenance` to ask)."""

    def __init__(self, inner: LanceStore) -> None:
        self.inner = inner
        self.dim = inner.dim

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") and not name.startswith("__"):
            raise AssertionError(f"a caller read the private attribute {name!r} of a store")
        raise AttributeError(name)

    def replace_sources(
        self, rows_by_path: Mapping[str, Sequence[Record]], *, repo: str | None = None
    ) -> None:
        self.inner.replace_sources(rows_by_path, repo=repo)
        self.inner.optimize()

    def sources(self, *, repo: str | None = None) -> dict[str, FileState]:
        return self.inner.sources(repo=repo)

    def counts(self, *, repo: str | None = None) -> dict[str, dict[str, int]]:
        return self.inner.counts(repo=repo)

    def fetch(
        self, where: Filter, limit: int | None = None, *, vectors: bool = True
    ) -> list[Record]:
        return self.inner.fetch(where, limit, vectors=vectors)

    def lexical_search(self, terms: Sequence[str], limit: int, where: Filter) -> Hits:
        return self.inner.lexical_search(terms, limit, where)

    def vector_search(self, vector: Vector, limit: int, where: Filter) -> Hits:
        return self.inner.vector_search(vector, limit, where)

    def missing_vectors(
        self, limit: int, layers: Sequence[str] | None = None, *, repo: str | None = None
    ) -> list[tuple[str, str, str]]:
        return self.inner.missing_vectors(limit, layers, repo=repo)

    def set_vectors(self, vectors: Mapping[str, tuple[str, Vector]]) -> int:
        return self.inner.set_vectors(vectors)

    def close(self) -> None:
        self.inner.close()


class WithIntegrity(CoreOnly):
    """The core plus `Integrity`: what `doctor` needs."""

    def integrity(self) -> IndexHealth:
        return self.inner.integrity()


def _directory(uri: str) -> Path:
    return Path(uri.partition("://")[2])


def _backend(kind: type[CoreOnly]) -> Backend:
    def open_(uri: str, dim: int, create: bool) -> Store:
        return kind(LanceStore(_directory(uri), dim, create=create))

    return Backend(open_, lambda uri: shutil.rmtree(_directory(uri), ignore_errors=True))


@pytest.fixture(autouse=True)
def schemes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SCHEMES, "core", _backend(CoreOnly))
    monkeypatch.setitem(SCHEMES, "integrity", _backend(WithIntegrity))


@pytest.fixture
def server() -> Iterator[EmbedServer]:
    yield from serve()


def copy_of(repo: Path, name: str) -> Path:
    return Path(shutil.copytree(repo, repo.parent / name))


def test_the_core_stores_have_no_capability_and_refuse_private_reads(tmp_path: Path) -> None:
    core = CoreOnly(LanceStore(tmp_path / "s", 0))
    assert not any(isinstance(core, c) for c in CAPABILITIES)
    assert isinstance(WithIntegrity(LanceStore(tmp_path / "t", 0)), capabilities.Integrity)
    assert all(isinstance(core.inner, c) for c in CAPABILITIES if c is not capabilities.RepoLocking)
    with pytest.raises(AssertionError, match="_table"):
        getattr(core, "_table", None)


def queries(eng: Engine) -> list[list[tuple[str, str, float]]]:
    asked = ["RetryPolicy", "how do I expire a cookie with max_age", "format_cookie", "Session"]
    return [
        [(h.record.id, h.record.layer, round(h.score, 6)) for h in eng.search(q, k=8)]
        for q in asked
    ]


def test_a_core_only_store_indexes_and_searches_as_lancedb_does(
    minirepo: Path, server: EmbedServer
) -> None:
    config = {"embed.provider": "ollama", "embed.base_url": server.url, "embed.model": "m1"}
    other = copy_of(minirepo, "lance")
    core = Engine.open(minirepo, store=f"core://{minirepo / '.strata' / 'core'}", config=config)
    lance = Engine.open(other, config=config)
    assert isinstance(core.store, CoreOnly)
    summary, expected = core.index(), lance.index()
    assert (summary.indexed, summary.rows_by_layer) == (expected.indexed, expected.rows_by_layer)
    assert core.status().vectors == lance.status().vectors
    assert queries(core) == queries(lance)  # routed: symbol catalogue, hybrid, definitions
    assert [s.rows for s in core.sessions()] == [s.rows for s in lance.sessions()]
    # Same bytes, new mtime: the stat is recorded by rewriting the rows (no restat here).
    path = minirepo / "src/minihttp/client.py"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns - 10**10))
    again = core.index()
    assert (again.indexed, again.unchanged) == (0, expected.indexed)
    assert core.store.sources()["src/minihttp/client.py"].mtime_ns == path.stat().st_mtime_ns
    rebuilt = core.index(full=True)  # delete_all through the core
    assert rebuilt.indexed == expected.indexed
    assert queries(core) == queries(lance)


def brief(r: Record) -> tuple[Any, ...]:
    vector = None if r.vector is None else [round(float(x), 6) for x in r.vector]
    return (*dataclasses.astuple(dataclasses.replace(r, vector=None)), vector)


def test_the_fallbacks_give_what_the_capabilities_give(tmp_path: Path) -> None:
    full = LanceStore(tmp_path / "full", 8)
    core = CoreOnly(LanceStore(tmp_path / "core", 8))
    rows = {
        "a.py": [rec("a.py", 0, "alpha beta"), rec("a.py", 1, "gamma", vector=unit(1))],
        "b.py": [dataclasses.replace(rec("b.py", 0, "delta"), session_id="s1", repo_id="r")],
    }
    new = {"c.py": [rec("c.py", 0, "epsilon", layer=C1_SYMBOL_CATALOG)]}
    for store in (full, core):
        capabilities.write_prepared(store, prepare(rows, 8))
        capabilities.write_prepared(store, prepare(new, 8, new=True))
        assert capabilities.restat(store, {"a.py": (7, 99)}) == 2
    assert [brief(r) for r in full.fetch(Filter())] == [brief(r) for r in core.fetch(Filter())]
    assert core.sources()["a.py"] == FileState("h1", 7, 99, 2)
    where = Filter(layers=(C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG))
    mine = capabilities.fetch_table(core, where, SEARCH_COLUMNS)
    assert mine.to_pylist() == full.fetch_table(where, SEARCH_COLUMNS).to_pylist()
    assert capabilities.sessions(core) == full.sessions()
    for store in (full, core):
        capabilities.delete_all(store, repo="r")
    assert sorted(core.sources()) == sorted(full.sources()) == ["a.py", "c.py"]


def integrity_engine(repo: Path) -> Engine:
    eng = Engine.open(repo, store=f"integrity://{repo / '.strata' / 'st'}", config=LEXICAL)
    eng.index()
    assert isinstance(eng.store, WithIntegrity)
    return eng


def test_doctor_checks_and_repairs_a_store_with_the_core_and_integrity_only(
    minirepo: Path,
) -> None:
    eng = integrity_engine(minirepo)
    assert check(eng).healthy, check(eng).problems
    (minirepo / "docs/guide.md").unlink()
    client = minirepo / "src/minihttp/client.py"
    client.write_text(client.read_text() + "\n\ndef quokka_gate():\n    return 1\n")
    found = check(eng)
    assert (found.paths("orphan"), found.paths("stale")) == (
        {"docs/guide.md"},
        {"src/minihttp/client.py"},
    )
    after = repair(eng, found)
    assert after.healthy, after.problems
    assert "docs/guide.md" not in eng.store.sources()
    rows = eng.store.fetch(Filter(paths=("src/minihttp/client.py",)))
    assert any("quokka_gate" in r.content for r in rows)


def test_doctor_finds_a_missing_index_through_integrity(minirepo: Path) -> None:
    eng = integrity_engine(minirepo)
    eng.store.inner._table.drop_index("lex_idx")  # type: ignore[attr-defined]
    report = check(eng)
    assert any(p.kind == "lexical" and "lex_idx" in p.detail for p in report.problems)


def test_doctor_checks_a_core_only_store_without_schema_or_index_checks(minirepo: Path) -> None:
    eng = Engine.open(minirepo, store=f"core://{minirepo / '.strata' / 'st'}", config=LEXICAL)
    eng.index()
    assert check(eng).healthy
    (minirepo / "docs/guide.md").write_text("# Guide\n\nchanged\n")
    assert check(eng).paths("stale") == {"docs/guide.md"}
