"""The retrieval flags `search` and `ask` share, read into one `Retrieval`."""

from __future__ import annotations

from typing import Any

import click
import pytest
from click.testing import CliRunner

from strata.query.filters import SearchFilters
from strata.surfaces.cli import app
from strata.surfaces.cli.retrieval import Retrieval, retrieval_options


def _read(*argv: str) -> Retrieval:
    seen: list[Retrieval] = []

    @click.command()
    @retrieval_options
    def cmd(retrieval: Retrieval) -> None:
        seen.append(retrieval)

    done = CliRunner().invoke(cmd, list(argv), catch_exceptions=False)
    assert done.exit_code == 0, done.output
    return seen[0]


def test_every_flag_reaches_the_engine_arguments() -> None:
    got = _read(
        *("--path", "src/**", "--path", "lib/*", "--lang", "python", "--kind", "function"),
        *("--no-tests", "--repo", "web", "--mode", "semantic", "--layer", "C1"),
    )
    assert got.layers == ("C1",) and got.mode == "semantic"
    assert got.filters == SearchFilters(
        path=("src/**", "lib/*"), lang=("python",), kind=("function",), is_test=False, repo="web"
    )


@pytest.mark.parametrize(
    ("content", "layers"),
    [("code", ("C0_SOURCE_CHUNKS",)), ("docs", ("D0_DOC_CHUNKS",)), ("all", None)],
)
def test_content_names_the_passage_layers(content: str, layers: Any) -> None:
    got = _read("--content", content)
    assert got.layers == layers and got.mode is None
    assert got.filters == SearchFilters()


def test_search_and_ask_list_the_same_retrieval_flags() -> None:
    def flags(name: str) -> set[str]:
        command = app.commands[name]
        return {o for p in command.params for o in p.opts if isinstance(p, click.Option)}

    shared = {"--layer", "--content", "--lang", "--path", "--kind", "--no-tests", "--repo"}
    assert shared | {"--mode"} <= flags("search") & flags("ask")
