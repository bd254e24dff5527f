"""LanceDB-specific store behaviour: commits, cross-process atomicity, BM25, schema."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import bm25s
import click
import lancedb
import numpy as np
import pytest
import snowballstemmer  # type: ignore[import-untyped]

from strata import Engine
from strata.errors import EmbedderMismatchError, NoIndexError, SchemaError, StoreError
from strata.index.records import make_record
from strata.layers import C0_SOURCE_CHUNKS
from strata.store import Filter, lance, open_store
from strata.store.arrow import joined, prepare, table_schema, with_repo
from strata.store.lance import LanceStore
from strata.store.schema import MIGRATIONS, SCHEMA_VERSION, SETTLED_NS, ManifestWatch, Migration
from strata.text.tokens import lexical_text
from strata.types import Record


def rec(path: str, i: int, content: str, vector: Any = None, title: str = "") -> Record:
    r = make_record(
        id=f"{path}:{i}",
        path=path,
        layer=C0_SOURCE_CHUNKS,
        title=title,
        content=content,
        lang="python",
        file_hash=f"h-{content[:20]}",
        span=(i + 1, i + 1),
    )
    return dataclasses.replace(r, vector=vector)


def version_rows(k: int) -> list[Record]:
    """Version k of f.py: 2 + k % 5 rows, each marked with its version."""
    return [rec("f.py", i, f"marker v{k} row {i}") for i in range(2 + k % 5)]


def test_open_store_by_scheme(tmp_path: Path) -> None:
    assert isinstance(open_store(f"lancedb://{tmp_path / 'a'}", 4), LanceStore)
    assert isinstance(open_store(str(tmp_path / "b"), 4), LanceStore)
    with pytest.raises(StoreError, match="cannot reach PostgreSQL at postgresql://u:\\*\\*\\*@"):
        open_store("postgresql://u:secret@127.0.0.1:1/strata", 4)  # nothing listens on port 1
    with pytest.raises(StoreError, match="unknown store scheme"):
        open_store("s4://bucket", 4)
    with pytest.raises(NoIndexError):
        open_store(str(tmp_path / "missing"), 4, create=False)


def test_other_dimension_is_refused_with_a_fix(tmp_path: Path) -> None:
    LanceStore(tmp_path, 8).close()
    with pytest.raises(EmbedderMismatchError, match=r"8-d.*384-d") as err:
        LanceStore(tmp_path, 384)
    assert "strata index --full" in str(err.value)


def test_replace_is_one_commit_and_leaves_other_paths(tmp_path: Path) -> None:
    store = LanceStore(tmp_path, 4)
    store.replace_sources({"keep.py": [rec("keep.py", 0, "kept")]})
    table = store._table
    before = table.version
    store.replace_sources(
        {
            "a.py": [rec("a.py", i, "a") for i in range(3)],
            "b.py": [rec("b.py", 0, "b")],
            "gone.py": [],
        }
    )
    assert table.version == before + 1
    store.replace_sources({"a.py": [rec("a.py", 0, "a2")], "b.py": []})
    assert table.version == before + 2
    assert {p: s.rows for p, s in store.sources().items()} == {"keep.py": 1, "a.py": 1}


def test_duplicate_ids_or_wrong_path_are_refused_before_writing(tmp_path: Path) -> None:
    store = LanceStore(tmp_path, 4)
    with pytest.raises(StoreError, match="given twice"):
        store.replace_sources({"a.py": [rec("a.py", 0, "x"), rec("a.py", 0, "x")]})
    with pytest.raises(StoreError, match="has path"):
        store.replace_sources({"a.py": [rec("b.py", 0, "x")]})
    with pytest.raises(StoreError, match="dimensions"):
        store.replace_sources({"a.py": [rec("a.py", 0, "x", vector=np.ones(3, np.float32))]})
    assert store.sources() == {}


def test_prepared_rows_write_like_records_and_join_without_overlap(tmp_path: Path) -> None:
    """Rows prepared elsewhere (an indexing worker) replace paths as `replace_sources` does."""
    store = LanceStore(tmp_path, 4)
    store.replace_sources({"a.py": [rec("a.py", i, "old") for i in range(3)]})
    parts = [
        prepare({"a.py": [rec("a.py", 0, "new a")]}, 4),
        prepare({"b.py": [rec("b.py", 0, "new b")], "c.py": []}, 4),
    ]
    before = store._table.version
    store.write_prepared(joined(parts))
    assert store._table.version == before + 1
    assert {p: s.rows for p, s in store.sources().items()} == {"a.py": 1, "b.py": 1}
    assert sorted(h.path for h, _ in store.lexical_search(["new"], 5, Filter())) == ["a.py", "b.py"]
    with pytest.raises(StoreError, match="twice"):
        joined([parts[0], parts[0]])
    with pytest.raises(StoreError, match="has path"):
        prepare({"a.py": [rec("b.py", 0, "x")]}, 4)


def test_new_prepared_rows_are_appended_without_a_vector_column(tmp_path: Path) -> None:
    store = LanceStore(tmp_path, 4)
    store.write_prepared(
        prepare({"a.py": [rec("a.py", i, "first look") for i in range(2)]}, 4, new=True)
    )
    assert store.counts()[C0_SOURCE_CHUNKS] == {"rows": 2, "vectors": 0}
    assert [r.vector for r in store.fetch(Filter())] == [None, None]
    one = np.ones(4, np.float32)
    store.replace_sources({"a.py": [rec("a.py", 0, "full pass", vector=one)]})
    assert store.counts()[C0_SOURCE_CHUNKS] == {"rows": 1, "vectors": 1}
    with pytest.raises(StoreError, match="must not have vectors"):
        prepare({"b.py": [rec("b.py", 0, "x", vector=one)]}, 4, new=True)
    with pytest.raises(StoreError, match="mixes new"):
        joined([prepare({"c.py": []}, 4, new=True), prepare({"d.py": []}, 4)])


def test_prepared_rows_move_into_a_repository(tmp_path: Path) -> None:
    rows = prepare({"a.py": [rec("a.py", i, "x") for i in range(2)]}, 0)
    moved = with_repo(rows, "spec", "spec//").table
    assert moved.column("id").to_pylist() == ["spec//a.py:0", "spec//a.py:1"]
    assert moved.column("repo_id").to_pylist() == ["spec", "spec"]
    assert with_repo(rows, "", "").table.equals(rows.table)  # home: nothing to change


def _reader(directory: str, stop: str, out: str) -> None:
    store = LanceStore(directory, 4, create=False)
    polls, seen, errors = 0, set(), []
    while not Path(stop).exists() or polls < 5:
        rows = store.fetch(Filter(paths=("f.py", "g.py")))
        f_rows = [r for r in rows if r.path == "f.py"]
        versions = {r.content.split()[1] for r in f_rows}
        if len(versions) != 1:
            errors.append(f"mixed or missing versions: {sorted(versions)}")
        else:
            k = int(versions.pop()[1:])
            seen.add(k)
            if len(f_rows) != 2 + k % 5:
                errors.append(f"v{k}: {len(f_rows)} rows")
        if sum(r.path == "g.py" for r in rows) != 3:
            errors.append("g.py rows disturbed")
        hits = store.lexical_search(["marker"], 50, Filter(paths=("f.py",)))
        if len({r.content.split()[1] for r, _ in hits}) != 1:
            errors.append("lexical search saw two versions")
        polls += 1
        Path(out + ".ready").touch()
    Path(out).write_text(json.dumps({"polls": polls, "seen": sorted(seen), "errors": errors}))


def test_reader_in_another_process_never_sees_half_a_replace(tmp_path: Path) -> None:
    store = LanceStore(tmp_path / "idx", 4)
    store.replace_sources({"g.py": [rec("g.py", i, "other") for i in range(3)]})
    store.replace_sources({"f.py": version_rows(0)})
    stop, out = tmp_path / "stop", tmp_path / "out.json"
    ctx = multiprocessing.get_context("spawn")
    proc = ctx.Process(target=_reader, args=(str(tmp_path / "idx"), str(stop), str(out)))
    proc.start()
    ready = Path(str(out) + ".ready")
    while not ready.exists() and proc.is_alive():  # the spawned reader imports LanceDB first
        time.sleep(0.05)
    try:
        for k in range(1, 81):
            store.replace_sources({"f.py": version_rows(k)})
            if k == 40:
                store.optimize()
    finally:
        stop.touch()
        proc.join(120)
    assert proc.exitcode == 0
    result = json.loads(out.read_text())
    assert result["errors"] == []
    # The reader really raced the writer: it saw the file change under it.
    assert len(result["seen"]) >= 3


def _click_corpus() -> list[Record]:
    root = Path(click.__file__).parent
    records = []
    for file in sorted(root.glob("*.py")):
        lines = file.read_text(encoding="utf-8").splitlines()
        rel = f"click/{file.name}"
        for n, start in enumerate(range(0, len(lines), 40)):
            records.append(rec(rel, n, "\n".join(lines[start : start + 40]), title=f"w{n}"))
    return records


QUERIES = [
    ["echo", "color"],
    ["parse", "args"],
    ["option", "default", "value"],
    ["context", "invoke"],
    ["prompt", "confirm"],
    ["shell", "completion", "complete"],
    ["bad", "parameter", "usage", "error"],
    ["getchar", "terminal"],
    ["envvar", "auto"],
    ["progressbar", "length"],
]


def test_bm25_ranking_agrees_with_bm25s(tmp_path: Path) -> None:
    corpus = _click_corpus()
    store = LanceStore(tmp_path, 0)
    by_path: dict[str, list[Record]] = {}
    for r in corpus:
        by_path.setdefault(r.path, []).append(r)
    store.replace_sources(by_path)
    store.optimize()  # fully indexed: corpus statistics are exact
    # Same tokens on both sides (the index stems them, Snowball English); Lance scores
    # idf*(k1+1)*tf/(tf+k1*norm), bm25s "lucene" leaves out the constant (k1+1) factor,
    # so rankings are comparable.
    stem = snowballstemmer.stemmer("english").stemWords
    reference = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
    reference.index(
        [stem(lexical_text(r.title, r.path, r.content).split()) for r in corpus],
        show_progress=False,
    )
    overlaps = []
    for terms in QUERIES:
        docs, _ = reference.retrieve([stem(terms)], k=10, show_progress=False)
        expected = [corpus[i].id for i in docs[0]]
        got = [r.id for r, _ in store.lexical_search(terms, 10, Filter())]
        overlaps.append(len(set(expected) & set(got)) / 10)
        assert got[0] == expected[0], terms
    assert sum(overlaps) / len(overlaps) >= 0.9


def test_fake_v0_store_is_migrated_on_open(tmp_path: Path) -> None:
    v0 = table_schema(4)
    v0 = v0.remove(v0.get_field_index("file_mtime_ns"))
    v0 = v0.remove(v0.get_field_index("branches"))
    lancedb.connect(str(tmp_path)).create_table("chunks", schema=v0)
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": 0, "root": "/r"}))
    with pytest.raises(SchemaError, match="no migration from schema version 0"):
        LanceStore(tmp_path, 4)

    def add_mtime(table: Any) -> None:
        table.add_columns({"file_mtime_ns": "CAST(0 AS BIGINT)"})

    steps = [Migration(1, "add file_mtime_ns", add_mtime), *MIGRATIONS]
    store = LanceStore(tmp_path, 4, migrations=steps)
    assert store.read_meta() == {"schema_version": SCHEMA_VERSION, "root": "/r"}
    store.replace_sources({"a.py": [dataclasses.replace(rec("a.py", 0, "x"), file_mtime_ns=7)]})
    assert store.sources()["a.py"].mtime_ns == 7


def test_newer_schema_is_refused_with_advice(tmp_path: Path) -> None:
    store = LanceStore(tmp_path, 4)
    store.write_meta({"schema_version": SCHEMA_VERSION + 1})
    with pytest.raises(SchemaError, match="newer than this Strata") as err:
        LanceStore(tmp_path, 4)
    assert "strata index --full" in str(err.value)


def test_optimize_builds_ann_index_above_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lance, "ANN_MIN_ROWS", 600)
    vectors = np.random.default_rng(7).normal(size=(800, 32)).astype(np.float32)
    store = LanceStore(tmp_path, 32)
    rows = [rec("a.py", i, f"row {i}", vector=vectors[i]) for i in range(500)]
    store.replace_sources({"a.py": rows})
    store.optimize()
    assert "vector_idx" not in store._index_names()
    rows += [rec("a.py", i, f"row {i}", vector=vectors[i]) for i in range(500, 800)]
    store.replace_sources({"a.py": rows})
    store.optimize()
    assert "vector_idx" in store._index_names()
    hits = store.vector_search(vectors[123], 5, Filter())
    assert hits[0][0].id == "a.py:123" and hits[0][1] == pytest.approx(1.0, abs=0.02)
    store.replace_sources({"b.py": [rec("b.py", 0, "new", vector=-vectors[0])]})
    assert store.vector_search(-vectors[0], 1, Filter())[0][0].id == "b.py:0"


def test_own_commits_change_the_version_at_once_others_within_the_ttl(tmp_path: Path) -> None:
    mine = LanceStore(tmp_path / "lance", 0)
    mine.replace_sources({"a.py": [rec("a.py", 0, "alpha")]})
    first = mine.version
    mine.replace_sources({"b.py": [rec("b.py", 0, "beta")]})
    assert mine.version > first  # no waiting for this handle's own commit
    other = LanceStore(tmp_path / "lance", 0)
    seen = mine.version
    other.delete_by_source("a.py")
    time.sleep(lance.VERSION_TTL * 1.5)
    assert mine.version > seen
    assert [r.path for r, _ in mine.lexical_search(["alpha", "beta"], 5, Filter())] == ["b.py"]


def test_the_version_is_asked_of_lancedb_again_only_after_a_commit(tmp_path: Path) -> None:
    mine = LanceStore(tmp_path / "lance", 0)
    mine.replace_sources({"a.py": [rec("a.py", 0, "alpha")]})
    versions = tmp_path / "lance" / lance.TABLE_DIR
    reads: list[int] = []

    def read() -> int:
        reads.append(int(mine._table.version))
        return reads[-1]

    watch = ManifestWatch(read, versions)
    fresh = watch()
    assert watch() == fresh and len(reads) == 2  # changed under a second ago: asked again
    past = time.time_ns() - 5 * SETTLED_NS
    os.utime(versions, ns=(past, past))  # the last commit is long settled
    assert watch() == fresh and watch() == fresh and watch() == fresh
    assert len(reads) == 3  # one more read, then the number is reused
    LanceStore(tmp_path / "lance", 0).delete_by_source("a.py")  # another handle commits
    assert watch() > fresh and len(reads) == 4  # the manifests moved: seen at once
    assert mine.version == watch()


def test_bm25_matches_other_forms_of_a_word(tmp_path: Path) -> None:
    store = LanceStore(tmp_path, 0)
    store.replace_sources(
        {
            "a.py": [rec("a.py", 0, "every entry is logged once")],
            "b.py": [rec("b.py", 0, "nothing to see here")],
        }
    )
    store.optimize()
    assert [r.path for r, _ in store.lexical_search(["entries", "log"], 5, Filter())] == ["a.py"]


def test_a_full_text_index_built_without_stems_is_rebuilt(tmp_path: Path) -> None:
    store = LanceStore(tmp_path, 0)
    store.replace_sources({"a.py": [rec("a.py", 0, "every entry is logged once")]})
    store.optimize()
    old = lancedb.index.FTS(base_tokenizer="whitespace", lower_case=False, stem=False)
    store._table.create_index("lex", config=old, name="lex_idx", replace=True)
    meta = store.read_meta()
    del meta["lex_analysis"]
    store.write_meta(meta)
    older = LanceStore(tmp_path, 0)  # what an older Strata left behind
    assert older.lexical_search(["entries"], 5, Filter()) == []
    older.ensure_indexes()  # what the next `strata index` does, a no-op run included
    assert [r.path for r, _ in older.lexical_search(["entries"], 5, Filter())] == ["a.py"]
    assert older.read_meta()["lex_analysis"] == lance.LEX_ANALYSIS


def test_a_no_op_run_gives_an_older_index_the_search_indexes_it_lacks(minirepo: Path) -> None:
    eng = Engine.open(minirepo, config={"embed.provider": "none"})
    eng.index()
    table = eng.store._table  # type: ignore[attr-defined]
    table.drop_index("layer_idx")  # as an index written before the layer bitmap existed
    older = Engine.open(minirepo, config={"embed.provider": "none"})
    before = [h.record.id for h in older.search("header values", k=5, route=False)]
    assert "layer_idx" not in {ix.name for ix in older.store._table.list_indices()}  # type: ignore[attr-defined]
    assert older.index().indexed == 0
    assert "layer_idx" in {ix.name for ix in older.store._table.list_indices()}  # type: ignore[attr-defined]
    assert [h.record.id for h in older.search("header values", k=5, route=False)] == before
    assert before
