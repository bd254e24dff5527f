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
