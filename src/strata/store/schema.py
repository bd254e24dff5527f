"""The LanceDB store's schema version and migrations, how its full-text index analyses
text, its connection, and the JSON metadata file beside it.

The columns themselves and their Arrow form are `strata.store.arrow`.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from strata.errors import NoIndexError, SchemaError, StoreError
from strata.store.lancedb_loaded import FTS, FullTextOperator, MatchQuery, lancedb

log = logging.getLogger(__name__)

_TERM = re.compile(r"\w+")

TABLE = "chunks"
# A manifest directory unchanged for this long has seen its last commit in that mtime tick.
SETTLED_NS = 1_000_000_000
SCHEMA_VERSION = 2
# How `lex_idx` analyses text, as recorded in meta.json: an index built another way (by an
# older Strata) is rebuilt by the next `strata index`, a no-op run included.
LEX_ANALYSIS = "whitespace tokens, English stems"
# `lex` is already split and lowercased by strata.text.tokens; the index adds English stems
# (`entries` and `entry`, `logged` and `log` meet). Measured on the whole quality benchmark:
# lexical MRR@10 up on every set, hybrid equal or better (docs/benchmarks.md).
FULL_TEXT = FTS(
    base_tokenizer="whitespace",
    language="English",
    lower_case=False,
    stem=True,
    remove_stop_words=False,
    ascii_folding=False,
    max_token_length=None,
    with_position=False,
)


def read_meta_file(path: Path) -> dict[str, Any]:
    """The JSON object in `path` ({} if there is no file)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise StoreError(f"cannot read {path}: {exc}", hint="run `strata index --full`") from exc
    if not isinstance(data, dict):
        raise StoreError(f"{path} does not hold a JSON object", hint="run `strata index --full`")
    return data


def write_meta_file(path: Path, meta: Mapping[str, Any]) -> None:
    """Write `meta` as JSON to `path` atomically (temp file, fsync, rename, fsync dir)."""
    text = json.dumps(dict(meta), indent=2, sort_keys=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: `apply(handle)` turns a version `version - 1` store into `version`."""

    version: int
    summary: str
    apply: Callable[[Any], None]


def _add_branch_column(table: Any) -> None:
    if "branches" not in table.schema.names:
        table.add_columns({"branches": "CAST('' AS string)"})


# Version 1 is the first released layout; later steps are appended here, in order.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(2, "rows name the branches that hold them (`branches`)", _add_branch_column),
)


def migrate(
    on_disk: int,
    handle: Any,
    record: Callable[[int], None],
    migrations: Sequence[Migration] = MIGRATIONS,
    target: int = SCHEMA_VERSION,
) -> int:
    """Bring a store from version `on_disk` to `target`, one numbered step at a time.

    Args:
        on_disk: the version the store's metadata records.
        handle: what each migration works on (the backend's table or connection).
        record: persists the new version after each step, so an interrupted run resumes.
        migrations: the known steps; each `version` is the version it produces.
        target: the version this Strata writes.

    Returns:
        The version the store is at afterwards (`target`).

    Raises:
        SchemaError: the store is newer than this Strata, or a step is missing.
    """
    if on_disk > target:
        raise SchemaError(
            f"index schema version {on_disk} is newer than this Strata's ({target})",
            hint="upgrade Strata to a release that writes schema "
            f"{on_disk}, or rebuild with `strata index --full`",
        )
    steps = {m.version: m for m in migrations}
    for version in range(on_disk + 1, target + 1):
        step = steps.get(version)
        if step is None:
            raise SchemaError(
                f"no migration from schema version {version - 1} to {version}",
                hint="rebuild the index with `strata index --full`",
            )
        log.info("migrating index schema to version %d: %s", version, step.summary)
        step.apply(handle)
        record(version)
    return target


def connect(directory: Path, create: bool) -> Any:
    if not directory.exists():
        if not create:
            raise NoIndexError(f"no index in {directory}", hint="run `strata index`")
        directory.mkdir(parents=True, exist_ok=True)
    try:
        return lancedb.connect(str(directory), read_consistency_interval=timedelta(0))
    except (OSError, RuntimeError, ValueError) as exc:
        raise StoreError(f"cannot open the store in {directory}: {exc}") from exc


def table_names(db: Any) -> list[str]:
    return list(db.list_tables().tables)


def searchable(terms: Sequence[str]) -> list[str]:
    """The terms BM25 is asked for: words only, lowercased, each once."""
    return list(dict.fromkeys(t.lower() for t in terms if _TERM.fullmatch(t)))


def match_query(words: Sequence[str]) -> MatchQuery:
    """The BM25 query over `lex`, spelled out: exact terms (no fuzziness), any may match."""
    return MatchQuery(
        " ".join(words),
        "lex",
        boost=1.0,
        fuzziness=0,
        max_expansions=50,
        operator=FullTextOperator.OR,
        prefix_length=0,
        document_granularity=None,
    )


class ManifestWatch:
    """A LanceDB table's version, asked of LanceDB (a round trip to its event-loop thread,
    milliseconds on a busy machine) only when the table's manifest directory changed.

    Every commit, by any process, writes a manifest into `versions`, which moves the
    directory's mtime. The number read is reused while the mtime stays what it was when
    the number was read, and only when that mtime was already `SETTLED_NS` old then: a
    commit in the same clock tick as the last one would leave it unchanged.
    """

    def __init__(self, read: Callable[[], int], versions: Path) -> None:
        self._read = read
        self._versions = versions
        self._known: tuple[int, int] | None = None  # (settled mtime, version read under it)
        self._lock = threading.Lock()

    def __call__(self) -> int:
        try:
            seen = os.stat(self._versions).st_mtime_ns
        except OSError:
            return self._read()
        with self._lock:
            known = self._known
        if known is not None and known[0] == seen:
            return known[1]
        settled = time.time_ns() - seen > SETTLED_NS
        version = self._read()
        with self._lock:
            self._known = (seen, version) if settled else None
        return version
