"""The engine with real vectors: a protocol-speaking local server, and the packaged local model."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from strata import EmbedderMismatchError, Engine
from strata.engine.doctor import check
from strata.layers import EMBEDDED_LAYERS, PASSAGE_LAYERS
from strata.query.lookup import rows as lookup_rows
from strata.store.core import Filter
from tests.embed_server import EmbedServer, serve

pytestmark = pytest.mark.usefixtures("both_stores")


@pytest.fixture
def server() -> Iterator[EmbedServer]:
    yield from serve()


def ollama(server: EmbedServer, model: str = "m1") -> dict[str, Any]:
    return {"embed.provider": "ollama", "embed.base_url": server.url, "embed.model": model}


def test_vectors_fill_in_and_unchanged_chunks_are_never_embedded_twice(
    minirepo: Path, server: EmbedServer
) -> None:
    eng = Engine.open(minirepo, config=ollama(server))
    first = eng.index()
    status = eng.status().to_json()
    assert status["vectors"]["done"] == status["vectors"]["total"] > 0
    assert first.vectors_embedded == status["vectors"]["total"]
    asked_before = sum(len(r.body.get("input", [])) for r in server.requests)
    headers = minirepo / "src/minihttp/headers.py"
    headers.write_text(headers.read_text() + "\n\ndef strip_value(v):\n    return v.strip()\n")
    again = eng.index()
    asked = sum(len(r.body.get("input", [])) for r in server.requests) - asked_before
    assert again.indexed == 1
    assert 0 < asked <= 4, f"{asked} texts re-embedded for one new function"
    result = eng.search("strip_value", k=3, route=False)
    assert result.mode == "hybrid" and not result.notes
    assert result[0].record.title == "strip_value"
    assert {"lexical", "semantic"} <= set(result[0].parts)


def test_only_the_layers_searched_by_meaning_get_vectors(
    minirepo: Path, server: EmbedServer
) -> None:
    eng = Engine.open(minirepo, config=ollama(server))
    eng.index()
    counts = eng.store.counts()
    assert {layer for layer, c in counts.items() if c.get("vectors")} <= set(EMBEDDED_LAYERS)
    assert counts["C1_SYMBOL_CATALOG"]["rows"] > 0  # symbols are there, without vectors
    owed = sum(c["rows"] for layer, c in counts.items() if layer in EMBEDDED_LAYERS)
    status = eng.status()
    assert status.to_json()["vectors"] == {"done": owed, "total": owed}  # nothing else pending
    sent = [t for r in server.requests for t in r.body.get("input", [])]
    sent = [t for t in sent if t != "dimension probe"]  # the width check's one text
    assert 0 < len(sent) <= owed  # the embedder saw no symbol card
    report = check(eng, deep=True)
    assert not [p for p in report.problems if p.kind == "vectors"], report.problems


def test_another_model_fails_fast_with_the_command_that_fixes_it(
    minirepo: Path, server: EmbedServer
) -> None:
    Engine.open(minirepo, config=ollama(server, "m1")).index()
    other = Engine.open(minirepo, config=ollama(server, "m2"))
    with pytest.raises(EmbedderMismatchError) as err:
        other.index()
    assert "strata index --full" in str(err.value)
    with pytest.raises(EmbedderMismatchError):
        other.search("retry")
    rebuilt = other.index(full=True)
    assert rebuilt.indexed == 7
    assert other.status().to_json()["embedder"]["name"].endswith("m2")


def test_full_rebuild_to_lexical_only_and_back(minirepo: Path, server: EmbedServer) -> None:
    Engine.open(minirepo, config=ollama(server)).index()
    lexical = Engine.open(minirepo, config={"embed.provider": "none"})
    with pytest.raises(EmbedderMismatchError):
        lexical.index()
    lexical.index(full=True)
    assert lexical.status().to_json()["embedder"]["lexical_only"] is True
    assert lexical.search("retry").hits


@pytest.mark.slow
def test_packaged_local_model_end_to_end(minirepo: Path) -> None:
    eng = Engine.open(minirepo, config={"embed.provider": "local"})
    summary = eng.index()
    assert summary.vectors_missing == 0 and summary.vectors_embedded > 0
    hits = eng.search("how long to wait before trying a failed request again", k=3, mode="semantic")
    assert any(h.record.title in ("RetryPolicy.delay", "RetryPolicy") for h in hits)
    status = eng.status().to_json()
    assert status["embedder"] == {
        "name": status["embedder"]["name"],
        "dim": 384,
        "lexical_only": False,
        "vectors_pending": None,
        "adapter_pairs": 0,  # fewer documented symbols than a query adapter needs
        "adapter_sections": 0,  # and too few doc sections
    }
    # symbols are looked up by name, never by vector: they get none, and none is owed
    counts = eng.store.counts()["C1_SYMBOL_CATALOG"]
    assert counts["rows"] > 0 and counts.get("vectors", 0) == 0
    symbols = eng.search("renders a cookie value", k=3, mode="semantic", layers=["C1"])
    assert symbols.mode == "lexical" and "not by vectors" in symbols.notes[0]
    assert symbols[0].record.title == "minihttp.headers.format_cookie"


@pytest.mark.slow
def test_searches_embed_their_queries_with_the_light_twin(minirepo: Path) -> None:
    Engine.open(minirepo, config={"embed.provider": "local"}).index()
    query = "how long to wait before trying a failed request again"
    fresh = Engine.open(minirepo, config={"embed.provider": "local"})
    assert fresh.query_embedder().name == "local:minilm-int8"  # no torch for one query
    twin = fresh.search(query, k=5, mode="semantic", route=False)
    full = Engine.open(minirepo, config={"embed.provider": "local"})
    assert full.embedder().name == "local:all-MiniLM-L6-v2"
    assert full.query_embedder().name == "local:minilm-int8"  # still the twin: 4x faster
    exact = full.embedder().embed_query(query)
    assert float(exact @ full.query_embedder().embed_query(query)) >= 0.998
    where = Filter(layers=PASSAGE_LAYERS, has_vector=True)
    by_twin = full.store.vector_search(full.query_embedder().embed_query(query), 5, where)
    by_model = full.store.vector_search(exact, 5, where)
    assert [r.id for r, _ in by_twin][:3] == [r.id for r, _ in by_model][:3]
    model_scores = {r.id: score for r, score in by_model}
    for rec, score in by_twin:
        if rec.id in model_scores:
            assert abs(score - model_scores[rec.id]) < 0.02
    twin_scores = {r.id: score for r, score in by_twin}  # the search's own vector: the twin's
    assert any(h.record.id in twin_scores for h in twin)
    for hit in twin:
        if hit.record.id in twin_scores:
            assert hit.parts["semantic_raw"] == pytest.approx(twin_scores[hit.record.id], abs=1e-5)


def test_a_noop_run_neither_loads_the_model_nor_asks_the_server(
    minirepo: Path, server: EmbedServer
) -> None:
    Engine.open(minirepo, config=ollama(server)).index()
    asked = len(server.requests)
    again = Engine.open(minirepo, config=ollama(server)).index()
    assert again.indexed == 0 and len(server.requests) == asked


def test_a_warm_engine_answers_what_a_cold_one_answers(
    minirepo: Path, server: EmbedServer, both_stores: str
) -> None:
    Engine.open(minirepo, config=ollama(server)).index()

    def answer(eng: Engine, query: str, mode: str) -> list[Any]:
        """Hits and notes; cosines to 5 places (numpy and LanceDB round float32 apart)."""
        result = eng.search(query, k=5, mode=mode)
        hits = [{**h.to_json(), "explain": None, "score": round(h.score, 5)} for h in result]
        parts = [{k: round(v, 5) for k, v in h.parts.items()} for h in result]
        return [*hits, *parts, *result.notes]

    asked = [
        (q, mode)
        for q in ("parse header values", "strip", "how do I send a request", "Client")
        for mode in ("hybrid", "lexical", "semantic")
    ]
    expected = [answer(Engine.open(minirepo, config=ollama(server)), q, m) for q, m in asked]
    warm = Engine.open(minirepo, config=ollama(server))
    warm.keep_warm()
    if both_stores == "lancedb":  # its passages in memory (PostgreSQL keeps its own cache)
        assert warm.store._warm.get() is not None  # type: ignore[attr-defined]
        assert pa.default_memory_pool().backend_name == "system"  # freed memory goes back
    assert {"symbols", "paths", "calls"} <= set(lookup_rows._memo[warm.store])  # found built
    assert [answer(warm, q, m) for q, m in asked] == expected
    assert any(expected)


def test_the_recorded_embedder_is_used_without_a_flag(minirepo: Path, server: EmbedServer) -> None:
    from click.testing import CliRunner

    from strata.surfaces.cli import app
    from strata.surfaces.cli.ops import attach

    attach(app)
    runner = CliRunner()
    first = runner.invoke(app, ["index", str(minirepo), "--embedder", "none", "--json"])
    assert first.exit_code == 0, first.output
    (minirepo / "docs" / "later.md").write_text("# Later\n\nThe quokkabridge note.\n")
    again = runner.invoke(app, ["index", str(minirepo), "--json"])  # config default: local
    assert again.exit_code == 0, again.output
    idx = ["--index-dir", str(minirepo / ".strata")]
    assert runner.invoke(app, ["doctor", *idx, "--json"]).exit_code == 0
    found = runner.invoke(app, ["search", "quokkabridge", *idx, "--json"])
    assert found.exit_code == 0 and "docs/later.md" in found.stdout
    assert Engine.open(minirepo).config.sources["embed.provider"] == "index"
    # an explicit choice still meets the mismatch error
    env = {"STRATA_EMBED_BASE_URL": server.url}
    other = runner.invoke(app, ["index", str(minirepo), "--embedder", "ollama"], env=env)
    assert other.exit_code == 2 and "strata index --full" in other.output
