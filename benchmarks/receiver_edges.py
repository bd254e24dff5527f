"""What the receiver rule changes among the resolved call edges of non-Python code.

`treesitter.symbols` resolves a call by the same-file definitions of its name; a call
written with a capitalised receiver (`JSON.parse`, `Convert.ToDouble`, `Box::new`) keeps
only those of a type so named. This script extracts every file of the quality run's
non-Python corpora (run `benchmarks.quality.run` once to build them) with and without that
rule, counts the call edges whose resolution or target changes, and prints a seeded
sample of them to be read by hand.

    python -m benchmarks.receiver_edges [--sample 40] [--seed 7] [CORPUS_DIR ...]
"""

from __future__ import annotations

import argparse
import collections
import random
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

from benchmarks.quality.model import CORPORA
from strata.index.code.treesitter import symbols
from strata.text.langs import language_of_text

MAX_BYTES = 400_000


def code_files(root: Path) -> Iterator[tuple[str, str, str]]:
    """(path, language, text) of every non-Python file under `root` a tag query reads."""
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.stat().st_size > MAX_BYTES:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(root).as_posix()
        lang = language_of_text(rel, text)
        if lang and lang != "python" and symbols.reads(lang):
            yield rel, lang, text


def changed_edges(root: Path) -> tuple[int, list[tuple[str, ...]]]:
    """The resolved call edges under `root` without the rule, and the edges it changes."""
    resolved, changed = 0, []
    for rel, lang, text in code_files(root):
        with mock.patch.object(symbols, "_owned_by_receiver", lambda ref, targets: targets):
            _, before = symbols.extract(text, lang, rel)
        _, after = symbols.extract(text, lang, rel)
        for a, b in zip(before, after, strict=True):
            if a.edge_type != "calls":
                continue
            resolved += a.resolution == "resolved"
            if (a.resolution, a.dst_qname) != (b.resolution, b.dst_qname):
                was = f"{a.resolution} {a.dst_qname or ''}".strip()
                now = f"{b.resolution} {b.dst_qname or ''}".strip()
                changed.append((lang, f"{rel}:{a.line}", a.dst_ref, was, now))
    return resolved, changed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sample", type=int, default=40)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("roots", nargs="*", type=Path)
    args = p.parse_args()
    roots = args.roots or sorted(d for d in CORPORA.iterdir() if not d.name.startswith("py-"))
    resolved, changed = 0, []
    for root in roots:
        n, found = changed_edges(root)
        resolved, changed = resolved + n, changed + found
    print(f"resolved call edges without the rule: {resolved}; changed by it: {len(changed)}")
    kinds = collections.Counter((c[0], c[3].split()[0], c[4].split()[0]) for c in changed)
    for (lang, was, now), n in kinds.most_common():
        print(f"  {lang}: {was} -> {now}: {n}")
    for row in random.Random(args.seed).sample(changed, min(args.sample, len(changed))):
        print(" | ".join(row))


if __name__ == "__main__":
    main()
