"""Indexing by revision: `--since REV` on a real git history, sessions, branch switches."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine, UserError
from strata.workspace.git import changed_since
from tests.gitrepo import git

pytestmark = pytest.mark.usefixtures("both_stores")

LEXICAL = {"embed.provider": "none"}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    for name, word in [("a", "alpha"), ("b", "bravo"), ("c", "charlie"), ("d", "delta")]:
        (root / "pkg" / f"{name}.py").write_text(f"def {word}_fn():\n    return '{word}'\n")
    (root / "README.md").write_text("# Repo\n\nA small repository.\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "first")
    return root


def test_since_takes_only_what_git_diff_names(repo: Path) -> None:
    eng = Engine.open(repo, config=LEXICAL)
    eng.index()
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "mv", "pkg/b.py", "pkg/bee.py")  # rename
    git(repo, "rm", "-q", "pkg/c.py")  # deletion
    (repo / "pkg" / "a.py").write_text("def alpha_fn():\n    return 'amended'\n")  # edit
    (repo / "pkg" / "e.py").write_text("def echo_fn():\n    return 'echo'\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "second")
    assert changed_since(repo, base) == [
        "pkg/a.py",
        "pkg/b.py",
        "pkg/bee.py",
        "pkg/c.py",
        "pkg/e.py",
    ]
    summary = eng.index(since=base)
    assert summary.indexed == 3 and summary.removed == 2
    paths = {r.path for r in eng.records()}
    assert {"pkg/bee.py", "pkg/e.py"} <= paths and not {"pkg/b.py", "pkg/c.py"} & paths
    assert eng.search("amended", route=False).hits
    head = git(repo, "rev-parse", "HEAD")
    shas = {r.commit_sha for r in eng.records() if r.path == "pkg/e.py"}
    assert shas == {head}
    assert {r.session_id for r in eng.records() if r.path == "pkg/e.py"} == {f"repo@{head}"}


def test_since_refuses_unknown_revisions_and_non_git_roots(repo: Path, tmp_path: Path) -> None:
    eng = Engine.open(repo, config=LEXICAL)
    eng.index()
    with pytest.raises(UserError, match="unknown revision"):
        eng.index(since="no-such-branch")
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "x.txt").write_text("hello\n")
    other = Engine.open(plain, config=LEXICAL)
    with pytest.raises(UserError, match="not a git work tree"):
        other.index(since="HEAD~1")


def test_switching_branches_touches_only_the_files_that_differ(repo: Path) -> None:
    eng = Engine.open(repo, config=LEXICAL)
    eng.index()
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "pkg" / "d.py").write_text("def delta_fn():\n    return 'feature delta'\n")
    git(repo, "commit", "-q", "-am", "feature")
    git(repo, "checkout", "-q", "main")
    eng.index()  # settle the stat of everything on main
    git(repo, "checkout", "-q", "feature")
    summary = eng.index()
    assert summary.indexed == 1 and summary.removed == 0
    assert eng.search("feature delta", route=False).hits
    assert {r.commit_sha for r in eng.records() if r.path == "pkg/d.py"} == {
        git(repo, "rev-parse", "HEAD")
    }


def test_rows_outside_git_have_no_commit(tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text("notes without git\n")
    eng = Engine.open(tmp_path, config=LEXICAL)
    eng.index()
    row = eng.records()[0]
    assert row.commit_sha is None and row.repo_id == tmp_path.name
    assert row.session_id == f"{tmp_path.name}@worktree"


def test_uncommitted_edits_are_labelled_dirty_and_hits_carry_their_session(repo: Path) -> None:
    (repo / "pkg" / "b.py").write_text("def bravo_fn():\n    return 'edited bravo'\n")
    (repo / "pkg" / "e.py").write_text("def echo_fn():\n    return 'echo'\n")  # untracked
    eng = Engine.open(repo, config=LEXICAL)
    eng.index()
    head = git(repo, "rev-parse", "HEAD")
    shas = {
        r.path: {x.commit_sha for x in eng.records() if x.path == r.path} for r in eng.records()
    }
    assert shas["pkg/a.py"] == {head}
    assert shas["pkg/b.py"] == shas["pkg/e.py"] == {f"{head}+dirty"}
    sessions = {s.session_id for s in eng.sessions()}
    assert sessions == {f"repo@{head}", f"repo@{head}+dirty"}
    hit = eng.search("edited bravo", k=1, route=False)[0].to_json()
    assert hit["path"] == "pkg/b.py"
    assert (hit["session_id"], hit["commit_sha"]) == (f"repo@{head}+dirty", f"{head}+dirty")
    clean = eng.search("alpha_fn", k=1)[0].to_json()
    assert (clean["session_id"], clean["commit_sha"]) == (f"repo@{head}", head)
    git(repo, "commit", "-q", "-am", "bravo")  # committed: the same bytes are now HEAD's
    (repo / "pkg" / "b.py").write_text("def bravo_fn():\n    return 'bravo again'\n")
    git(repo, "commit", "-q", "-am", "bravo again")
    eng.index()
    now = git(repo, "rev-parse", "HEAD")
    assert {r.commit_sha for r in eng.records() if r.path == "pkg/b.py"} == {now}
