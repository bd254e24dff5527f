"""Kill `strata index` with SIGKILL at a random moment and check the index is consistent.

Used by tests/test_crash.py (a handful of trials) and benchmarks/crash_trials.py (≥ 50).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from strata import Engine
from strata.config import load_config
from strata.index.extraction import extract
from strata.index.pipeline import build_records
from strata.types import Extracted, SourceFile, bytes_hash

TEMPLATE = '''"""Module {i} of the crash corpus (version {v})."""


def compute_{i}(x: int) -> int:
    """Return x scaled by {i} (version {v})."""
    total = 0
    for step in range({i} % 7 + 3):
        total += x * step + {v}
    return total


class Widget{i}:
    """A widget numbered {i}."""

    def render(self) -> str:
        return "widget {i} v{v}"

    def size(self) -> int:
        return {i} * {v}
'''


def write_version(root: Path, files: int, version: int, changed: set[int] | None = None) -> None:
    """Write the corpus; with `changed`, only those module numbers get the new version."""
    for i in range(files):
        if changed is not None and i not in changed:
            continue
        path = root / f"pkg{i % 10}" / f"mod{i}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        extra = "\n".join(f"# filler line {j} v{version}" for j in range((i * version) % 40))
        path.write_text(TEMPLATE.format(i=i, v=version) + extra + "\n")


@dataclass(frozen=True)
class Verdict:
    """Outcome of one consistency check."""

    consistent: bool
    problems: tuple[str, ...]
    rows: int


def expected_rows(text: str, rel: str) -> tuple[str, set[tuple[str, str]]]:
    """The file hash and the (id, content_hash) set a clean index would hold for a text."""
    data = text.encode()
    doc = extract_text(rel, data)
    cfg = load_config(None, {"embed.provider": "none"})
    return bytes_hash(data), {(r.id, r.content_hash) for r in build_records(doc, cfg)[0]}


def extract_text(rel: str, data: bytes) -> Extracted:
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"strata-crash-{os.getpid()}" / rel
    tmp.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_bytes(data)
    st = tmp.stat()
    got = extract(SourceFile(tmp, rel, st.st_size, st.st_mtime_ns))
    assert isinstance(got, Extracted), got
    return got


def check(index_dir: Path, versions: dict[str, list[str]]) -> Verdict:
    """Every indexed file's rows equal exactly one known version; no orphans, no duplicates."""
    eng = Engine.open(index_dir=index_dir, config={"embed.provider": "none"})
    rows = eng.records()
    problems: list[str] = []
    ids = [r.id for r in rows]
    if len(ids) != len(set(ids)):
        problems.append(f"{len(ids) - len(set(ids))} duplicate row ids")
    by_path: dict[str, set[tuple[str, str]]] = defaultdict(set)
    hashes: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        by_path[r.path].add((r.id, r.content_hash))
        hashes[r.path].add(r.file_hash)
    for path, got in by_path.items():
        if path not in versions:
            problems.append(f"orphan rows for {path}")
            continue
        if len(hashes[path]) != 1:
            problems.append(f"{path}: rows from {len(hashes[path])} versions")
            continue
        options = [expected_rows(text, path) for text in versions[path]]
        if not any(h in hashes[path] and rowset == got for h, rowset in options):
            problems.append(f"{path}: rows match no version of the file")
    eng.close()
    return Verdict(not problems, tuple(problems), len(rows))


def snapshot(index_dir: Path) -> set[tuple[str, str, str, str]]:
    """(id, content_hash, file_hash, metadata) of every row: the metadata carries what only
    the cross-file pass decides (an edge's resolution, a role's fan-in)."""
    eng = Engine.open(index_dir=index_dir, config={"embed.provider": "none"})
    try:
        return {
            (r.id, r.content_hash, r.file_hash, json.dumps(dict(r.metadata), sort_keys=True))
            for r in eng.records()
        }
    finally:
        eng.close()


def index_cmd(root: Path, index_dir: Path, *extra: str) -> list[str]:
    """The CLI command line that indexes `root` lexically into `index_dir`."""
    return [
        sys.executable,
        "-m",
        "strata",
        "index",
        str(root),
        "--index-dir",
        str(index_dir),
        "--embedder",
        "none",
        "-q",
        *extra,
    ]


def trial(work: Path, seed: int, files: int = 120) -> tuple[Verdict, bool]:
    """One kill -9 trial: returns the check right after the kill and whether a rerun converged."""
    rng = random.Random(seed)
    root, idx, clean = work / "repo", work / "idx", work / "clean"
    for d in (root, idx, clean):
        shutil.rmtree(d, ignore_errors=True)
    write_version(root, files, 1)
    subprocess.run(index_cmd(root, idx), check=True)
    time.sleep(0.05)
    changed = set(rng.sample(range(files), files // 2))
    old = {
        f"pkg{i % 10}/mod{i}.py": (root / f"pkg{i % 10}/mod{i}.py").read_text()
        for i in range(files)
    }
    write_version(root, files, 2, changed)
    deleted = rng.sample(sorted(changed), 3)
    for i in deleted:
        (root / f"pkg{i % 10}/mod{i}.py").unlink()
    versions = {p: [t] for p, t in old.items()}
    for i in changed:
        p = f"pkg{i % 10}/mod{i}.py"
        if (root / p).exists():
            versions[p].append((root / p).read_text())
    proc = subprocess.Popen(
        index_cmd(root, idx, "--full") if seed % 4 == 0 else index_cmd(root, idx)
    )
    time.sleep(rng.uniform(0.3, 2.5))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    verdict = check(idx, versions)
    subprocess.run(index_cmd(root, idx), check=True)
    subprocess.run(index_cmd(root, clean), check=True)
    return verdict, snapshot(idx) == snapshot(clean)
