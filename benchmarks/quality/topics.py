"""Topical questions with file-level answers, the kind semble's benchmark asks ("syslog over
UDP", "how strict mode catches access to undeclared global variables", a type's name), on
the `withdocs` copies of six language packages: Strata's routed search beside the code-aware
BM25 over the same chunks.

    python -m benchmarks.quality.topics [--mode hybrid] [--json FILE]

The questions are `topics.yaml`, written once from what each library does and its file
list, before any result was looked at. A question's answer is a file: the ranked hits are
reduced to their distinct files in order of first appearance, and scored by file
NDCG@10 (binary: `files` and `also` relevant, the ideal ranking holding all of them),
file Recall@1 (the first file is one of `files`) and file MRR@10 (the first of `files` or
`also`). Each question is also asked in the other `FORMS` (a request around the topic:
"Can you show me the code responsible for {}?"), reported per form. The indexes are the
quality run's cached ones (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from benchmarks.quality.askforms import main_with
from benchmarks.quality.baseline import Bm25Baseline
from benchmarks.quality.indexes import open_index
from benchmarks.quality.metrics import K, Retrieved, file_ndcg
from benchmarks.quality.model import Target
from benchmarks.quality.run import build_corpora
from strata import Engine
from strata.layers import PASSAGE_LAYERS

EMBEDDER = "all-MiniLM-L6-v2"
QUESTIONS = Path(__file__).with_name("topics.yaml")
SYSTEMS = ("strata", "code-aware BM25")
# The question as written, then inside the requests users and agents wrap a topic in; the
# figures per corpus and kind are the question's own.
FORMS = (
    "{}",
    "Can you show me the code responsible for {}?",
    "I'm trying to understand {}. Where is that handled in the code?",
    "where is {} implemented",
    "{} in this repo",
    "Explain {}",
)


def load(path: Path = QUESTIONS) -> dict[str, list[dict[str, Any]]]:
    """Corpus name -> its questions (`q`, `files`, `also`, `kind`)."""
    data: dict[str, list[dict[str, Any]]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def files_of(paths: Sequence[str]) -> list[str]:
    """The distinct files of ranked hits, in order of first appearance."""
    return list(dict.fromkeys(paths))


def resolved(suffixes: Sequence[str], files: Sequence[str]) -> list[str]:
    """The corpus files a question's files (written as path suffixes) name."""
    return [f for f in files if any(f == s or f.endswith("/" + s) for s in suffixes)]


def scores(paths: Sequence[str], wanted: Sequence[str], partly: Sequence[str]) -> dict[str, float]:
    """File NDCG@10 (the quality run's `file_ndcg`), Recall@1 and MRR@10 of ranked hit paths;
    `wanted` and `partly` are corpus files."""
    relevant = {*wanted, *partly}
    files = files_of(paths)[:K]
    first = next((i for i, f in enumerate(files, 1) if f in relevant), None)
    return {
        "ndcg_10": file_ndcg([Retrieved(p, None, None) for p in paths], _files(relevant)),
        "r_at_1": float(bool(files) and files[0] in wanted),
        "mrr": 1 / first if first else 0.0,
    }


def _files(paths: Iterable[str]) -> list[Target]:
    """Whole-file targets: `file_ndcg` reads their paths only."""
    return [Target(p, 1, 1) for p in sorted(paths)]


def measure(sets: Sequence[str], mode: str) -> dict[str, Any]:
    """Every question of `topics.yaml` through Strata (`mode`) and the code-aware BM25."""
    questions = load()
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        if corpus.name not in questions:
            continue
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        bm25 = Bm25Baseline.code_aware(eng.records(layers=PASSAGE_LAYERS))
        searchers = _searchers(eng, bm25, mode)
        in_corpus = sorted(
            str(p.relative_to(corpus.root)) for p in corpus.root.rglob("*") if p.is_file()
        )
        for q in questions[corpus.name]:
            wanted = resolved(q["files"], in_corpus)
            partly = resolved(q.get("also", ()), in_corpus)
            for form, (system, search) in itertools.product(FORMS, searchers.items()):
                text = form.format(q["q"])
                paths = search(text)
                row = {"corpus": corpus.name, "kind": q["kind"], "form": form, "system": system}
                found = scores(paths, wanted, partly)
                rows.append({**row, "query": text, **found, "top": files_of(paths)[:3]})
        eng.close()
    return {"summary": summary(rows), "rows": rows}


def _searchers(eng: Engine, bm25: Bm25Baseline, mode: str) -> dict[str, Callable[[str], list[str]]]:
    """Each system's ranked paths for a question (Strata routed, as a user's search is)."""
    return {
        "strata": lambda text: [h.record.path for h in eng.search(text, k=3 * K, mode=mode)],
        "code-aware BM25": lambda text: [r.path for r in bm25.search(text)],
    }


def summary(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Means per system over all questions, per kind, and per corpus."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        named = ("all", f"kind={r['kind']}", f"corpus={r['corpus']}")
        for group in (*(named if r["form"] == "{}" else ()), f"form={r['form']}"):
            groups[(group, r["system"])].append(r)
    out = []
    for (group, system), members in groups.items():
        means = {m: round(sum(r[m] for r in members) / len(members), 3) for m in _METRICS}
        out.append({"group": group, "system": system, "n": len(members), **means})
    return sorted(out, key=lambda s: (s["group"] != "all", s["group"], SYSTEMS.index(s["system"])))


_METRICS = ("ndcg_10", "r_at_1", "mrr")


def main(argv: Sequence[str] | None = None) -> None:
    """The command line: `--mode`, `--json`."""
    main_with(argv, __doc__ or "", measure, sets="withdocs")


if __name__ == "__main__":
    main()
