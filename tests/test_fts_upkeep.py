"""The full-text index follows the rows (issue 15, items 20-21): an embedding pass that
stops early, a resumed one, a warm server and a watcher leave no rows to a flat scan;
doctor, status and repair agree on a lag. Real LanceDB/PostgreSQL, a real embedding server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from strata.engine import Engine, upkeep
from strata.engine.doctor import check
from strata.engine.repair import repair
from strata.engine.watch import Watcher
from strata.errors import EmbedderError
from strata.index import upkeep as index_upkeep
from strata.index.upkeep import Upkeep
from strata.store import Filter, capabilities
from strata.workspace.lock import write_lock
from tests.embed_server import EmbedServer, serve

FOREVER = 10**6
TIMEOUT = 60.0


@pytest.fixture
def server() -> Iterator[EmbedServer]:
    yield from serve()


@pytest.fixture
def config(server: EmbedServer) -> dict[str, Any]:
    given = {"provider": "ollama", "base_url": server.url, "model": "test-model", "retries": 1}
    return {f"embed.{key}": value for key, value in given.items()}


@pytest.fixture
def eng(minirepo: Path, config: dict[str, Any]) -> Engine:
    engine = Engine.open(minirepo, config=config)
    engine.index()
    return engine


@pytest.fixture
def lagging(eng: Engine, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """An index whose vectors were all rewritten (as an embedding pass does), with a lag
    threshold of one row (the real one, 10k rows, takes a big corpus to pass)."""
    monkeypatch.setattr(upkeep, "LAG_ROWS", 1)
    rewrite_vectors(eng)
    return eng


def behind(eng: Engine) -> int:
    return capabilities.unindexed_rows(eng.parts.base_store)


def is_lance(eng: Engine) -> bool:
    return not eng.parts.store_uri.startswith("postgresql")


def rewrite_vectors(eng: Engine) -> int:
    """What an embedding pass does to each row: its vector set in place (one commit)."""
    store = eng.parts.base_store
    return store.set_vectors(
        {r.id: (r.content_hash, r.vector) for r in store.fetch(Filter()) if r.vector is not None}
    )


def add_docs(root: Path, words: list[str]) -> None:
    for n, word in enumerate(words):
        (root / "docs" / f"late{n}.md").write_text(f"# Late {n}\n\nAbout the {word} here.\n")


def paths_with(eng: Engine, token: str) -> set[str]:
    return {h.record.path for h in eng.search(token, k=20, mode="lexical")}


def wait_until_caught_up(eng: Engine) -> float:
    deadline = time.monotonic() + TIMEOUT
    while behind(eng) and time.monotonic() < deadline:
        time.sleep(0.1)
    return behind(eng)


@pytest.mark.usefixtures("both_stores")
def test_a_failed_embedding_pass_and_its_resumption_leave_no_row_outside_the_index(
    minirepo: Path, server: EmbedServer, eng: Engine
) -> None:
    assert behind(eng) == 0
    add_docs(minirepo, ["quetzalmarble", "obsidianferret"])
    server.faults.error_500 = FOREVER
    with pytest.raises(EmbedderError):
        eng.index()  # the new files are written lexically, then their embedding fails
    assert behind(eng) == 0  # folded in on the way out
    assert paths_with(eng, "quetzalmarble") == {"docs/late0.md"}
    server.faults.error_500 = 0
    summary = eng.index()  # no file changed; the embedding resumes and rewrites rows
    assert summary.vectors_embedded > 0
    assert behind(eng) == 0
    assert eng.status().healthy, str(eng.status().to_json())[-700:]


def test_ctrl_c_during_embedding_leaves_the_rows_written_in_the_index(
    minirepo: Path, eng: Engine
) -> None:
    add_docs(minirepo, ["lapiswombat"])

    def interrupt(phase: str, *_: object) -> None:
        if phase == "embed":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        eng.index(progress=interrupt)
    assert behind(eng) == 0
    assert paths_with(eng, "lapiswombat") == {"docs/late0.md"}


def test_folds_are_paced_by_their_cost(eng: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_upkeep, "FOLD_MIN_ROWS", 1)
    later = [0.0]
    pacer = Upkeep(eng.parts.base_store, clock=lambda: time.monotonic() + later[0])
    assert rewrite_vectors(eng) > 0 and behind(eng) > 0
    pacer.tick()
    assert pacer.folds == 1 and behind(eng) == 0 and pacer.seconds > 0
    rewrite_vectors(eng)
    pacer.tick()  # at once: the pace waits ten times the last fold's cost
    assert pacer.folds == 1 and behind(eng) > 0
    later[0] = index_upkeep.PACE * pacer.seconds + 1
    pacer.tick()
    assert pacer.folds == 2 and behind(eng) == 0


@pytest.mark.usefixtures("both_stores")
def test_a_store_maintained_on_write_is_never_behind(eng: Engine) -> None:
    assert rewrite_vectors(eng) > 0
    assert (behind(eng) > 0) == is_lance(eng)
    assert Upkeep(eng.parts.base_store).fold() == is_lance(eng)  # PostgreSQL: nothing to do
    assert behind(eng) == 0


def test_a_warm_server_folds_a_lag_in_unless_a_writer_holds_the_lock(lagging: Engine) -> None:
    eng = lagging
    lag = behind(eng)
    assert lag > 1
    assert "README.md" in paths_with(eng, "minihttp")  # the rows behind: found by a scan
    with write_lock(eng.index_dir):
        assert not upkeep.catch_up(eng.parts, wait=0.1)
    assert behind(eng) == lag  # left to the writer
    eng.keep_warm()  # `strata serve` and MCP warm up so
    assert wait_until_caught_up(eng) == 0
    assert "README.md" in paths_with(eng, "minihttp")


def test_a_watcher_started_on_a_lagging_index_folds_it_in(
    minirepo: Path, config: dict[str, Any], lagging: Engine
) -> None:
    eng = lagging
    assert behind(eng) > 1
    watcher = Watcher(Engine.open(minirepo, config=config), optimize_idle=0.1)
    stop = threading.Event()
    thread = threading.Thread(target=watcher.run, args=(stop,), daemon=True)
    thread.start()
    try:
        assert watcher.wait_ready(TIMEOUT)
        assert wait_until_caught_up(eng) == 0
    finally:
        stop.set()
        thread.join(TIMEOUT)


@pytest.mark.usefixtures("both_stores")
def test_doctor_status_and_repair_agree_on_a_lag(minirepo: Path, lagging: Engine) -> None:
    eng = lagging
    status, report = eng.status(), check(eng)
    lagging = is_lance(eng)
    assert (status.unindexed_rows > 1) == lagging
    assert status.healthy == report.healthy == (not lagging)
    assert ("lag" in {p.kind for p in report.problems}) == lagging
    fixed = repair(eng, report)
    assert fixed.backup is None  # folding rows into the index changes no row
    assert not list(minirepo.glob(".strata.bak-*"))
    assert fixed.healthy and eng.status().healthy and behind(eng) == 0
    assert eng.status().to_json()["unindexed_rows"] == 0


def test_a_second_ctrl_c_skips_the_fold_and_the_index_stays_valid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`strata index` stopped by Ctrl-C says it folds what it wrote in; a second Ctrl-C
    stops waiting for that, and the index answers (by a scan) until a later fold.

    LanceDB runs the fold in its own threads: one the second Ctrl-C found under way may
    still finish before the process is gone (a few tenths of a second), so whether rows
    are left behind is a race; that an index behind answers by a scan is
    `test_a_warm_server_folds_a_lag_in_unless_a_writer_holds_the_lock`'s."""
    root = tmp_path / "repo"
    for n in range(FILES):
        module = root / "pkg" / f"mod{n:03}.py"
        module.parent.mkdir(parents=True, exist_ok=True)
        word = "zebra" + "".join("abcdefghij"[int(d)] for d in f"{n:03}")  # 17: zebraabh
        module.write_text("".join(FUNCTION.format(n=n, i=i, word=word) for i in range(6)))
    env = {**os.environ, "STRATA_EMBED_PROVIDER": "none", "PYTHONUNBUFFERED": "1"}
    env["STRATA_INDEX_COMMIT_ROWS"] = "40"  # many commits: rows behind, a fold with work
    proc = subprocess.Popen(
        [sys.executable, "-m", "strata", "index", str(root)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        # As from a terminal: a suite run in the background inherits SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stderr is not None
    seen: list[str] = []
    try:
        _read_until(proc, seen, "indexing [")  # the full pass: the first look is written
        proc.send_signal(signal.SIGINT)
        _read_until(proc, seen, "Ctrl-C again skips it")
        proc.send_signal(signal.SIGINT)
        seen.append(proc.communicate(timeout=60)[1])
    finally:
        proc.kill()
    err = "".join(seen)
    assert proc.returncode == 130, err
    assert "fold skipped" in err and "Traceback" not in err
    eng = Engine.open(root, config={"embed.provider": "none"})
    assert paths_with(eng, "zebraabh") == {"pkg/mod017.py"}  # a valid index
    monkeypatch.setattr(upkeep, "LAG_ROWS", 1)  # the 10k rows that make it matter
    left = behind(eng)
    assert ("lag" in {p.kind for p in check(eng).problems}) == (left > 0)
    assert upkeep.catch_up(eng.parts) == (left > 0)  # what `serve`, `watch`, `doctor --repair` do
    assert behind(eng) == 0
    eng.index()  # the next run finishes what the interrupted one left
    assert behind(eng) == 0 and eng.status().healthy


FILES = 400
FUNCTION = 'def f{i}_{n}(x):\n    """The {word} function {i}."""\n    return x + {i}\n\n\n'


def _read_until(proc: subprocess.Popen[str], seen: list[str], text: str) -> None:
    """Read the process's stderr line by line until one holds `text`."""
    assert proc.stderr is not None
    for line in proc.stderr:
        seen.append(line)
        if text in line:
            return
    raise AssertionError(f"{text!r} never came: {''.join(seen)[-2000:]}")
