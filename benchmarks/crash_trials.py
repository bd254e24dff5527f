"""Run the kill -9 crash trial many times: count inconsistent and non-converging runs.

.venv/bin/python -m benchmarks.crash_trials --trials 50
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
from pathlib import Path

from tests.crash_harness import trial

log = logging.getLogger("benchmarks.crash_trials")


def main() -> None:
    """Run seeds 0..N-1 and print one JSON summary line on stdout."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    inconsistent: list[int] = []
    diverged: list[int] = []
    started = time.monotonic()
    for seed in range(args.first_seed, args.first_seed + args.trials):
        with tempfile.TemporaryDirectory(prefix="strata-crash-") as work:
            verdict, converged = trial(Path(work), seed)
        if not verdict.consistent:
            inconsistent.append(seed)
            log.warning("seed %d inconsistent: %s", seed, "; ".join(verdict.problems[:3]))
        if not converged:
            diverged.append(seed)
            log.warning("seed %d did not converge", seed)
        log.info(
            "seed %d: consistent=%s converged=%s rows=%d",
            seed,
            verdict.consistent,
            converged,
            verdict.rows,
        )
    summary = {
        "trials": args.trials,
        "inconsistent": len(inconsistent),
        "not_converged": len(diverged),
        "inconsistent_seeds": inconsistent,
        "not_converged_seeds": diverged,
        "seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
