"""Shared fixtures: an isolated environment and copies of the committed corpora."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

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
