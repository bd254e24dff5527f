"""The corpus pass: cross-file C2/C3/C4 and D2/D3/D5 rows, recomputed and filtered by change."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from strata import Engine
from strata.config import ChunkConfig
from strata.index.corpus import (
    CODE_CORPUS_LAYERS,
    CORPUS_LAYERS,
    DOC_CORPUS_LAYERS,
    Artifact,
    ArtifactCache,
    artifact_of,
    changed_rows,
    code_pass,
    doc_artifact,
    doc_result,
    docs_pass,
    docs_pass_of,
    group_by_path,
    merge_rows,
)
from strata.index.corpus import __all__ as corpus_all
from strata.index.corpus.apply import refresh_corpus
from strata.index.corpus.rows import digest_of
from strata.index.docs import document_records, link_corpus
from strata.index.pipeline import build_records
from strata.layers import C0_SOURCE_CHUNKS, C2_DEPENDENCY_GRAPH, C3_ENTRYPOINTS, D5_RELATION_GRAPH
from strata.store import Filter
from strata.store.lance import LanceStore
from strata.types import Extracted, Record, bytes_hash

CORPORA = Path(__file__).parent / "corpora"
CHUNKS = ChunkConfig(max_lines=80, max_chars=4000, window_lines=40, overlap_lines=5)

PACKAGE = {
    "pkg/__init__.py": "from pkg.util import helper\n\n__all__ = ['helper']\n",
    "pkg/util.py": "def helper(x):\n    return x + 1\n",
    "pkg/a.py": "from pkg import helper\n\n\ndef compute(v):\n    return helper(v)\n",
    "pkg/shapes.py": (
        "class Shape:\n    def area(self):\n        return 0\n\n    def describe(self):\n"
        "        return 'shape'\n"
    ),
    "pkg/square.py": (
        "from pkg.shapes import Shape\n\n\nclass Square(Shape):\n    def describe(self):\n"
        "        return super().describe() + '!'\n"
    ),
    "pkg/api/__init__.py": "",
    "pkg/api/items.py": (
        "from fastapi import APIRouter\n\nrouter = APIRouter(prefix='/items')\n\n\n"
        "@router.get('/{item_id}')\ndef read_item(item_id: int):\n    '''Read one item.'''\n"
        "    return {'id': item_id}\n"
    ),
    "pkg/main.py": (
        "from fastapi import FastAPI\n\nfrom pkg.api.items import router\n\n"
        "app = FastAPI()\napp.include_router(router, prefix='/api/v1')\n"
    ),
}


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _artifacts(root: Path) -> dict[str, Artifact]:
    out = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        raw = path.read_bytes()
        out[rel] = artifact_of(rel, raw.decode(), "python", bytes_hash(raw), "code")
    return out


def _edge(rows: list[Record], src: str, dst_ref: str) -> Record:
    found = [
        r
        for r in rows
        if r.layer == C2_DEPENDENCY_GRAPH
        and r.metadata["src_qname"] == src
        and r.metadata["dst_ref"] == dst_ref
    ]
    assert len(found) == 1, [r.title for r in rows]
    return found[0]


def _per_file_corpus_rows(root: Path, rel: str) -> list[Record]:
    """What the per-file pass writes for a file's corpus layers (before the corpus pass)."""
    raw = (root / rel).read_bytes()
    doc = Extracted(rel, raw.decode(), "python", "code", bytes_hash(raw))
    cfg = Engine.open(root, config={"embed.provider": "none"}).config
    records, _ = build_records(doc, cfg)
    return [r for r in records if r.layer in CODE_CORPUS_LAYERS]


