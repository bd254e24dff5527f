"""How long `strata doctor` (check, and a deep check) takes on an index of about 30k rows.

.venv/bin/python -m benchmarks.doctor_speed --files 3000
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
from pathlib import Path

from tests.crash_harness import write_version

from strata.engine import Engine
from strata.engine.doctor import check

log = logging.getLogger("benchmarks.doctor_speed")


def main() -> None:
    """Build the corpus and index once, then time `check` (sampled and deep)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=3000)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("strata").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="strata-doctor-") as tmp:
        root = Path(tmp) / "repo"
        write_version(root, args.files, 1)
        eng = Engine.open(root, config={"embed.provider": "none"})
        t0 = time.perf_counter()
        eng.index()
        built = time.perf_counter() - t0
        t0 = time.perf_counter()
        report = check(eng)
        quick = time.perf_counter() - t0
        t0 = time.perf_counter()
        deep = check(eng, deep=True)
        deep_s = time.perf_counter() - t0
    out = {
        "files": args.files,
        "rows": report.stats["rows"],
        "index_s": round(built, 1),
        "check_s": round(quick, 2),
        "deep_check_s": round(deep_s, 2),
        "healthy": report.healthy and deep.healthy,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
