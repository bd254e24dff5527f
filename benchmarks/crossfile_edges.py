"""What cross-file resolution changes among the call edges of non-Python code.

`treesitter.symbols` resolves a call by its own file's definitions; `code/crossfile.py`
then resolves across files a bare call of Go (the caller's package: its directory), C (the
one function of that name with a body in the repository) or JavaScript/TypeScript (the one
relatively imported file defining it), and in any language `Type.method(...)` and `new
Type(...)` of the one type so named. This script extracts every non-Python code file of the
quality run's corpora (run `benchmarks.quality.run` once to build them; the `withdocs-`
copies are left out), counts the call edges the rules move from unresolved, and prints a
seeded sample of them to be read by hand. A JavaScript/TypeScript edge is
also checked against its file's text: `checked` when an import or `require` line names
the called name and the module it was resolved into; the others are printed.

    python -m benchmarks.crossfile_edges [--sample 30] [--seed 7] [CORPUS_DIR ...]
"""

from __future__ import annotations

import argparse
import collections
import random
import re
from pathlib import Path

from benchmarks.quality.model import CORPORA
from benchmarks.receiver_edges import code_files
from strata.index.code.crossfile import resolve_across_files
from strata.index.code.model import Edge, Symbol
from strata.index.code.treesitter import symbols

JS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts")
SKIPPED = ("py-", "withdocs-", "docs-", "devqs-")


def extracted(root: Path) -> tuple[list[Symbol], list[Edge]]:
    """Every non-Python code file's symbols and edges under `root`, each on its own."""
    syms: list[Symbol] = []
    edges: list[Edge] = []
    for rel, lang, text in code_files(root):
        s, e = symbols.extract(text, lang, rel)
        syms += s
        edges += e
    return syms, edges


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sample", type=int, default=30)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("roots", nargs="*", type=Path)
    args = p.parse_args()
    roots = args.roots or sorted(d for d in CORPORA.iterdir() if not d.name.startswith(SKIPPED))
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    checks: collections.Counter[bool] = collections.Counter()
    unchecked: list[tuple[str, ...]] = []
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
                bare = a.dst_ref.isidentifier()
                if bare and b.resolution == "resolved" and a.path.endswith(JS):
                    checks[_imported(root, a.path, a.dst_ref, b.dst_qname or "")] += 1
                    if not _imported(root, a.path, a.dst_ref, b.dst_qname or ""):
                        unchecked.append(changed[-1])
    for root in roots:
        moved = collections.Counter(c[3].split()[0] for c in changed if c[0] == root.name)
        per = {k[1]: n for k, n in counts.items() if k[0] == root.name}
        print(f"{root.name}: call edges {sum(per.values())}, {per}; now {dict(moved)}")
    bare = [c for c in changed if c[2].isidentifier()]
    typed = [c for c in changed if not c[2].isidentifier()]
    for label, rows in (("bare calls", bare), ("typed receivers and `new`", typed)):
        print(f"{label}: {len(rows)}; a sample:")
        for row in random.Random(args.seed).sample(rows, min(args.sample, len(rows))):
            print(" | ".join(row))
    print(f"JS/TS resolved: {checks[True]} checked by an import line, {checks[False]} not:")
    for row in unchecked:
        print(" | ".join(row))


def _imported(root: Path, path: str, name: str, qname: str) -> bool:
    """Whether `path`'s text imports `name` from a module whose last part `qname` holds."""
    module = qname.rsplit(".", 1)[0].rsplit(".", 1)[-1]
    text = (root / path).read_text(encoding="utf-8", errors="replace")
    spec = rf"['\"][^'\"]*?(?:/{re.escape(module)}(?:\.\w+)?|/?)['\"]"
    word = re.escape(name)
    named = rf"(?:import|export)\s*(?:type\s+)?\{{[^}}]*\b{word}\b[^}}]*\}}\s*from\s*{spec}"
    default = rf"import\s+{re.escape(name)}\b[^;\n]*from\s*{spec}"
    required = rf"\b{re.escape(name)}\b[^=\n]*=\s*require\(\s*{spec}"
    return any(re.search(p, text) for p in (named, default, required))


if __name__ == "__main__":
    main()
