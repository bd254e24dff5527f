"""The contract every `Store` backend meets, run over each backend in `FACTORIES`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from strata.index.records import make_record
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG, D0_DOC_CHUNKS
from strata.store import Filter, Store, open_store
from strata.store.capabilities import Integrity
from strata.types import FileState, Record

DIM = 8
StoreFactory = Callable[[Path, int], Store]


def lance_store(tmp: Path, dim: int) -> Store:
    return open_store(f"lancedb://{tmp / 'index'}", dim)


BACKENDS = ["lancedb", "postgresql"]


@pytest.fixture(params=BACKENDS)
def factory(request: pytest.FixtureRequest) -> StoreFactory:
    if request.param == "lancedb":
        return lance_store
    uri = request.getfixturevalue("pg_uri")  # one fresh schema per test: reopen finds it
    return lambda _tmp, dim: open_store(uri, dim)


@pytest.fixture
def store(factory: StoreFactory, tmp_path: Path) -> Any:
    s = factory(tmp_path, DIM)
    yield s
    s.close()


def unit(seed: int, dim: int = DIM) -> np.ndarray[Any, Any]:
    v = np.random.default_rng(seed).normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


def rec(
    path: str,
    i: int,
    content: str,
    *,
    layer: str = C0_SOURCE_CHUNKS,
    vector: Any = None,
    file_hash: str = "h1",
    **meta: Any,
) -> Record:
    r = make_record(
        id=f"{path}:{i}",
        path=path,
        layer=layer,
        title=f"unit{i}",
        content=content,
        lang="markdown" if path.endswith(".md") else "python",
        file_hash=file_hash,
        span=(10 * i + 1, 10 * i + 9),
        kind="function",
        metadata=meta,
    )
    return dataclasses.replace(r, vector=vector, file_size=123 + i, file_mtime_ns=10**18 + i)


def ids(results: list[tuple[Record, float]]) -> list[str]:
    return [r.id for r, _ in results]


def test_records_round_trip_with_metadata_and_vectors(store: Store) -> None:
    odd = dataclasses.replace(
        rec("src/ü'x.py", 0, "naïve 'quoted' text", vector=unit(1), note="é'\"", n=[1, 2]),
        span_start=None,
        span_end=None,
        commit_sha=None,
        repo_id="r1",
        session_id="s1",
        embed_text="custom embed",
    )
    plain = rec("a.py", 0, "def f(): pass")
    store.replace_sources({odd.path: [odd], "a.py": [plain]})
    got = {r.id: r for r in store.fetch(Filter())}
    assert got[odd.id] == odd
    assert got[plain.id] == plain
    assert got[plain.id].vector is None
    np.testing.assert_allclose(got[odd.id].vector, unit(1), rtol=1e-6)


def test_replace_touches_only_given_paths_and_empty_deletes(store: Store) -> None:
    store.replace_sources({"a.py": [rec("a.py", i, f"old {i}") for i in range(3)]})
    store.replace_sources({"b.py": [rec("b.py", 0, "bee")]})
    store.replace_sources({"a.py": [rec("a.py", 0, "new zero", file_hash="h2")]})
    assert [r.content for r in store.fetch(Filter(paths=("a.py",)))] == ["new zero"]
    assert [r.content for r in store.fetch(Filter(paths=("b.py",)))] == ["bee"]
    store.replace_sources({"a.py": []})
    assert set(store.sources()) == {"b.py"}


def test_sources_reports_hash_stat_and_rows(store: Store) -> None:
    store.replace_sources(
        {
            "a.py": [rec("a.py", i, "x", file_hash="ha") for i in range(4)],
            "doc.md": [rec("doc.md", 0, "y", layer=D0_DOC_CHUNKS, file_hash="hd")],
        }
    )
    assert store.sources() == {
        "a.py": FileState(file_hash="ha", size=123, mtime_ns=10**18, rows=4),
        "doc.md": FileState(file_hash="hd", size=123, mtime_ns=10**18, rows=1),
    }


def test_lexical_search_is_fresh_after_each_replace(store: Store) -> None:
    store.replace_sources({"a.py": [rec("a.py", 0, "def parse_header(line): pass")]})
    store.optimize()
    assert ids(store.lexical_search(["header"], 10, Filter())) == ["a.py:0"]
    store.replace_sources({"a.py": [rec("a.py", 0, "def render_footer(): pass")]})
    assert store.lexical_search(["header"], 10, Filter()) == []
    assert ids(store.lexical_search(["footer"], 10, Filter())) == ["a.py:0"]
    store.replace_sources({"b.py": [rec("b.py", 0, "footer footer footer")]})
    assert ids(store.lexical_search(["footer"], 10, Filter())) == ["b.py:0", "a.py:0"]
    store.replace_sources({"b.py": []})
    assert ids(store.lexical_search(["footer"], 10, Filter())) == ["a.py:0"]


def test_lexical_search_ors_terms_and_ranks_by_bm25(store: Store) -> None:
    store.replace_sources(
        {
            "a.py": [rec("a.py", 0, "alpha beta"), rec("a.py", 1, "alpha")],
            "b.py": [rec("b.py", 0, "beta gamma"), rec("b.py", 1, "delta epsilon")],
        }
    )
    store.optimize()
    found = store.lexical_search(["alpha", "beta"], 10, Filter())
    assert ids(found)[0] == "a.py:0"
    assert set(ids(found)) == {"a.py:0", "a.py:1", "b.py:0"}
    scores = [s for _, s in found]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0
    assert len(store.lexical_search(["alpha", "beta"], 2, Filter())) == 2


def test_lexical_terms_cannot_be_misparsed(store: Store) -> None:
    store.replace_sources(
        {"a.py": [rec("a.py", 0, "x = a and not b or c"), rec("a.py", 1, "plain words")]}
    )
    for term in ("and", "not", "or", "AND"):
        assert ids(store.lexical_search([term], 10, Filter())) == ["a.py:0"]
    # Anything that is not a word is dropped, not interpreted.
    assert store.lexical_search(['"', "*", "a:b", "(x)"], 10, Filter()) == []
    assert ids(store.lexical_search(["words", "'", "OR 1=1"], 10, Filter())) == ["a.py:1"]


def test_filters_restrict_search_and_fetch(store: Store) -> None:
    store.replace_sources(
        {
            "src/app.py": [rec("src/app.py", 0, "token shared", vector=unit(1))],
            "tests/test_app.py": [rec("tests/test_app.py", 0, "token shared", vector=unit(2))],
            "it's.md": [rec("it's.md", 0, "token doc", layer=D0_DOC_CHUNKS, vector=unit(3))],
            "sym.py": [rec("sym.py", 0, "token sym", layer=C1_SYMBOL_CATALOG)],
        }
    )
    lex = store.lexical_search
    assert ids(lex(["token"], 10, Filter(layers=(D0_DOC_CHUNKS,)))) == ["it's.md:0"]
    assert ids(lex(["token"], 10, Filter(paths=("it's.md",)))) == ["it's.md:0"]
    assert ids(lex(["token"], 10, Filter(is_test=True))) == ["tests/test_app.py:0"]
    assert set(ids(lex(["token"], 10, Filter(langs=("python",), is_test=False)))) == {
        "src/app.py:0",
        "sym.py:0",
    }
    assert ids(lex(["token"], 10, Filter(has_vector=False))) == ["sym.py:0"]
    assert lex(["token"], 10, Filter(layers=())) == []
    assert lex(["token"], 10, Filter(repo_id="other")) == []
    assert ids(store.vector_search(unit(1), 10, Filter(is_test=True))) == ["tests/test_app.py:0"]
    assert [
        r.id for r in store.fetch(Filter(kinds=("function",), layers=(C1_SYMBOL_CATALOG,)))
    ] == ["sym.py:0"]


def test_thousands_of_paths_in_a_filter(store: Store) -> None:
    paths = [f"pkg/m{i}/file_{i}.py" for i in range(3000)]
    store.replace_sources({p: [rec(p, 0, f"word{i % 7} common")] for i, p in enumerate(paths)})
    wanted = (*paths[::3], "missing/é'.py")
    found = store.fetch(Filter(paths=wanted))
    assert {r.path for r in found} == set(paths[::3])
    hits = store.lexical_search(["common"], 5000, Filter(paths=wanted))
    assert len(hits) == 1000


def test_vector_search_ranks_by_cosine_and_skips_rows_without_vectors(store: Store) -> None:
    rows = [rec("a.py", i, f"chunk {i}", vector=unit(i)) for i in range(20)]
    rows.append(rec("a.py", 99, "no vector yet"))
    store.replace_sources({"a.py": rows})
    query = (unit(5) + 0.3 * unit(6)).astype(np.float32)
    cosine = {i: float(np.dot(unit(i), query) / np.linalg.norm(query)) for i in range(20)}
    best = sorted(cosine, key=lambda i: -cosine[i])[:5]
    found = store.vector_search(query, 5, Filter())
    assert ids(found) == [f"a.py:{i}" for i in best]
    assert [s for _, s in found] == pytest.approx([cosine[i] for i in best], abs=1e-4)
    assert "a.py:99" not in ids(store.vector_search(query, 100, Filter()))


def test_set_vectors_only_where_content_hash_still_matches(store: Store) -> None:
    store.replace_sources({"a.py": [rec("a.py", i, f"text {i}") for i in range(3)]})
    missing = store.missing_vectors(10)
    assert sorted(m[0] for m in missing) == ["a.py:0", "a.py:1", "a.py:2"]
    assert {m[2] for m in missing} == {"text 0", "text 1", "text 2"}
    by_id = {m[0]: m[1] for m in missing}
    updated = store.set_vectors(
        {
            "a.py:0": (by_id["a.py:0"], unit(0)),
            "a.py:1": ("stale-hash", unit(1)),
            "gone.py:0": ("x", unit(2)),
        }
    )
    assert updated == 1
    assert sorted(m[0] for m in store.missing_vectors(10)) == ["a.py:1", "a.py:2"]
    assert len(store.missing_vectors(1)) == 1
    assert ids(store.vector_search(unit(0), 10, Filter())) == ["a.py:0"]
    # The row kept everything else and is still found lexically.
    assert store.fetch(Filter(ids=("a.py:0",)))[0].content == "text 0"
    assert ids(store.lexical_search(["text"], 10, Filter(has_vector=True))) == ["a.py:0"]
    assert store.counts() == {C0_SOURCE_CHUNKS: {"rows": 3, "vectors": 1}}


def test_missing_vectors_gives_embed_text_when_set(store: Store) -> None:
    r = dataclasses.replace(rec("a.py", 0, "content"), embed_text="a.py\nunit0\ncontent")
    store.replace_sources({"a.py": [r]})
    assert store.missing_vectors(5) == [("a.py:0", r.content_hash, "a.py\nunit0\ncontent")]


def test_fetch_orders_by_path_and_span_and_limits(store: Store) -> None:
    store.replace_sources(
        {
            "b.py": [rec("b.py", i, "b") for i in (2, 0, 1)],
            "a.py": [rec("a.py", i, "a") for i in (1, 0)],
        }
    )
    assert [r.id for r in store.fetch(Filter())] == [
        "a.py:0",
        "a.py:1",
        "b.py:0",
        "b.py:1",
        "b.py:2",
    ]
    assert [r.id for r in store.fetch(Filter(), limit=3)] == ["a.py:0", "a.py:1", "b.py:0"]
    assert [r.id for r in store.fetch(Filter(ids=("b.py:2", "a.py:1", "nope")))] == [
        "a.py:1",
        "b.py:2",
    ]
    assert store.fetch(Filter(ids=())) == []


def test_counts_and_delete_all(store: Store) -> None:
    store.replace_sources(
        {
            "a.py": [rec("a.py", 0, "x", vector=unit(0)), rec("a.py", 1, "y")],
            "d.md": [rec("d.md", 0, "z", layer=D0_DOC_CHUNKS, vector=unit(1))],
        }
    )
    assert store.counts() == {
        C0_SOURCE_CHUNKS: {"rows": 2, "vectors": 1},
        D0_DOC_CHUNKS: {"rows": 1, "vectors": 1},
    }
    store.delete_all()
    assert store.counts() == {} and store.sources() == {}
    assert store.lexical_search(["x"], 10, Filter()) == []
    store.replace_sources({"a.py": [rec("a.py", 0, "back again")]})
    assert ids(store.lexical_search(["again"], 10, Filter())) == ["a.py:0"]


def test_optimize_keeps_results(store: Store) -> None:
    rows = [rec("a.py", i, f"common word{i % 3}", vector=unit(i)) for i in range(30)]
    store.replace_sources({"a.py": rows})
    before_lex = set(ids(store.lexical_search(["word1"], 50, Filter())))
    before_vec = ids(store.vector_search(unit(3), 5, Filter()))
    store.optimize()
    store.optimize()
    assert set(ids(store.lexical_search(["word1"], 50, Filter()))) == before_lex
    assert len(before_lex) == 10
    assert ids(store.vector_search(unit(3), 5, Filter())) == before_vec


def test_meta_round_trip_and_reopen(factory: StoreFactory, tmp_path: Path) -> None:
    store = factory(tmp_path, DIM)
    store.write_meta({"root": "/repo", "embedder": {"name": "m", "dim": DIM}})
    store.replace_sources({"a.py": [rec("a.py", 0, "persisted words", vector=unit(0))]})
    store.close()
    again = factory(tmp_path, DIM)
    meta = again.read_meta()
    assert meta["root"] == "/repo" and meta["embedder"] == {"name": "m", "dim": DIM}
    assert isinstance(again, Integrity)  # each store has its own numbering
    assert meta["schema_version"] == again.integrity().writes_version >= 2
    assert ids(again.lexical_search(["persisted"], 5, Filter())) == ["a.py:0"]
    assert ids(again.vector_search(unit(0), 5, Filter())) == ["a.py:0"]
    again.close()


def test_lexical_only_store_has_no_vectors(factory: StoreFactory, tmp_path: Path) -> None:
    store = factory(tmp_path, 0)
    store.replace_sources({"a.py": [rec("a.py", 0, "only words")]})
    assert store.vector_search(np.ones(4, dtype=np.float32), 5, Filter()) == []
    assert store.missing_vectors(5) == []
    assert store.set_vectors({"a.py:0": ("x", np.ones(4, dtype=np.float32))}) == 0
    assert ids(store.lexical_search(["words"], 5, Filter())) == ["a.py:0"]
    assert store.lexical_search(["words"], 5, Filter(has_vector=True)) == []
    assert store.counts() == {C0_SOURCE_CHUNKS: {"rows": 1, "vectors": 0}}
    store.close()


def test_per_source_operations(store: Store) -> None:
    store.replace_source("a.py", [rec("a.py", 0, "alpha"), rec("a.py", 1, "beta")])
    store.replace_source("b.md", [rec("b.md", 0, "gamma", layer=D0_DOC_CHUNKS, file_hash="h2")])
    assert store.sources_with_hashes() == {"a.py": "h1", "b.md": "h2"}
    assert (store.count(), store.count(C0_SOURCE_CHUNKS), store.count(D0_DOC_CHUNKS)) == (3, 2, 1)
    store.replace_source("a.py", [rec("a.py", 0, "alpha again", file_hash="h3")])
    assert store.sources_with_hashes()["a.py"] == "h3" and store.count() == 2
    store.delete_by_source("a.py")
    assert store.sources_with_hashes() == {"b.md": "h2"}
