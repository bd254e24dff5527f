"""Usage errors at the `strata` command: one clear line, exit 1, no traceback (issue 15, 10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.errors import QueryError, UserError
from tests.test_cli import strata


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("usage") / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text('def parse_header(x):\n    """Parse."""\n    return x\n')
    done = strata("index", "--embedder", "none", cwd=root)
    assert done.returncode == 0, done.stderr
    return root


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["search", "parse", "--layer", "NOPE"], "unknown layer 'NOPE'"),
        (["search", "parse", "-k", "0"], "-k"),
        (["search", "parse", "-k", "-1"], "-k"),
        (["symbols", "parse", "-k", "0"], "-k"),
        (["search", "parse", "--repo", "nosuch"], "no repository 'nosuch'"),
        (["search"], "give a QUERY"),
        (["search", "parse", "--mode", "fuzzy"], "--mode"),
        (["search", "parse", "--no-such-flag"], "--no-such-flag"),
        (["nosuchcommand"], "nosuchcommand"),
    ],
)
def test_usage_errors_exit_1_with_one_reason(indexed: Path, args: list[str], says: str) -> None:
    done = strata(*args, cwd=indexed, env={"STRATA_NO_SERVER": "1"})
    assert done.returncode == 1, (args, done.returncode, done.stderr)
    assert says in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_the_engine_rejects_k_below_1_and_unknown_repos(indexed: Path) -> None:
    eng = Engine.open(indexed)
    assert len(eng.search("parse", 1, mode="lexical")) == 1
    for k in (0, -1):
        with pytest.raises(QueryError, match="k must be at least 1"):
            eng.search("parse", k)
    with pytest.raises(UserError, match="no repository 'nosuch'"):
        eng.search("parse", filters={"repo": "nosuch"})
    with pytest.raises(QueryError, match="unknown layer"):
        eng.search("parse", layers=["NOPE"])
    assert eng.search("parse", filters={"repo": "proj"}, mode="lexical").hits
