"""Callers against an oracle: jedi's references, restricted to call sites, per package.

For a fixed-seed sample of the functions and methods of each package's library code
(the sdists of the quality benchmark), the oracle is every place jedi's
`Script.get_references` finds for the definition's name that is a call (the name is
followed by `(`), inside the library code, the definition itself left out. Strata's
answer is `callers(symbol)` at depth 1 on an index of the same tree, as call sites
(path, line): the default (resolved and qualified-name edges only) and with
`name_matches=True` (bare-name guesses added). Precision and recall are micro-averaged
over the sampled symbols; every symbol's sets are in the JSON for checking by hand.

    python -m benchmarks.callers_oracle [--per-package 40] [--packages sqlparse,...]

jedi is a static analyser with its own blind spots (dynamic dispatch it cannot infer),
so a disagreement is a reason to look, not a verdict; the JSON lists each one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import random
import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.docstring_queries import PACKAGES, Package
from benchmarks.quality.pydefs import Definition, definitions, python_files
from benchmarks.sdists import fetch_sdist
from strata import Engine

log = logging.getLogger("benchmarks.callers_oracle")

SEED = 13
RESULTS = Path(__file__).resolve().parent / "results" / "callers_oracle.json"
Site = tuple[str, int]


def oracle_calls(project: Any, root: Path, code_dir: str, d: Definition) -> set[Site] | None:
    """jedi's call sites of `d` inside `code_dir` (None when jedi cannot place the name)."""
    import jedi

    lines = (root / d.path).read_text(encoding="utf-8").split("\n")
    spot = _name_position(lines, d)
    if spot is None:
        return None
    script = jedi.Script(path=str(root / d.path), project=project)
    out: set[Site] = set()
    for ref in script.get_references(*spot, include_builtins=False):
        if ref.module_path is None or ref.line is None or ref.is_definition():
            continue
        rel = Path(ref.module_path).resolve().relative_to(root.resolve()).as_posix()
        if not rel.startswith(code_dir + "/"):
            continue
        text = (root / rel).read_text(encoding="utf-8").split("\n")[ref.line - 1]
        if text[ref.column + len(d.name) :].lstrip().startswith("("):
            out.add((rel, ref.line))
    return out


def strata_calls(eng: Engine, d: Definition, *, name_matches: bool) -> set[Site] | None:
    """Strata's call sites of `d` (None when the symbol catalogue does not hold it)."""
    found = [
        m
        for m in eng.symbols(d.name, limit=200, exact=True)
        if m.record.path == d.path and m.record.span_start == d.start
    ]
    if not found:
        return None
    walk = eng.callers(found[0].qname, name_matches=name_matches)
    return {(x.edge.path, x.edge.span_start or 0) for x in walk.links if x.depth == 1}


def measure(pkg: Package, per_package: int) -> dict[str, Any]:
    """Index one package, sample its functions and methods, and compare both answers."""
    import jedi

    src = fetch_sdist(pkg.name, pkg.version)
    work = Path(tempfile.mkdtemp(prefix=f"oracle-{pkg.name}-"))
    try:
        root = work / pkg.name
        shutil.copytree(src / pkg.code_dir, root / pkg.code_dir)
        rels = [f"{pkg.code_dir}/{r}" for r in python_files(root / pkg.code_dir)]
        defs = [d for rel in rels for d in definitions(root, rel) if d.kind != "class"]
        rng = random.Random(f"{SEED}:callers:{pkg.name}")
        chosen = sorted(rng.sample(defs, min(per_package, len(defs))), key=lambda d: d.start)
        eng = Engine.open(root, index_dir=work / "index", config={"embed.provider": "none"})
        eng.index(full=True)
        project = jedi.Project(path=str(root))
        rows = []
        for d in chosen:
            want = oracle_calls(project, root, pkg.code_dir, d)
            got = strata_calls(eng, d, name_matches=False)
            guessed = strata_calls(eng, d, name_matches=True)
            if want is None or got is None or guessed is None:
                continue
            rows.append(
                {
                    "symbol": f"{d.path}:{d.qualname}",
                    "oracle": want,
                    "strata": got,
                    "with_name_matches": guessed,
                }
            )
        eng.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "package": f"{pkg.name} {pkg.version}",
        "symbols": len(rows),
        "oracle_calls": sum(len(r["oracle"]) for r in rows),
        "default": _scores(rows, "strata"),
        "name_matches": _scores(rows, "with_name_matches"),
        "rows": [
            {k: sorted(f"{p}:{n}" for p, n in v) if isinstance(v, set) else v for k, v in r.items()}
            for r in rows
        ],
    }


def _scores(rows: Sequence[dict[str, Any]], key: str) -> dict[str, float | int]:
    hit = sum(len(r[key] & r["oracle"]) for r in rows)
    said = sum(len(r[key]) for r in rows)
    truth = sum(len(r["oracle"]) for r in rows)
    return {
        "precision": round(hit / said, 3) if said else 1.0,
        "recall": round(hit / truth, 3) if truth else 1.0,
        "listed": said,
        "correct": hit,
    }


def _name_position(lines: list[str], d: Definition) -> tuple[int, int] | None:
    """(line, column) of the name in `def name` / `class name` at or after `d.start`."""
    pattern = re.compile(rf"\b(?:def|class)\s+({re.escape(d.name)})\b")
    for i in range(d.start - 1, min(d.end, len(lines))):
        m = pattern.search(lines[i])
        if m:
            return i + 1, m.start(1)
    return None


def main(argv: Sequence[str] | None = None) -> None:
    """Run every chosen package, print a Markdown table, write the JSON."""
    p = argparse.ArgumentParser(prog="python -m benchmarks.callers_oracle", description=__doc__)
    p.add_argument("--per-package", type=int, default=40)
    p.add_argument("--packages", default="sqlparse,marshmallow,jinja2")
    p.add_argument("--json", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    wanted = args.packages.split(",")
    results = [measure(pkg, args.per_package) for pkg in PACKAGES if pkg.name in wanted]
    lines = [
        "| package | symbols | oracle calls | default P / R | with --name-matches P / R |",
        "|---|---:|---:|---|---|",
    ]
    for r in results:
        a, b = r["default"], r["name_matches"]
        lines.append(
            f"| {r['package']} | {r['symbols']} | {r['oracle_calls']} | "
            f"{a['precision']:.3f} / {a['recall']:.3f} | {b['precision']:.3f} / {b['recall']:.3f} |"
        )
    print("\n".join(lines))
    meta = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "seed": SEED}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"meta": meta, "packages": results}, indent=1), "utf-8")


if __name__ == "__main__":
    main()
