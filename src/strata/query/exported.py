"""A module's line that exports a name it defines stands for that definition (pure over a
`Store`).

`exports.PostgresDialect = PostgresDialect;` closes a CommonJS build of a class, `export
default CancelToken;` an ES module: a chunk of its own, whose few words are the name, so it
comes first for any sentence that names the class, by words and by vector alike, above the
class it exports (kysely: "what options does the PostgresDialect accept"). For a sentence,
such a line leaves the results when its file defines every name it exports: the
definitions answer, each on its own evidence (giving them the line's score lifted a class
above the method a description was of: measured, docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from strata.query.definitions import PER_NAME
from strata.query.glue import exported_names
from strata.query.lookup.symbols import find_symbols
from strata.store import Store
from strata.types import Record

__all__ = ["export_lines"]


def export_lines(store: Store, candidates: Iterable[Record]) -> set[str]:
    """The ids of the candidates that only export names their own file defines."""
    out: set[str] = set()
    for rec in candidates:
        names = exported_names(rec)
        defined = {
            m.name
            for name in names
            for m in find_symbols(store, name, limit=PER_NAME, exact=True)
            if m.record.path == rec.path and m.match == "exact"
        }
        if names and defined >= set(names):
            out.add(rec.id)
    return out
