"""A `Filter` as a parameterised PostgreSQL `WHERE` clause (no value is ever spliced in).

Lists become `= ANY(%s)` with one array parameter, so a filter of thousands of paths is
one bound value, not thousands of literals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strata.store import Filter
from strata.store.sql import branch_needle

__all__ = ["Where", "where"]


@dataclass(frozen=True, slots=True)
class Where:
    """A predicate over `rag_chunks` (alias-free column names) and its parameters."""

    text: str
    params: tuple[Any, ...]

    @property
    def never(self) -> bool:
        """Whether it keeps no row at all (an empty list was asked for)."""
        return self.text == "FALSE"


def where(f: Filter, *, repo: str | None = None) -> Where:
    """The predicate that keeps exactly the rows `f` (and `repo`) allows."""
    clauses: list[str] = []
    params: list[Any] = []
    lists = [("layer", f.layers), ("lang", f.langs), ("kind", f.kinds), ("path", f.paths)]
    lists.append(("id", f.ids))
    for column, values in lists:
        if values is None:
            continue
        if not values:
            return Where("FALSE", ())
        clauses.append(f"{column} = ANY(%s)")
        params.append(list(dict.fromkeys(values)))
    if f.is_test is not None:
        clauses.append("is_test = %s")
        params.append(f.is_test)
    for value in (f.repo_id, repo):
        if value is not None:
            clauses.append("repo_id = %s")
            params.append(value)
    if f.branch is not None:
        clauses.append("strpos(branches, %s) > 0")
        params.append(branch_needle(f.branch))
    if f.has_vector is not None:
        clauses.append("embedding IS NOT NULL" if f.has_vector else "embedding IS NULL")
    return Where(" AND ".join(clauses) or "TRUE", tuple(params))
