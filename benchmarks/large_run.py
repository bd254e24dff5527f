"""Speed and memory at ~30k and >= 100k chunks: the "Speed" targets in docs/benchmarks.md.

    python -m benchmarks.large_run [--small sqlalchemy==2.0.36] \
        [--large sqlalchemy==2.0.36 django==5.1.4 sympy==1.13.3] [--queries 300]

For each corpus (pinned sdists from PyPI, unpacked side by side under one root) and each
`--*-model`, an index is built from scratch in a fresh process (`embed.provider=local`).
Recorded: time to lexically searchable and to fully embedded, rows per layer, vectors,
peak RSS while indexing, `optimize()` and ANN build time, index size; a bare bm25s build
over the same C0+D0 chunk texts (its tokenisation is the quality baseline's); warm
in-process query latency p50/p95 for lexical, semantic and hybrid, routed
(`Engine.search(q)`) and plain (`route=False`), each in a fresh searcher process whose
peak RSS is read from /proc; where a warm hybrid query spends its time; and, where the
store built an ANN index, its recall@10 against exact flat search on the same query
vectors. Queries are drawn from the corpus with a fixed seed: first sentences of
docstrings and bare function names. Results go to `benchmarks/results/large_run.json`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results" / "large_run.json"
MODES = ("lexical", "semantic", "hybrid")
PASSAGES = ("C0_SOURCE_CHUNKS", "D0_DOC_CHUNKS")
# (nprobes, refine_factor): the first is what `LanceStore.vector_search` uses.
ANN_SETTINGS = ((20, 5), (20, 1), (50, 10), (100, 20))
# (what the searcher queries, LanceDB cache cap in MB or "default")
MEMORY_CASES = (("both", "default"), ("lexical", "default"), ("vector", "default"), ("both", "64"))

JSON = dict[str, Any]


# ---- small helpers ----------------------------------------------------------------------


def proc_status(field: str) -> float:
    """A memory line of /proc/self/status (`VmHWM`, `VmRSS`) in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentiles(samples: Sequence[float]) -> JSON:
    """p50, p95 and mean of milliseconds, rounded."""
    if not samples:
        return {}
    s = sorted(samples)
    p95 = s[int(0.95 * (len(s) - 1))]
    return {
        "p50": round(statistics.median(s), 2),
        "p95": round(p95, 2),
        "mean": round(statistics.fmean(s), 2),
        "n": len(s),
    }


def load() -> float:
    """The 1-minute load average."""
    return round(os.getloadavg()[0], 2)


def du_mb(path: Path) -> float:
    return round(sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6, 1)


def child(*args: str) -> JSON:
    """Run `python -m benchmarks.large_run <args>` in a fresh process; its last stdout line."""
    cmd = [sys.executable, "-m", "benchmarks.large_run", *args]
    out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr[-4000:])
        out.check_returncode()
    result: JSON = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def match(terms: Sequence[str]) -> Any:
    """The FTS query `LanceStore.lexical_search` sends: any of the terms, exact."""
    from strata.store.schema import match_query

    return match_query(list(terms))


def engine_config(model: str) -> JSON:
    return {"embed.provider": "local", "embed.model": model}


# ---- child: index -----------------------------------------------------------------------


