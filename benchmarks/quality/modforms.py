"""A file named as code names it: a path copied from an import or an error
(`cordova/CordovaWebView.java`, not from the root), or a module as its language imports it
(`jinja2.sandbox`, `ast::parse`, `Pod::Text`, `Megaparsec.Char`, `lib/router`) or a
package that is a directory (`cobra/doc`), alone or in a question about it; and a
definition named with the package its file declares (`cobra.Command`,
`org.apache.cordova.LOG`, `Monolog\\Handler\\StreamHandler`).

    python -m benchmarks.quality.modforms [--sets docstring,langs,newlangs,extralangs,
        elixirbash,perl] [--per-corpus 25] [--mode hybrid] [--json FILE]

The files are a seeded sample of each corpus's indexed source files. Each is named by the
shortest end of its path of two parts or more that no other indexed file's path ends with,
and by the shortest such end of its module name: the path without its extensions, a
package's own file (`__init__.py`, `mod.rs`, `index.js`, `init.lua`) standing for its
directory, the parts joined as the file's language joins them (`.`, `::`, `/`, `\\`); a file
whose module name is not made of identifiers, or is another file's too, is not asked about
as a module. The target is the file's head: its leading comment (a licence, a file header)
and the 30 lines after it, under the quality run's hit rule. A module name that is also a
type's (Java's `cordova.CordovaActivity`) answers with the type's definition: the file's
rank (`file_r_at_1`) counts it.

The packages that are directories (`{package}` forms) are a seeded sample of the
directories holding two source files or more, each named by the shortest end of its path
that names no other directory and no file outside it (`cobra/doc`, `cordova.engine`); the
head of any file directly in it answers (`file_r_at_1`: any passage of one).

The packaged names are the `def-` names that a package qualifies (`packaged: …` forms): a
Go function or type (a method by its receiver, `cobra.Command.Execute`), a Java, Kotlin,
Scala, C# or PHP type declared at the top of its file, each qualified by the `package` or
`namespace` its file declares; the target is the `def-` set's.

The indexes are the quality run's cached ones (run `benchmarks.quality.run` first for the
current build).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import CODE_SETS, defined_names, form_summary, main_with
from benchmarks.quality.evaluate import run, strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import K, first_hit_rank
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.run import SEED, build_corpora
from strata.query.lookup.rows import indexed_paths

EMBEDDER = "all-MiniLM-L6-v2"
HEAD_LINES = 30
FORMS = ("{path}", "what does {path} do", "{module}", "what does the {module} module do")
# how each language joins a module's parts (the rest: `/`, as a path or a require does)
SEPARATORS = {
    **dict.fromkeys(("py", "java", "kt", "scala", "cs", "hs", "lua", "ex", "exs"), "."),
    **dict.fromkeys(("rs", "pm", "pl", "cpp", "hpp", "cc"), "::"),
    "php": "\\",
}
SOURCE = frozenset(
    [
        "py",
        "java",
        "kt",
        "scala",
        "cs",
        "hs",
        "lua",
        "ex",
        "exs",
        "rs",
        "pm",
        "pl",
        "cpp",
        "hpp",
        "cc",
        "h",
        "c",
        "go",
        "js",
        "mjs",
        "ts",
        "rb",
        "php",
        "sol",
        "zig",
        "swift",
        "sh",
        "bash",
    ]
)
PACKAGE_FILES = frozenset({"__init__", "mod", "index", "init"})
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_COMMENT = re.compile(r"^\s*(?:$|#(?!include|define|if|pragma|import)|//|/\*|\*|--|;|%)")


def module_parts(path: str) -> tuple[str, ...]:
    """A file's module name's parts: its path without the extensions, a package's own file
    standing for its directory (`jinja2/__init__.py` is `jinja2`)."""
    parts = tuple(path.split("/"))
    parts = (*parts[:-1], parts[-1].split(".", 1)[0])
    return parts[:-1] if parts[-1] in PACKAGE_FILES and len(parts) > 1 else parts


def shortest_end(name: Sequence[str], others: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The shortest end of `name` of two parts or more that no other name ends with
    (the whole name when none is that short)."""
    for n in range(2, len(name) + 1):
        end = tuple(name[-n:])
        if sum(1 for o in others if tuple(o[-n:]) == end) == 1:
            return end
    return tuple(name)


