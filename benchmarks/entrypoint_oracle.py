"""The entry-point oracle as a table: each real example app's live routing table or command
tree against what Strata indexed and lists (`strata entrypoints`).

    python -m benchmarks.entrypoint_oracle

Runs `tests/test_entrypoints_oracle.py` (which imports the apps from pinned sdists and
compares) and prints, per app: live entries, Strata's, both, recall and precision.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as fh:
        report = Path(fh.name)
    env = {**os.environ, "ENTRYPOINT_ORACLE_REPORT": str(report)}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_entrypoints_oracle.py",
        ],
        cwd=ROOT,
        env=env,
        check=False,
    )
    rows = [json.loads(line) for line in report.read_text().splitlines() if line.strip()]
    print("| app (test) | live | Strata | both | recall | precision |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        recall = r["both"] / r["live"] if r["live"] else 0.0
        precision = r["both"] / r["strata"] if r["strata"] else 0.0
        print(
            f"| {r['test']} | {r['live']} | {r['strata']} | {r['both']} "
            f"| {recall:.2f} | {precision:.2f} |"
        )
    report.unlink()


if __name__ == "__main__":
    main()
