"""'where is X defined' over every C function body of libyaml, every out-of-class C++
method of tinyxml2 and of pugixml (whose definitions open with a macro), every R function
of glue, every Clojure `defn` of data.json, every Bash function of bash-completion's
`completions/` (files without an extension), every Kotlin extension function of
kotlinx.coroutines' common core, every Groovy class of groovysh, every method of
vue-select's Vue components (npm), every table of Kamailio's PostgreSQL schema, or every
top-level message, enum and service of Google's `google/api` protos (npm), or every `sub`
of Perl 5.36's `CPAN/` and `Test2/` modules (Debian's `perl-modules-5.36`): Recall@1 of
Strata's hybrid search. These are the corpora the C, C++, Kotlin, R, Clojure, Bash, Groovy,
Vue, SQL and Protocol Buffers defects of 2026-12-04 were found on (docs/benchmarks.md, "C,
C++ and Kotlin on code the benchmark had not seen", "Ten more languages" and "Groovy, Vue,
Svelte, Astro and SQL").

    python -m benchmarks.where_defined [--corpus libyaml|tinyxml2|pugixml|glue|datajson|
        bashcomp|kotlinx|groovysh|vueselect|kamailio|googleapi|perlcpan|perltest2] [--work DIR]

The names come from a line scan of the sources, not from Strata's tag queries. A line
starts a definition when it has the name at its start (C), `Owner::name(` (C++),
`name <- function(` (R), `_name()` (Bash), `fun Receiver.name(` (Kotlin), `class Name`
(Groovy), `sub name` (Perl) or `name(args) {` (a Vue component's method), and an opening
brace or `=` follows before any `;`; a Clojure line opening with `(defn name`, an SQL
`CREATE TABLE name (` and a Protocol Buffers `message Name {` are one as they stand. A
name the scan finds in two files (a Vue `data()` in every component) is not asked for.
The corpus is copied to `--work` and indexed there in full with the default model. A hit
is the top result's file and span holding the definition's first line.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.sdists import fetch_deb, fetch_deb_source, fetch_npm

CORPORA = {
    "libyaml": (("libyaml", "0.2.5-1"), "libyaml-0.2.5", "src/*.c", r"^(yaml_\w+)\("),
    "tinyxml2": (
        ("tinyxml2", "9.0.0+dfsg-3.1"),
        "tinyxml2-9.0.0",
        "tinyxml2.cpp",
        r"^[A-Za-z].*?\b([A-Z]\w*::~?\w+)\s*\(",
    ),
    "pugixml": (
        ("pugixml", "1.13-0.2"),
        "pugixml-1.13",
        "src/pugixml.cpp",
        r"^\s*PUGI__FN(?:_NO_INLINE)?\s+.*?\b([A-Za-z_]\w*::~?\w+)\s*\(",
    ),
    "glue": (("r-cran-glue", "1.6.2-1"), "glue", "R/*.R", r"^`?([\w.]+)`?\s*<-\s*function\("),
    "bashcomp": (
        ("bash-completion", "1:2.11-6"),
        "bash-completion-2.11",
        "completions/*",
        r"^(_[\w-]+)\s*\(\)",
    ),
    "datajson": (
        ("data-json-clojure", "2.4.0-2"),
        "data-json-clojure-2.4.0",
        "src/main/clojure/**/*.clj",
        r"^\(defn-?\s+(?:\^\S+\s+)?([\w?!*<>][\w\-?!*<>]*)",
    ),
    "kotlinx": (
        ("kotlinx-coroutines", "1.0.1-2"),
        "kotlinx-coroutines-1.0.1/common/kotlinx-coroutines-core-common",
        "src/**/*.kt",
        r"^(?:(?:public|internal|private|inline|suspend|actual)\s+)*fun\s+"
        r"(?:<[^>]*>\s*)?([A-Z]\w*)(?:<[^>]*>)?\.(\w+)\s*\(",
    ),
    "groovysh": (
        ("groovy", "2.4.21-8"),
        "groovy-2.4.21/subprojects/groovy-groovysh/src/main/groovy",
        "**/*.groovy",
        r"^(?:(?:public|abstract|final)\s+)*(?:class|interface|enum|trait)\s+([A-Z]\w*)",
    ),
    "vueselect": (
        ("npm:vue-select", "3.20.4"),
        "src",
        "**/*.vue",
        r"^\s+(?!(?:if|for|while|switch|catch|function)\b)([A-Za-z_]\w*)\s*\([^)]*\)\s*\{\s*$",
    ),
    "googleapi": (
        ("npm:google-proto-files", "6.0.1"),
        "google/api",
        "**/*.proto",
        r"^(?:message|enum|service) (\w+) \{",
    ),
    "perlcpan": (
        ("deb:perl-modules-5.36", "5.36.0-7+deb12u4"),
        "usr/share/perl/5.36/CPAN",
        "**/*.pm",
        r"^sub\s+([A-Za-z_]\w*)",
    ),
    "perltest2": (
        ("deb:perl-modules-5.36", "5.36.0-7+deb12u4"),
        "usr/share/perl/5.36/Test2",
        "**/*.pm",
        r"^sub\s+([A-Za-z_]\w*)",
    ),
    "kamailio": (
        ("kamailio", "5.6.3-2"),
        "kamailio-5.6.3/utils/kamctl/postgres",
        "*.sql",
        r"^CREATE TABLE (\w+) \(",
    ),
}


_AS_IT_STANDS = ("(", "CREATE ", "message ", "enum ", "service ")  # Lisp, SQL, protobuf


def definitions(root: Path, pattern: str, name: str) -> dict[str, tuple[str, int]]:
    """Name -> (file, first line) of each definition the line scan finds (first wins)."""
    found: dict[str, tuple[str, int]] = {}
    twice: set[str] = set()
    for path in sorted(root.glob(pattern)):
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        for i, rest in _starts(lines, re.compile(name)):
            if rest in found and found[rest][0] != path.relative_to(root).as_posix():
                twice.add(rest)
            found.setdefault(rest, (path.relative_to(root).as_posix(), i + 1))
    return {n: where for n, where in found.items() if n not in twice}


def _starts(lines: list[str], name: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    for i, line in enumerate(lines):
        m = name.match(line)
        if m is not None and line.startswith(_AS_IT_STANDS):
            yield i, ".".join(g for g in m.groups() if g)
            continue
        if m is None or line.rstrip().endswith(";") or " expect " in f" {line}":
            continue
        j = i
        while j < len(lines) and not {"{", "=", ";"} & set(lines[j]):
            j += 1
        if j < len(lines) and ("{" in lines[j] or "=" in lines[j]):
            yield i, ".".join(g for g in m.groups() if g)


def measure(corpus: str, work: Path) -> dict[str, Any]:
    """Index the corpus under `work` and ask for each definition."""
    from strata import Engine

    (package, version), top, pattern, name = CORPORA[corpus]
    root = work / corpus
    shutil.rmtree(root, ignore_errors=True)
    if package.startswith("npm:"):
        source = fetch_npm(package.removeprefix("npm:"), version)
    elif package.startswith("deb:"):  # a binary package: Perl's modules are its own
        source = fetch_deb(package.removeprefix("deb:"), version)
    else:
        source = fetch_deb_source(package, version)
    shutil.copytree(source / top, root)
    subprocess.run(["git", "init", "-q", str(root)], check=True)  # a root of its own
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
