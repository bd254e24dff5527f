"""The cross-file pass per branch: what keying the corpus layers' rows by branch costs,
beside deriving each branch's resolution at query time.

    python -m benchmarks.branch_corpus --package flask --main 3.1.3 --release 3.0.3

Two releases of one package (sdists from PyPI), committed as two branches of one git
repository (`main`, then `release`), indexed into one index (no embedder: rows are
counted, not vectors). Reported per run: files read, seconds, rows stored, and the rows
a branch keeps of its own because its cross-file pass (C2-C4, D2-D5) resolved a row of
a file version both branches hold otherwise (same id and file hash, other branches).
Then a checkout to a third branch equal to `main` (re-tag, then the corpus pass), and
what the other design would pay instead: the cross-file pass over a branch's artifacts,
timed, which query-time derivation would run for every lookup it could not cache.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.sdists import fetch_sdist
from strata import Engine
from strata.index.corpus import ArtifactCache, code_pass, docs_pass_of
from strata.store import Filter, capabilities

log = logging.getLogger("branch_corpus")
CONFIG = {"embed.provider": "none"}


def git(root: Path, *args: str) -> None:
    import subprocess

    cmd = ["git", "-C", str(root), "-c", "user.name=b", "-c", "user.email=b@e", *args]
    subprocess.run(cmd, check=True, capture_output=True)


def commit_tree(root: Path, source: Path, message: str) -> None:
    """Make the work tree exactly `source`'s files, and commit them."""
    for child in root.iterdir():
        if child.name not in (".git", ".strata"):  # the repository and its index stay
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    shutil.copytree(source, root, dirs_exist_ok=True)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def run(root: Path, **config: Any) -> dict[str, Any]:
    """One `strata index` of the checkout, timed."""
    eng = Engine.open(root, config={**CONFIG, **config})
    t0 = time.perf_counter()
    summary = eng.index()
    out = {
        "branch": eng.branch,
        "files_read": summary.indexed,
        "files_unchanged": summary.unchanged,
        "corpus_rewritten": summary.corpus_rewritten,
        "seconds": round(time.perf_counter() - t0, 2),
    }
    eng.close()
    log.info("%s", out)
    return out


def rows(root: Path) -> dict[str, Any]:
    """Rows stored, each branch's rows, and the rows a branch holds of its own beside
    another branch's row of the same id and file version, by layer."""
    eng = Engine.open(root, config=CONFIG)
    base = eng.parts.base_store
    table = capabilities.fetch_table(base, Filter(), ["id", "file_hash", "branches", "layer"])
    ids, hashes = table.column("id").to_pylist(), table.column("file_hash").to_pylist()
    keys = Counter(zip(ids, hashes, strict=True))
    own: Counter[str] = Counter()
    for rid, digest, layer in zip(ids, hashes, table.column("layer").to_pylist(), strict=True):
        if keys[(rid, digest)] > 1:
            own[layer] += 1
    per_branch = Counter(b for value in table.column("branches").to_pylist() for b in value.split())
    eng.close()
    return {
        "rows_stored": table.num_rows,
        "rows_per_branch": dict(per_branch),
        "rows_in_two_or_more_variants": sum(own.values()),
        "variant_rows_by_layer": dict(own),
    }


def derive_cost(root: Path, repeat: int) -> dict[str, Any]:
    """The cross-file pass over the checkout's artifacts, timed (the price of deriving a
    branch's resolution at query time, per lookup that has no cached answer)."""
    eng = Engine.open(root, config=CONFIG)
    live = {p: s.file_hash for p, s in eng.store.sources().items()}
    with ArtifactCache(eng.index_dir / "artifacts.sqlite") as cache:
        artifacts = cache.get_many(live)
    eng.close()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        code_pass(artifacts)
        docs_pass_of(artifacts)
        samples.append(time.perf_counter() - t0)
    return {
        "artifacts": len(artifacts),
        "corpus_pass_s_median": round(statistics.median(samples), 3),
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", default="flask")
    parser.add_argument("--main", default="3.1.3", help="the version committed on main")
    parser.add_argument("--release", default="3.0.3", help="the version on the release branch")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    main_src = fetch_sdist(args.package, args.main)
    release_src = fetch_sdist(args.package, args.release)
    with tempfile.TemporaryDirectory(prefix="strata-branch-corpus-") as tmp:
        root = Path(tmp) / args.package
        root.mkdir()
        git(root, "init", "-q", "-b", "main")
        commit_tree(root, main_src, args.main)
        out: dict[str, Any] = {"package": args.package, "main": args.main}
        out["release"] = args.release
        out["index_main"] = run(root, **{"store.branch": "main"})
        git(root, "checkout", "-q", "-b", "release")
        commit_tree(root, release_src, args.release)
        out["index_release"] = run(root)
        out["rows"] = rows(root)
        git(root, "checkout", "-q", "main")
        git(root, "checkout", "-q", "-b", "hotfix")  # main's files: a re-tag
        out["checkout_hotfix"] = run(root)
        out["rows_after_hotfix"] = rows(root)
        out["derive_at_query_time"] = derive_cost(root, args.repeat)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