def test_cross_file_edges_resolve_to_the_defining_symbols(tmp_path: Path) -> None:
    _write(tmp_path, PACKAGE)
    rows = code_pass(_artifacts(tmp_path))
    call = _edge(rows["pkg/a.py"], "pkg.a.compute", "pkg.helper")
    assert call.metadata["resolution"] == "resolved"
    assert call.metadata["dst_symbol_id"] == "pkg/util.py::pkg.util.helper"
    sup = _edge(rows["pkg/square.py"], "pkg.square.Square.describe", "pkg.shapes.Shape.describe")
    assert sup.metadata["resolution"] == "resolved"
    assert sup.metadata["dst_symbol_id"] == "pkg/shapes.py::pkg.shapes.Shape.describe"
    base = _edge(rows["pkg/square.py"], "pkg.square.Square", "pkg.shapes.Shape")
    assert base.metadata["dst_symbol_id"] == "pkg/shapes.py::pkg.shapes.Shape"


def test_route_gets_the_prefix_of_the_module_that_includes_it(tmp_path: Path) -> None:
    _write(tmp_path, PACKAGE)
    rows = code_pass(_artifacts(tmp_path))
    routes = [r for r in rows["pkg/api/items.py"] if r.layer == C3_ENTRYPOINTS]
    assert [r.metadata["route_or_command"] for r in routes] == ["/api/v1/items/{item_id}"]
    assert routes[0].metadata["handler_symbol_id"] == "pkg/api/items.py::pkg.api.items.read_item"
    assert rows["pkg/main.py"]  # the includer keeps its own edges
    assert all(r.layer in CODE_CORPUS_LAYERS for rs in rows.values() for r in rs)


def test_rename_rewrites_only_the_files_whose_edges_changed(tmp_path: Path) -> None:
    _write(tmp_path, PACKAGE)
    before = code_pass(_artifacts(tmp_path))
    assert changed_rows(before, before) == {}
    (tmp_path / "pkg/util.py").write_text("def assist(x):\n    return x + 1\n", encoding="utf-8")
    after = code_pass(_artifacts(tmp_path))
    # the store holds the previous pass's rows, except for the edited file, which the
    # per-file pass has just rewritten
    stored = {**before, "pkg/util.py": _per_file_corpus_rows(tmp_path, "pkg/util.py")}
    changed = changed_rows(after, stored)
    assert sorted(changed) == ["pkg/__init__.py", "pkg/a.py"]
    call = _edge(changed["pkg/a.py"], "pkg.a.compute", "pkg.helper")
    assert call.metadata["resolution"] == "unresolved"
    assert call.metadata["dst_symbol_id"] is None


def test_changed_rows_sees_metadata_only_changes() -> None:
    rows = code_pass(
        {"m.py": artifact_of("m.py", "import os\n\ndef f():\n    os.getcwd()\n", "python", "h")}
    )
    edge = rows["m.py"][0]
    edited = Record(**{**_fields(edge), "metadata": {**edge.metadata, "resolution": "x"}})
    assert changed_rows({"m.py": [*rows["m.py"][1:], edge]}, rows) == {}  # order is no change
    assert list(changed_rows({"m.py": [edited, *rows["m.py"][1:]]}, rows)) == ["m.py"]
    assert changed_rows({"m.py": []}, rows) == {"m.py": []}  # rows that must go
    assert changed_rows({}, rows) == {}  # paths the pass did not cover are left alone


def _fields(r: Record) -> dict[str, object]:
    return {name: getattr(r, name) for name in Record.__dataclass_fields__}


def test_merge_keeps_other_layers_and_reuses_vectors() -> None:
    art = artifact_of("m.py", "import os\n\ndef f():\n    os.getcwd()\n", "python", "h")
    corpus = code_pass({"m.py": art})["m.py"]
    old_edge = corpus[0]
    import numpy as np

    vec = np.ones(3, dtype=np.float32)
    chunk = Record(**{**_fields(old_edge), "id": "m.py:0", "layer": C0_SOURCE_CHUNKS})
    stored = [
        Record(**{**_fields(chunk), "session_id": "s1", "file_size": 42}),
        Record(**{**_fields(old_edge), "session_id": "s1"}),
        Record(**{**_fields(old_edge), "id": "stale", "session_id": "s1"}),
    ]
    stored[1] = Record(**{**_fields(stored[1]), "vector": vec})
    merged = merge_rows(stored, corpus, CODE_CORPUS_LAYERS)
    assert [r.id for r in merged] == ["m.py:0", *(r.id for r in corpus)]
    assert all(r.session_id == "s1" and r.file_size == 42 for r in merged)
    assert merged[1].vector is vec