def named_files(paths: Sequence[str], per_corpus: int) -> list[tuple[str, str, str]]:
    """A seeded sample of the source files: (path, its path as named, its module as named)."""
    sources = sorted(p for p in paths if p.rsplit(".", 1)[-1] in SOURCE and "/" in p)
    split = [tuple(p.split("/")) for p in sources]
    modules = [module_parts(p) for p in sources]
    chosen = sorted(random.Random(SEED).sample(range(len(sources)), min(per_corpus, len(sources))))
    out = []
    for i in chosen:
        path = sources[i]
        sep = SEPARATORS.get(path.rsplit(".", 1)[-1], "/")
        module = shortest_end(modules[i], modules)
        if (
            len(module) < 2
            or not all(_IDENTIFIER.fullmatch(p) for p in module)
            or sum(1 for m in modules if m[-len(module) :] == module) > 1
        ):
            continue  # no module name of its own (`a.c` beside `a.h`, `5.1/pl/init.lua`)
        out.append((path, "/".join(shortest_end(split[i], split)), sep.join(module)))
    return out


# A name qualified by the package its file declares (`cobra.Command`,
# `org.apache.cordova.CordovaActivity`, `Newtonsoft.Json.JsonConvert`), for the `def-` names
# a package qualifies: Go's package-level functions and types (a method by its receiver,
# `cobra.Command.Execute`), the JVM's, .NET's and PHP's types.
PACKAGED_FORMS = ("{name}", "where is {name} defined")
_PACKAGE = re.compile(r"^\s*(?:package|namespace)\s+([\w.\\]+)", re.MULTILINE)
_GO_DEF = re.compile(r"^\s*(?:func\s+(?:\(\s*\w*\s*\*?(\w+)[^)]*\)\s*)?|type\s+)(\w+)")
_TYPE_DEF = re.compile(r"\b(?:class|interface|enum|object|trait|struct|record)\s+(\w+)")
_PACKAGED = frozenset({"go", "java", "kt", "scala", "cs", "php"})


def packaged_names(corpus: Corpus) -> list[Query]:
    """The corpus's `def-` names a package qualifies, asked qualified by it."""
    out = []
    for q, name in defined_names(corpus):
        target = q.targets[0]
        if target.path.rsplit(".", 1)[-1] not in _PACKAGED:
            continue
        lines = (corpus.root / target.path).read_text(encoding="utf-8", errors="replace")
        # Scala's may be several (`package scala`, `package collection`): scala.collection
        package = ".".join(_PACKAGE.findall(lines))
        span = lines.split("\n")[target.start - 1 : target.end]
        qualified = _qualified(name, span, package, 4 if target.path.endswith(".cs") else 0)
        for n, form in enumerate(PACKAGED_FORMS if qualified else ()):
            text = form.format(name=qualified)
            out.append(replace(q, id=f"{q.id}#packaged#{n}", set=f"packaged: {form}", text=text))
    return out


def _qualified(name: str, lines: Sequence[str], package: str, indent: int) -> str:
    """`name` qualified by its package: a Go function or type (a method by its receiver),
    or a type declared at the top of its file (`indent` at most: a namespace's block in C#;
    a nested type's name is its outer type's too)."""
    if not package:
        return ""
    sep = "\\" if "\\" in package else "."
    for line in lines:
        go = _GO_DEF.match(line)
        if go and go.group(2) == name:
            receiver = f"{go.group(1)}." if go.group(1) else ""
            return f"{package}.{receiver}{name}"
        typed = _TYPE_DEF.search(line)
        top = len(line) - len(line.lstrip()) <= indent
        if typed and typed.group(1) == name and top and line.lstrip()[:1] not in "/*":
            return f"{package}{sep}{name}"
    return ""