def child_index(argv: list[str]) -> None:
    """Index `root` into `idx` from scratch; print the summary, timings and peak RSS."""
    root, idx, model = argv
    from strata import Engine
    from strata.store import lance

    spent = {"optimize": 0.0, "ann_build": 0.0}

    def timing(name: str, fn: Callable[[Any], None]) -> Callable[[Any], None]:
        def wrapped(self: Any) -> None:
            t = time.monotonic()
            fn(self)
            spent[name] += time.monotonic() - t

        return wrapped

    for attr, name in (("optimize", "optimize"), ("_maybe_build_ann", "ann_build")):
        setattr(lance.LanceStore, attr, timing(name, getattr(lance.LanceStore, attr)))
    t0 = time.monotonic()
    eng = Engine.open(root, index_dir=idx, config=engine_config(model))
    summary = eng.index(full=True)
    out = summary.to_json()
    out.pop("skips", None)
    out["index_call"] = time.monotonic() - t0
    out["optimize_seconds"] = spent["optimize"]
    out["ann_build_seconds"] = spent["ann_build"]
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["children_maxrss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    out["vectors_in_store"] = sum(c["vectors"] for c in eng.store.counts().values())
    print(json.dumps(out))


# ---- child: search ----------------------------------------------------------------------


def child_search(argv: list[str]) -> None:
    """Open an index, warm up, time every query in each (mode, routed) pair; peak RSS."""
    idx, model, queries_file, pairs = argv[0], argv[1], argv[2], argv[3].split(",")
    qs = json.loads(Path(queries_file).read_text())
    from strata import Engine

    rss: JSON = {"after_import": proc_status("VmRSS")}
    eng = Engine.open(index_dir=idx, config=engine_config(model))
    _ = eng.store
    rss["after_open"] = proc_status("VmRSS")
    eng.keep_warm()  # what `strata serve` does: passages in memory, the query model loaded
    rss["after_keep_warm"] = proc_status("VmRSS")
    out: JSON = {"latency_ms": {}}
    for pair in pairs:
        mode, routed = pair.split(":")
        route = routed == "routed"
        for q in qs["warmup"]:
            eng.search(q["text"], k=10, mode=mode, route=route)
        times: dict[str, list[float]] = {"all": [], "sentence": [], "name": []}
        for q in qs["timed"]:
            t = time.perf_counter()
            eng.search(q["text"], k=10, mode=mode, route=route)
            ms = (time.perf_counter() - t) * 1000
            times["all"].append(ms)
            times[q["type"]].append(ms)
        out["latency_ms"][pair] = {k: percentiles(v) for k, v in times.items()}
        rss[f"after_{pair}"] = proc_status("VmRSS")
    rss["peak"] = proc_status("VmHWM")
    out["rss_mb"] = {k: round(v, 1) for k, v in rss.items()}
    out["query_embedder"] = eng.query_embedder().name
    print(json.dumps(out))


# ---- child: where a warm hybrid query spends its time ------------------------------------


def child_breakdown(argv: list[str]) -> None:
    """Wall time of each stage of warm routed hybrid queries (timers around the stages),
    then a cProfile of the same queries: its top functions by cumulative time."""
    idx, model, queries_file, kind = argv
    qs = json.loads(Path(queries_file).read_text())
    texts = [q["text"] for q in qs["timed"] if kind == "all" or q["type"] == kind]
    import cProfile
    import io
    import pstats

    from strata import Engine
    from strata.query.hybrid import Searcher

    eng = Engine.open(index_dir=idx, config=engine_config(model))
    for q in qs["warmup"]:
        eng.search(q["text"], k=10)
    spent: dict[str, float] = {}

    def timer(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - t

        return wrapped

    store, emb = eng.store, eng.query_embedder()
    stages = {
        "router (Engine.plan)": (eng, "plan"),
        "query embedding": (emb, "embed_query"),
        "LanceDB FTS (lexical_search)": (store, "lexical_search"),
        "LanceDB vector search (vector_search)": (store, "vector_search"),
        "store.sources() (path filters)": (store, "sources"),
        "store.counts()": (store, "counts"),
    }
    for name, (obj, attr) in stages.items():
        setattr(obj, attr, timer(name, getattr(obj, attr)))
    rank = Searcher._rank
    Searcher._rank = timer("fusion + ranking (Searcher._rank)", rank)  # type: ignore[method-assign]
    search = Searcher.search
    Searcher.search = timer("Searcher.search (total)", search)  # type: ignore[method-assign]
    t = time.perf_counter()
    for q in texts:
        eng.search(q, k=10)
    total = time.perf_counter() - t
    per_query = {k: round(v / len(texts) * 1000, 3) for k, v in sorted(spent.items())}
    per_query["whole Engine.search"] = round(total / len(texts) * 1000, 3)
    Searcher._rank, Searcher.search = rank, search  # type: ignore[method-assign]
    for obj, attr in stages.values():
        delattr(obj, attr)
    prof = cProfile.Profile()
    prof.enable()
    for q in texts:
        eng.search(q, k=10)
    prof.disable()
    text = io.StringIO()
    stats = pstats.Stats(prof, stream=text)
    stats.sort_stats("cumulative").print_stats(30)
    tops = stats.sort_stats("tottime")
    tops.print_stats(20)
    print(
        json.dumps({"queries": len(texts), "per_query_ms": per_query, "profile": text.getvalue()})
    )


# ---- child: what the same queries cost done differently ----------------------------------


def child_whatif(argv: list[str]) -> None:  # noqa: C901 - a what-if script: four variants in a row
    """Warm p50/p95 of the store calls a hybrid query makes, as the engine makes them and
    done differently on the same index: fewer columns, no per-call version check, the
    passage vectors in a numpy matrix, FTS and vector search in two threads."""
    idx, model, queries_file = argv
    qs = json.loads(Path(queries_file).read_text())
    texts = [q["text"] for q in qs["timed"] if q["type"] == "sentence"]
    from concurrent.futures import ThreadPoolExecutor

    import lancedb
    import numpy as np

    from strata import Engine
    from strata.store import Filter, sql
    from strata.store import lance as lance_store
    from strata.text.tokens import query_terms

    eng = Engine.open(index_dir=idx, config=engine_config(model))
    store: Any = eng.store
    emb = eng.query_embedder()
    terms = [query_terms(q)[:64] for q in texts]
    vecs = [np.asarray(emb.embed_query(q), dtype=np.float32) for q in texts]
    lex_where, vec_where = Filter(layers=PASSAGES), Filter(layers=PASSAGES, has_vector=True)
    pred = sql.where(vec_where, vectors=True)
    lex_pred = sql.where(lex_where, vectors=True)
    quiet = lancedb.connect(str(store.directory), read_consistency_interval=None)
    tables = {"0 (as now)": store._table, "None": quiet.open_table("chunks")}
    has_ann = "vector_idx" in store._index_names()

    def fts(table: Any, i: int, cols: list[str], where: str | None = lex_pred) -> Any:
        q = match(terms[i])
        b = table.search(q, query_type="fts").select(cols)
        if where:
            b = b.where(where, prefilter=True)
        return b.limit(100).to_arrow()

    def knn(table: Any, i: int, cols: list[str], where: str | None = pred) -> Any:
        b = table.search(vecs[i], vector_column_name="vector", query_type="vector")
        b = b.distance_type("cosine").select(cols).limit(100)
        if where:
            b = b.where(where, prefilter=True)
        if has_ann and table is not split:
            b = b.nprobes(20).refine_factor(5)
        return b.to_arrow()

    rows = store._table.search().where(pred).select(["id", "vector", "lex"]).to_arrow()
    scratch = Path(idx) / "whatif-passages"
    shutil.rmtree(scratch, ignore_errors=True)
    split = lancedb.connect(str(scratch)).create_table("passages", rows)
    t = time.perf_counter()
    split.create_index("lex", config=lance_store.FULL_TEXT, name="lex_idx")
    fts_build = time.perf_counter() - t
    matrix = np.asarray(rows.column("vector").combine_chunks().flatten(), dtype=np.float32)
    matrix = matrix.reshape(rows.num_rows, -1)
    row_ids = rows.column("id").to_pylist()

    def brute(i: int) -> list[str]:
        scores = matrix @ vecs[i]
        top = np.argpartition(-scores, 100)[:100]
        return [row_ids[j] for j in top[np.argsort(-scores[top])]]

    pool = ThreadPoolExecutor(2)

    def bound(fn: Callable[[Any, int, list[str]], Any], table: Any, cols: list[str]) -> Any:
        return lambda i: fn(table, i, cols)

    def both_threads(i: int) -> None:
        a = pool.submit(store.lexical_search, terms[i], 100, lex_where)
        b = pool.submit(store.vector_search, vecs[i], 100, vec_where)
        a.result(), b.result()

    six = ["id", "path", "layer", "title", "content", "metadata"]
    cases: dict[str, Callable[[int], Any]] = {
        "query embedding": lambda i: emb.embed_query(texts[i]),
        "store.version (one consistency check)": lambda i: store.version,
        "store.counts()": lambda i: store.counts(),
        "store.lexical_search top-100 (as now)": lambda i: store.lexical_search(
            terms[i], 100, lex_where
        ),
        "store.vector_search top-100 (as now)": lambda i: store.vector_search(
            vecs[i], 100, vec_where
        ),
        "lexical + vector, sequential (as now)": lambda i: (
            store.lexical_search(terms[i], 100, lex_where),
            store.vector_search(vecs[i], 100, vec_where),
        ),
        "lexical ‖ vector in two threads": both_threads,
        "numpy exact top-100 over the passage vectors in RAM": brute,
    }
    for interval, table in tables.items():
        for cols, label in ((["_score", *six], "6 columns"), (["id", "_score"], "id + score")):
            cases[f"FTS top-100, {label}, consistency {interval}"] = bound(fts, table, cols)
        for cols, label in (
            (["_distance", *six], "6 columns"),
            (["id", "_distance"], "id + distance"),
        ):
            cases[f"vector top-100, {label}, consistency {interval}"] = bound(knn, table, cols)
    cases["FTS top-100, id + score, no prefilter"] = lambda i: fts(
        tables["None"], i, ["id", "_score"], None
    )
    cases["vector top-100, id + distance, no prefilter"] = lambda i: knn(
        tables["None"], i, ["id", "_distance"], None
    )
    cases["passages-only table: FTS top-100, id + score"] = lambda i: fts(
        split, i, ["id", "_score"], None
    )
    cases["passages-only table: flat vector top-100, id + distance"] = lambda i: knn(
        split, i, ["id", "_distance"], None
    )
    out: JSON = {"queries": len(texts), "passage_vectors": len(row_ids), "has_ann": has_ann}
    out["matrix_mb"] = round(matrix.nbytes / 1e6, 1)
    out["passages_table_fts_build_s"] = round(fts_build, 2)
    for name, fn in cases.items():
        for i in range(min(10, len(texts))):
            fn(i)
        ms = []
        for i in range(len(texts)):
            t = time.perf_counter()
            fn(i)
            ms.append((time.perf_counter() - t) * 1000)
        out[name] = percentiles(ms)
    shutil.rmtree(scratch, ignore_errors=True)
    from strata.layers import EMBEDDED_LAYERS

    scans = []
    for _ in range(5):  # what each 512-row step of the embedding phase starts with
        t = time.perf_counter()
        store.missing_vectors(512, EMBEDDED_LAYERS)
        scans.append((time.perf_counter() - t) * 1000)
    out["missing_vectors(512) scan (starts every embedding step)"] = percentiles(scans)
    out["table_rows"] = store._table.count_rows()
    print(json.dumps(out))


# ---- child: what a searcher's memory is made of -----------------------------------------


def child_memory(argv: list[str]) -> None:
    """Peak RSS of a process that embeds queries and runs the engine's two store queries
    (FTS top-100, vector top-100, C0+D0 prefilter) straight on LanceDB, with the
    default cache session or a capped one; `what` is lexical, vector or both."""
    idx, model, queries_file, what, cache_mb = argv
    texts = [q["text"] for q in json.loads(Path(queries_file).read_text())["timed"]]
    import lancedb
    import numpy as np

    from strata import Engine
    from strata.store import Filter, sql
    from strata.text.tokens import query_terms

    rss: JSON = {"after_import": proc_status("VmRSS")}
    eng = Engine.open(index_dir=idx, config=engine_config(model))
    emb = eng.query_embedder() if what != "lexical" else None
    rss["after_query_embedder"] = proc_status("VmRSS")
    session = None
    if cache_mb != "default":
        size = int(cache_mb) * 2**20
        session = lancedb.Session(index_cache_size_bytes=size, metadata_cache_size_bytes=size)
    db = lancedb.connect(str(Path(idx) / "lance"), session=session)
    table = db.open_table("chunks")
    has_ann = "vector_idx" in {ix.name for ix in table.list_indices()}
    pred = sql.where(Filter(layers=PASSAGES, has_vector=True), vectors=True)
    lex_pred = sql.where(Filter(layers=PASSAGES), vectors=True)
    rss["after_open"] = proc_status("VmRSS")
    ms = []
    for text in texts:
        t = time.perf_counter()
        if what in ("lexical", "both"):
            f: Any = table.search(match(query_terms(text)[:64]), query_type="fts")
            f.select(["id", "_score"]).where(lex_pred, prefilter=True).limit(100).to_arrow()
        if emb is not None:
            vec = np.asarray(emb.embed_query(text), dtype=np.float32)
            b: Any = table.search(vec, vector_column_name="vector", query_type="vector")
            b = b.distance_type("cosine").select(["id", "_distance"]).where(pred, prefilter=True)
            if has_ann:
                b = b.nprobes(20).refine_factor(5)
            b.limit(100).to_arrow()
        ms.append((time.perf_counter() - t) * 1000)
    rss["peak"] = proc_status("VmHWM")
    out: JSON = {"what": what, "cache_mb": cache_mb, "ms": percentiles(ms[30:])}
    out["rss_mb"] = {k: round(v, 1) for k, v in rss.items()}
    if session is not None:
        out["session_cache_mb"] = round(session.size_bytes / 1e6, 1)
    print(json.dumps(out))


# ---- child: where lexical indexing spends its time ---------------------------------------

INDEX_STAGES = {
    "discover files": ("strata/index/discovery.py", "discover"),
    "read + decode files": ("strata/index/extraction.py", "extract"),
    "chunk code and text windows (C0)": ("strata/index/chunking/__init__.py", "chunk"),
    "doc layers (D0-D6 records)": ("strata/index/docs/build.py", "document_records"),
    "code items: symbols, edges, entry points": ("strata/index/pipeline.py", "_code_items"),
    "C4 roles": ("strata/index/code/roles.py", "assign_roles"),
    "store writes (replace_sources)": ("strata/store/lance.py", "replace_sources"),
    "  of which rows to Arrow (incl. `lex` tokens)": ("strata/store/arrow.py", "to_arrow"),
    "  of which the FTS and layer index builds": ("strata/store/lance.py", "ensure_indexes"),
    "cross-file pass (refresh_corpus)": ("strata/index/corpus/apply.py", "refresh_corpus"),
    "searchable (Indexer.run)": ("strata/index/indexer.py", "run"),
    "optimize()": ("strata/store/lance.py", "optimize"),
    "whole Engine.index": ("strata/engine/__init__.py", "index"),
}


def child_index_profile(argv: list[str]) -> None:
    """Lexical-only cold index in one process (`index.workers=1`) under cProfile: seconds
    of cumulative time in each stage. Profiling slows pure-Python parts more than I/O."""
    import cProfile
    import pstats

    from strata import Engine

    root, idx = argv
    eng = Engine.open(root, index_dir=idx, config={"embed.provider": "none", "index.workers": 1})
    _ = eng.store
    prof = cProfile.Profile()
    t = time.monotonic()
    prof.enable()
    summary = eng.index(full=True)
    prof.disable()
    wall = time.monotonic() - t
    raw: Any = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    seconds: JSON = {}
    for name, (suffix, func) in INDEX_STAGES.items():
        cum = [v[3] for (file, _, fn), v in raw.items() if file.endswith(suffix) and fn == func]
        seconds[name] = round(sum(cum), 2)
    print(
        json.dumps(
            {
                "wall_profiled": round(wall, 1),
                "searchable_seconds_profiled": round(summary.searchable_seconds, 1),
                "seconds": seconds,
            }
        )
    )


# ---- the orchestration ------------------------------------------------------------------


def prepare(specs: Sequence[str], root: Path) -> JSON:
    """Copy each unpacked sdist to `root/<name>-<version>`; count files."""
    from benchmarks.sdists import fetch_sdist

    if not root.exists():
        tmp = root.with_name(root.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        for spec in specs:
            name, version = spec.split("==")
            shutil.copytree(fetch_sdist(name, version), tmp / f"{name}-{version}")
        tmp.rename(root)
    return {
        "sdists": list(specs),
        "files_on_disk": sum(1 for p in root.rglob("*") if p.is_file()),
        "py_files": sum(1 for p in root.rglob("*.py") if p.is_file()),
    }


def make_queries(root: Path, n: int, warmup: int, seed: int) -> JSON:
    """Docstring first sentences (2/3) and bare function names (1/3) drawn from the
    corpus with a fixed seed; the warm-up queries are disjoint from the timed ones."""
    from benchmarks.quality.blanking import first_sentence
    from benchmarks.quality.docstring_queries import candidates
    from benchmarks.quality.pydefs import definitions, python_files

    defs = [d for rel in python_files(root) for d in definitions(root, rel)]
    sentences = sorted({first_sentence(d.doc) for d in candidates(defs) if d.doc})
    names = sorted(
        {
            d.name
            for d in defs
            if d.kind != "class" and len(d.name) >= 6 and not d.name.startswith(("_", "test"))
        }
    )
    rng = random.Random(seed)
    n_sent, n_warm_sent = 2 * n // 3, 2 * warmup // 3
    sent = rng.sample(sentences, n_sent + n_warm_sent)
    name = rng.sample(names, (n - n_sent) + (warmup - n_warm_sent))

    def tagged(texts: list[str], kind: str) -> list[JSON]:
        return [{"text": t, "type": kind} for t in texts]

    timed = tagged(sent[:n_sent], "sentence") + tagged(name[: n - n_sent], "name")
    warm = tagged(sent[n_sent:], "sentence") + tagged(name[n - n_sent :], "name")
    rng.shuffle(timed)
    return {"seed": seed, "timed": timed, "warmup": warm}


def bm25s_baseline(idx: Path, model: str) -> JSON:
    """Seconds for a bare bm25s build (tokenise + index) over the index's C0+D0 texts."""
    import bm25s

    from benchmarks.quality.baseline import plain_tokens
    from strata import Engine

    eng = Engine.open(index_dir=idx, config=engine_config(model))
    texts = [r.content for r in eng.records(PASSAGES)]
    eng.close()
    t0 = time.perf_counter()
    tokens = [plain_tokens(t) for t in texts]
    t1 = time.perf_counter()
    bm25s.BM25().index(tokens, show_progress=False)
    t2 = time.perf_counter()
    return {
        "chunks": len(texts),
        "tokenise_s": round(t1 - t0, 2),
        "index_s": round(t2 - t1, 2),
        "build_s": round(t2 - t0, 2),
    }


def ann_recall(idx: Path, model: str, qs: JSON) -> JSON:
    """Recall@10 and latency of the ANN index against exact flat search, same vectors.

    Two scopes: the passages a free-text search asks for (C0+D0, prefiltered, as
    `Searcher` does), and every vector row (no filter).
    """
    import numpy as np

    from strata import Engine
    from strata.store import sql

    eng = Engine.open(index_dir=idx, config=engine_config(model))
    table = eng.store._table  # type: ignore[attr-defined]
    emb = eng.query_embedder()
    vecs = [np.asarray(emb.embed_query(q["text"]), dtype=np.float32) for q in qs["timed"]]
    scopes = {
        "passages": "has_vector = TRUE AND " + sql.in_list("layer", list(PASSAGES)),
        "all_vectors": "has_vector = TRUE",
    }

    def ids(vec: Any, where: str, setting: tuple[int, int] | None) -> list[str]:
        b = table.search(vec, vector_column_name="vector", query_type="vector")
        b = b.distance_type("cosine").select(["id", "_distance"]).where(where, prefilter=True)
        b = b.limit(10)
        if setting is None:
            b = b.bypass_vector_index()
        else:
            b = b.nprobes(setting[0]).refine_factor(setting[1])
        return list(b.to_arrow().column("id").to_pylist())

    def run(where: str, setting: tuple[int, int] | None) -> tuple[list[list[str]], list[float]]:
        for v in vecs[:10]:
            ids(v, where, setting)  # warm up
        got, ms = [], []
        for v in vecs:
            t = time.perf_counter()
            got.append(ids(v, where, setting))
            ms.append((time.perf_counter() - t) * 1000)
        return got, ms

    out: JSON = {"queries": len(vecs), "has_ann": "vector_idx" in eng.store._index_names()}  # type: ignore[attr-defined]
    for scope, where in scopes.items():
        exact, ms = run(where, None)
        res: JSON = {"exact_flat_ms": percentiles(ms)}
        for setting in ANN_SETTINGS if out["has_ann"] else ():
            got, ms = run(where, setting)
            recall = [
                len(set(a) & set(b)) / max(1, len(a)) for a, b in zip(exact, got, strict=True)
            ]
            res[f"nprobes={setting[0]},refine={setting[1]}"] = {
                "recall@10": round(statistics.fmean(recall), 3),
                "ms": percentiles(ms),
            }
        out[scope] = res
    return out


def run_index(label: str, specs: Sequence[str], model: str, args: argparse.Namespace) -> JSON:
    """Every measure for one corpus and one model."""
    work: Path = args.work
    root = work / ("root-" + "+".join(s.replace("==", "-") for s in specs))
    res: JSON = {"label": label, "model": model, "load_start": load()}
    res["corpus"] = prepare(specs, root)
    idx = work / f"idx-{label}-{model}"
    saved = work / f"idx-{label}-{model}.json"
    if args.reuse and saved.exists():
        res["index"] = json.loads(saved.read_text())
    else:
        shutil.rmtree(idx, ignore_errors=True)
        res["index"] = child("_index", str(root), str(idx), model)
        res["index"]["load_after"] = load()
        saved.write_text(json.dumps(res["index"]))
    ix = res["index"]
    embed_s = ix["seconds"] - ix["searchable_seconds"]
    ix["embed_rate"] = round(ix["vectors_embedded"] / embed_s, 1) if embed_s > 0 else None
    res["index_mb"] = du_mb(idx)
    res["lance_mb"] = du_mb(idx / "lance")
    qfile = work / f"queries-{label}.json"
    if not qfile.exists():
        qfile.write_text(json.dumps(make_queries(root, args.queries, args.warmup, args.seed)))
    qs = json.loads(qfile.read_text())
    res["bm25s"] = bm25s_baseline(idx, model)
    res["lexical_searchable_vs_bm25s"] = round(
        ix["searchable_seconds"] / res["bm25s"]["build_s"], 2
    )
    res["load_before_search"] = load()
    res["search_hybrid"] = child(
        "_search", str(idx), model, str(qfile), "hybrid:routed,hybrid:plain"
    )
    others = [f"{m}:{r}" for m in ("lexical", "semantic") for r in ("routed", "plain")]
    res["search_other"] = child("_search", str(idx), model, str(qfile), ",".join(others))
    res["breakdown"] = {
        kind: child("_breakdown", str(idx), model, str(qfile), kind)
        for kind in ("sentence", "name")
    }
    res["whatif"] = child("_whatif", str(idx), model, str(qfile))
    if args.index_profile and label == "small" and model == args.small_models[0]:
        scratch = work / "idx-profile"
        shutil.rmtree(scratch, ignore_errors=True)
        res["index_profile"] = child("_index_profile", str(root), str(scratch))
        shutil.rmtree(scratch, ignore_errors=True)
    res["memory"] = [
        child("_memory", str(idx), model, str(qfile), what, cache) for what, cache in MEMORY_CASES
    ]
    res["ann"] = ann_recall(idx, model, qs)
    res["load_end"] = load()
    return res


def column(r: JSON) -> dict[str, str]:
    """One run's figures, as table cells keyed by the row's name."""
    ix, hy, other = r["index"], r["search_hybrid"], r["search_other"]
    routed = hy["latency_ms"]["hybrid:routed"]
    cells = {
        "corpus": ", ".join(r["corpus"]["sdists"]),
        "embedder": r["model"],
        "files on disk / indexed": f"{r['corpus']['files_on_disk']:,} / {ix['indexed']:,}",
        "C0 + D0 chunks": f"{r['bm25s']['chunks']:,}",
        "rows": " · ".join(
            f"{k.split('_')[0]} {v:,}" for k, v in sorted(ix["rows_by_layer"].items())
        ),
        "vectors": f"{ix['vectors_in_store']:,}",
        "lexically searchable after (s)": f"{ix['searchable_seconds']:.1f}",
        "bare bm25s build over C0+D0 (s)": f"{r['bm25s']['build_s']:.1f}",
        "searchable / bm25s": f"{r['lexical_searchable_vs_bm25s']:.1f}×",
        "fully embedded after (s)": f"{ix['seconds']:.1f} ({ix['embed_rate']} texts/s)",
        "optimize() incl. ANN build (s)": (
            f"{ix['optimize_seconds']:.1f} (ANN {ix['ann_build_seconds']:.1f})"
        ),
        "peak RSS indexing: main / workers (MB)": (
            f"{ix['maxrss_mb']:,.0f} / {ix['children_maxrss_mb']:,.0f}"
        ),
        "index size (MB)": f"{r['index_mb']:,.0f} (lance {r['lance_mb']:,.0f})",
    }
    for mode in MODES:
        for how in ("routed", "plain"):
            pair = f"{mode}:{how}"
            p = (hy if mode == "hybrid" else other)["latency_ms"][pair]["all"]
            cells[f"warm {mode}, {how}, p50 / p95 (ms)"] = f"{p['p50']:.1f} / {p['p95']:.1f}"
    cells["warm hybrid routed p50: sentences / names (ms)"] = (
        f"{routed['sentence']['p50']:.1f} / {routed['name']['p50']:.1f}"
    )
    rss = hy["rss_mb"]
    cells["searcher peak RSS, hybrid (MB)"] = (
        f"{rss['peak']:,.0f} (after open {rss['after_open']:,.0f})"
    )
    cells["query embedder"] = hy["query_embedder"]
    for scope, name in (("passages", "C0+D0"), ("all_vectors", "all vectors")):
        a = r["ann"][scope]
        flat = a["exact_flat_ms"]["p50"]
        key = f"nprobes={ANN_SETTINGS[0][0]},refine={ANN_SETTINGS[0][1]}"
        cells[f"ANN recall@10 vs flat, {name}"] = (
            f"{a[key]['recall@10']:.3f} (p50 {a[key]['ms']['p50']:.1f} ms; flat {flat:.1f} ms)"
            if r["ann"]["has_ann"]
            else f"no ANN index (flat p50 {flat:.1f} ms)"
        )
    cells["load average start / end"] = f"{r['load_start']} / {r['load_end']}"
    return cells


def table(head: str, rows: dict[str, list[str]], results: list[JSON]) -> str:
    """A Markdown table: one row per key, one column per run."""
    names = " | ".join(f"{r['label']} ({r['model']})" for r in results)
    lines = [f"| {head} | {names} |", "|---" * (len(results) + 1) + "|"]
    lines += [f"| {name} | " + " | ".join(cells) + " |" for name, cells in rows.items()]
    return "\n".join(lines)


def details(results: list[JSON]) -> list[str]:
    """The secondary tables: stage times, what-ifs, memory cases, ANN settings, indexing."""
    out = []
    stages = results[0]["breakdown"]["sentence"]["per_query_ms"]
    rows = {
        k: [f"{r['breakdown']['sentence']['per_query_ms'].get(k, 0):.1f}" for r in results]
        for k in stages
    }
    out.append(table("warm routed hybrid, sentence queries: ms per query", rows, results))
    cases = [k for k, v in results[0]["whatif"].items() if isinstance(v, dict)]
    rows = {k: [f"{r['whatif'][k]['p50']:.1f}" for r in results] for k in cases}
    out.append(table("store calls done differently: p50 ms", rows, results))

    def mem(m: JSON) -> str:
        rss = m["rss_mb"]
        return f"{rss['peak']:,.0f} MB (open {rss['after_open']:,.0f}); p50 {m['ms']['p50']:.1f} ms"

    rows = {
        f"{m['what']}, LanceDB cache {m['cache_mb']}": [mem(r["memory"][i]) for r in results]
        for i, m in enumerate(results[0]["memory"])
    }
    out.append(table("searcher on LanceDB directly: peak RSS; p50", rows, results))
    with_ann = [r for r in results if r["ann"]["has_ann"]]
    if with_ann:
        keys = [k for k in with_ann[0]["ann"]["passages"] if k.startswith("nprobes")]
        rows = {
            f"{k}, {scope}": [
                f"{a['recall@10']:.3f}; p50 {a['ms']['p50']:.1f} ms"
                for a in (r["ann"][scope][k] for r in with_ann)
            ]
            for scope in ("passages", "all_vectors")
            for k in keys
        }
        out.append(table("IVF_PQ recall@10 vs flat", rows, with_ann))
    profiled = [r for r in results if "index_profile" in r]
    if profiled:
        rows = {
            k: [f"{r['index_profile']['seconds'][k]:.1f}" for r in profiled]
            for k in profiled[0]["index_profile"]["seconds"]
        }
        out.append(table("lexical index, 1 worker, cProfile: cumulative s", rows, profiled))
    return out


def markdown(results: list[JSON]) -> str:
    """The figures as Markdown tables, a column per run."""
    columns = [column(r) for r in results]
    rows = {name: [c[name] for c in columns] for name in columns[0]}
    return "\n\n".join([table("measure", rows, results), *details(results)])


def main(argv: list[str]) -> None:
    children = {
        "_index": child_index,
        "_search": child_search,
        "_breakdown": child_breakdown,
        "_whatif": child_whatif,
        "_index_profile": child_index_profile,
        "_memory": child_memory,
    }
    if argv and argv[0] in children:
        children[argv[0]](argv[1:])
        return
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--small", nargs="+", default=["sqlalchemy==2.0.36"], help="~30k-chunk corpus")
    ap.add_argument(
        "--large",
        nargs="+",
        default=["sqlalchemy==2.0.36", "django==5.1.4", "sympy==1.13.3"],
        help=">= 100k-chunk corpus (sdists indexed together under one root)",
    )
    ap.add_argument(
        "--small-models",
        nargs="+",
        default=["all-MiniLM-L6-v2", "minilm-static"],
        help="local models for the small corpus (the default one is the target's setting)",
    )
    ap.add_argument(
        "--large-models",
        nargs="+",
        default=["minilm-static"],
        help="local models for the large corpus (the default model needs hours there)",
    )
    ap.add_argument("--skip", nargs="*", default=[], choices=["small", "large"])
    ap.add_argument("--queries", type=int, default=300, help="timed queries per corpus")
    ap.add_argument("--warmup", type=int, default=30, help="warm-up queries (disjoint)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--work",
        type=Path,
        default=REPO / "benchmarks" / ".cache" / "large_run",
        help="corpora, indexes and query sets (kept, several GB)",
    )
    ap.add_argument("--reuse", action="store_true", help="reuse indexes built by a former run")
    ap.add_argument(
        "--no-index-profile",
        dest="index_profile",
        action="store_false",
        help="skip the cProfile'd lexical index of the small corpus",
    )
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    runs = [("small", args.small, m) for m in args.small_models] + [
        ("large", args.large, m) for m in args.large_models
    ]
    results = []
    for label, specs, model in runs:
        if label in args.skip:
            continue
        print(f"{label} ({model}) ...", file=sys.stderr, flush=True)
        results.append(run_index(label, specs, model, args))
        args.out.write_text(
            json.dumps({"date": time.strftime("%Y-%m-%d"), "runs": results}, indent=2)
        )
    print(markdown(results))


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    main(sys.argv[1:])
