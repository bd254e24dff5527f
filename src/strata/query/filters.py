"""What a search keeps: `SearchFilters`, the one filter value every surface builds (the CLI's
flags, the HTTP and MCP bodies, `Engine.search`'s mapping) and the router reads from a
question; the executor and the plain search read it, and hand the store its `Filter`.

The field names are the plan's JSON keys. Tests only (`is_test=True`) and a document
domain are applied to the hits (the search is asked for more); the rest to the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from strata.errors import QueryError
from strata.layers import normalise
from strata.store import Filter
from strata.text.globs import matches, select
from strata.types import Record

__all__ = ["FLAGS", "NO_FILTERS", "WIDEN", "SearchFilters"]

# The mapping `Engine.search(filters=...)` takes (and the HTTP body's `filters`).
FLAGS = ("path", "lang", "kind", "no_tests", "repo", "branch")
WIDEN = 5  # how many more hits a search asks for when the filter is applied to its hits
_HINT = "filters: path (globs), lang, kind (a string or a list), no_tests (true), repo, branch"


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Path globs, languages, kinds, tests (False: none, True: only), one repository, one
    document domain; an empty field keeps everything."""

    path: tuple[str, ...] = ()
    lang: tuple[str, ...] = ()
    kind: tuple[str, ...] = ()
    is_test: bool | None = None
    repo: str | None = None
    domain: str | None = None
    branch: str | None = None  # rows of this branch only (see `strata.store.branches`)

    @classmethod
    def from_flags(
        cls,
        *,
        path: str | Sequence[str] | None = None,
        lang: str | Sequence[str] | None = None,
        kind: str | Sequence[str] | None = None,
        no_tests: bool = False,
        repo: str | None = None,
        branch: str | None = None,
    ) -> SearchFilters:
        """From a surface's flags (`--path`, `--lang`, `--kind`, `--no-tests`, `--repo`,
        a `branch`)."""
        return cls(
            _strings("path", path),
            _strings("lang", lang),
            _strings("kind", kind),
            False if no_tests else None,
            str(repo) if repo else None,
            branch=str(branch) if branch else None,
        )

    @classmethod
    def of(cls, given: Mapping[str, Any] | SearchFilters | None) -> SearchFilters:
        """From `Engine.search`'s `filters` (a mapping of `FLAGS`, or a `SearchFilters`).

        Raises:
            QueryError: an unknown key, or a value of the wrong type.
        """
        if given is None or isinstance(given, SearchFilters):
            return given or cls()
        unknown = sorted(set(given) - set(FLAGS))
        if unknown:
            raise QueryError(f"unknown search filter {unknown[0]!r}", hint=_HINT)
        return cls.from_flags(**given)

    def given(self) -> tuple[str, ...]:
        """The names of the fields that restrict something, in field order."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name) not in ((), None))

    def to_json(self) -> dict[str, Any]:
        """The fields that restrict something (a language or kind alone as a string)."""
        out: dict[str, Any] = {}
        for name in self.given():
            value = getattr(self, name)
            if name != "path" and isinstance(value, tuple):
                value = value[0] if len(value) == 1 else list(value)
            out[name] = list(value) if name == "path" else value
        return out

    def without(self, names: Iterable[str]) -> SearchFilters:
        """These fields cleared (keep everything there)."""
        empty = SearchFilters()
        return replace(self, **{n: getattr(empty, n) for n in names})

    def narrowed_by(self, other: SearchFilters) -> SearchFilters:
        """`other`'s restrictions in place of these for the fields it gives."""
        return replace(self, **{n: getattr(other, n) for n in other.given()})

    def on_store(self) -> SearchFilters:
        """Only what the store applies itself (no tests-only, no domain)."""
        return replace(self, is_test=None if self.is_test else self.is_test, domain=None)

    @property
    def on_hits(self) -> bool:
        """Whether part of this is applied to a search's hits, not asked of the store."""
        return self.is_test is True or self.domain is not None

    def where(self, layers: Iterable[str] | None, paths: Callable[[], Iterable[str]]) -> Filter:
        """The store's `Filter` for a search of `layers` (ids or `C0`-style prefixes);
        the path globs are matched here against `paths()`, the indexed paths."""
        try:
            named = tuple(normalise(x) for x in layers) if layers else None
        except ValueError as exc:  # an unknown layer name: the user's to fix
            raise QueryError(str(exc), hint="name a layer by its id or prefix (C0, D4)") from exc
        return Filter(
            layers=named,
            langs=self.lang or None,
            kinds=self.kind or None,
            paths=tuple(select(sorted(paths()), self.path)) if self.path else None,
            is_test=False if self.is_test is False else None,
            repo_id=self.repo,
            branch=self.branch,
        )

    def keeps(self, rec: Record) -> bool:
        """Whether `rec` passes every filter (a row of no repository passes `repo`)."""
        domain = rec.metadata.get("domain")
        return not (
            (self.path and not matches(rec.path, self.path))
            or (self.lang and rec.lang not in self.lang)
            or (self.kind and rec.kind not in self.kind)
            or (self.is_test is not None and rec.is_test != self.is_test)
            or (self.repo and rec.repo_id and rec.repo_id != self.repo)
            or (self.domain and domain and str(domain).lower() != self.domain)
            or (self.branch and rec.branches and self.branch not in rec.branches)
        )


def _strings(name: str, value: str | Sequence[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,) if value else ()
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise QueryError(
            f"search filter {name!r} takes a string or a list of strings, not {value!r}",
            hint=_HINT,
        )
    return tuple(value)


NO_FILTERS = SearchFilters()
