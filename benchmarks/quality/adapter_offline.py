"""The query adapter offline: the semantic list of every query of a quality run, searched
again over its cached index with the query's vector moved by adapters of several kinds.

    python -m benchmarks.quality.adapter_offline RESULTS [--build B] [--ridge 1,3,10]
        [--weights 0.5,1] [--sentences 1,3] [--with-doc] [--cv] [--docs] [--corpus PREFIX ...]

RESULTS is a `benchmarks.quality.run --json` file (its queries and targets); the indexes
are the run's cached ones of build B (default: the run's). Each index's pairs are the
engine's own (`strata.embedding.adapter.pairs`), with up to N sentences of each doc comment
for each N of `--sentences`; `--with-doc` also pairs each summary with its chunk's stored
vector (the doc comment left in); `--cv` adds a per-project weight
chosen by 5-fold cross-validation over the pairs. Prints MRR@10 of the semantic list per
set and per family (docs/benchmarks.md, "A query adapter fitted on the project's own doc
comments").

`--docs` measures the docs map instead (`adapter.section_pairs`), on the corpora with doc
sections: the semantic list as the engine builds it (the plain vector gives each kind its
places, each kind's adapted vector fills them), with the code map alone, with the docs
map too, and with the docs map for what is not a question (the engine's rule), at each
weight of `--weights`.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.quality.indexes import INDEXES
from benchmarks.quality.metrics import K, Retrieved, first_hit_rank
from benchmarks.quality.model import Target
from strata.embedding import adapter
from strata.embedding.local import SentenceTransformerEmbedder
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG, D0_DOC_CHUNKS
from strata.query.verbatim import is_question
from strata.store import Filter, open_store
from strata.types import Record

MODEL = "all-MiniLM-L6-v2"
GRID = (0.0, 0.25, 0.5, 0.75, 1.0)
Variant = Callable[[np.ndarray], np.ndarray]


def _top(queries: np.ndarray, vectors: np.ndarray) -> list[list[int]]:
    """Each query's first `K` rows by cosine (the rows of `vectors`)."""
    return [list(np.argsort(-row)[:K]) for row in queries @ vectors.T]


def _cv_weight(x: np.ndarray, y: np.ndarray, ridge: float) -> float:
    """The weight that finds each held-out summary's own chunk best among the pairs'."""
    yn = y / np.linalg.norm(y, axis=1, keepdims=True)
    folds = np.arange(len(x)) % 5
    score = dict.fromkeys(GRID, 0.0)
    for f in range(5):
        held = folds == f
        w = adapter.fit(x[~held], y[~held], ridge)
        for g in GRID:
            s = adapter.adapt(x[held], w, g) @ yn.T
            own = s[np.arange(held.sum()), np.flatnonzero(held)]
            score[g] += float((1.0 / ((s > own[:, None]).sum(1) + 1)).sum())
    return max(GRID, key=lambda g: (round(score[g] / len(x), 3), -g))


def _variants(
    rows: list[Record], vectors: np.ndarray, emb: SentenceTransformerEmbedder, args: Any
) -> dict[str, Variant] | None:
    index = {r.id: i for i, r in enumerate(r for r in rows if r.vector is not None)}
    found = _matched(rows)
    if len(found) < adapter.MIN_PAIRS:
        return None
    fits: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if args.with_doc:  # each summary with its chunk as stored: its doc comment still in it
        x = emb.embed_documents([s for s, _ in found])
        fits["with doc, "] = (x, vectors[[index[c.id] for _, c in found]])
    for n in args.sentences:  # the engine's pairs, with up to n sentences of each comment
        fits[f"{n} sentences, "] = _pair_vectors(adapter.pairs(found, n), emb)
    out: dict[str, Variant] = {"none": lambda q: q}
    for label, (fx, fy) in fits.items():
        for ridge in args.ridge:
            w = adapter.fit(fx, fy, ridge)
            for weight in args.weights:
                name = f"{label}ridge {ridge:g}, weight {weight:g}"
                out[name] = lambda q, w=w, g=weight: adapter.adapt(q, w, g)
            if args.cv:
                g = _cv_weight(fx, fy, ridge)
                out[f"{label}ridge {ridge:g}, cv weight"] = lambda q, w=w, g=g: adapter.adapt(
                    q, w, g
                )
    return out


