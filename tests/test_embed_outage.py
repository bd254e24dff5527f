"""Embedder outages on a real misbehaving server: old rows survive, the next run converges."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from strata.engine import Engine
from strata.engine.watch import Watcher
from strata.errors import EmbedderError
from strata.store import Filter
from strata.surfaces.cli import app
from tests.embed_server import EmbedServer, serve

FOREVER = 10**6


@pytest.fixture
def server() -> Iterator[EmbedServer]:
    yield from serve()


@pytest.fixture(params=["ollama", "openai"])
def provider(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def settings(server: EmbedServer, provider: str) -> dict[str, Any]:
    url = server.url if provider == "ollama" else server.openai_url
    return {
        "embed.provider": provider,
        "embed.base_url": url,
        "embed.model": "test-model",
        "embed.retries": 1,
        "embed.timeout": 1.0,
    }


def paths_with(eng: Engine, token: str) -> set[str]:
    return {h.record.path for h in eng.search(token, k=20, mode="lexical")}


def break_server(server: EmbedServer, fault: str) -> None:
    if fault == "slow":
        server.faults.slow, server.faults.delay = FOREVER, 2.5
    else:
        setattr(server.faults, fault, FOREVER)


def heal(server: EmbedServer) -> None:
    for name in ("slow", "error_500", "wrong_dim", "partial"):
        setattr(server.faults, name, 0)


def test_edits_are_lexical_through_an_outage_and_converge_after(
    minirepo: Path, server: EmbedServer, provider: str
) -> None:
    guide = minirepo / "docs" / "guide.md"
    old_token = "originalheron"
    guide.write_text(f"# Guide\n\nThe {old_token} feature.\n")
    eng = Engine.open(minirepo, config=settings(server, provider))
    eng.index()
    assert "docs/guide.md" in paths_with(eng, old_token)
    faults = {
        "error_500": "zebrafinch",
        "slow": "marblecrane",
        "wrong_dim": "tundrawren",
        "partial": "saffronkite",
    }
    for fault, word in faults.items():
        break_server(server, fault)
        guide.write_text(f"# Guide\n\nNow about the {word} feature.\n")
        with pytest.raises(EmbedderError):
            eng.index()
        assert paths_with(eng, word) == {"docs/guide.md"}, fault  # the edit, lexically
        assert "docs/guide.md" not in paths_with(eng, old_token), fault
        status = eng.status().to_json()
        assert status["vectors"]["done"] < status["vectors"]["total"], fault
        heal(server)
    eng.index()
    assert paths_with(eng, "saffronkite") == {"docs/guide.md"}
    assert "docs/guide.md" not in paths_with(eng, old_token)
    status = eng.status().to_json()
    assert status["vectors"]["done"] == status["vectors"]["total"] > 0


def test_new_files_are_lexical_during_an_outage_and_get_vectors_after(
    minirepo: Path, server: EmbedServer, provider: str
) -> None:
    eng = Engine.open(minirepo, config=settings(server, provider))
    eng.index()
    break_server(server, "error_500")
    (minirepo / "docs" / "outage.md").write_text(
        "# Outage\n\nWritten while the capybaralantern was down.\n"
    )
    with pytest.raises(EmbedderError):
        eng.index()
    assert paths_with(eng, "capybaralantern") == {"docs/outage.md"}
    status = eng.status().to_json()
    assert status["vectors"]["done"] < status["vectors"]["total"]
    heal(server)
    eng.index()
    status = eng.status().to_json()
    assert status["vectors"]["done"] == status["vectors"]["total"]
    rows = eng.store.fetch(Filter(paths=("docs/outage.md",)))
    assert rows and all(r.vector is not None for r in rows)


def test_cli_index_exits_2_during_an_outage(
    minirepo: Path, server: EmbedServer, provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in settings(server, provider).items():
        monkeypatch.setenv("STRATA_" + key.upper().replace(".", "_"), str(value))
    runner = CliRunner()
    assert runner.invoke(app, ["index", str(minirepo), "-q"]).exit_code == 0
    break_server(server, "error_500")
    (minirepo / "README.md").write_text("# Mini\n\nThe gazelleorbit readme.\n")
    failed = runner.invoke(app, ["index", str(minirepo), "-q"])
    assert failed.exit_code == 2
    heal(server)
    assert runner.invoke(app, ["index", str(minirepo), "-q"]).exit_code == 0
    eng = Engine.open(minirepo)
    assert paths_with(eng, "gazelleorbit") == {"README.md"}


def test_watcher_survives_a_flaky_embedder_and_keeps_the_paths_queued(
    minirepo: Path, server: EmbedServer, provider: str
) -> None:
    eng = Engine.open(minirepo, config=settings(server, provider))
    eng.index()
    watcher = Watcher(eng, backoff=(0.1, 0.5))
    stop = threading.Event()
    thread = threading.Thread(target=watcher.run, args=(stop,), daemon=True)
    thread.start()
    try:
        assert watcher.wait_ready(60)
        break_server(server, "error_500")
        (minirepo / "docs" / "guide.md").write_text("# Guide\n\nThe flamingoquasar setting.\n")
        deadline = time.monotonic() + 60
        while watcher.failures < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert watcher.failures >= 2 and thread.is_alive()
        reader = Engine.open(index_dir=eng.index_dir, config=settings(server, provider))
        assert paths_with(reader, "flamingoquasar") == {"docs/guide.md"}  # lexically already
        heal(server)

        def embedded() -> bool:
            vectors = reader.status().to_json()["vectors"]
            return bool(vectors["done"] == vectors["total"])

        while not embedded() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert embedded()
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


def test_a_first_index_with_the_embedder_down_is_lexically_searchable(
    minirepo: Path, server: EmbedServer
) -> None:
    down = {**settings(server, "ollama"), "embed.base_url": "http://127.0.0.1:9"}
    eng = Engine.open(minirepo, config=down)
    with pytest.raises(EmbedderError, match="indexed lexically"):
        eng.index()
    fresh = Engine.open(minirepo, config=down)  # a later process: nothing reaches the embedder
    status = fresh.status().to_json()
    assert status["embedder"]["vectors_pending"] and not status["healthy"]
    assert fresh.search("RetryPolicy", k=3, mode="lexical").hits
    hybrid = fresh.search("how are retries configured", k=3)
    assert hybrid.hits and any("no vectors yet" in n for n in hybrid.notes), hybrid.notes
    runner = CliRunner()
    env = {f"STRATA_{k.replace('.', '_').upper()}": str(v) for k, v in down.items()}
    env["STRATA_NO_SERVER"] = "1"
    idx = ["--index-dir", str(minirepo / ".strata")]
    cli = runner.invoke(app, ["search", "how are retries configured", *idx, "--json"], env=env)
    assert cli.exit_code == 0, cli.output
    assert runner.invoke(app, ["status", *idx, "--json"], env=env).exit_code == 0
    up = Engine.open(minirepo, config=settings(server, "ollama"))
    up.index()  # the embedder answers: the vectors come
    status = up.status().to_json()
    assert status["healthy"] and status["vectors"]["done"] == status["vectors"]["total"] > 0
    assert up.search("how are retries configured", k=3).mode == "hybrid"
    down_now = Engine.open(minirepo, config=down).search("how are retries configured", k=3)
    assert down_now.mode == "lexical" and down_now.hits
    assert any("did not answer" in n for n in down_now.notes), down_now.notes
