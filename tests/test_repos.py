"""Several repositories in one index: real packages (click, pathspec) as two git repositories
laid out alike (`src/`, `README.md`), so their paths collide on purpose."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pathspec
import pytest
from click.testing import CliRunner

from strata import Engine, UserError
from strata.engine.doctor import check
from strata.surfaces.cli import app
from tests.gitrepo import git

pytestmark = pytest.mark.usefixtures("both_stores")

LEXICAL = {"embed.provider": "none"}


def make_repo(root: Path, package: Path, readme: str) -> Path:
    """A git repository holding a real package's sources under `src/` and a README."""
    shutil.copytree(package, root / "src", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "README.md").write_text(readme)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "import")
    return root


@pytest.fixture
def two(tmp_path: Path) -> tuple[Path, Path]:
    a = make_repo(
        tmp_path / "clickrepo",
        Path(click.__file__).parent,
        "# Click\n\nComposable command line interfaces with decorators.\n",
    )
    b = make_repo(
        tmp_path / "specrepo",
        Path(pathspec.__file__).parent,
        "# Pathspec\n\nGitignore style pattern matching of file paths.\n",
    )
    return a, b


@pytest.fixture
def both(two: tuple[Path, Path]) -> Engine:
    a, b = two
    eng = Engine.open(a, config=LEXICAL)
    eng.index()
    eng.index(b, repo="spec")
    return eng


def test_two_repositories_share_one_index_without_mixing_rows(
    two: tuple[Path, Path], both: Engine
) -> None:
    _a, b = two
    repos = {r.name: r.to_json() for r in both.repos()}
    assert set(repos) == {"clickrepo", "spec"}
    assert repos["clickrepo"]["home"] and not repos["spec"]["home"]
    assert repos["spec"]["root"] == str(b)
    rows = both.records()
    ids = [r.id for r in rows]
    assert len(ids) == len(set(ids))
    readmes = {r.repo_id for r in rows if r.path == "README.md"}
    assert readmes == {"clickrepo", "spec"}  # the same path, once per repository
    spec_rows = [r for r in rows if r.repo_id == "spec"]
    assert spec_rows and all(r.id.startswith("spec//") for r in spec_rows)
    assert repos["spec"]["files"] == len({r.path for r in spec_rows})
    assert repos["spec"]["commits"] == [git(b, "rev-parse", "HEAD")]
    assert both.status().to_json()["files_pending"] == 0


def test_search_finds_both_and_filters_by_repository(both: Engine) -> None:
    hits = both.search("gitignore pattern matching decorators command line", k=20).hits
    assert {h.record.repo_id for h in hits} == {"clickrepo", "spec"}
    only = both.search("pattern matching", k=10, filters={"repo": "spec"}).hits
    assert only and {h.record.repo_id for h in only} == {"spec"}
    plain = both.search("pattern", k=10, route=False, filters={"repo": "clickrepo"}).hits
    assert plain and {h.record.repo_id for h in plain} == {"clickrepo"}
    assert all(h.to_json()["repo"] == "clickrepo" for h in plain)


def test_layer_lookups_take_a_repository(both: Engine) -> None:
    found = both.symbols("PathSpec", repo="spec")
    assert found and found[0].record.repo_id == "spec"
    assert not both.symbols("PathSpec", repo="clickrepo") or all(
        m.qname != "PathSpec" for m in both.symbols("PathSpec", repo="clickrepo")
    )
    assert both.callers("echo", repo="clickrepo").links
    assert {r.repo_id for r in both.docs()} == {"clickrepo", "spec"}
    assert {r.repo_id for r in both.docs(repo="spec")} == {"spec"}
    with pytest.raises(UserError, match="no repository 'nope'"):
        both.symbols("x", repo="nope")


