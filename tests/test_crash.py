"""kill -9 during `strata index` never leaves a half-written file, and the next run converges."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.crash_harness import trial


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_sigkill_mid_index_leaves_whole_files_and_rerun_converges(
    tmp_path: Path, seed: int
) -> None:
    verdict, converged = trial(tmp_path, seed)
    assert verdict.consistent, verdict.problems
    assert converged


# Index in a child process that kills itself (SIGKILL) right after the cross-file pass
# wrote its first batch: the moment the issue reproduced by timing a kill into `--full`.
KILL_IN_CORPUS_PASS = r"""
import os, signal, sys
import strata.index.corpus.apply as apply
from strata import Engine
from strata.index.corpus.cache import ArtifactCache
apply._batches.__defaults__ = (5,)  # several commits, so the kill falls between two
real = ArtifactCache.put_digests
def put_then_die(self, digests):
    real(self, digests)
    os.kill(os.getpid(), signal.SIGKILL)
ArtifactCache.put_digests = put_then_die
eng = Engine.open(sys.argv[1], index_dir=sys.argv[2], config={"embed.provider": "none"})
eng.index(full=True)
"""


def test_a_kill_in_the_cross_file_pass_is_noticed_and_the_next_run_finishes_it(
    tmp_path: Path,
) -> None:
    import subprocess
    import sys

    from strata import Engine
    from tests.crash_harness import index_cmd, snapshot, write_version

    root, idx, clean = tmp_path / "repo", tmp_path / "idx", tmp_path / "clean"
    write_version(root, 40, 1)
    # cross-file calls: what only the cross-file pass resolves (C2) and counts (C4 fan-in)
    imports = "".join(f"from pkg{i % 10}.mod{i} import compute_{i}, Widget{i}\n" for i in range(40))
    calls = "".join(f"    compute_{i}(x)\n    Widget{i}().render()\n" for i in range(40))
    (root / "use.py").write_text(imports + "\n\ndef use_all(x):\n" + calls)
    subprocess.run(index_cmd(root, idx), check=True, timeout=300)
    killed = subprocess.run(
        [sys.executable, "-c", KILL_IN_CORPUS_PASS, str(root), str(idx)], timeout=300
    )
    assert killed.returncode == -9
    eng = Engine.open(index_dir=idx, config={"embed.provider": "none"})
    status = eng.status().to_json()
    assert status["corpus_unfinished"] and not status["healthy"]
    from strata.engine.doctor import check

    assert "corpus" in {p.kind for p in check(eng).problems}
    eng.close()
    subprocess.run(index_cmd(root, idx), check=True, timeout=300)
    subprocess.run(index_cmd(root, clean), check=True, timeout=300)
    assert snapshot(idx) == snapshot(clean)
    eng = Engine.open(index_dir=idx, config={"embed.provider": "none"})
    assert not eng.status().to_json()["corpus_unfinished"]


def test_a_full_disk_is_one_line_and_the_next_run_finishes(tmp_path: Path) -> None:
    import subprocess

    from tests.crash_harness import index_cmd, write_version

    root, idx = tmp_path / "repo", tmp_path / "idx"
    write_version(root, 5, 1)
    subprocess.run(index_cmd(root, idx), check=True, timeout=300)
    write_version(root, 5, 2)
    # the kernel's own ENOSPC: the locator's temporary file now leads to /dev/full
    (idx / "index.json.tmp").symlink_to("/dev/full")
    full = subprocess.run(index_cmd(root, idx), capture_output=True, text=True, timeout=300)
    assert full.returncode == 2
    assert "Traceback" not in full.stderr
    assert "No space left on device" in full.stderr.splitlines()[0]
    (idx / "index.json.tmp").unlink()
    again = subprocess.run(index_cmd(root, idx), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr


# A first index stopped (SIGKILL) right after its first batch of files reached the store.
KILL_AFTER_FIRST_BATCH = r"""
import os, signal, sys
from strata import Engine
from strata.store.lance import LanceStore
original = LanceStore.replace_sources
def write_then_die(self, *args, **kwargs):
    original(self, *args, **kwargs)
    os.kill(os.getpid(), signal.SIGKILL)
LanceStore.replace_sources = write_then_die
cfg = {"embed.provider": "none", "index.commit_rows": 50}  # several batches
eng = Engine.open(sys.argv[1], index_dir=sys.argv[2], config=cfg)
eng.index()
"""


def test_a_first_index_stopped_midway_reads_only_the_files_it_did_not_write(
    tmp_path: Path,
) -> None:
    import json
    import subprocess
    import sys

    from strata import Engine
    from tests.crash_harness import index_cmd, write_version

    root, idx = tmp_path / "repo", tmp_path / "idx"
    write_version(root, 120, 1)
    killed = subprocess.run(
        [sys.executable, "-c", KILL_AFTER_FIRST_BATCH, str(root), str(idx)], timeout=300
    )
    assert killed.returncode == -9
    with Engine.open(index_dir=idx, config={"embed.provider": "none"}) as eng:
        written = len(eng.store.sources())
        pending = eng.status().files_pending
    assert 0 < written < 120
    assert pending == 120 - written  # not every file: those written are chunked this way
    done = subprocess.run([*index_cmd(root, idx), "--json"], capture_output=True, timeout=300)
    summary = json.loads(done.stdout)
    assert summary["reread"] == 0 and summary["unchanged"] == written
    assert summary["indexed"] == 120 - written
