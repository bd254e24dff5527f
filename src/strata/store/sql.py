"""Render a `Filter` as a SQL `WHERE` predicate with safely quoted literals.

The dialect is the common subset of DataFusion (LanceDB) and PostgreSQL: single-quoted
strings with `''` for a quote, `IN (...)` lists, `TRUE`/`FALSE` literals. Backslashes
are ordinary characters in both, so only the quote needs escaping.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from strata.store.core import Filter

TRUE = "TRUE"
FALSE = "FALSE"


def quote(value: str) -> str:
    """A SQL string literal for `value` (`O'Brien` -> `'O''Brien'`).

    Raises:
        ValueError: if `value` contains a NUL character, which no SQL string can hold.
    """
    if "\x00" in value:
        raise ValueError(f"NUL character in SQL literal {value!r}")
    return "'" + value.replace("'", "''") + "'"


def in_list(column: str, values: Iterable[str]) -> str:
    """`column IN ('a', 'b')`; `FALSE` for no values, `column = 'a'` for one."""
    literals = sorted({quote(v) for v in values})
    if not literals:
        return FALSE
    if len(literals) == 1:
        return f"{column} = {literals[0]}"
    return f"{column} IN ({', '.join(literals)})"


def repo_is(repo: str | None) -> str:
    """`repo_id = '<repo>'`, or `TRUE` when no repository is named."""
    return TRUE if repo is None else f"repo_id = {quote(repo)}"


def encode_branches(branches: Sequence[str]) -> str:
    """The stored form of a row's branches: each name between spaces (`" main dev "`), so
    `strpos(branches, ' main ')` finds one (a git branch name holds no space); "" = none."""
    return f" {' '.join(sorted(set(branches)))} " if branches else ""


def decode_branches(stored: str | tuple[str, ...] | None) -> tuple[str, ...]:
    """The branch names of a stored `branches` value."""
    if isinstance(stored, tuple):
        return stored
    return tuple(stored.split()) if stored else ()


def branch_needle(branch: str) -> str:
    """What `strpos` looks for in `branches` to find rows of `branch`."""
    return f" {branch} "


def conjunction(clauses: Iterable[str]) -> str:
    """`(a) AND (b)`; `TRUE` when there are no clauses; `FALSE` if any clause is FALSE."""
    parts = [c for c in clauses if c != TRUE]
    if FALSE in parts:
        return FALSE
    if not parts:
        return TRUE
    if len(parts) == 1:
        return parts[0]
    return " AND ".join(f"({p})" for p in parts)


def where(f: Filter, *, vectors: bool = True) -> str:
    """The predicate that keeps exactly the rows `f` allows.

    Args:
        f: the filter; `None` fields do not restrict, empty tuples match nothing.
        vectors: whether the table has a vector column (`has_vector` exists). Without
            one, no row has a vector.
    """
    clauses: list[str] = []
    for column, values in (
        ("layer", f.layers),
        ("lang", f.langs),
        ("kind", f.kinds),
        ("path", f.paths),
        ("id", f.ids),
    ):
        if values is not None:
            clauses.append(in_list(column, values))
    if f.is_test is not None:
        clauses.append(f"is_test = {TRUE if f.is_test else FALSE}")
    if f.repo_id is not None:
        clauses.append(f"repo_id = {quote(f.repo_id)}")
    if f.branch is not None:
        clauses.append(f"strpos(branches, {quote(branch_needle(f.branch))}) > 0")
    if f.has_vector is not None:
        if vectors:
            clauses.append(f"has_vector = {TRUE if f.has_vector else FALSE}")
        elif f.has_vector:
            clauses.append(FALSE)
    return conjunction(clauses)
