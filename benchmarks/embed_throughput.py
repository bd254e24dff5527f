"""Time to full quality: what it takes until every chunk of a ~1k-file repository has a
vector, against the embedding model's raw throughput on the same texts (issue 18, Must 5).

    python -m benchmarks.embed_throughput [--corpus sqlalchemy==2.0.36] [--files 1000]
        [--embedder local|none] [--raw-sample 1024] [--no-raw]

One process, in order:

1. a fresh copy of `--files` files of the pinned sdist (evenly spaced in path order) is
   indexed from scratch (`Engine.index(full=True)`, an empty embedding cache): searchable
   (lexically) after, fully embedded after, texts embedded, and the embed phase's rate
   (from its first `embed` progress event to the end of the call). `--embedder none`
   builds the lexical index only, for the figures below on a corpus too large to embed
   in the time at hand;
2. the texts the embedding pass owes (`text_to_embed` of the embedded layers, one per
   content hash), now and as before this change (C1 and C3 too), their token lengths,
   and the share of real (not padding) tokens each way of batching them leaves;
3. the default model alone on a seeded sample of those texts, in batches of
   `embed.batch_size`: in the store's order, sorted by token length, and sorted at fp32
   and at bf16 autocast, with the lowest cosine between each pair of vector sets.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import random
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.sdists import fetch_sdist
from strata import Engine
from strata.config import load_config
from strata.embedding import Embedder, make_embedder
from strata.embedding.buckets import token_counter
from strata.index.indexer import FILL_WINDOW
from strata.layers import ALL_LAYERS, C1_SYMBOL_CATALOG, C3_ENTRYPOINTS, EMBEDDED_LAYERS

log = logging.getLogger("benchmarks.embed_throughput")
RESULTS = Path(__file__).parent / "results" / "embed_throughput.json"
SKIP_DIRS = {".git", "__pycache__", "build", "dist"}
BEFORE_ALSO = (C1_SYMBOL_CATALOG, C3_ENTRYPOINTS)  # embedded until issue 18's Must 5, never read


def copy_files(src: Path, dest: Path, limit: int) -> int:
    """`limit` files of `src` (evenly spaced in path order; all when 0; skipped directories
    left out) copied under `dest`; returns how many were copied."""
    files = sorted(
        p
        for p in src.rglob("*")
        if p.is_file() and not SKIP_DIRS.intersection(p.relative_to(src).parts)
    )
    if limit and limit < len(files):  # evenly spaced: docs, examples, library and tests alike
        files = [files[i * len(files) // limit] for i in range(limit)]
    for p in files:
        target = dest / p.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, target)
    return len(files)


def index_run(root: Path, idx: Path, config: dict[str, Any]) -> dict[str, Any]:
    """Index `root` from scratch; the summary's figures and the embed phase's timing."""
    eng = Engine.open(root, index_dir=idx, config=config)
    _ = eng.store  # open the store (imports LanceDB) before the clock starts
    first_embed: list[float] = []

    def progress(phase: str, done: int, total: int, item: str) -> None:
        if phase == "embed" and not first_embed:
            first_embed.append(time.perf_counter())

    started = time.perf_counter()
    summary = eng.index(full=True, progress=progress)
    ended = time.perf_counter()
    embed_s = ended - (first_embed[0] if first_embed else ended)
    counts = eng.store.counts()
    return {
        "files_indexed": summary.indexed,
        "rows_by_layer": {k: v.get("rows", 0) for k, v in counts.items() if k in ALL_LAYERS},
        "vectors_by_layer": {
            k: v.get("vectors", 0) for k, v in counts.items() if v.get("vectors", 0)
        },
        "texts_embedded": summary.vectors_embedded,
        "vectors_missing": summary.vectors_missing,
        "searchable_s": round(summary.searchable_seconds, 2),
        "fully_embedded_s": round(ended - started, 2),
        "embed_phase_s": round(embed_s, 2),
        "indexer_texts_per_s": round(summary.vectors_embedded / embed_s, 1) if embed_s else None,
    }


def texts_of(eng: Engine, layers: Sequence[str]) -> list[str]:
    """The texts of `layers` an embedding pass embeds, in the store's order (one per
    content hash, as the embedding cache keys them)."""
    unique: dict[str, str] = {}
    for r in eng.records(layers):
        unique.setdefault(r.content_hash, r.text_to_embed)
    return list(unique.values())


def rate(embedder: Embedder, texts: Sequence[str], batch: int) -> tuple[float, np.ndarray]:
    """Texts/s of `embed_documents` over `texts` in consecutive batches of `batch`, and
    the vectors, row i for text i."""
    embedder.embed_documents(list(texts[:8]))  # warm up
    started = time.perf_counter()
    parts = [
        embedder.embed_documents(list(texts[i : i + batch])) for i in range(0, len(texts), batch)
    ]
    per_s = round(len(texts) / (time.perf_counter() - started), 1)
    return per_s, np.concatenate(parts) if parts else np.zeros((0, embedder.dim))


def local_embedder(precision: str = "auto", batch_size: int = 0) -> Embedder:
    """The default local model as `strata index` builds it (whatever the index used)."""
    embed = load_config(env={}).embed
    embed = dataclasses.replace(embed, provider="local", model="", precision=precision)
    if batch_size:
        embed = dataclasses.replace(embed, batch_size=batch_size)
    return make_embedder(embed)


def raw_rates(texts: list[str], sample: int, batch: int) -> dict[str, Any]:
    """The model alone on a seeded sample of the texts: as stored, sorted by token
    length, and sorted at each precision (fp32, bf16 autocast)."""
    picked = random.Random(7).sample(texts, min(sample, len(texts))) if sample else texts
    embedder = local_embedder()
    count = token_counter(embedder)
    order = sorted(range(len(picked)), key=lambda i: count(picked[i]))
    ordered = [picked[i] for i in order]
    as_stored, stored_vectors = rate(embedder, picked, batch)
    bucketed, sorted_vectors = rate(embedder, ordered, batch)
    # Does a text's vector depend on its batch companions (padding, bf16)? Cosine per text.
    cosine = (stored_vectors[order] * sorted_vectors).sum(axis=1)
    out = {
        "sample": len(picked),
        "batch_size": batch,
        "precision": getattr(embedder, "precision", None),
        "raw_texts_per_s_store_order": as_stored,
        "raw_texts_per_s_length_sorted": bucketed,
        "cosine_sorted_vs_store_order_min": round(float(cosine.min()), 5),
    }
    for precision in ("fp32", "bf16"):
        per_s, vectors = rate(local_embedder(precision), ordered, batch)
        out[f"raw_texts_per_s_length_sorted_{precision}"] = per_s
        cos = (vectors * sorted_vectors).sum(axis=1)
        out[f"cosine_{precision}_vs_default_min"] = round(float(cos.min()), 5)
    return out


def real_token_share(tokens: list[int], chars: list[int], batch: int) -> dict[str, float]:
    """Share of the tokens the model computes that are real (not padding): texts in store
    order; each window of 512 sorted by characters (the embed pass before this change);
    each window of `FILL_WINDOW` sorted by tokens (now); all texts sorted by tokens."""

    def share(order: list[int]) -> float:
        batches = [order[i : i + batch] for i in range(0, len(order), batch)]
        padded = sum(max(b) * len(b) for b in batches)
        return round(sum(order) / padded, 3) if padded else 1.0

    def windows(size: int, key: list[int]) -> list[int]:
        out: list[int] = []
        for lo in range(0, len(tokens), size):
            out += [
                tokens[i]
                for i in sorted(range(lo, min(lo + size, len(tokens))), key=key.__getitem__)
            ]
        return out

    return {
        "store_order": share(tokens),
        "chars_per_512": share(windows(512, chars)),
        f"tokens_per_{FILL_WINDOW}": share(windows(FILL_WINDOW, tokens)),
        "tokens_all": share(windows(max(1, len(tokens)), tokens)),
    }


def texts_figures(eng: Engine, batch: int) -> tuple[list[str], dict[str, Any]]:
    """What the embedding pass owes on this index: texts now and before this change (which
    embedded C1 and C3 too), their token lengths and the padding each batching leaves."""
    texts = texts_of(eng, EMBEDDED_LAYERS)
    counted = token_counter(local_embedder())
    tokens = [counted(t) for t in texts]
    before = len(texts_of(eng, (*EMBEDDED_LAYERS, *BEFORE_ALSO)))
    return texts, {
        "texts_to_embed": len(texts),
        "texts_to_embed_before": before,
        "tokens_mean": round(sum(tokens) / max(1, len(tokens)), 1),
        "real_token_share": real_token_share(tokens, [len(t) for t in texts], batch),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="sqlalchemy==2.0.36")
    parser.add_argument("--files", type=int, default=1000, help="N files, evenly spaced (0 = all)")
    parser.add_argument("--embedder", default="local", choices=["local", "none"])
    parser.add_argument("--raw-sample", type=int, default=1024, help="texts for the raw rate")
    parser.add_argument("--no-raw", action="store_true", help="the indexer's figures only")
    parser.add_argument("--label", default="", help="a name for this run in the results")
    parser.add_argument("--json", type=Path, default=RESULTS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    name, version = args.corpus.split("==")
    src = fetch_sdist(name, version)
    config: dict[str, Any] = {"embed.provider": args.embedder}
    with tempfile.TemporaryDirectory(prefix="embed-throughput-") as tmp:
        root, idx = Path(tmp) / name, Path(tmp) / "idx"
        files = copy_files(src, root, args.files)
        log.info("indexing %d files of %s", files, args.corpus)
        out: dict[str, Any] = {"corpus": args.corpus, "files_copied": files, "config": config}
        out |= index_run(root, idx, config)
        log.info("%s", json.dumps(out))
        eng = Engine.open(root, index_dir=idx, config=config)
        batch = eng.config.embed.batch_size
        texts, figures = texts_figures(eng, batch)
        out |= figures
        if not args.no_raw:
            out |= raw_rates(texts, args.raw_sample, batch)
    best = out.get("raw_texts_per_s_length_sorted")
    if out["indexer_texts_per_s"] and best:
        out["indexer_over_raw_sorted"] = round(out["indexer_texts_per_s"] / best, 3)
    if best:  # what the whole pass takes at the model's best rate on these texts
        out["embed_at_raw_rate_s"] = round(out["texts_to_embed"] / best, 1)
        out["embed_at_raw_rate_before_s"] = round(out["texts_to_embed_before"] / best, 1)
    out |= {"load": os.getloadavg(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    previous = json.loads(args.json.read_text()) if args.json.exists() else {}
    previous[args.label or f"{name}-{files}-{args.embedder}"] = out
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(previous, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
