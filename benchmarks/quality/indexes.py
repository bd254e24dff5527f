"""One Strata index per corpus and embedder, cached by corpus hash, embedder and Strata build."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import shutil
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import strata
from benchmarks.quality.model import Corpus, tree_hash
from benchmarks.sdists import CACHE
from strata import Engine

log = logging.getLogger(__name__)

INDEXES = CACHE / "quality" / "indexes"
DONE = "bench-index.json"
# Packages that never write an index row (the import contract keeps `strata.index` from
# importing them): their changes do not make a new index.
READ_SIDE = frozenset({"query", "answer", "surfaces"})
KEEP_BUILDS = 3  # per corpus and model: the newest builds, enough to compare a few side by side


@functools.cache
def strata_build() -> str:
    """The installed Strata version plus a short hash of its sources (taken once per run).

    The version alone does not move while the engine is being developed, and an index
    built by older code would silently measure that older code. The read side (`READ_SIDE`:
    ranking, answers, surfaces) writes no rows, so a ranking change reuses the indexes.
    """
    pkg = Path(strata.__file__).resolve().parent
    digest = hashlib.blake2b(digest_size=4)
    for path in sorted(p for p in pkg.rglob("*") if p.suffix in (".py", ".scm")):
        if path.relative_to(pkg).parts[0] not in READ_SIDE:
            digest.update(path.read_bytes())
    return f"{version('strata-index')}+{digest.hexdigest()}"


def engine_config(embedder: str) -> dict[str, Any]:
    """The dotted-key configuration the benchmark passes to `Engine.open` (`none`: no
    vectors, for a quick lexical-only look at a ranking change)."""
    if embedder == "none":
        return {"embed.provider": "none"}
    return {"embed.provider": "local", "embed.model": embedder}


def open_index(
    corpus: Corpus, embedder: str, *, reindex: bool = False, store: str = "lancedb"
) -> tuple[Engine, dict[str, Any]]:
    """The engine over `corpus`, indexed in full unless a finished index of it is cached.
    `store="postgresql"`: its rows in the benchmark's PostgreSQL (`benchmarks/pgserver.py`).

    Returns the engine and the index facts (key, chunks per layer, seconds, reused).
    """
    build = strata_build() + ("+pg" if store == "postgresql" else "")
    key = f"{corpus.name}-{tree_hash(corpus.root)}-{embedder.replace('/', '_')}-{build}"
    index_dir = INDEXES / key
    done = index_dir / DONE
    if reindex and index_dir.exists():
        shutil.rmtree(index_dir)
    config = engine_config(embedder)
    if store == "postgresql":
        from benchmarks.pgserver import store_uri

        config["store.uri"] = store_uri(key)
        if not done.exists():  # whatever an unfinished run left in its schema goes too
            shutil.rmtree(index_dir, ignore_errors=True)
    eng = Engine.open(corpus.root, index_dir=index_dir, config=config)
    if done.exists():
        facts = json.loads(done.read_text(encoding="utf-8"))
        return eng, {**facts, "reused": True}
    _seed_embedding_cache(index_dir, key.rsplit("-", 1)[0])
    log.info("indexing %s with %s", corpus.name, embedder)
    started = time.perf_counter()
    summary = eng.index(full=True)
    facts = {
        "key": key,
        "rows_by_layer": dict(summary.rows_by_layer),
        "files_indexed": summary.indexed,
        "skipped": summary.skipped,
        "vectors_embedded": summary.vectors_embedded,
        "seconds": round(time.perf_counter() - started, 1),
    }
    done.write_text(json.dumps(facts, indent=2), encoding="utf-8")
    prune_builds(key.rsplit("-", 1)[0], keep=index_dir)
    return eng, {**facts, "reused": False}


def builds(stem: str) -> list[Path]:
    """The cached indexes of one corpus and model (`stem`), one per Strata build, newest
    first (a build never holds `-`, so `stem` cannot match another model's name)."""
    found = [
        d for d in INDEXES.glob(f"{stem}-*") if d.is_dir() and d.name.rsplit("-", 1)[0] == stem
    ]
    return sorted(found, key=lambda d: d.stat().st_mtime, reverse=True)


def prune_builds(stem: str, keep: Path) -> list[Path]:
    """Remove all but the `KEEP_BUILDS` newest builds of `stem` (`keep` always stays): an
    index is hundreds of MB, and one is made for every Strata change measured."""
    others = [d for d in builds(stem) if d != keep]
    gone = others[KEEP_BUILDS - 1 :]
    for d in gone:
        log.info("removing the cached index of an older build: %s", d.name)
        shutil.rmtree(d, ignore_errors=True)
    return gone


def _seed_embedding_cache(index_dir: Path, stem: str) -> None:
    """Start from the embedding cache of the newest earlier build of the same corpus and
    model. The cache is keyed by (model, chunk hash), so its vectors are exactly what the
    model gives for those chunks: a new Strata build re-embeds only chunks it changed."""
    cache = "embed_cache.sqlite"
    earlier = [d / cache for d in builds(stem) if d != index_dir and (d / cache).is_file()]
    if earlier and not (index_dir / cache).exists():
        newest = max(earlier, key=lambda p: p.stat().st_mtime)
        index_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(newest, index_dir / cache)
        log.info("seeded the embedding cache from %s", newest.parent.name)
