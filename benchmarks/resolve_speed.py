"""Python indexing cost per MB and cross-file resolution cost per 1k edges (issue 15 item 11).

    python -m benchmarks.resolve_speed [--corpus pydantic==2.10.6 --corpus mpmath==1.3.0]
        [--end-to-end]

For each pinned sdist's package directory (pydantic and mpmath are heavy on
`from .x import *` chains), in one process: CPU seconds of the per-file pass (read,
chunk, symbols, edges, entry points, records) per MB of Python, and CPU seconds of the
cross-file pass (`resolve_repository`: resolution, composition, roles) per 1k edges.
Then the same per-file figure for one generated module of simple assignments (a data
table, like a `_pb2.py`), the file shape that made the per-file walks blow up.
Also the real generated modules of two sdists (every `*_pb2.py` of
googleapis-common-protos 1.5.10 and opentelemetry-proto 1.11.1: protoc's output).
`--end-to-end` adds, for the generated module, the `_pb2.py` set and each corpus's
package, a whole `strata index --embedder none --workers 1` in a child process: its CPU
seconds per MB (store writes and the corpus pass included) and its peak RSS.
CPU time, not wall time: the machine is shared, wall figures would be noise.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.sdists import fetch_sdist
from strata.config import load_config
from strata.index.corpus.code import resolve_repository
from strata.index.discovery import discover
from strata.index.pipeline import process_file

DEFAULT = ("pydantic==2.10.6", "mpmath==1.3.0")
PB2 = ("googleapis-common-protos==1.5.10", "opentelemetry-proto==1.11.1")


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


def pb2_modules(work: Path) -> Path:
    """Every `*_pb2.py` of the PB2 sdists, under their own paths in one directory."""
    root = work / "pb2"
    for spec in PB2:
        name, version = spec.split("==")
        tree = fetch_sdist(name, version)
        for src in sorted(tree.rglob("*_pb2.py")):
            dest = root / name / src.relative_to(tree)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
    return root


def end_to_end(root: Path, fixed: float = 0.0) -> dict[str, float]:
    """CPU s/MB and peak RSS of a whole `strata index` of `root` in a child process;
    `fixed` is the CPU a run costs whatever it indexes (imports, opening the store),
    left out of `s_per_mb`."""
    size = sum(p.stat().st_size for p in root.rglob("*.py"))
    shutil.rmtree(root / ".strata", ignore_errors=True)
    cmd = [sys.executable, "-m", "strata", "index", str(root)]
    cmd += ["--embedder", "none", "--workers", "1", "-q"]
    child = subprocess.Popen(cmd)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        raise SystemExit(f"strata index failed on {root} ({status})")
    cpu = usage.ru_utime + usage.ru_stime
    return {
        "mb": round(size / 1e6, 3),
        "cpu_s": round(cpu, 2),
        "s_per_mb": round((cpu - fixed) / (size / 1e6), 2),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", action="append", help="name==version (repeatable)")
    parser.add_argument("--end-to-end", action="store_true", help="also whole index runs")
    args = parser.parse_args()
    out: dict[str, object] = {}
    packages = {}
    for spec in args.corpus or DEFAULT:
        name, version = spec.split("==")
        packages[spec] = fetch_sdist(name, version) / name
        out[spec] = measure(packages[spec])
    per_file = ("files", "mb", "per_file_cpu_s", "s_per_mb")
    with tempfile.TemporaryDirectory(prefix="strata-resolve-") as work:
        gen_root, pb2_root = generated_module(Path(work)), pb2_modules(Path(work))
        gen, pb2 = measure(gen_root), measure(pb2_root)
        out["generated 40k-line module"] = {k: gen[k] for k in per_file}
        out["_pb2.py modules"] = {k: pb2[k] for k in per_file}
        if args.end_to_end:
            tiny = Path(work) / "tiny"
            tiny.mkdir()
            (tiny / "one.py").write_text("ONE = 1\n")
            fixed = end_to_end(tiny)["cpu_s"]
            out["fixed CPU s of a run (one 8-byte module)"] = fixed
            out["generated 40k-line module, whole index"] = end_to_end(gen_root, fixed)
            out["_pb2.py modules, whole index"] = end_to_end(pb2_root, fixed)
            for spec, package in packages.items():  # normal modules: a copy, indexed whole
                copy = shutil.copytree(package, Path(work) / spec)
                out[f"{spec}, whole index"] = end_to_end(copy, fixed)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
