"""`strata ask`: retrieve, stream a local LLM's answer, end with the sources it cites."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click
from rich.console import Console

from strata.errors import LlmError
from strata.surfaces.cli import render
from strata.surfaces.cli.options import Common, command, common
from strata.surfaces.cli.retrieval import Retrieval, retrieval_options

if TYPE_CHECKING:  # the answers are imported by the engine when `ask` runs
    from strata.answer import Answer, AnswerStream, Piece
    from strata.answer.prompt import Source

__all__ = ["attach"]


@command()
@click.argument("question")
@click.option(
    "-k", "k", type=click.IntRange(min=1), default=None, help="Hits to retrieve (default search.k)."
)
@click.option("--model", default=None, help="LLM model (default llm.model).")
@click.option(
    "--provider",
    type=click.Choice(["ollama", "openai", "none"]),
    default=None,
    help="LLM provider (default llm.provider).",
)
@retrieval_options
@click.option("--show-thinking", is_flag=True, help="Show the model's <think> blocks (dimmed).")
@click.option("--json", "as_json", is_flag=True, help="The checked answer as JSON on stdout.")
@common
def ask(
    question: str,
    k: int | None,
    model: str | None,
    provider: str | None,
    retrieval: Retrieval,
    show_thinking: bool,
    as_json: bool,
    opts: Common,
) -> None:
    """Answer QUESTION from the index with a local LLM, citing the lines it used."""
    stream = opts.engine().ask_stream(
        question,
        k,
        layers=retrieval.layers,
        filters=retrieval.filters,
        mode=retrieval.mode,
        model=model,
        provider=provider,
        show_thinking=show_thinking and not as_json,
    )
    try:
        for piece in stream:
            if not as_json:
                _show(opts.out, piece)
    except LlmError as exc:
        _failed(opts, stream, as_json, exc)
        raise
    result = stream.answer()
    if as_json:
        render.emit_json(opts.out, result.to_json())
    else:
        _cited(opts, result)


def _show(out: Console, piece: Piece) -> None:
    style = "dim italic" if piece.thinking else None
    out.print(piece.text, end="", style=style, markup=False, highlight=False)


def _cited(opts: Common, result: Answer) -> None:
    opts.out.print()
    if result.invalid_citations:
        gone = ", ".join(f"[{n}]" for n in result.invalid_citations)
        opts.err.print(f"note: removed citations naming no source: {gone}", markup=False)
    if not result.citations:
        opts.err.print("note: the answer cites none of the sources", markup=False)
        _sources(opts, result.context.sources, "retrieved")
        return
    opts.out.print()
    for c in result.citations:
        opts.out.print(f"{c.line()}  {c.title}".rstrip(), markup=False)


def _failed(opts: Common, stream: AnswerStream, as_json: bool, exc: LlmError) -> None:
    """The retrieved sources are still the answer's evidence: show them before the error."""
    if as_json:
        render.emit_json(opts.out, {**stream.answer().to_json(), "error": str(exc)})
        return
    opts.out.print()
    _sources(opts, stream.context.sources, "retrieved")


def _sources(opts: Common, sources: Sequence[Source], what: str) -> None:
    if not sources:
        opts.err.print(f"no sources {what}", markup=False)
        return
    opts.out.print(f"sources {what}:", style="bold", markup=False)
    for s in sources:
        opts.out.print(f"[{s.n}] {s.location}  {s.hit.record.title}".rstrip(), markup=False)


def attach(app: click.Group) -> None:
    """Register `ask` on the `strata` command group."""
    app.add_command(ask)
