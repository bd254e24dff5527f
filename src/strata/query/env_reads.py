"""The plan step that finds the passages reading an environment variable."""

from __future__ import annotations

from strata.query import environment, hybrid
from strata.query.filters import SearchFilters
from strata.query.hybrid import QueryContext
from strata.query.router import Step
from strata.types import Hit

__all__ = ["POOL", "env_reads"]

POOL = 100  # the lexical hits read for a line that reads an environment variable


def env_reads(
    ctx: QueryContext, step: Step, filters: SearchFilters, mode: str | None
) -> tuple[list[Hit], list[str]]:
    """The passages that read an environment variable, those the question's own words (a
    variable's name) find first: a lexical search kept where a line reads one."""
    words = environment.reading_words(str(step.args["query"]))
    found = hybrid.search(ctx, words, POOL, filters=filters.on_store(), mode="lexical")
    hits = [h for h in found.hits if environment.READS.search(h.record.content)]
    return hits, [] if hits else ["no passage reads an environment variable"]