# A package that is a directory (Go's, Java's), named as its language imports it: the heads
# of its files answer (`file_r_at_1`: a passage of a file directly in it).
DIR_FORMS = ("{package}", "what does the {package} package do")


def named_dirs(paths: Sequence[str], per_corpus: int) -> list[tuple[str, str]]:
    """A seeded sample of the directories holding two source files or more directly, each
    with the shortest end of its path of two parts or more that names it alone (and no file
    outside it), joined as its files' language joins a package's parts."""
    sources = [p for p in paths if p.rsplit(".", 1)[-1] in SOURCE and "/" in p]
    counts: dict[str, int] = defaultdict(int)
    for p in sources:
        counts[_dir(p)] += 1
    dirs = sorted(d for d, n in counts.items() if n >= 2)
    split = [tuple(d.split("/")) for d in dirs]
    chosen = sorted(
        random.Random(f"{SEED}:dirs").sample(range(len(dirs)), min(per_corpus, len(dirs)))
    )
    out = []
    for i in chosen:
        end = shortest_end(split[i], split)
        if len(end) < 2 or not all(_IDENTIFIER.fullmatch(p) for p in end):
            continue
        beside = [p for p in sources if module_parts(p)[-len(end) :] == end and _dir(p) != dirs[i]]
        if beside:
            continue  # a file beside it has the name too (Perl's `Pod/Text.pm`, `Pod/Text/`)
        ext = next(p for p in sources if _dir(p) == dirs[i]).rsplit(".", 1)[-1]
        out.append((dirs[i], SEPARATORS.get(ext, "/").join(end)))
    return out


def _dir(path: str) -> str:
    return path.rpartition("/")[0]


def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
    """Every sampled file in every form: the head's rank and the file's."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        search = strata_searcher(eng, mode)
        heads = {p: _head_end(corpus.root / p) for p in indexed_paths(eng.store)}
        for path, as_path, as_module in named_files(sorted(heads), per_corpus):
            target = Target(path, 1, heads[path])
            for form in FORMS:
                text = form.format(path=as_path, module=as_module)
                results = search(text)[:K]
                in_file = next((i for i, r in enumerate(results, 1) if r.path == path), None)
                rank = first_hit_rank(results, [target])
                rows.append(
                    {
                        "corpus": corpus.name,
                        "form": form,
                        "query": text,
                        "rank": rank,
                        "file_rank": in_file,
                    }
                )
        rows += [
            {"corpus": corpus.name, "form": o.query.set, "query": o.query.text, "rank": o.rank}
            for o in run(f"strata {mode}", EMBEDDER, search, packaged_names(corpus))
        ]
        for folder, as_package in named_dirs(sorted(heads), per_corpus):
            heads_there = [Target(p, 1, end) for p, end in heads.items() if _dir(p) == folder]
            for form in DIR_FORMS:
                text = form.format(package=as_package)
                results = search(text)[:K]
                rows.append(
                    {
                        "corpus": corpus.name,
                        "form": form,
                        "query": text,
                        "rank": first_hit_rank(results, heads_there),
                        "file_rank": next(
                            (i for i, r in enumerate(results, 1) if _dir(r.path) == folder), None
                        ),
                    }
                )
        eng.close()
    summary = form_summary(rows)
    files: dict[str, list[int | None]] = defaultdict(list)
    for r in rows:
        if "file_rank" in r:  # a file's forms (a packaged name's target is its definition)
            files[r["form"]].append(r["file_rank"])
    for s in summary:
        if ranks := files.get(s["form"]):
            s["file_r_at_1"] = round(sum(1 for x in ranks if x == 1) / len(ranks), 3)
    return {"mode": mode, "summary": summary, "rows": rows}


def _head_end(path: Path) -> int:
    """The last line of a file's head: its leading comment and the `HEAD_LINES` after it."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError:
        return 1
    comment = next((i for i, line in enumerate(lines) if not _COMMENT.match(line)), len(lines))
    return max(1, min(len(lines), comment + HEAD_LINES))


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(argv, __doc__ or "", measure, sets=CODE_SETS, per_corpus=25)


if __name__ == "__main__":
    main()
