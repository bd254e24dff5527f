"""'where is X defined' over every C function body of libyaml, or every out-of-class C++
method of tinyxml2: Recall@1 of Strata's hybrid search (the corpora the C and C++ defects
of 2026-12-04 were found on; docs/benchmarks.md, "C and C++ on code the benchmark had not
seen").

    python -m benchmarks.c_definitions [--corpus libyaml|tinyxml2] [--work DIR]

The names come from a line scan of the sources (a line that starts a definition: the name
at the start of the line for C, `Owner::name(` for C++, and an opening brace before any
`;`), not from Strata's tag queries. The corpus is copied to `--work` and indexed there
in full with the default model; a hit is the top result's file and span holding the
definition's first line.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.sdists import fetch_deb_source

CORPORA = {
    "libyaml": (("libyaml", "0.2.5-1"), "libyaml-0.2.5", "src/*.c", r"^(yaml_\w+)\("),
    "tinyxml2": (
        ("tinyxml2", "9.0.0+dfsg-3.1"),
        "tinyxml2-9.0.0",
        "tinyxml2.cpp",
        r"^[A-Za-z].*?\b([A-Z]\w*::~?\w+)\s*\(",
    ),
}


def definitions(root: Path, pattern: str, name: str) -> dict[str, tuple[str, int]]:
    """Name -> (file, first line) of each definition the line scan finds (first wins)."""
    found: dict[str, tuple[str, int]] = {}
    for path in sorted(root.glob(pattern)):
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        for i, rest in _starts(lines, re.compile(name)):
            found.setdefault(rest, (path.relative_to(root).as_posix(), i + 1))
    return found


def _starts(lines: list[str], name: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    for i, line in enumerate(lines):
        m = name.match(line)
        if m is None or line.rstrip().endswith(";"):
            continue
        j = i
        while j < len(lines) and "{" not in lines[j] and ";" not in lines[j]:
            j += 1
        if j < len(lines) and "{" in lines[j]:
            yield i, m.group(1)


def measure(corpus: str, work: Path) -> dict[str, Any]:
    """Index the corpus under `work` and ask for each definition."""
    from strata import Engine

    (package, version), top, pattern, name = CORPORA[corpus]
    root = work / top
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(fetch_deb_source(package, version) / top, root)
    wanted = definitions(root, pattern, name)
    eng = Engine.open(root)
    eng.index()
    misses = []
    for qname, (path, line) in sorted(wanted.items()):
        hits = eng.search(f"where is {qname} defined", k=1).hits
        top_hit = hits[0].record if hits else None
        if not (
            top_hit is not None
            and top_hit.path == path
            and (top_hit.span_start or 0) <= line <= (top_hit.span_end or 0)
        ):
            misses.append(qname)
    eng.close()
    n = len(wanted)
    return {
        "corpus": corpus,
        "queries": n,
        "r_at_1": round((n - len(misses)) / max(1, n), 3),
        "misses": misses[:20],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", choices=sorted(CORPORA), action="append")
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="strata-cdefs-"))
    for corpus in args.corpus or sorted(CORPORA):
        print(json.dumps(measure(corpus, work)), flush=True)


if __name__ == "__main__":
    main()
