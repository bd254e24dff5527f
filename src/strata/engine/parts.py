"""What an `Engine` owns: its index (which one a path belongs to, its directory and locator),
its store and its embedders (each opened on first use), the one check that an embedder fits
the index it is asked to serve, and the `QueryContext` a search runs against."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from strata.config import Config
from strata.embedding import (
    Embedder,
    has_query_twin,
    known_dim,
    make_embedder,
    make_query_embedder,
)
from strata.engine import adapting
from strata.errors import EmbedderMismatchError, NoIndexError, UserError
from strata.layers import C1_SYMBOL_CATALOG, C2_DEPENDENCY_GRAPH
from strata.query import lookup
from strata.query.hybrid import QueryContext
from strata.query.lookup.graph import call_graph
from strata.query.lookup.symbols import symbol_index
from strata.store import Store, open_store
from strata.store.branches import BranchView
from strata.store.capabilities import WarmReads, one_version
from strata.store.uri import redact
from strata.store.view import RepoView
from strata.workspace import memory
from strata.workspace.git import current_branch
from strata.workspace.locate import (
    INDEX_DIR_NAME,
    META_NAME,
    default_index_dir,
    find_index_upward,
    read_locator,
    write_locator,
)
from strata.workspace.repos import Repo, all_repos, named

__all__ = ["Parts", "check_embedder", "moved_from", "resolve"]

_REBUILD = "run `strata index --full` to rebuild, or set embed.provider/model back"
# The search at which a process is taken to search again and again (`Parts.searched`).
SEARCHES_BEFORE_WARM = 2


# ---- which index a path belongs to ---------------------------------------------------------
def resolve(
    path: str | os.PathLike[str] | None,
    index_dir: str | os.PathLike[str] | None,
    cwd: Path | None = None,
) -> tuple[Path, Path]:
    """(root, index directory) for a path to index and/or an explicit index directory.

    A path inside an indexed tree belongs to that tree's index; a file roots at its
    parent; with neither, the index is found upward from the working directory. An
    existing index keeps its recorded root even when `path` lies elsewhere: such a path
    is another repository of that index (see `strata.workspace.repos`). Relative paths,
    and the upward search, start at `cwd` (default: the process's working directory).
    """
    here = cwd or Path.cwd()
    if index_dir is not None:
        idx = (here / Path(index_dir).expanduser()).resolve()
        root = root_of(idx)
        if path is not None and root is None:
            return root_for((here / Path(path).expanduser()).resolve()), idx
        if root is None:
            raise NoIndexError(
                f"no index in {idx}", hint="run `strata index PATH --index-dir DIR` first"
            )
        return root, idx
    if path is not None:
        target = (here / Path(path).expanduser()).resolve()
        if not target.exists():
            raise UserError(f"{target} does not exist")
        found = find_index_upward(target)
        root = root_of(found) if found else None
        if found and root and (target == root or root in target.parents):
            return root, found
        root = root_for(target)
        return root, default_index_dir(root)
    found = find_index_upward(here)
    root = root_of(found) if found else None
    if found is None or root is None:
        raise NoIndexError(
            f"no index found in {here} or above", hint="run `strata index PATH` to create one"
        )
    return root, found


def root_for(target: Path) -> Path:
    """The root a target indexes under: itself, or a file's parent directory."""
    return target if target.is_dir() else target.parent


def root_of(index_dir: Path) -> Path | None:
    """The root recorded in an index directory's locator file; for an index that sat at
    its root's `.strata/` and was moved or copied along with its tree, the tree it is in
    now (see `moved_from`)."""
    locator = read_locator(index_dir)
    root = locator.get("root")
    if not isinstance(root, str):
        return None
    return index_dir.parent if moved_from(index_dir, locator) else Path(root)


def moved_from(index_dir: Path, locator: dict[str, Any]) -> Path | None:
    """The recorded root when this index was made at `<that root>/.strata` (its default
    place, as its recorded store URI says) and now sits at another tree's `.strata`."""
    root, store = locator.get("root"), locator.get("store")
    if not isinstance(root, str) or index_dir.name != INDEX_DIR_NAME:
        return None
    old = Path(root)
    made_inside = store == f"lancedb://{default_index_dir(old) / 'lance'}"
    return old if made_inside and default_index_dir(old) != index_dir else None


def check_embedder(meta: Mapping[str, Any], name: str | None, dim: int | None = None) -> None:
    """Refuse an embedder the index was not built with.

    `meta` is the index's locator; `name` the configured embedder (None: no embedder) and
    `dim` its width when known (None: compare by name only, so no model is loaded just to
    check). An index that records no embedder yet accepts any.

    Raises:
        EmbedderMismatchError: the index was built with another embedder or width.
    """
    built, built_dim = meta.get("embedder"), meta.get("dim")
    if name is None:
        if meta.get("dim", 0) != 0:
            raise EmbedderMismatchError(
                f"index built with {built} ({built_dim}-d); config asks for no embedder",
                hint="run `strata index --full` to rebuild lexical-only",
            )
        return
    if not built or (built == name and (dim is None or built_dim == dim)):
        return
    asks = name if dim is None else f"{name} ({dim}-d)"
    raise EmbedderMismatchError(
        f"index built with {built} ({built_dim}-d); config asks for {asks}", hint=_REBUILD
    )


class Parts:
    """The directory, store and embedders of one index, opened lazily and checked once."""

    def __init__(self, root: Path, index_dir: Path, cfg: Config, store_uri: str) -> None:
        self.root = root
        self.index_dir = index_dir
        self.config = cfg
        self.store_uri = store_uri
        self._store: Store | None = None
        self._branch: str | None = None  # the active branch, once known ("" = none)
        self._embedder: Embedder | None = None
        self._fresh: Embedder | None = None
        self._query: Embedder | None = None
        self._searches = 0

    # ---- the index directory and its locator (index.json) ---------------------------------
    @property
    def exists(self) -> bool:
        """Whether an index has been written here."""
        return (self.index_dir / META_NAME).is_file()

    def require(self) -> None:
        """Refuse to read an index that has not been written.

        Raises:
            NoIndexError: nothing has been indexed here yet.
        """
        if not self.exists:
            raise NoIndexError(
                f"no index at {self.index_dir}", hint=f"run `strata index {self.root}`"
            )

    def one_search(self) -> contextlib.AbstractContextManager[None]:
        """A block for one search: it reads one store version (a search asks for it several
        times), and it counts towards keeping the store warm (`searched`)."""
        self.searched()
        return one_version(self.base_store) if self.exists else contextlib.nullcontext()

    def locator(self) -> dict[str, Any]:
        """The index's locator (`index.json`), read afresh."""
        return read_locator(self.index_dir)

    def write_locator(self, **values: Any) -> None:
        """Merge `values` into the locator (root and store recorded every time; a store URI
        with a password keeps the file its owner's only)."""
        uri = self.store_uri
        private = uri != redact(uri)
        write_locator(self.index_dir, private=private, root=str(self.root), store=uri, **values)

    def repo(self, name: str | None = None) -> Repo:
        """The repository called `name` (the home one for None); UserError if unknown."""
        return named(self.locator(), self.root, name)

    def repo_store(self, name: str | None = None) -> Store:
        """One repository's view of the store (the home repository's by default)."""
        r = self.repo(name)
        return RepoView(self.store, r.name, r.prefix)

    def scope(self, repo: str | None) -> Store:
        """For a read: the whole store, or one repository's view of it (index required)."""
        self.require()
        return self.repo_store(repo) if repo else self.store

    def context(self) -> QueryContext:
        """What a search runs against: the store, the search settings, the query embedder."""
        names = tuple(r.name for r in all_repos(self.locator(), self.root)) if self.exists else ()
        embedder = self.query_embedder if self.embeds else None
        adapter = adapting.loader(self.index_dir) if self.embeds else None
        return QueryContext(self.store, self.config, embedder, names, adapter)

    # ---- the store and the embedders -------------------------------------------------------
    @property
    def embeds(self) -> bool:
        """Whether the configuration asks for vectors at all."""
        return self.config.embed.provider != "none"

    @property
    def store_open(self) -> bool:
        """Whether the store has been opened (a no-op run never opens it)."""
        return self._store is not None

    @property
    def store(self) -> Store:
        """The store as the active branch sees it (`strata.store.branches`), or the whole
        store when no branch is active."""
        branch = self.branch
        return self.base_store if branch is None else BranchView(self.base_store, branch)

    @property
    def branch(self) -> str | None:
        """The branch runs index and read: `store.branch` (`--branch`), else the checkout's
        branch once the index tracks branches, else None (no branch filter)."""
        if self._branch is None:
            tracked = self.locator().get("branches")
            self._branch = self.config.store.branch or (
                (current_branch(self.root) or "") if tracked else ""
            )
        return self._branch or None

    @property
    def base_store(self) -> Store:
        """The store, opened on first use with the index's recorded dimension."""
        if self._store is None:
            meta = read_locator(self.index_dir)
            dim = int(meta["dim"]) if "dim" in meta else self.configured_dim()
            self._store = open_store(self.store_uri, dim)
        return self._store

    def use_store(self, store: Store | None) -> None:
        """Hold `store` from now on, closing the one held before (a rebuild's new table)."""
        if self._store is not None and self._store is not store:
            self._store.close()
        self._store = store

    def embedder(self) -> Embedder:
        """The configured embedder, loaded on first use and checked against the index."""
        if self._embedder is None:
            emb = self.unchecked_embedder()
            check_embedder(read_locator(self.index_dir), emb.name, emb.dim)
            self._embedder = emb
        return self._embedder

    def unchecked_embedder(self) -> Embedder:
        """The configured embedder, loaded on first use, whatever the index holds."""
        if self._fresh is None:
            self._fresh = make_embedder(self.config.embed)
        return self._fresh

    def query_embedder(self) -> Embedder:
        """The embedder for search queries: a light twin of the index's model where it has
        one (see `make_query_embedder`), even once the model itself is loaded (one short
        text through the twin: 2 ms, through torch: 8 ms), checked against the index."""
        if self._embedder is not None and not has_query_twin(self.config.embed):
            return self._embedder
        if self._query is None:
            emb, name = make_query_embedder(self.config.embed)
            check_embedder(read_locator(self.index_dir), name, emb.dim)
            self._query = emb
        return self._query

    def configured_dim(self) -> int:
        """The width the configuration gives vectors (0 without an embedder), known without
        loading the model where the model is known."""
        if not self.embeds:
            return 0
        known = known_dim(self.config.embed)  # no model load just to create the table
        return known if known is not None else self.unchecked_embedder().dim

    def warm(self) -> None:
        """Ready this process to search again and again (see `Engine.keep_warm`)."""
        self.require()
        memory.return_large_buffers()
        # Smallest first: each build's passing peak then sits on less of what is kept.
        lookup.indexed_paths(self.store)  # what a question with a path-shaped word asks
        counts = self.store.counts()
        if counts.get(C1_SYMBOL_CATALOG, {}).get("rows"):
            symbol_index(self.store)  # what a routed query for a name asks first
        if counts.get(C2_DEPENDENCY_GRAPH, {}).get("rows"):
            call_graph(self.store)  # "who calls X" walks it (15 s to build at 95k edges)
        if isinstance(self.store, WarmReads):
            self.store.keep_warm()
        if self.embeds and self.store.dim > 0:  # a lexical index never embeds a query
            self.query_embedder()
        memory.keep_what_is_built()
        memory.release()

    def searched(self) -> None:
        """One more search in this process: at the second, the store starts keeping warm
        in the background (a one-shot command never pays for it)."""
        self._searches += 1
        if self._searches == SEARCHES_BEFORE_WARM and isinstance(self.store, WarmReads):
            self.store.keep_warm(background=True)

    def close(self) -> None:
        """Release the store."""
        self.use_store(None)
