"""Python indexing cost per MB and cross-file resolution cost per 1k edges (issue 15 item 11).

    python -m benchmarks.resolve_speed [--corpus pydantic==2.10.6 --corpus mpmath==1.3.0]

For each pinned sdist's package directory (pydantic and mpmath are heavy on
`from .x import *` chains), in one process: CPU seconds of the per-file pass (read,
chunk, symbols, edges, entry points, records) per MB of Python, and CPU seconds of the
cross-file pass (`resolve_repository`: resolution, composition, roles) per 1k edges.
Then the same per-file figure for one generated module of simple assignments (a data
table, like a `_pb2.py`), the file shape that made the per-file walks blow up.
CPU time, not wall time: the machine is shared, wall figures would be noise.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from benchmarks.sdists import fetch_sdist
from strata.config import load_config
from strata.index.corpus.code import resolve_repository
from strata.index.discovery import discover
from strata.index.pipeline import process_file

DEFAULT = ("pydantic==2.10.6", "mpmath==1.3.0")


def measure(root: Path) -> dict[str, float | int]:
    """Per-file and cross-file CPU costs of the Python files under `root`."""
    cfg = load_config(None, {"embed.provider": "none"})
    files = [f for f in discover(root, cfg.index).files if f.rel.endswith(".py")]
    size = sum(f.size for f in files)
    start = time.process_time()
    artifacts = {}
    for f in files:
        outcome = process_file(f, cfg)
        if outcome.artifact is not None:
            artifacts[f.rel] = outcome.artifact
    per_file = time.process_time() - start
    start = time.process_time()
    graph = resolve_repository(artifacts)
    cross = time.process_time() - start
    edges = len(graph.edges)
    return {
        "files": len(files),
        "mb": round(size / 1e6, 3),
        "per_file_cpu_s": round(per_file, 2),
        "s_per_mb": round(per_file / (size / 1e6), 2),
        "edges": edges,
        "cross_file_cpu_s": round(cross, 3),
        "s_per_1k_edges": round(cross / (edges / 1000), 4) if edges else 0.0,
    }


def generated_module(work: Path, lines: int = 40_000) -> Path:
    """One module of `VALUE_i = i * 7` lines (0.8 MB at 40k lines)."""
    root = work / "generated"
    root.mkdir()
    body = "\n".join(f"VALUE_{i} = {i * 7}" for i in range(lines))
    (root / "table.py").write_text(body + "\n")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", action="append", help="name==version (repeatable)")
    args = parser.parse_args()
    out: dict[str, object] = {}
    for spec in args.corpus or DEFAULT:
        name, version = spec.split("==")
        package = fetch_sdist(name, version) / name
        out[spec] = measure(package)
    with tempfile.TemporaryDirectory(prefix="strata-resolve-") as work:
        gen = measure(generated_module(Path(work)))
    out["generated 40k-line module"] = {k: gen[k] for k in ("mb", "per_file_cpu_s", "s_per_mb")}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
