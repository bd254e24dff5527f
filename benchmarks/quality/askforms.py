"""What the other-kinds-of-question benchmarks share (`messages`, `traces`, `phrasings`,
`fields`, `misspelt`, `inwords`): the names "where is X defined" asks for, a row per asked
form, each form's Recall@1 and MRR@10, and their command line."""

from __future__ import annotations

import argparse
import ast
import json
import logging
import random
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.evaluate import run, strata_searcher
from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import K, Retrieved, first_hit_rank, is_hit
from benchmarks.quality.model import Corpus, Query, Target
from benchmarks.quality.run import SEED, build_corpora

EMBEDDER = "all-MiniLM-L6-v2"
# every corpus of code, in every language the quality run draws
CODE_SETS = "docstring,langs,newlangs,extralangs,elixirbash,perl"
_WHERE_DEFINED = re.compile(r"^where is (.+) defined$")
# A test's path (its directory or its name says so), and the suffixes of prose and data.
TEST_PATH = re.compile(
    r"(?:^|/)(?:tests?|spec|__tests__|testing)/|(?:^|/)test_|_test\.|\.test\.|Tests?\."
)
PROSE_SUFFIXES = (".md", ".rst", ".txt", ".html", ".json", ".yaml", ".yml", ".map")


def library_code(rel: str) -> bool:
    """Whether a corpus path is its library's code: no test, no prose, no data."""
    return not TEST_PATH.search(rel) and not rel.endswith(PROSE_SUFFIXES)


def corpus_lines(root: Path, keep: Callable[[str], bool]) -> Iterator[tuple[str, int, str]]:
    """Each line of the UTF-8 text files under `root` whose path `keep` keeps: its path,
    its 1-based number and its text (the oracles of the forms benchmarks read these)."""
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if not keep(rel):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for n, line in enumerate(text.split("\n"), 1):
            yield rel, n, line


def library_trees(root: Path) -> Iterator[tuple[str, ast.Module]]:
    """Each library Python file under `root` (`library_code`) parsed: its path and tree; a
    file that does not parse is left out."""
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if not library_code(rel):
            continue
        try:
            yield rel, ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue


def measure_recall(
    corpora: Iterable[Corpus],
    mode: str,
    ask: Callable[[Corpus], list[tuple[str, str, Sequence[Target]]]],
) -> dict[str, Any]:
    """Every (form, question, targets) `ask` makes of each corpus, through its cached
    index: the first hit's rank and the targets' recall among the first ten, per row, and
    each form's summary with its mean recall."""
    rows: list[dict[str, Any]] = []
    for corpus in corpora:
        asked = ask(corpus)
        if not asked:
            continue
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        rows += asked_rows(corpus.name, strata_searcher(eng, mode), asked)
        eng.close()
    summary = form_summary(rows)
    add_means(summary, rows, "recall_10")
    return {"mode": mode, "summary": summary, "rows": rows}


def defined_names(corpus: Corpus) -> list[tuple[Query, str]]:
    """The corpus's "where is X defined" questions (`def-`, `symbol-nl`), each with its X."""
    return [(q, m.group(1)) for q in corpus.queries if (m := _WHERE_DEFINED.match(q.text))]


def measure_asked(
    sets: Sequence[str],
    mode: str,
    ask: Callable[[Corpus], list[Query]],
    corpora: Iterable[Corpus] | None = None,
) -> dict[str, Any]:
    """Every query `ask` makes of each corpus of `sets` (or of `corpora`; its `set` the
    form asked), through `Engine.search` on the corpus's cached index: the first hit's
    rank per row, and each form's summary."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets) if corpora is None else corpora:
        queries = ask(corpus)
        if not queries:
            continue
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        rows += [
            {"corpus": corpus.name, "form": o.query.set, "query": o.query.text, "rank": o.rank}
            for o in run(f"strata {mode}", EMBEDDER, strata_searcher(eng, mode), queries)
        ]
        eng.close()
    return {"mode": mode, "summary": form_summary(rows), "rows": rows}


def named_queries(
    corpus: Corpus,
    found: dict[str, list[Target]],
    per_corpus: int,
    phrasings: Sequence[str],
    tag: str,
) -> list[Query]:
    """A seeded sample of `found`'s names (at most `per_corpus`), each asked in every one
    of `phrasings` (its `set`); any of the name's lines answers."""
    names = sorted(found)
    pick = random.Random(f"{SEED}:{tag}:{corpus.name}")
    return [
        Query(
            f"{tag}:{corpus.name}:{name}#{n}",
            phrasing,
            corpus.name,
            phrasing.format(name),
            tuple(found[name]),
        )
        for name in sorted(pick.sample(names, min(per_corpus, len(names))))
        for n, phrasing in enumerate(phrasings)
    ]


