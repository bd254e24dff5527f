"""What cross-file resolution of Go's and C's bare calls changes among call edges.

`treesitter.symbols` resolves a call by its own file's definitions; `code/crossfile.py`
then resolves a bare call of Go (the caller's package: its directory) or C (the one
function of that name with a body in the repository) across files. This script extracts
every Go and C file of the quality run's corpora (run `benchmarks.quality.run` once to
build them; the `withdocs-` copies are left out), counts the call edges that rule moves
from unresolved, and prints a seeded sample of them to be read by hand.

    python -m benchmarks.crossfile_edges [--sample 30] [--seed 7] [CORPUS_DIR ...]
"""

from __future__ import annotations

import argparse
import collections
import random
from pathlib import Path

from benchmarks.quality.model import CORPORA
from strata.index.code.crossfile import resolve_across_files
from strata.index.code.model import Edge, Symbol
from strata.index.code.treesitter import symbols
from strata.text.langs import language_of_text

MAX_BYTES = 400_000
LANGS = ("go", "c")


def extracted(root: Path) -> tuple[list[Symbol], list[Edge]]:
    """Every Go and C file's symbols and edges under `root`, each file on its own."""
    syms: list[Symbol] = []
    edges: list[Edge] = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.stat().st_size > MAX_BYTES:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(root).as_posix()
        if language_of_text(rel, text) in LANGS:
            s, e = symbols.extract(text, language_of_text(rel, text) or "", rel)
            syms += s
            edges += e
    return syms, edges


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sample", type=int, default=30)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("roots", nargs="*", type=Path)
    args = p.parse_args()
    roots = args.roots or sorted(d for d in CORPORA.iterdir() if d.name.startswith(LANGS))
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    changed: list[tuple[str, ...]] = []
    for root in roots:
        syms, before = extracted(root)
        after = resolve_across_files(before, syms)
        for a, b in zip(before, after, strict=True):
            if a.edge_type != "calls":
                continue
            counts[(root.name, a.resolution)] += 1
            if a.resolution != b.resolution:
                now = f"{b.resolution} {b.dst_qname or ' '.join(b.candidates)}"
                changed.append((root.name, f"{a.path}:{a.line}", a.dst_ref, now))
    for root in roots:
        moved = collections.Counter(c[3].split()[0] for c in changed if c[0] == root.name)
        per = {k[1]: n for k, n in counts.items() if k[0] == root.name}
        print(f"{root.name}: call edges {sum(per.values())}, {per}; now {dict(moved)}")
    for row in random.Random(args.seed).sample(changed, min(args.sample, len(changed))):
        print(" | ".join(row))


if __name__ == "__main__":
    main()