def test_artifacts_round_trip_through_the_cache(tmp_path: Path) -> None:
    _write(tmp_path / "repo", PACKAGE)
    arts = _artifacts(tmp_path / "repo")
    with ArtifactCache(tmp_path / "artifacts.sqlite") as cache:
        cache.put_many(arts.values())
        hashes = {p: a.file_hash for p, a in arts.items()}
        got = cache.get_many({**hashes, "pkg/util.py": "other-hash", "nope.py": "x"})
        assert sorted(got) == sorted(set(arts) - {"pkg/util.py"})
        assert cache.prune(["pkg/a.py"]) == len(arts) - 1
        assert list(cache.get_many(hashes)) == ["pkg/a.py"]
    again = dict(got, **{"pkg/util.py": arts["pkg/util.py"]})
    assert code_pass(again) == code_pass(arts)


def test_treesitter_rows_keep_their_language(tmp_path: Path) -> None:
    text = (CORPORA / "code" / "server.go").read_text(encoding="utf-8")
    art = artifact_of("server.go", text, "go", "h", "code")
    assert art.kind == "treesitter"
    rows = code_pass({"server.go": art})["server.go"]
    assert rows and {r.lang for r in rows} == {"go"}


def _docs(root: Path) -> list[object]:
    results = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        raw = path.read_bytes()
        results.append(document_records(rel, raw.decode(), "markdown", bytes_hash(raw), CHUNKS))
    return results


def _link(rows: list[Record], target: str) -> Record:
    found = [
        r
        for r in rows
        if r.layer == D5_RELATION_GRAPH
        and r.metadata["relation_type"] == "links_to"
        and target in r.title
    ]
    assert found, [r.title for r in rows]
    return found[0]


