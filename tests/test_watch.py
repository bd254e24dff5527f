"""The watcher: the pure last-intent-wins queue, and the daemon on real inotify and a real index."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from strata.engine import Engine
from strata.engine.watch import Update, Watcher
from strata.index.events import Event, Intent, WorkQueue, intents_for

pytestmark = pytest.mark.usefixtures("both_stores")

LEXICAL = {"embed.provider": "none"}
TIMEOUT = 60.0


# ---- the pure queue ---------------------------------------------------------------------------
def test_last_intent_per_path_wins_and_batches_come_oldest_first() -> None:
    q = WorkQueue()
    q.push_event(Event("created", "a.py"))
    q.push_event(Event("modified", "b.py"))
    q.push_event(Event("deleted", "a.py"))
    assert q.take(10) == {"b.py": Intent.INDEX, "a.py": Intent.REMOVE}
    assert len(q) == 0


def test_move_removes_the_source_and_indexes_the_destination() -> None:
    assert intents_for(Event("moved", "old/x.py", False, "new/x.py")) == [
        ("old/x.py", Intent.REMOVE),
        ("new/x.py", Intent.INDEX),
    ]


def test_atomic_save_collapses_to_one_index_of_the_target() -> None:
    q = WorkQueue()
    q.push_event(Event("created", "notes.md.tmp123"))
    q.push_event(Event("modified", "notes.md.tmp123"))
    q.push_event(Event("moved", "notes.md.tmp123", False, "notes.md"))
    assert q.take(10) == {"notes.md.tmp123": Intent.REMOVE, "notes.md": Intent.INDEX}


def test_editor_swap_files_are_noise_but_backups_are_not() -> None:
    assert intents_for(Event("created", "src/.a.py.swp")) == []
    assert intents_for(Event("created", "src/4913")) == []
    assert intents_for(Event("created", "a.py~")) == [("a.py~", Intent.INDEX)]
    assert intents_for(Event("modified", "src", True)) == []


def test_put_back_never_overrides_a_newer_intent() -> None:
    q = WorkQueue()
    q.push("a.py", Intent.INDEX)
    q.push("b.py", Intent.INDEX)
    batch = q.take(2)
    q.push("a.py", Intent.REMOVE)
    q.put_back(batch)
    assert q.peek() == {"a.py": Intent.REMOVE, "b.py": Intent.INDEX}


def test_take_respects_the_limit() -> None:
    q = WorkQueue()
    q.extend((f"f{i}.py", Intent.INDEX) for i in range(25))
    assert list(q.take(10)) == [f"f{i}.py" for i in range(10)]
    assert len(q) == 15


# ---- the daemon -------------------------------------------------------------------------------
def wait_for(cond: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Running:
    """A watcher running in a thread, plus a reader engine of its own."""

    def __init__(self, root: Path, **kw: object) -> None:
        self.updates: list[Update] = []
        self.engine = Engine.open(root, config=LEXICAL)
        self.watcher = Watcher(self.engine, on_update=self.updates.append, **kw)  # type: ignore[arg-type]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.watcher.run, args=(self.stop,), daemon=True)
        self.thread.start()
        assert self.watcher.wait_ready(TIMEOUT)
        self.reader = Engine.open(index_dir=self.engine.index_dir, config=LEXICAL)

    def paths_with(self, token: str) -> set[str]:
        return {h.record.path for h in self.reader.search(token, k=50, mode="lexical")}

    def sources(self) -> dict[str, int]:
        return {p: s.rows for p, s in self.reader.store.sources().items()}

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()


@pytest.fixture
def watched(minirepo: Path) -> Iterator[Running]:
    Engine.open(minirepo, config=LEXICAL).index()
    run = Running(minirepo)
    yield run
    run.close()


def test_create_modify_delete_follow_the_disk(watched: Running, minirepo: Path) -> None:
    f = minirepo / "src" / "minihttp" / "fresh.py"
    f.write_text("def zanzibarquux():\n    return 1\n")
    wait_for(lambda: watched.paths_with("zanzibarquux") == {"src/minihttp/fresh.py"}, "create")
    f.write_text("def ottomanplover():\n    return 2\n")
    wait_for(lambda: watched.paths_with("ottomanplover") == {"src/minihttp/fresh.py"}, "modify")
    assert watched.paths_with("zanzibarquux") == set()
    f.unlink()
    wait_for(lambda: "src/minihttp/fresh.py" not in watched.sources(), "delete")
    # the update line is reported just after the commit that removed the rows
    wait_for(
        lambda: any(u.path == "src/minihttp/fresh.py" and u.chunks == 0 for u in watched.updates),
        "delete reported",
    )


def test_atomic_saves_of_editors_leave_only_the_real_file(watched: Running, minirepo: Path) -> None:
    target = minirepo / "docs" / "guide.md"
    tmp = minirepo / "docs" / ".guide.md.tmp42"
    tmp.write_text("# Guide\n\nThe pelicanvortex setting.\n")
    os.replace(tmp, target)  # write-temp-then-rename
    wait_for(lambda: watched.paths_with("pelicanvortex") == {"docs/guide.md"}, "rename save")
    # vim's way: swap file, backup by rename, write anew, drop the backup
    swap = minirepo / "docs" / ".guide.md.swp"
    swap.write_bytes(b"b0VIM 9.0\x00\x00\x00")
    os.rename(target, minirepo / "docs" / "guide.md~")
    target.write_text("# Guide\n\nThe marmosetlantern setting.\n")
    (minirepo / "docs" / "guide.md~").unlink()
    swap.unlink()
    wait_for(lambda: watched.paths_with("marmosetlantern") == {"docs/guide.md"}, "vim save")
    assert watched.paths_with("pelicanvortex") == set()
    assert not any(p.endswith(("~", ".swp")) or "tmp42" in p for p in watched.sources())


def test_directory_moves_carry_their_files(watched: Running, minirepo: Path) -> None:
    before = {p for p in watched.sources() if p.startswith("src/minihttp/")}
    os.rename(minirepo / "src" / "minihttp", minirepo / "src" / "renamedpkg")
    want = {p.replace("src/minihttp/", "src/renamedpkg/") for p in before}
    wait_for(lambda: want <= set(watched.sources()), "moved files indexed")
    wait_for(
        lambda: not any(p.startswith("src/minihttp/") for p in watched.sources()), "old rows gone"
    )


def test_ignore_file_changes_apply_live(watched: Running, minirepo: Path) -> None:
    assert "docs/notes.txt" in watched.sources()
    (minirepo / ".gitignore").write_text("notes.txt\n")
    wait_for(lambda: "docs/notes.txt" not in watched.sources(), "newly ignored file dropped")
    (minirepo / "docs" / "later.txt").write_text("the quokkaharbour file\n")
    (minirepo / "docs" / "notes.txt").write_text("an ignored edit of narwhalbeacon\n")
    wait_for(lambda: watched.paths_with("quokkaharbour") == {"docs/later.txt"}, "sibling indexed")
    assert watched.paths_with("narwhalbeacon") == set()
    (minirepo / ".gitignore").unlink()
    wait_for(lambda: watched.paths_with("narwhalbeacon") == {"docs/notes.txt"}, "un-ignored again")


def test_changes_made_while_down_are_caught_on_start(minirepo: Path) -> None:
    Engine.open(minirepo, config=LEXICAL).index()
    (minirepo / "docs" / "notes.txt").unlink()
    (minirepo / "docs" / "offline.md").write_text(
        "# Offline\n\nwritten while the ibexlighthouse slept\n"
    )
    run = Running(minirepo)  # wait_ready: the reconcile has been applied
    try:
        assert "docs/notes.txt" not in run.sources()
        assert run.paths_with("ibexlighthouse") == {"docs/offline.md"}
    finally:
        run.close()


def test_an_index_chunked_another_way_is_read_again_on_start(minirepo: Path) -> None:
    Engine.open(minirepo, config=LEXICAL).index()
    meta = minirepo / ".strata" / "index.json"
    locator = json.loads(meta.read_text())
    meta.write_text(json.dumps({**locator, "chunking": "an-older-strata"}))
    run = Running(minirepo)  # wait_ready: the reconcile has been applied
    try:
        assert json.loads(meta.read_text())["chunking"] == locator["chunking"]
        assert run.sources() and run.reader.status().files_pending == 0
    finally:
        run.close()


def test_a_burst_is_applied_in_a_few_batches(watched: Running, minirepo: Path) -> None:
    start = watched.watcher.batches
    burst = minirepo / "burst"
    burst.mkdir()
    for i in range(400):
        (burst / f"m{i}.py").write_text(f"def burstfn{i}():\n    return {i}\n")
    wait_for(lambda: sum(p.startswith("burst/") for p in watched.sources()) == 400, "burst indexed")
    assert watched.watcher.batches - start < 40


def test_stop_is_honoured_between_batches(minirepo: Path) -> None:
    Engine.open(minirepo, config=LEXICAL).index()
    run = Running(minirepo)
    run.stop.set()
    run.thread.join(timeout=10)
    assert not run.thread.is_alive()


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 0), (signal.SIGINT, 130)])
def test_the_cli_watcher_stops_cleanly_on_a_signal(
    minirepo: Path, sig: signal.Signals, code: int
) -> None:
    subprocess.run(
        [sys.executable, "-m", "strata", "index", str(minirepo), "--embedder", "none", "-q"],
        check=True,
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "strata", "watch", str(minirepo), "--embedder", "none"],
        stderr=subprocess.PIPE,
        text=True,
        # As from a terminal: a suite run in the background inherits SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stderr is not None
    seen: list[str] = []
    for line in proc.stderr:  # wait until it watches
        seen.append(line)
        if line.startswith("watching"):
            break
    (minirepo / "docs" / "new.md").write_text("# New\n\nquokkaharbour notes\n")
    for line in proc.stderr:  # and until it reports the update
        seen.append(line)
        if line.startswith("docs/new.md"):
            break
    proc.send_signal(sig)
    assert proc.wait(timeout=10) == code, "".join(seen)
    proc.stderr.close()
    eng = Engine.open(minirepo, config={"embed.provider": "none"})
    assert {h.record.path for h in eng.search("quokkaharbour", route=False)} == {"docs/new.md"}