def measure_named(
    find: Callable[[Path], dict[str, list[Target]]], phrasings: Sequence[str], tag: str
) -> Callable[[Sequence[str], str, int], dict[str, Any]]:
    """A benchmark's `measure` that asks each corpus about a seeded sample of the names
    `find` reads off its files (`named_queries`): the first target's rank per row."""

    def measure(sets: Sequence[str], mode: str, per_corpus: int) -> dict[str, Any]:
        def ask(corpus: Corpus) -> list[Query]:
            return named_queries(corpus, find(corpus.root), per_corpus, phrasings, tag)

        return measure_asked(sets, mode, ask)

    return measure


def form_summary(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per `form` of the rows (in first-seen order): n, Recall@1 and MRR@10 of `rank`."""
    groups: dict[str, list[int | None]] = defaultdict(list)
    for r in rows:
        groups[r["form"]].append(r["rank"])
    return [
        {
            "form": form,
            "n": len(ranks),
            "r_at_1": round(sum(1 for x in ranks if x == 1) / len(ranks), 3),
            "mrr": round(sum(1 / x for x in ranks if x) / len(ranks), 3),
        }
        for form, ranks in groups.items()
    ]


def asked_rows(
    corpus: str,
    search: Callable[[str], list[Retrieved]],
    asked: Iterable[tuple[str, str, Sequence[Target]]],
    unit: Callable[[Target], Hashable] = lambda t: t,
) -> list[dict[str, Any]]:
    """A row per (form, question, targets): the first hit's rank, and `recall_10`, the share
    of the targets' units (`unit`: a target itself, or its file) among the first ten."""
    rows = []
    for form, text, targets in asked:
        results = search(text)[:K]
        units = {unit(t) for t in targets}
        found = {unit(t) for t in targets if any(is_hit(r, t) for r in results)}
        rows.append(
            {
                "corpus": corpus,
                "form": form,
                "query": text,
                "rank": first_hit_rank(results, targets),
                # one hit may hold several targets (a chunk of two functions): at most 1
                "recall_10": round(min(1.0, len(found) / min(len(units), K)), 3),
            }
        )
    return rows


def add_means(summary: Sequence[dict[str, Any]], rows: Sequence[dict[str, Any]], key: str) -> None:
    """Each form's mean of the rows' `key`, put into its summary row (three places)."""
    values: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        values[r["form"]].append(r[key])
    for s in summary:
        s[key] = round(sum(values[s["form"]]) / len(values[s["form"]]), 3)


def main_with(
    argv: Sequence[str] | None,
    doc: str,
    measure: Callable[..., dict[str, Any]],
    *,
    sets: str,
    per_corpus: int | None = None,
    mode: bool = True,
) -> None:
    """Parse `--sets` (default `sets`), `--per-corpus` and `--mode` when the benchmark
    takes them, and `--json`; run `measure`; print its summary (and write it all with
    `--json`)."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--sets", default=sets)
    if per_corpus is not None:
        p.add_argument("--per-corpus", type=int, default=per_corpus)
    if mode:
        p.add_argument("--mode", default="hybrid")
    p.add_argument("--json", type=Path, default=None)
    args = vars(p.parse_args(argv))
    logging.basicConfig(level=logging.WARNING)
    out: Path | None = args.pop("json")
    result = measure(args.pop("sets").split(","), **args)
    for s in result["summary"]:
        print(json.dumps(s, ensure_ascii=False))
    if out:
        out.write_text(json.dumps(result, indent=1), encoding="utf-8")
