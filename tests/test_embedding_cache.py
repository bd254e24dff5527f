"""The SQLite embedding cache and `embed_with_cache` (against the real local server)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from strata.embedding.cache import EmbeddingCache, embed_with_cache, model_key
from strata.embedding.http import PROBE, HttpEmbedder
from strata.errors import EmbedderError
from strata.types import content_hash
from tests.embed_server import DIM, EmbedServer, serve


@pytest.fixture
def server() -> Iterator[EmbedServer]:
    yield from serve()


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[EmbeddingCache]:
    with EmbeddingCache(tmp_path / "cache" / "embeddings.sqlite") as c:
        yield c


def texts(n: int) -> dict[str, str]:
    items = [f"function number {i} returns {i * 7}" for i in range(n)]
    return {content_hash(t): t for t in items}


def embedder(server: EmbedServer, retries: int = 0) -> HttpEmbedder:
    return HttpEmbedder("ollama", "m", server.url, retries=retries, backoff=0.001)


def inputs_sent(server: EmbedServer) -> list[str]:
    """Texts the server was asked to embed, leaving out the one-off dimension probe."""
    return [t for r in server.requests for t in r.body["input"] if t != PROBE]


def test_round_trip_by_model_and_hash(cache: EmbeddingCache) -> None:
    vec = np.arange(4, dtype=np.float32)
    cache.put_many("a@4", {"h1": vec})
    got = cache.get_many("a@4", ["h1", "h2"])
    assert list(got) == ["h1"]
    np.testing.assert_array_equal(got["h1"], vec)
    assert got["h1"].dtype == np.float32
    assert cache.get_many("b@4", ["h1"]) == {}
    assert (cache.count("a@4"), cache.count("b@4")) == (1, 0)


def test_many_keys_in_one_lookup(cache: EmbeddingCache) -> None:
    items = {f"h{i}": np.full(3, i, dtype=np.float32) for i in range(1200)}
    cache.put_many("m@3", items)
    got = cache.get_many("m@3", list(items))
    assert len(got) == 1200 and got["h999"][0] == 999


def test_prune_keeps_only_named_hashes(cache: EmbeddingCache) -> None:
    vec = np.ones(2, dtype=np.float32)
    cache.put_many("m@2", {"a": vec, "b": vec, "c": vec})
    cache.put_many("other@2", {"a": vec})
    assert cache.prune("m@2", {"b"}) == 2
    assert set(cache.get_many("m@2", ["a", "b", "c"])) == {"b"}
    assert cache.count("other@2") == 1


def test_vectors_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite"
    with EmbeddingCache(path) as first:
        first.put_many("m@2", {"h": np.array([0.6, 0.8], dtype=np.float32)})
    with EmbeddingCache(path) as again:
        np.testing.assert_allclose(again.get_many("m@2", ["h"])["h"], [0.6, 0.8])


def test_only_misses_are_embedded(server: EmbedServer, cache: EmbeddingCache) -> None:
    emb = embedder(server)
    first = texts(5)
    done = embed_with_cache(emb, cache, first, batch_size=2)
    assert set(done) == set(first) and all(v.shape == (DIM,) for v in done.values())
    server.requests.clear()
    more = {**first, **{content_hash("brand new text"): "brand new text"}}
    again = embed_with_cache(emb, cache, more, batch_size=2)
    assert inputs_sent(server) == ["brand new text"]
    for digest in first:
        np.testing.assert_allclose(again[digest], done[digest])
    assert cache.count(model_key(emb)) == 6


def test_progress_is_reported_per_batch(server: EmbedServer, cache: EmbeddingCache) -> None:
    calls: list[tuple[int, int]] = []
    embed_with_cache(
        embedder(server), cache, texts(5), batch_size=2, on_batch=lambda *a: calls.append(a)
    )
    assert calls == [(2, 5), (4, 5), (5, 5)]


def test_interrupted_run_resumes(server: EmbedServer, cache: EmbeddingCache) -> None:
    emb, items = embedder(server), texts(6)

    def break_server_after_first_batch(done: int, total: int) -> None:
        server.faults.error_500 = 100

    with pytest.raises(EmbedderError, match="HTTP 500"):
        embed_with_cache(emb, cache, items, batch_size=2, on_batch=break_server_after_first_batch)
    assert cache.count(model_key(emb)) == 2  # the first batch was kept
    first_batch = inputs_sent(server)[:2]
    server.faults.error_500 = 0
    server.requests.clear()
    result = embed_with_cache(emb, cache, items, batch_size=2)
    assert len(result) == 6
    assert sorted(inputs_sent(server)) == sorted(set(items.values()) - set(first_batch))


_WRITER = """
import sys, numpy as np
from pathlib import Path
from strata.embedding.cache import EmbeddingCache
path, tag = Path(sys.argv[1]), sys.argv[2]
with EmbeddingCache(path) as cache:
    for i in range(60):
        cache.put_many("m@4", {f"{tag}-{i}-{j}": np.full(4, i, dtype=np.float32) for j in range(5)})
        cache.get_many("m@4", [f"{tag}-{i}-0"])
"""


def test_two_processes_share_one_cache(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), tag], stderr=subprocess.PIPE)
        for tag in ("a", "b")
    ]
    errors = [p.communicate(timeout=120)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    with EmbeddingCache(path) as cache:
        assert cache.count("m@4") == 2 * 60 * 5
        np.testing.assert_array_equal(cache.get_many("m@4", ["b-59-4"])["b-59-4"], [59] * 4)