def _docs_variants(
    rows: list[Record], vectors: np.ndarray, emb: SentenceTransformerEmbedder, args: Any
) -> dict[str, Callable[[np.ndarray, list[dict[str, Any]]], list[list[int]]]] | None:
    """Each docs variant: (query vectors, queries) -> each query's row order, best first."""
    embedded = [r for r in rows if r.vector is not None]
    docs = adapter.section_pairs(adapter.sections(r for r in embedded if r.layer == D0_DOC_CHUNKS))
    if len(docs) < adapter.MIN_PAIRS:
        return None
    code = adapter.pairs(_matched(rows))
    maps = [
        adapter.fit(*_pair_vectors(found, emb)) if len(found) >= adapter.MIN_PAIRS else None
        for found in (code, docs)
    ]
    is_code = np.array([r.layer.startswith("C") for r in embedded])

    def order(
        qs: np.ndarray, asked: list[dict[str, Any]], weight: float, rule: str
    ) -> list[list[int]]:
        out = []
        for q, a in zip(qs, asked, strict=True):
            docs_too = rule == "all" or (rule == "statements" and not is_question(a["query"]))
            moved = {True: _moved(q, maps[0], weight), False: q}
            if docs_too:
                moved[False] = _moved(q, maps[1], weight)
            lists = {
                kind: iter(j for j in np.argsort(-(vectors @ v)) if is_code[j] == kind)
                for kind, v in moved.items()
            }
            out.append([next(lists[bool(is_code[j])]) for j in np.argsort(-(vectors @ q))[:K]])
        return out

    return {
        f"{label}, weight {w:g}": lambda qs, asked, w=w, rule=rule: order(qs, asked, w, rule)
        for w in args.weights
        for label, rule in (
            ("code map", "code"),
            ("docs map too", "all"),
            ("docs map, not for questions", "statements"),
        )
    }


def _moved(q: np.ndarray, m: np.ndarray | None, weight: float) -> np.ndarray:
    return q if m is None else adapter.adapt(q, m, weight)


def _matched(rows: list[Record]) -> list[tuple[str, Record]]:
    """The engine's (summary, chunk) matches over an index's rows (chunks with a vector)."""
    chunks: dict[str, list[Record]] = defaultdict(list)
    for r in rows:
        if r.vector is not None and r.layer == C0_SOURCE_CHUNKS:
            chunks[r.path].append(r)
    return adapter.matches([r for r in rows if r.layer == C1_SYMBOL_CATALOG], chunks)


def _pair_vectors(
    found: list[tuple[str, str]], emb: SentenceTransformerEmbedder
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs' two sides embedded, row by row (each distinct text once)."""
    texts = sorted({t for pair in found for t in pair})
    vecs = dict(zip(texts, emb.embed_documents(texts), strict=True))
    return np.stack([vecs[s] for s, _ in found]), np.stack([vecs[t] for _, t in found])


def _ranked(
    orders: list[list[int]], rows: Sequence[Record], asked: list[dict[str, Any]]
) -> list[float]:
    out = []
    for order, q in zip(orders, asked, strict=True):
        found = first_hit_rank(
            [Retrieved(rows[j].path, rows[j].span_start, rows[j].span_end) for j in order],
            [Target(t["path"], t["start"], t["end"]) for t in q["targets"]],
        )
        out.append(1.0 / found if found else 0.0)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("results")
    p.add_argument("--build", default="")
    p.add_argument("--ridge", default="1", type=lambda s: [float(x) for x in s.split(",")])
    p.add_argument("--weights", default="0.5,1", type=lambda s: [float(x) for x in s.split(",")])
    p.add_argument("--with-doc", action="store_true")
    p.add_argument("--cv", action="store_true")
    p.add_argument("--docs", action="store_true")
    p.add_argument("--sentences", default="3", type=lambda s: [int(x) for x in s.split(",") if x])
    p.add_argument("--corpus", nargs="*", default=[])
    args = p.parse_args(argv)
    data = json.loads(Path(args.results).read_text(encoding="utf-8"))
    build = args.build or data["meta"]["strata"]
    asked: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for q in data["queries"]:
        if q["system"].startswith("strata semantic"):
            asked[q["repo"]].append(q)
    emb = SentenceTransformerEmbedder.load(MODEL, "auto", 32)
    family: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for repo, qs in sorted(asked.items()):
        if args.corpus and not repo.startswith(tuple(args.corpus)):
            continue
        found = sorted(INDEXES.glob(f"{repo}-*-{MODEL}-{build}"))
        if not found:
            continue
        store = open_store(f"lancedb://{found[0] / 'lance'}", 384)
        rows = store.fetch(Filter())
        store.close()
        embedded = [r for r in rows if r.vector is not None]
        vectors = np.stack([r.vector for r in embedded])
        if args.docs:
            ranked = _docs_variants(rows, vectors, emb, args)
        else:
            moves = _variants(rows, vectors, emb, args)
            ranked = (
                None
                if moves is None
                else {
                    name: lambda qs, asked, move=move, v=vectors: _top(move(qs), v)
                    for name, move in moves.items()
                }
            )
        if ranked is None:
            continue
        plain = emb.embed_documents([q["query"] for q in qs])
        line = [repo]
        for name, rank in ranked.items():
            ranks = _ranked(rank(plain, qs), embedded, qs)
            by_set: dict[str, list[float]] = defaultdict(list)
            for q, r in zip(qs, ranks, strict=True):
                by_set[q["set"]].append(r)
                family[q["set"].split("-")[0]][name].append(r)
            line.append(name + ": " + ", ".join(f"{s} {np.mean(v):.3f}" for s, v in by_set.items()))
        print(" | ".join(line), flush=True)
    for fam, by_name in sorted(family.items()):
        cells = ", ".join(f"{name} {np.mean(v):.4f}" for name, v in by_name.items())
        print(f"{fam} ({len(next(iter(by_name.values())))}): {cells}")


if __name__ == "__main__":
    main()
