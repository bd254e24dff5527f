"""The retrieval flags `search` and `ask` share: which layers, which content, which mode,
and the filters, handed to the command as one `retrieval: Retrieval`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from strata.layers import CONTENT_LAYERS
from strata.query.filters import SearchFilters

__all__ = ["Retrieval", "retrieval_options"]

MODES = ("hybrid", "lexical", "semantic")


@dataclass(frozen=True, slots=True)
class Retrieval:
    """What to retrieve from: the Engine's `layers`, `filters` and `mode` arguments."""

    layers: tuple[str, ...] | None
    filters: SearchFilters
    mode: str | None


def _layers(layers: tuple[str, ...], content: str) -> tuple[str, ...] | None:
    if layers and content != "all":
        raise click.UsageError("give --layer or --content, not both")
    return layers or CONTENT_LAYERS.get(content) or None


def retrieval_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Add the shared retrieval flags to a command; it receives them as `retrieval`."""

    @functools.wraps(f)
    def wrapper(
        *args: Any,
        layers: tuple[str, ...],
        content: str,
        langs: tuple[str, ...],
        paths: tuple[str, ...],
        kinds: tuple[str, ...],
        no_tests: bool,
        repo: str | None,
        mode: str | None,
        **kwargs: Any,
    ) -> Any:
        filters = SearchFilters.from_flags(
            path=paths, lang=langs, kind=kinds, no_tests=no_tests, repo=repo
        )
        retrieval = Retrieval(_layers(layers, content), filters, mode)
        return f(*args, retrieval=retrieval, **kwargs)

    options = [
        click.option(
            "--layer", "layers", multiple=True, help="Search only these layers (repeatable)."
        ),
        click.option(
            "--content",
            type=click.Choice(["all", *CONTENT_LAYERS]),
            default="all",
            show_default=True,
            help="Only source chunks (code) or doc chunks (docs); unrouted, like --layer.",
        ),
        click.option("--lang", "langs", multiple=True, help="Only this language (repeatable)."),
        click.option(
            "--path", "paths", multiple=True, help="Only paths matching this glob (repeatable)."
        ),
        click.option(
            "--kind",
            "kinds",
            multiple=True,
            help="Only this chunk kind: function, class, section, ...",
        ),
        click.option("--no-tests", is_flag=True, help="Leave test files out."),
        click.option(
            "--repo", default=None, help="Only this repository of a multi-repository index."
        ),
        click.option(
            "--mode", type=click.Choice(MODES), default=None, help="Ranking (default search.mode)."
        ),
    ]
    command: Callable[..., Any] = wrapper
    for option in reversed(options):
        command = option(command)
    return command