def test_doc_link_resolves_and_goes_unresolved_when_the_target_is_deleted(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    shutil.copytree(CORPORA / "docs", root)
    before = docs_pass(_docs(root))  # type: ignore[arg-type]
    link = _link(before["README.md"], "ledger")
    assert link.metadata["resolved"] is True
    assert link.metadata["target_id"] == "ledger-service"
    assert all(r.layer in DOC_CORPUS_LAYERS for rs in before.values() for r in rs)
    (root / "services" / "ledger.md").unlink()
    after = docs_pass(_docs(root))  # type: ignore[arg-type]
    gone = _link(after["README.md"], "ledger")
    assert gone.metadata["resolved"] is False
    assert gone.metadata["target_id"] == "services/ledger.md"
    changed = changed_rows(after, before)
    assert "README.md" in changed and "services/payments.md" in changed
    assert "services/ledger.md" not in changed  # deleted: the per-file pass drops it


def test_doc_artifacts_link_like_full_parses() -> None:
    results = _docs(CORPORA / "docs")
    arts = {r.rel: doc_artifact(r, "markdown") for r in results}  # type: ignore[attr-defined]
    light = [doc_result(a) for a in arts.values()]
    assert link_corpus(light) == link_corpus(results)  # type: ignore[arg-type]
    assert docs_pass_of(arts) == docs_pass(results)  # type: ignore[arg-type]


@pytest.fixture
def indexed(tmp_path: Path) -> tuple[Engine, Path]:
    root = tmp_path / "repo"
    _write(root, PACKAGE)
    shutil.copytree(CORPORA / "docs" / "services", root / "docs")
    _age(root, 100)  # files just written are "racy" and would be read again next run
    eng = Engine.open(root, config={"embed.provider": "none"})
    eng.index()
    return eng, root


def _age(root: Path, seconds: float) -> None:
    when = time.time() - seconds
    for path in [root, *root.rglob("*")]:
        os.utime(path, (when, when))


def test_index_runs_the_corpus_pass_and_then_only_rewrites_what_changed(
    indexed: tuple[Engine, Path],
) -> None:
    eng, root = indexed  # Engine.index() ran the corpus pass already
    store = eng.store
    call = _edge(store.fetch(Filter(paths=("pkg/a.py",))), "pkg.a.compute", "pkg.helper")
    assert call.metadata["dst_symbol_id"] == "pkg/util.py::pkg.util.helper"
    chunks_before = store.fetch(Filter(layers=(C0_SOURCE_CHUNKS,), paths=("pkg/a.py",)))
    with ArtifactCache(eng.index_dir / "artifacts.sqlite") as cache:
        stable = refresh_corpus(store, cache, root, fresh={})
        assert stable.rewritten == [] and stable.read_again == 0  # artifacts came from indexing
    assert store.fetch(Filter(layers=(C0_SOURCE_CHUNKS,), paths=("pkg/a.py",))) == chunks_before
    (root / "pkg/util.py").write_text("def assist(x):\n    return x + 1\n", encoding="utf-8")
    _age(root / "pkg/util.py", 50)
    summary = eng.index()
    assert summary.indexed == 1 and summary.corpus_rewritten >= 2
    rows = group_by_path(store.fetch(Filter(layers=CORPUS_LAYERS)))
    call = _edge(rows["pkg/a.py"], "pkg.a.compute", "pkg.helper")
    assert call.metadata["resolution"] == "unresolved"


def _corpus_state(eng: Engine) -> dict[str, str]:
    """Each path's corpus-layer rows, digested as `changed_rows` compares them."""
    rows = group_by_path(eng.store.fetch(Filter(layers=CORPUS_LAYERS)))
    return {p: digest_of(rs) for p, rs in sorted(rows.items())}


def _index_from_scratch(root: Path, index_dir: Path) -> Engine:
    eng = Engine.open(root, index_dir=index_dir, config={"embed.provider": "none"})
    eng.index()
    return eng


EDITS = [
    # rename a function that other files call through a re-export
    ("pkg/util.py", "def assist(x):\n    return x + 1\n"),
    # delete a file whose router another module includes
    ("pkg/api/items.py", None),
    # add a re-export: `compute` now resolves again, through a new module
    ("pkg/__init__.py", "from pkg.extra import helper\n\n__all__ = ['helper']\n"),
    ("pkg/extra.py", "from pkg.util import assist as helper\n"),
]


def test_incremental_corpus_rows_equal_a_full_rebuild_along_an_edit_sequence(
    indexed: tuple[Engine, Path], tmp_path: Path
) -> None:
    eng, root = indexed
    for step, (rel, text) in enumerate(EDITS):
        if text is None:
            (root / rel).unlink()
        else:
            (root / rel).write_text(text, encoding="utf-8")
            _age(root / rel, 50)
        eng.index()
        scratch = _index_from_scratch(root, tmp_path / f"scratch-{step}")
        assert _corpus_state(eng) == _corpus_state(scratch), f"after editing {rel}"
    call = _edge(eng.store.fetch(Filter(paths=("pkg/a.py",))), "pkg.a.compute", "pkg.helper")
    assert call.metadata["dst_symbol_id"] == "pkg/util.py::pkg.util.assist"


def test_digests_spare_the_store_but_never_a_path_the_per_file_pass_rewrote(
    indexed: tuple[Engine, Path],
) -> None:
    eng, root = indexed
    store = eng.store
    full = _corpus_state(eng)
    # the per-file pass rewrites pkg/a.py with its own (unresolved) corpus rows, same stat
    current = store.fetch(Filter(paths=("pkg/a.py",)))
    per_file = merge_rows(current, _per_file_corpus_rows(root, "pkg/a.py"), CODE_CORPUS_LAYERS)
    store.replace_sources({"pkg/a.py": per_file})
    assert _corpus_state(eng) != full
    raw = (root / "pkg/a.py").read_bytes()
    art = artifact_of("pkg/a.py", raw.decode(), "python", bytes_hash(raw), "code")
    with ArtifactCache(eng.index_dir / "artifacts.sqlite") as cache:
        done = refresh_corpus(store, cache, root, fresh={"pkg/a.py": art})
    assert done.rewritten == ["pkg/a.py"]
    assert _corpus_state(eng) == full
    # a lost cache falls back to comparing every path with the store
    (eng.index_dir / "artifacts.sqlite").unlink()
    with ArtifactCache(eng.index_dir / "artifacts.sqlite") as cache:
        assert cache.digests(["pkg/a.py"]) == {}
        again = refresh_corpus(store, cache, root, fresh={})
        assert again.rewritten == [] and again.read_again == len(store.sources())
        assert sorted(cache.digests(list(full))) == sorted(full)


def test_a_digest_written_for_other_per_file_rows_is_not_trusted(
    indexed: tuple[Engine, Path],
) -> None:
    eng, root = indexed
    store = eng.store
    full = _corpus_state(eng)
    # per-file rows of a new stat landed, then the run died before its corpus pass
    current = store.fetch(Filter(paths=("pkg/a.py",)))
    per_file = [
        Record(**{**_fields(r), "file_mtime_ns": r.file_mtime_ns + 1})
        for r in merge_rows(current, _per_file_corpus_rows(root, "pkg/a.py"), CODE_CORPUS_LAYERS)
    ]
    store.replace_sources({"pkg/a.py": per_file})
    with ArtifactCache(eng.index_dir / "artifacts.sqlite") as cache:
        done = refresh_corpus(store, cache, root, fresh={})
    assert done.rewritten == ["pkg/a.py"]
    assert _corpus_state(eng) == full


def test_public_api_is_listed() -> None:
    import strata.index.corpus as corpus

    assert sorted(corpus_all) == sorted(
        n
        for n in vars(corpus)
        if not n.startswith("_")
        and n not in ("annotations", "Mapping")
        and not isinstance(getattr(corpus, n), type(corpus))
    )


def test_rows_the_per_file_pass_wrote_unchanged_are_not_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generated module's roles need nothing from other files: the corpus pass finds the
    rows the per-file pass just wrote equal by their digest, without fetching them."""
    root = tmp_path / "repo"
    _write(
        root,
        {
            "table.py": "".join(f"VALUE_{i} = {i}\n" for i in range(300)),
            "pkg/a.py": "from pkg.b import helper\n\n\ndef use():\n    return helper()\n",
            "pkg/b.py": "def helper():\n    return 1\n",
        },
    )
    fetched: list[tuple[str, ...]] = []
    original = LanceStore.fetch

    def counting(self: LanceStore, where: Filter, *args: object, **kwargs: object) -> list[Record]:
        fetched.append(tuple(where.paths or ()))
        return original(self, where, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(LanceStore, "fetch", counting)
    eng = Engine.open(root, config={"embed.provider": "none"})
    eng.index()
    read_back = {p for paths in fetched for p in paths}
    assert "table.py" not in read_back  # its C4 rows were already the corpus pass's
    assert "pkg/a.py" in read_back  # its call resolves across files: compared, rewritten
    monkeypatch.undo()
    roles = eng.store.fetch(Filter(paths=("table.py",), layers=("C4_SEMANTIC_ROLES",)))
    assert len(roles) == 5  # one per block of up to 64 constants (`CONSTANT_BLOCK`)
    scratch = _index_from_scratch(root, tmp_path / "scratch")
    assert _corpus_state(eng) == _corpus_state(scratch)
