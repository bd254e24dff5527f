"""The CLI's explicit context: forwarded command lines that run at once each get their own
working directory, streams and log level (nothing process-wide is swapped for a run)."""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from strata import Engine
from strata.surfaces.cli import app, render
from strata.surfaces.cli.forward import run_command
from strata.surfaces.client import request_for
from strata.surfaces.http.pool import Engines
from tests.conftest import CORPORA

ROUNDS = 6


@pytest.fixture
def two_indexes(tmp_path: Path) -> list[Path]:
    """Two copies of the sample repository, each indexed lexically in its own `.strata`."""
    roots = []
    for name in ("alpha", "beta"):
        root = tmp_path / name
        shutil.copytree(CORPORA / "minirepo", root)
        (root / "src" / f"only_{name}.py").write_text(f"def only_in_{name}():\n    return 1\n")
        Engine.open(root, config={"embed.provider": "none"}).index()
        roots.append(root)
    return roots


def body(argv: list[str], cwd: Path) -> dict[str, Any]:
    return {**request_for(argv), "cwd": str(cwd), "width": 80, "columns": 80, "color": False}


def test_runs_at_once_each_get_their_own_output(two_indexes: list[Path]) -> None:
    """Two `/cli` runners (two served indexes in one process) on two threads, started
    together round after round: every reply names its own index, in its own working
    directory, and only the `-v` run shows debug lines. A stream, a working directory or a
    logging handler swapped for a run would send one run's output into the other's."""
    pools = [Engines.open(str(root), None, None) for root in two_indexes]
    runners = [run_command(pool, app) for pool in pools]
    commands = [
        ["status", "--json", "-v"],  # index found upward from the caller's directory
        ["symbols", "only_in_beta", "--index-dir", str(two_indexes[1] / ".strata")],
    ]
    cwds = [two_indexes[0] / "src", two_indexes[1]]
    here = os.getcwd()
    barrier = threading.Barrier(2)
    replies: list[list[dict[str, Any]]] = [[], []]

    def worker(i: int) -> None:
        for _ in range(ROUNDS):
            barrier.wait()
            replies[i].append(runners[i](body(commands[i], cwds[i])))

    threads = [threading.Thread(target=worker, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=240)
    try:
        assert [len(r) for r in replies] == [ROUNDS, ROUNDS]
        for reply in replies[0]:
            assert reply["exit_code"] == 0, reply["stderr"]
            assert json.loads(reply["stdout"])["root"] == str(two_indexes[0])
            assert f"debug discovered 8 files, 0 skips under {two_indexes[0]}" in reply["stderr"]
        for reply in replies[1]:
            assert reply["exit_code"] == 0, reply["stderr"]
            assert "only_in_beta" in reply["stdout"] and "only_beta.py" in reply["stdout"]
            assert "debug" not in reply["stderr"] and "{" not in reply["stdout"]
    finally:
        for pool in pools:
            pool.close()
    assert os.getcwd() == here  # no run moved the process's working directory


def test_no_run_state_lives_in_a_module() -> None:
    """The consoles and the engine source travel in click's context, not in globals."""
    import strata.surfaces.cli as cli

    assert not hasattr(render, "out") and not hasattr(render, "err")
    assert not hasattr(cli, "use_engines") and not hasattr(cli, "_engine_source")