def test_a_change_in_one_repository_leaves_the_other_alone(
    two: tuple[Path, Path], both: Engine
) -> None:
    _a, b = two
    before = {r.id: r.content for r in both.records() if r.repo_id == "clickrepo"}
    (b / "README.md").write_text("# Pathspec\n\nNow about wildflower meadows.\n")
    (b / "src" / "__init__.py").unlink()  # a path the home repository has too
    summary = both.index(b, repo="spec")
    assert summary.indexed == 1 and summary.removed == 1
    after = {r.id: r.content for r in both.records() if r.repo_id == "clickrepo"}
    assert after == before
    hits = both.search("wildflower meadows", route=False).hits
    assert hits and hits[0].record.repo_id == "spec" and hits[0].record.path == "README.md"
    assert any(r.path == "src/__init__.py" for r in both.records() if r.repo_id == "clickrepo")
    assert both.index(b, repo="spec").indexed == 0  # and again: nothing to do
    assert both.index().indexed == 0


def test_full_rebuild_of_one_repository_keeps_the_other(
    two: tuple[Path, Path], both: Engine
) -> None:
    _a, b = two
    home = len([r for r in both.records() if r.repo_id == "clickrepo"])
    spec = len([r for r in both.records() if r.repo_id == "spec"])
    summary = both.index(b, repo="spec", full=True)
    assert summary.indexed > 0
    rows = both.records()
    assert len([r for r in rows if r.repo_id == "clickrepo"]) == home
    assert len([r for r in rows if r.repo_id == "spec"]) == spec


def test_names_must_be_unique_and_stable(two: tuple[Path, Path], both: Engine) -> None:
    _a, b = two
    third = b.parent / "third"
    (third / "x").mkdir(parents=True)
    (third / "x" / "notes.md").write_text("# Notes\n")
    with pytest.raises(UserError, match="already used for"):
        both.index(third, repo="spec")
    with pytest.raises(UserError, match="already used for"):
        both.index(third, repo="clickrepo")
    with pytest.raises(UserError, match="indexed as repository 'spec'"):
        both.index(b, repo="other")
    with pytest.raises(UserError, match="bad repository name"):
        both.index(third, repo="a/b")
    assert {r.name for r in both.repos()} == {"clickrepo", "spec"}  # nothing registered


def test_since_works_per_repository(two: tuple[Path, Path], both: Engine) -> None:
    _a, b = two
    base = git(b, "rev-parse", "HEAD")
    git(b, "mv", "src/util.py", "src/helpers.py")
    git(b, "commit", "-q", "-m", "rename")
    summary = both.index(b, repo="spec", since=base)
    assert summary.indexed == 1 and summary.removed == 1
    spec_paths = {r.path for r in both.records() if r.repo_id == "spec"}
    assert "src/helpers.py" in spec_paths and "src/util.py" not in spec_paths
    assert {s.repo for s in both.sessions()} == {"clickrepo", "spec"}
    assert len(both.sessions("spec")) == 2  # the import commit and the rename commit


def test_doctor_and_status_see_only_what_is_out_of_date(
    two: tuple[Path, Path], both: Engine
) -> None:
    _a, b = two
    report = check(both, deep=True)
    assert report.healthy, report.problems
    (b / "README.md").write_text("# changed\n")
    assert both.status().to_json()["files_pending"] == 1


