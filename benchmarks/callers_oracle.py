"""Callers against an oracle: jedi's references, restricted to call sites, per package.

For a fixed-seed sample of the functions and methods of each package's library code
(the sdists of the quality benchmark), the oracle is every call site (the name followed
by `(`) inside the library code, the definition itself left out, that jedi ties to the
definition in either of two ways: `Script.get_references` of the definition's name, or
`Script.goto` (else `Script.infer`) at the site itself (every `name(` of the library is
asked). The second is jedi's own inference of each call, as Python runs it:
`self.visit(...)` in a subclass goes to the nearest `visit` along the class's MRO, which
`get_references` alone does not report (it misses 40 of jinja2's calls of
`NodeVisitor.visit` from its subclasses), and `setitem = self.__setitem__; setitem(k, v)`
calls the method, which `goto` stops short of (at the assignment) and `infer` reaches.
A call through an alias does not show the definition's name, so the sites Strata lists
beyond the name's own are pooled in and judged the same way (jedi's goto or infer at
each call on the line; `jedi_pooled` in the JSON): every listed site has jedi's verdict. Strata's
answer is `callers(symbol)` at depth 1 on an index of the same tree, as call sites
(path, line; every line of an edge): the default (resolved and qualified-name edges
only) and with `name_matches=True` (bare-name guesses added). Precision and recall are
micro-averaged over the sampled symbols; every symbol's sets are in the JSON (with what
each jedi query found) for checking by hand.

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


class Jedi:
    """jedi over one package's library code: a `Script` per file, asked many times."""

    def __init__(self, root: Path, code_dir: str) -> None:
        import jedi

        self.root, self.code_dir = root.resolve(), code_dir
        self.project = jedi.Project(path=str(root))
        self.scripts: dict[str, Any] = {}
        self.lines = {
            rel: (root / rel).read_text(encoding="utf-8").split("\n")
            for rel in (f"{code_dir}/{r}" for r in python_files(root / code_dir))
        }

    def script(self, rel: str) -> Any:
        import jedi

        if rel not in self.scripts:
            self.scripts[rel] = jedi.Script(path=str(self.root / rel), project=self.project)
        return self.scripts[rel]

    def rel(self, module_path: Any) -> str | None:
        """The path of a jedi module inside the library code, else None."""
        try:
            rel = Path(module_path).resolve().relative_to(self.root).as_posix()
        except ValueError:
            return None
        return rel if rel in self.lines else None


def oracle_calls(jd: Jedi, d: Definition) -> dict[str, set[Site]] | None:
    """jedi's call sites of `d`, by how they were found (None when jedi cannot place it)."""
    spot = name_position(jd.lines[d.path], d)
    if spot is None:
        return None
    refs: set[Site] = set()
    for ref in jd.script(d.path).get_references(*spot, include_builtins=False):
        rel = jd.rel(ref.module_path) if ref.module_path is not None else None
        if rel is None or ref.line is None or ref.is_definition():
            continue
        if _is_call(jd.lines[rel][ref.line - 1], ref.column, d.name):
            refs.add((rel, ref.line))
    pattern = re.compile(rf"\b({re.escape(d.name)})\s*\(")
    sites = [(rel, n) for rel, lines in jd.lines.items() for n, _ in enumerate(lines, 1)]
    goto = {s for s in sites if _calls_at(jd, s, pattern, d.path, spot[0])}
    return {"refs": refs, "goto": goto}


def pooled_calls(jd: Jedi, d: Definition, sites: set[Site]) -> set[Site]:
    """Those of `sites` (what Strata lists beyond the name's own sites) where jedi's goto or
    infer at some call on the line lands on `d`: calls through an alias (`f = self.m; f()`)."""
    spot = name_position(jd.lines[d.path], d)
    pattern = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
    return {s for s in sites if spot and _calls_at(jd, s, pattern, d.path, spot[0])}


def _calls_at(jd: Jedi, site: Site, pattern: re.Pattern[str], path: str, line: int) -> bool:
    """Whether a call the pattern finds on the site's line goes, by jedi, to `path:line`."""
    rel, n = site
    text = jd.lines[rel][n - 1] if rel in jd.lines and 0 < n <= len(jd.lines[rel]) else ""
    if (rel, n) == (path, line) or re.match(r"\s*(def|class)\s", text):
        return False
    for m in pattern.finditer(text):
        script, col = jd.script(rel), m.start(1)
        names = script.goto(n, col, follow_imports=True)
        if not _lands(jd, names, path, line):
            names = script.infer(n, col)  # `f = self.m; f(x)`: goto stops at `f =`
        if _lands(jd, names, path, line):
            return True
    return False


def _lands(jd: Jedi, names: Sequence[Any], path: str, line: int) -> bool:
    """Whether one of jedi's answers is the definition at `path:line`."""
    return any(
        g.module_path is not None and jd.rel(g.module_path) == path and g.line == line
        for g in names
    )


def _is_call(text: str, column: int, name: str) -> bool:
    return text[column + len(name) :].lstrip().startswith("(")


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
    return {(x.edge.path, n) for x in walk.links if x.depth == 1 for n in x.lines}


def measure(pkg: Package, per_package: int) -> dict[str, Any]:
    """Index one package, sample its functions and methods, and compare both answers."""
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
        jd = Jedi(root, pkg.code_dir)
        rows = []
        for d in chosen:
            found = oracle_calls(jd, d)
            got = strata_calls(eng, d, name_matches=False)
            guessed = strata_calls(eng, d, name_matches=True)
            if found is None or got is None or guessed is None:
                continue
            pooled = pooled_calls(jd, d, (got | guessed) - found["refs"] - found["goto"])
            rows.append(
                {
                    "symbol": f"{d.path}:{d.qualname}",
                    "oracle": found["refs"] | found["goto"] | pooled,
                    "strata": got,
                    "with_name_matches": guessed,
                    "jedi_references": found["refs"],
                    "jedi_goto": found["goto"],
                    "jedi_pooled": pooled,
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


def name_position(lines: list[str], d: Definition) -> tuple[int, int] | None:
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
