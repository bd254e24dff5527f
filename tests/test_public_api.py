"""The public API: `strata.__all__` is pinned, each name resolves lazily, importing is light."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import strata
from strata import Engine

PUBLIC = [
    "Answer",
    "CallWalk",
    "Citation",
    "Config",
    "ConfigError",
    "EmbedderError",
    "EmbedderMismatchError",
    "Engine",
    "EngineError",
    "Filter",
    "Hit",
    "IndexSummary",
    "LlmError",
    "LockError",
    "NoIndexError",
    "QueryError",
    "Record",
    "Related",
    "SearchResult",
    "StoreError",
    "StrataError",
    "SymbolMatch",
    "UserError",
    "load_config",
]


def test_the_public_names_are_pinned() -> None:
    # A name added to or dropped from the API is a decision: change this list with it.
    assert sorted(strata.__all__) == PUBLIC
    assert sorted(set(strata.__all__)) == sorted(strata.__all__)


def test_every_public_name_resolves_to_an_object_of_that_name() -> None:
    for name in strata.__all__:
        value = getattr(strata, name)
        assert getattr(value, "__name__", name) == name, name
        assert name in dir(strata)


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        strata.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchThing" in str(exc)
    else:
        raise AssertionError("strata.NoSuchThing resolved")


def test_importing_strata_loads_no_engine_store_or_cli() -> None:
    probe = (
        "import sys, strata\n"
        "heavy = [m for m in ('strata.engine', 'strata.store', 'strata.surfaces.cli', "
        "'lancedb', 'numpy', 'click') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_search_loads_no_write_side(minirepo: Path) -> None:
    """A one-shot `strata search` (the cold CLI an agent runs) imports no indexer, doctor,
    watcher or analysis: the write side is imported by the commands that write."""
    Engine.open(minirepo, config={"embed.provider": "none"}).index()
    probe = (
        "import sys\n"
        "from strata.surfaces.cli import app\n"
        "try:\n"
        "    app(['search', 'retry', '-k', '2', '--index-dir', sys.argv[1]], prog_name='strata')\n"
        "except SystemExit:\n"
        "    pass\n"
        "write = ('strata.index.indexer', 'strata.index.pipeline', 'strata.engine.indexing',\n"
        "         'strata.engine.doctor', 'strata.engine.watch', 'strata.index.analysis',\n"
        "         'strata.index.corpus', 'watchdog')\n"
        "print([m for m in write if m in sys.modules], file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(minirepo / ".strata")],
        capture_output=True,
        text=True,
        env={**os.environ, "STRATA_NO_SERVER": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert "retry" in done.stdout.lower()
    assert done.stderr.strip().splitlines()[-1] == "[]"
