"""`Engine.status`, `repos` and `sessions` give frozen values whose `to_json()` is the
document `strata status|repos|sessions --json` and `GET /status` have always printed."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from strata import Engine
from strata.engine.results import RepoInfo, Session, Status
from strata.surfaces.cli import app

LEXICAL = {"embed.provider": "none"}

STATUS_KEYS = [
    "root",
    "index_dir",
    "store",
    "embedder",
    "layers",
    "rows",
    "vectors",
    "last_index",
    "files_pending",
    "writer_active",
    "moved_from",
    "corpus_unfinished",
    "unindexed_rows",
    "healthy",
    "repos",
]
REPO_KEYS = ["name", "root", "home", "files", "rows", "commits", "last_index"]
SESSION_KEYS = ["session_id", "repo", "commit_sha", "rows", "files"]


@pytest.fixture
def eng(minirepo: Path) -> Engine:
    e = Engine.open(minirepo, config=LEXICAL)
    e.index()
    return e


def test_results_are_frozen_slotted_values(eng: Engine) -> None:
    status, repos, sessions = eng.status(), eng.repos(), eng.sessions()
    assert isinstance(status, Status) and all(isinstance(r, RepoInfo) for r in repos)
    assert sessions and all(isinstance(s, Session) for s in sessions)
    for value in (status, status.embedder, status.vectors, repos[0], sessions[0]):
        assert not hasattr(value, "__dict__")  # slotted
        field = dataclasses.fields(value)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)
    assert status.repos == tuple(repos)


def test_to_json_is_the_documented_document(eng: Engine, minirepo: Path) -> None:
    data = eng.status().to_json()
    assert list(data) == STATUS_KEYS
    assert data["root"] == str(minirepo) and data["index_dir"] == str(minirepo / ".strata")
    assert data["embedder"] == {
        "name": "none",
        "dim": 0,
        "lexical_only": True,
        "vectors_pending": None,
        "adapter_pairs": None,  # no vectors, no query adapter
        "adapter_sections": None,
    }
    assert data["vectors"] == {"done": 0, "total": 0}
    assert all(list(c) == ["rows", "vectors"] for c in data["layers"].values())
    assert data["rows"] == sum(c["rows"] for c in data["layers"].values()) > 0
    assert (data["files_pending"], data["writer_active"], data["moved_from"]) == (0, False, None)
    assert data["healthy"] is True and data["corpus_unfinished"] == []
    assert isinstance(data["last_index"], float)
    (repo,) = data["repos"]
    assert list(repo) == REPO_KEYS
    assert (repo["name"], repo["root"], repo["home"]) == ("minirepo", str(minirepo), True)
    assert repo["rows"] == data["rows"] and repo["files"] == 7 and repo["commits"] == []
    sessions = [s.to_json() for s in eng.sessions()]
    assert [list(s) for s in sessions] == [SESSION_KEYS]
    assert sessions[0]["repo"] == "minirepo" and sessions[0]["rows"] == data["rows"]
    assert eng.sessions("elsewhere") == []


def test_an_index_not_written_yet_has_no_repos(tmp_path: Path) -> None:
    data = Engine.open(tmp_path, config=LEXICAL).status().to_json()
    assert list(data) == STATUS_KEYS[:-1]  # no "repos" before the first run
    assert (data["rows"], data["files_pending"], data["healthy"]) == (0, None, False)


def test_the_cli_and_the_values_agree(eng: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(eng.root)
    expected = {
        "status": eng.status().to_json(),
        "repos": [r.to_json() for r in eng.repos()],
        "sessions": [s.to_json() for s in eng.sessions()],
    }
    for command, document in expected.items():
        done = CliRunner().invoke(app, [command, "--json"], catch_exceptions=False)
        assert (done.exit_code, json.loads(done.stdout)) == (0, document), done.output
