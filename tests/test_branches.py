"""Branches side by side (issue 19, Must 5): one copy of each file version, tagged with the
branches holding it, on both stores; an engine on a real git repository."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from strata import Engine
from strata.errors import UserError
from strata.index import indexer
from strata.index.corpus import ArtifactCache
from strata.layers import C2_DEPENDENCY_GRAPH, C4_SEMANTIC_ROLES
from strata.store import Filter, Store
from strata.store.branches import BranchView, merged, same_row
from tests.embed_server import EmbedServer, serve
from tests.gitrepo import git
from tests.test_store_contract import DIM, StoreFactory, factory, rec, unit

__all__ = ["factory"]


@pytest.fixture
def base(factory: StoreFactory, tmp_path: Path) -> Iterator[Store]:
    s = factory(tmp_path, DIM)
    yield s
    s.close()


def paths(store: Store, terms: list[str], branch: str | None = None) -> set[str]:
    return {r.path for r, _ in store.lexical_search(terms, 20, Filter(branch=branch))}


def test_a_file_identical_on_two_branches_is_stored_once(base: Store) -> None:
    main, release = BranchView(base, "main"), BranchView(base, "release")
    shared = [rec("lib.py", i, f"shared words {i}", vector=unit(i)) for i in range(3)]
    main.replace_sources({"lib.py": shared, "new.py": [rec("new.py", 0, "fresh feature")]})
    release.replace_sources({"lib.py": shared})
    assert base.count() == 4  # three shared rows once, one main-only row
    hits = base.lexical_search(["shared"], 10, Filter())
    assert {r.branches for r, _ in hits} == {("main", "release")}
    assert paths(release, ["fresh"]) == set() and paths(main, ["fresh"]) == {"new.py"}
    assert paths(base, ["fresh"], "release") == set()  # a filter names the branch itself
    assert set(release.sources()) == {"lib.py"} and set(main.sources()) == {"lib.py", "new.py"}
    near = release.vector_search(unit(1), 1, Filter())
    assert [r.id for r, _ in near] == ["lib.py:1"] and near[0][0].branches == ("main", "release")


def test_each_branch_keeps_its_own_version_and_a_version_nobody_holds_goes(base: Store) -> None:
    main, release = BranchView(base, "main"), BranchView(base, "release")
    old = [rec("api.py", 0, "version one handler", file_hash="v1")]
    new = [rec("api.py", 0, "version two handler", file_hash="v2")]
    main.replace_sources({"api.py": old})
    release.replace_sources({"api.py": old})
    main.replace_sources({"api.py": new})  # main moves on, release stays at v1
    assert base.count() == 2
    assert [r.content for r in release.fetch(Filter(paths=("api.py",)))] == ["version one handler"]
    assert [r.content for r in main.fetch(Filter(paths=("api.py",)))] == ["version two handler"]
    release.replace_sources({"api.py": []})  # the release branch deletes the file
    assert [r.file_hash for r in base.fetch(Filter())] == ["v2"]
    assert base.fetch(Filter())[0].branches == ("main",)


def test_retag_takes_over_a_stored_version_without_new_rows(base: Store) -> None:
    main, feature = BranchView(base, "main"), BranchView(base, "feature")
    main.replace_sources({"a.py": [rec("a.py", 0, "alpha words", vector=unit(3), file_hash="ha")]})
    feature.replace_sources({"a.py": [rec("a.py", 0, "alpha changed", file_hash="hb")]})
    assert feature.retag({"a.py": "ha", "b.py": "hz"}) == {"a.py"}  # b.py: nobody has it
    rows = base.fetch(Filter())
    assert [(r.file_hash, r.branches) for r in rows] == [("ha", ("feature", "main"))]
    assert rows[0].vector is not None  # kept, never embedded again
    assert feature.retag({"a.py": "ha"}) == {"a.py"} and base.count() == 1


def test_merge_is_pure_and_takes_over_rows_written_before_branches() -> None:
    legacy = dataclasses.replace(rec("x.py", 0, "old"), branches=())
    fresh = rec("x.py", 0, "new", file_hash="h2")
    out = merged([legacy], [fresh], "main")
    assert [(r.content, r.branches) for r in out] == [("new", ("main",))]
    assert merged([legacy], [], "main") == []


# ---- an engine on a real git repository, both stores --------------------------------


@pytest.fixture
def server() -> Iterator[EmbedServer]:
    yield from serve()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    for name in ("alpha", "bravo", "charlie"):
        (root / "pkg" / f"{name}.py").write_text(f"def {name}_fn():\n    return '{name}'\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "first")
    return root


def embedded(server: EmbedServer) -> int:
    return sum(len(r.body.get("input", [])) for r in server.requests)


@pytest.mark.usefixtures("both_stores")
def test_branches_of_one_checkout_share_rows_and_checkout_retags(
    repo: Path, server: EmbedServer
) -> None:
    cfg: dict[str, Any] = {
        "embed.provider": "ollama",
        "embed.base_url": server.url,
        "embed.model": "m1",
    }
    Engine.open(repo, config={**cfg, "store.branch": "main"}).index()  # tracks branches now
    rows_main = Engine.open(repo, config=cfg).store.count()
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "pkg" / "zulu.py").write_text("def zulu_only():\n    return 'feature work'\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "feature")
    eng = Engine.open(repo, config=cfg)
    assert eng.branch == "feature"  # the checkout's branch, once the index tracks branches
    summary = eng.index()
    assert summary.indexed == 1  # zulu.py; the three shared files are only tagged
    added = eng.parts.store.count() - rows_main
    assert 0 < added <= 3, "only zulu.py's rows are new"
    hit = eng.search("zulu_only", route=False).hits[0]
    assert hit.record.path == "pkg/zulu.py" and hit.record.branches == ("feature",)
    assert hit.to_json()["branches"] == ["feature"]
    git(repo, "checkout", "-q", "main")  # zulu.py leaves the work tree
    back = Engine.open(repo, config=cfg)
    assert back.branch == "main"
    assert "pkg/zulu.py" not in {h.record.path for h in back.search("zulu_only").hits}
    (back.index_dir / "embed_cache.sqlite").unlink()  # what is embedded again would show
    before = embedded(server)
    git(repo, "checkout", "-q", "-b", "release")  # a new branch: every file already stored
    rel = Engine.open(repo, config=cfg)
    assert rel.index().indexed == 0
    assert embedded(server) == before, "a checkout re-tags, it does not embed again"
    assert rel.parts.store.count() == rows_main + added
    shared = rel.search("alpha_fn", route=False).hits[0].record
    assert shared.branches == ("feature", "main", "release")
    named = Engine.open(repo, config={**cfg, "store.branch": "feature"})
    assert "pkg/zulu.py" in {h.record.path for h in named.search("zulu_only").hits}
    assert {m.record.path for m in named.symbols("zulu_only")} == {"pkg/zulu.py"}
    assert not rel.symbols("zulu_only")  # lookups follow the branch too


def rows_of(eng: Engine) -> int:
    return sum(c.rows for c in eng.status().layers.values())


@pytest.mark.usefixtures("both_stores")
def test_status_counts_the_branch_and_a_detached_head_is_refused(
    repo: Path, server: EmbedServer
) -> None:
    cfg: dict[str, Any] = {"embed.provider": "ollama", "embed.base_url": server.url}
    Engine.open(repo, config={**cfg, "store.branch": "main"}).index()
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "pkg" / "zulu.py").write_text("def zulu_only():\n    return 'feature work'\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "feature")
    feature = Engine.open(repo, config=cfg)
    feature.index()
    main = Engine.open(repo, config={**cfg, "store.branch": "main"})
    on_main = len(main.store.fetch(Filter(), vectors=False))
    assert rows_of(main) == on_main < rows_of(feature)  # zulu.py is the feature's only
    assert rows_of(feature) == len(feature.store.fetch(Filter(), vectors=False))
    git(repo, "checkout", "-q", "--detach")
    detached = Engine.open(repo, config=cfg)
    assert detached.branch is None
    (repo / "pkg" / "alpha.py").write_text("def alpha_fn():\n    return 'detached edit'\n")
    with pytest.raises(UserError, match="HEAD is detached") as err:
        detached.index()
    assert "--branch" in (err.value.hint or "")
    assert rows_of(main) == on_main  # nothing was written for no branch
    named = Engine.open(repo, config={**cfg, "store.branch": "feature"})
    assert named.index().indexed == 1  # naming the branch indexes the edit


def test_a_branch_keeps_its_own_row_where_its_resolution_differs(base: Store) -> None:
    main, feature = BranchView(base, "main"), BranchView(base, "feature")
    chunk = rec("lib.py", 0, "def helper", vector=unit(0))
    role = rec("lib.py", 1, "helper from 2 places", layer=C4_SEMANTIC_ROLES)
    main.replace_sources({"lib.py": [chunk, role]})
    feature.retag({"lib.py": "h1"})
    wider = rec("lib.py", 1, "helper from 3 places", layer=C4_SEMANTIC_ROLES)
    feature.replace_sources({"lib.py": [chunk, wider]})  # its cross-file pass saw one more
    rows = sorted((r.id, r.content, r.branches) for r in base.fetch(Filter()))
    assert rows == [
        ("lib.py:0", "def helper", ("feature", "main")),  # the same row: stored once
        ("lib.py:1", "helper from 2 places", ("main",)),
        ("lib.py:1", "helper from 3 places", ("feature",)),
    ]
    roles = Filter(layers=(C4_SEMANTIC_ROLES,))
    assert [r.content for r in main.fetch(roles)] == ["helper from 2 places"]
    assert [r.content for r in feature.fetch(roles)] == ["helper from 3 places"]
    assert base.fetch(Filter(ids=("lib.py:0",)))[0].vector is not None  # kept, not re-embedded
    release = BranchView(base, "release")
    assert release.retag({"lib.py": "h1"}) == {"lib.py"}
    assert len(release.fetch(Filter())) == 2  # one row per id, never both branches' own
    release.replace_sources({"lib.py": [chunk, wider]})  # release resolves as feature does
    assert {r.branches for r in base.fetch(roles)} == {("main",), ("feature", "release")}
    main.replace_sources({"lib.py": [chunk, wider]})  # main catches up: one row again
    assert [r.branches for r in base.fetch(roles)] == [("feature", "main", "release")]
    assert base.count() == 2


def test_same_row_ignores_who_wrote_it() -> None:
    a = rec("x.py", 0, "body", note=(1, 2))
    b = dataclasses.replace(
        a, session_id="s2", file_mtime_ns=9, branches=("dev",), metadata={"note": [1, 2]}
    )
    assert same_row(a, b)
    assert not same_row(a, dataclasses.replace(a, metadata={"note": [2]}))
    assert not same_row(a, dataclasses.replace(a, content="other"))


CALLERS = {
    "pkg/lib.py": "def helper():\n    return 1\n",
    "pkg/one.py": "from pkg.lib import helper\n\n\ndef first():\n    return helper()\n",
    "pkg/two.py": "from pkg.lib import helper\n\n\ndef second():\n    return helper()\n",
}
FEATURE_CALLER = "from pkg.lib import helper\n\n\ndef feature_only():\n    return helper()\n"


def helper_role(eng: Engine) -> str:
    """What the C4 row of `pkg.lib.helper` says (its fan-in comes from every file)."""
    rows = eng.store.fetch(Filter(layers=(C4_SEMANTIC_ROLES,), paths=("pkg/lib.py",)))
    return " | ".join(sorted(r.content for r in rows if "helper" in r.title))


def edges(eng: Engine) -> list[tuple[str, str]]:
    return sorted((r.id, r.content) for r in eng.store.fetch(Filter(layers=(C2_DEPENDENCY_GRAPH,))))


@pytest.mark.usefixtures("both_stores")
def test_the_cross_file_pass_is_per_branch(
    tmp_path: Path, server: EmbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexer, "LEXICAL_FIRST_MIN_FILES", 1)  # the first look runs, too
    root = tmp_path / "calls"
    (root / "pkg").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    for name, text in CALLERS.items():
        (root / name).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "first")
    cfg: dict[str, Any] = {"embed.provider": "ollama", "embed.base_url": server.url}
    Engine.open(root, config={**cfg, "store.branch": "main"}).index()
    first = Engine.open(root, config=cfg)
    on_main, main_edges = helper_role(first), edges(first)
    git(root, "checkout", "-q", "-b", "feature")
    (root / "pkg" / "three.py").write_text(FEATURE_CALLER)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "a caller only the feature branch has")
    feature = Engine.open(root, config=cfg)
    assert feature.index().indexed == 1
    callers = {link.symbol.qname for link in feature.callers("pkg.lib.helper").links}
    assert "pkg.three.feature_only" in callers
    on_feature = helper_role(feature)
    assert "3 places" in on_feature and on_feature != on_main
    main = Engine.open(root, config={**cfg, "store.branch": "main"})
    assert helper_role(main) == on_main  # the feature's caller is not seen on main
    assert "pkg.three.feature_only" not in {m.symbol.qname for m in main.callers("helper").links}
    git(root, "checkout", "-q", "main")
    assert Engine.open(root, config=cfg).index().indexed == 0
    assert helper_role(Engine.open(root, config=cfg)) == on_main
    (Engine.open(root, config=cfg).index_dir / "embed_cache.sqlite").unlink()
    before = embedded(server)
    git(root, "checkout", "-q", "-b", "release")  # main's files: every one stored
    release = Engine.open(root, config=cfg)
    assert release.index().indexed == 0
    assert embedded(server) == before, "a checkout re-tags, it does not embed again"
    assert helper_role(release) == on_main and edges(release) == main_edges
    assert all(state.file_hash for state in release.store.sources().values())  # whole rows
    named = Engine.open(root, config={**cfg, "store.branch": "feature"})
    assert helper_role(named) == on_feature


def test_each_branch_keeps_its_own_corpus_digests(tmp_path: Path) -> None:
    path = tmp_path / "artifacts.sqlite"
    with (
        ArtifactCache(path, scope="main") as main,
        ArtifactCache(path, scope="feature") as feature,
        ArtifactCache(path) as plain,
    ):
        main.put_digests({"lib.py": ("s", "d-main")})
        feature.put_digests({"lib.py": ("s", "d-feature"), "extra.py": ("s", "d-extra")})
        plain.put_digests({"lib.py": ("s", "d-plain")})
        assert main.digests(["lib.py", "extra.py"]) == {"lib.py": ("s", "d-main")}
        assert feature.digests(["lib.py"]) == {"lib.py": ("s", "d-feature")}
        assert plain.digests(["lib.py"]) == {"lib.py": ("s", "d-plain")}
        feature.prune(["lib.py"])  # extra.py left the feature branch
        assert feature.digests(["lib.py", "extra.py"]) == {"lib.py": ("s", "d-feature")}
        main.prune([])  # a scope prunes its own digests only
        assert main.digests(["lib.py"]) == {} and plain.digests(["lib.py"]) != {}
        plain.prune([])
        assert plain.digests(["lib.py"]) == {} and feature.digests(["lib.py"]) != {}
