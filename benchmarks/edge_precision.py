"""Precision of resolved `calls` edges (C2) on a real package, for checking by hand.

Indexes click's sources from its PyPI sdist, samples resolved call edges with a fixed
seed and prints each with the calling line and the target's definition line. Verdicts
checked by a person live in `edge_precision_checked.json` (edge_id -> true/false);
with `--score` the script prints the precision over the checked edges.

    python -m benchmarks.edge_precision [--n 100] [--seed 7] [--score]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from benchmarks.sdists import fetch_sdist
from strata.index.code.model import Edge, Symbol
from strata.index.code.params import through_parameters
from strata.index.code.python.edges import extract_edges, module_scope
from strata.index.code.python.symbols import extract_symbols
from strata.index.code.resolve import build_table, resolve_edges

CHECKED = Path(__file__).with_name("edge_precision_checked.json")


def resolved_calls(root: Path) -> tuple[list[Edge], dict[str, Symbol], dict[str, list[str]]]:
    """Every resolved `calls` edge of the package under `root/src`, its symbols and lines."""
    symbols, scopes, edges, lines = [], [], [], {}
    for file in sorted((root / "src").rglob("*.py")):
        rel = file.relative_to(root).as_posix()
        text = file.read_text(encoding="utf-8")
        lines[rel] = text.splitlines()
        found = extract_symbols(text, rel)
        symbols += found
        scopes.append(module_scope(text, rel))
        edges += extract_edges(text, rel, found)
    table = build_table(symbols, scopes)
    calls = [
        e
        for e in through_parameters(resolve_edges(edges, table), table)
        if e.edge_type == "calls" and e.resolution == "resolved"
    ]
    return calls, {s.symbol_id: s for s in symbols}, lines


def main() -> None:
    """Print the sample (or the score) on stdout."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--score", action="store_true")
    args = parser.parse_args()
    root = fetch_sdist("click", "8.1.8")
    calls, symbols, lines = resolved_calls(root)
    sample = random.Random(args.seed).sample(calls, min(args.n, len(calls)))
    if args.score:
        verdicts = json.loads(CHECKED.read_text()) if CHECKED.exists() else {}
        judged = [verdicts[e.edge_id] for e in sample if e.edge_id in verdicts]
        print(
            f"resolved calls: {len(calls)}; sampled {len(sample)}; checked {len(judged)}; "
            f"correct {sum(judged)}; precision {sum(judged) / max(len(judged), 1):.3f}"
        )
        return
    for i, e in enumerate(sample):
        dst = symbols.get(e.dst_symbol_id or "")
        where = f"{dst.path}:{dst.start_line} {dst.signature}" if dst else e.dst_symbol_id
        sys.stdout.write(
            f"[{i}] {e.edge_id}\n    {e.path}:{e.line}: "
            f"{lines[e.path][e.line - 1].strip()}\n    -> {where}\n"
        )


if __name__ == "__main__":
    main()