def test_cli_adds_a_repository_from_the_working_directory(
    two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    monkeypatch.chdir(a)
    runner = CliRunner()
    assert runner.invoke(app, ["index", "--embedder", "none", "-q"]).exit_code == 0
    done = runner.invoke(app, ["index", str(b), "--repo", "spec", "--embedder", "none", "-q"])
    assert done.exit_code == 0, done.output
    assert not (b / ".strata").exists()  # it went into the working directory's index
    listed = json.loads(runner.invoke(app, ["repos", "--json"]).stdout)
    assert [r["name"] for r in listed] == ["clickrepo", "spec"]
    out = runner.invoke(app, ["search", "pattern", "--repo", "spec", "--json"])
    assert out.exit_code == 0
    hits = json.loads(out.stdout)
    assert hits and {h["repo"] for h in hits} == {"spec"}
    clash = runner.invoke(app, ["index", str(a / "src"), "--repo", "spec"])
    assert clash.exit_code == 1 and "indexed as repository 'clickrepo'" in clash.output
    sess = json.loads(runner.invoke(app, ["sessions", "--repo", "spec", "--json"]).stdout)
    assert [s["repo"] for s in sess] == ["spec"]
    symbols = json.loads(
        runner.invoke(app, ["symbols", "PathSpec", "--repo", "spec", "--json"]).stdout
    )
    assert symbols and {s["repo"] for s in symbols} == {"spec"}


def test_index_dir_holds_a_workspace_of_repositories(
    two: tuple[Path, Path], tmp_path: Path
) -> None:
    a, b = two
    ws = tmp_path / "workspace-index"
    for path, name in ((a, "click"), (b, "spec")):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "strata",
                "index",
                str(path),
                "--repo",
                name,
                "--index-dir",
                str(ws),
                "--embedder",
                "none",
                "-q",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    eng = Engine.open(index_dir=ws)
    assert [r.name for r in eng.repos()] == ["click", "spec"]
    assert {h.record.repo_id for h in eng.search("command pattern", k=30).hits} == {
        "click",
        "spec",
    }


def test_the_router_takes_a_repository_named_in_the_question(both: Engine) -> None:
    plan = both.plan("how does pattern matching work in spec")
    assert plan.filters.to_json().get("repo") == "spec"
    hits = both.search("how does pattern matching work in spec").hits
    assert hits and {h.record.repo_id for h in hits} == {"spec"}


def test_the_cli_prints_what_the_api_returns(both: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    from strata.query.lookup.rows import record_json

    monkeypatch.chdir(both.root)
    runner = CliRunner()

    def cli(*args: str) -> object:
        done = runner.invoke(app, [*args, "--json"], catch_exceptions=False)
        assert done.exit_code == 0, done.output
        return json.loads(done.stdout)

    def same(x: object) -> object:
        return json.loads(json.dumps(x, default=str))

    assert cli("repos") == same([r.to_json() for r in both.repos()])
    assert cli("sessions") == same([s.to_json() for s in both.sessions()])
    assert cli("symbols", "PathSpec") == same([m.to_json() for m in both.symbols("PathSpec")])
    assert cli("callers", "echo", "--repo", "clickrepo") == same(
        both.callers("echo", repo="clickrepo").to_json()
    )
    assert cli("entrypoints") == same([record_json(r) for r in both.entrypoints()])
    assert cli("docs", "--repo", "spec") == same([record_json(r) for r in both.docs(repo="spec")])
    hits = both.search("match a path against patterns", k=5).hits
    assert cli("search", "match a path against patterns", "-k", "5") == same(
        [h.to_json() for h in hits]
    )


def test_status_of_a_copied_repository_names_the_move_and_counts_pending_here(
    minirepo: Path, tmp_path: Path, both_stores: str
) -> None:
    if both_stores != "lancedb":
        pytest.skip("a server store does not move with the tree: the copy shares its rows")
    Engine.open(minirepo, config={"embed.provider": "none"}).index()
    copy = tmp_path / "copy"
    shutil.copytree(minirepo, copy)
    (copy / "docs" / "added.md").write_text("# Added\n\nOnly in the copy.\n")
    (copy / "README.md").write_text("# Changed in the copy\n")
    eng = Engine.open(copy)
    status = eng.status().to_json()
    assert status["root"] == str(copy) and status["moved_from"] == str(minirepo)
    assert status["files_pending"] == 2 and not status["healthy"]
    assert Engine.open(minirepo).status().moved_from is None  # the original is untouched
    eng.index()
    again = Engine.open(copy).status().to_json()
    assert again["moved_from"] is None and again["files_pending"] == 0 and again["healthy"]
    assert any(h.record.path == "docs/added.md" for h in eng.search("only in the copy"))
