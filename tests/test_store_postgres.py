"""The PostgreSQL store's own guarantees, on the real server the tests start: faults say
one clear line (exit 2) and never print a password; a dropped connection rolls back;
writers of one repository take turns while other repositories and readers go on; BM25's
bounded first stage on a large table gives what reading every match gives while its
budget suffices, and reads at most its budget (the shortest matches first) otherwise."""

from __future__ import annotations

import dataclasses
import random
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from strata.config import load_config
from strata.engine.parts import Parts
from strata.errors import EmbedderMismatchError, LockError, NoIndexError, SchemaError, StoreError
from strata.index.records import make_record
from strata.layers import C0_SOURCE_CHUNKS
from strata.store import Filter, open_store
from strata.store.postgres import rows as pg_rows
from strata.store.postgres import search, shortlist
from strata.store.postgres.migrations import steps
from strata.store.postgres.store import PgStore
from strata.store.uri import redact
from strata.types import Record
from tests.conftest import with_schema


def rec(path: str, i: int, content: str) -> Record:
    r = make_record(
        id=f"{path}:{i}",
        path=path,
        layer=C0_SOURCE_CHUNKS,
        title=f"unit{i}",
        content=content,
        lang="python",
        file_hash="h",
        span=(i + 1, i + 1),
        kind="function",
        metadata={},
    )
    return dataclasses.replace(r, repo_id="r")


def version(k: int) -> list[Record]:
    """Version k of f.py: 2 + k % 5 rows, each marked with its version."""
    return [rec("f.py", i, f"marker v{k} row {i}") for i in range(2 + k % 5)]


def strata(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "strata", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**_env(), "STRATA_NO_SERVER": "1", "STRATA_EMBED_PROVIDER": "none", "COLUMNS": "500"},
    )


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


def test_passwords_are_redacted_everywhere() -> None:
    assert redact("postgresql://me:s3cr'et@db.example/strata") == (
        "postgresql://me:***@db.example/strata"
    )
    assert redact("postgresql://db/strata?password=s3cret&sslmode=require") == (
        "postgresql://db/strata?password=***&sslmode=require"
    )
    assert redact("postgresql://me@db/strata") == "postgresql://me@db/strata"


def test_a_locator_holding_a_password_is_its_owners_only(tmp_path: Path) -> None:
    cfg = load_config(tmp_path, env={})
    secret = Parts(tmp_path, tmp_path / "idx", cfg, "postgresql://me:s3cret@db.example/strata")
    secret.write_locator(repo="home")
    assert stat.S_IMODE((tmp_path / "idx" / "index.json").stat().st_mode) == 0o600
    plain = Parts(tmp_path, tmp_path / "idx", cfg, "postgresql://me@db.example/strata")
    plain.write_locator(repo="home")
    assert stat.S_IMODE((tmp_path / "idx" / "index.json").stat().st_mode) == 0o644
    assert plain.locator()["repo"] == "home"


def test_a_server_that_is_down_is_one_line_and_exit_2(tmp_path: Path) -> None:
    uri = "postgresql://me:s3cret@127.0.0.1:1/strata"  # nothing listens on port 1
    (tmp_path / "a.py").write_text("x = 1\n")
    out = strata("index", str(tmp_path), "--store", uri, cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert "cannot reach PostgreSQL at postgresql://me:***@127.0.0.1:1/strata" in out.stderr
    assert "s3cret" not in out.stderr + out.stdout
    assert "Traceback" not in out.stderr


def test_refused_credentials_say_so_without_the_password(pg_server: str, tmp_path: Path) -> None:
    uri = pg_server.replace("postgres:@", "nobody:s3cret@", 1)
    with pytest.raises(StoreError, match="refused the credentials") as err:
        open_store(uri, 4)
    assert "s3cret" not in str(err.value) and "nobody:***@" in str(err.value)
    (tmp_path / "a.py").write_text("x = 1\n")
    out = strata("index", str(tmp_path), "--store", uri, cwd=tmp_path)
    assert out.returncode == 2 and "refused the credentials" in out.stderr
    assert "s3cret" not in out.stderr + out.stdout


def test_a_database_without_pgvector_rights_says_how_to_add_it(pg_server: str) -> None:
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS novector")
        conn.execute("DROP ROLE IF EXISTS alice")
        conn.execute("CREATE ROLE alice LOGIN")
        conn.execute("CREATE DATABASE novector OWNER alice")
    uri = pg_server.replace("postgres:@", "alice@", 1).replace("/postgres?", "/novector?", 1)
    with pytest.raises(StoreError, match="vector extension") as err:
        open_store(uri, 4)
    assert "CREATE EXTENSION vector" in (err.value.hint or "")
    with psycopg.connect(uri) as conn:  # nothing was half made
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        assert tables.fetchone() == (0,)


def test_a_newer_schema_is_refused_before_anything_changes(pg_uri: str, tmp_path: Path) -> None:
    open_store(pg_uri, 4).close()
    with psycopg.connect(pg_uri, autocommit=True) as conn:
        conn.execute("INSERT INTO strata_migrations (version, name) VALUES (99, 'future')")
    with pytest.raises(SchemaError, match="schema version 99, newer"):
        open_store(pg_uri, 4)
    (tmp_path / "a.py").write_text("x = 1\n")
    out = strata("index", str(tmp_path), "--store", pg_uri, cwd=tmp_path)
    assert out.returncode == 2 and "newer than this Strata" in out.stderr


def test_another_width_is_refused_with_the_command_to_run(pg_uri: str) -> None:
    open_store(pg_uri, 8).close()
    with pytest.raises(EmbedderMismatchError, match="8-d vectors; this run uses 4-d") as err:
        open_store(pg_uri, 4)
    assert "strata index --full" in (err.value.hint or "")


def test_migrations_are_recorded_once(pg_uri: str) -> None:
    open_store(pg_uri, 4).close()
    open_store(pg_uri, 4).close()
    with psycopg.connect(pg_uri) as conn:
        found = conn.execute("SELECT version, name FROM strata_migrations").fetchall()
    assert [v for v, _ in sorted(found)] == [1, 2, 3, 4, 5]
    assert dict(found)[4] == "branch_rows" and dict(found)[5] == "rows_token"


@pytest.fixture
def store(pg_uri: str) -> Iterator[PgStore]:
    s = open_store(pg_uri, 0)
    assert isinstance(s, PgStore)
    yield s
    s.close()


def test_a_connection_dropped_mid_write_rolls_back_and_the_next_write_works(
    store: PgStore, pg_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.replace_sources({"f.py": version(1)})
    real = pg_rows.copy_rows

    def killed_midway(table: Any, dim: int) -> Iterator[tuple[Any, ...]]:
        for n, row in enumerate(real(table, dim)):
            if n == 2:  # the server ends the writing session in the middle of the COPY
                with psycopg.connect(pg_server, autocommit=True) as admin:
                    admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE query LIKE 'COPY rag_chunks%%' AND pid <> pg_backend_pid()"
                    )
            yield row

    monkeypatch.setattr("strata.store.postgres.store.copy_rows", killed_midway)
    with pytest.raises(StoreError):
        store.replace_sources({"f.py": version(4)})
    assert [r.content for r in store.fetch(Filter())] == [r.content for r in version(1)]
    monkeypatch.undo()
    store.replace_sources({"f.py": version(4)})
    assert [r.content for r in store.fetch(Filter())] == [r.content for r in version(4)]


def test_writers_of_one_repository_take_turns_others_go_on(pg_uri: str) -> None:
    one, two = open_store(pg_uri, 0), open_store(pg_uri, 0)
    assert isinstance(one, PgStore) and isinstance(two, PgStore)
    with one.writer_lock("api"):
        with (
            pytest.raises(LockError, match="writing repository 'api'"),
            two.writer_lock("api", wait=0.3),
        ):
            pass
        with two.writer_lock("web", wait=0.3):  # another repository is not held up
            two.replace_sources({"w.py": [rec("w.py", 0, "web side")]}, repo="r")
    with two.writer_lock("api", wait=0.3):  # released with the block
        pass
    one.close()
    two.close()


def test_readers_never_see_half_a_file_while_it_is_replaced(pg_uri: str) -> None:
    writer, reader = open_store(pg_uri, 0), open_store(pg_uri, 0)
    writer.replace_sources({"f.py": version(0)})
    stop = threading.Event()
    seen: list[tuple[int, int]] = []
    errors: list[BaseException] = []

    def read() -> None:
        try:
            while not stop.is_set():
                rows = reader.fetch(Filter(paths=("f.py",)))
                marks = {r.content.split()[1] for r in rows}
                assert len(marks) == 1, marks  # one version, whole
                k = int(next(iter(marks))[1:])
                assert len(rows) == 2 + k % 5
                hits = reader.lexical_search(["marker"], 50, Filter())
                assert len({r.content.split()[1] for r, _ in hits}) == 1
                seen.append((k, len(rows)))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=read) for _ in range(3)]
    for t in threads:
        t.start()
    for k in range(1, 40):
        writer.replace_sources({"f.py": version(k)})
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert len({k for k, _ in seen}) > 1  # the readers did see the writes go by
    writer.close()
    reader.close()


def test_several_indexes_share_one_server_in_their_own_schemas(pg_server: str) -> None:
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS team_a")
        conn.execute("CREATE SCHEMA IF NOT EXISTS team_b")
    a = open_store(with_schema(pg_server, "team_a"), 0)
    b = open_store(with_schema(pg_server, "team_b"), 0)
    a.replace_sources({"x.py": [rec("x.py", 0, "only in a")]})
    assert b.fetch(Filter()) == [] and len(a.fetch(Filter())) == 1
    a.close()
    b.close()


def test_a_read_only_replica_is_searched_and_never_migrated(pg_uri: str, pg_server: str) -> None:
    primary = open_store(pg_uri, 0)
    primary.replace_sources({"x.py": [rec("x.py", 0, "replicated words")]})
    read_only = " -cdefault_transaction_read_only=on".replace(" ", "%20").replace("=", "%3D")
    replica = open_store(pg_uri + read_only, 0)  # as on a hot standby: no write can run
    assert [r.id for r, _ in replica.lexical_search(["replicated"], 5, Filter())] == ["x.py:0"]
    with pytest.raises(StoreError, match="read-only transaction"):
        replica.replace_sources({"x.py": []})
    later = steps()[-1].version + 1
    with psycopg.connect(pg_uri, autocommit=True) as conn:
        conn.execute("INSERT INTO strata_migrations (version, name) VALUES (%s, 'later')", (later,))
    with pytest.raises(
        SchemaError, match=f"read-only database holds Strata schema version {later}"
    ):
        open_store(pg_uri + read_only, 0)
    empty = pg_server + "&options=-csearch_path%3Dpublic%20-cdefault_transaction_read_only%3Don"
    with pytest.raises(NoIndexError):
        open_store(empty, 0)
    primary.close()
    replica.close()


# -- BM25 on a large table: the bounded first stage (store/postgres/shortlist.py) --

WORDS = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta"]


def corpus(store: PgStore) -> None:
    """400 rows of 3 to 60 words, common words and rare ones, tests and not, two repos."""
    rng = random.Random(19)
    files: dict[str, list[Record]] = {}
    for n in range(400):
        words = [*rng.choices(WORDS[:4], k=rng.randint(2, 59)), rng.choice(WORDS[4:])]
        path = f"{'test_' if n % 3 == 0 else ''}m{n // 10}.py"
        row = dataclasses.replace(rec(path, n % 10, " ".join(words)), is_test=n % 3 == 0)
        files.setdefault(path, []).append(row)
    store.replace_sources(files)
    store.optimize()  # ANALYZE: the length histogram the first stage walks


def hits(store: PgStore, terms: list[str], where: Filter, k: int = 10) -> list[tuple[str, float]]:
    return [(r.id, round(s, 6)) for r, s in store.lexical_search(terms, k, where)]


QUERIES = [["alpha"], ["alpha", "beta"], ["gamma", "omega"], ["alpha", "beta", "delta"]]
FILTERS = [Filter(), Filter(is_test=True), Filter(is_test=False, repo_id="r")]


def test_the_shortlist_gives_what_reading_every_match_gives(
    store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus(store)
    full = {(i, j): hits(store, q, f) for i, q in enumerate(QUERIES) for j, f in enumerate(FILTERS)}
    assert all(full.values())
    monkeypatch.setattr(search, "FULL_SCAN", 0)  # every query takes the bounded path
    monkeypatch.setattr(shortlist, "RARE", 30)  # the rare words are read in full
    store._corpus.forget()
    walked = {
        (i, j): hits(store, q, f) for i, q in enumerate(QUERIES) for j, f in enumerate(FILTERS)
    }
    assert store._corpus.lengths  # the walk had a histogram to follow
    assert walked == full


def test_a_spent_budget_keeps_the_shortest_matches(
    store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every row holds "alpha" once: BM25 ranks the shortest rows first
    rows = [" ".join(["alpha"] + ["filler"] * (n % 97)) for n in range(300)]
    store.replace_sources({f"m{n}.py": [rec(f"m{n}.py", 0, t)] for n, t in enumerate(rows)})
    store.optimize()
    full = hits(store, ["alpha"], Filter(), 5)
    monkeypatch.setattr(search, "FULL_SCAN", 0)
    monkeypatch.setattr(shortlist, "RARE", 0)
    monkeypatch.setattr(shortlist, "BUDGET", 40)
    store._corpus.forget()
    read: list[int] = []
    add = shortlist._Found.add

    def counted(found: shortlist._Found, cursor: Any, *, whole: bool = False) -> int:
        read.append(add(found, cursor, whole=whole))
        return read[-1]

    monkeypatch.setattr(shortlist._Found, "add", counted)
    assert hits(store, ["alpha"], Filter(), 5) == full
    assert 5 <= sum(read) <= 40  # of 300 matches


def test_the_length_index_is_made_by_a_migration(store: PgStore) -> None:
    assert "rag_chunks_len" not in store.integrity().missing
    assert "rag_chunks_len" in search_indexes(store)


def search_indexes(store: PgStore) -> set[str]:
    with store._read() as conn:
        found = conn.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
        ).fetchall()
    return {name for (name,) in found}


def test_every_write_gives_a_new_version_token(pg_uri: str) -> None:
    store: Any = open_store(pg_uri, 0)
    before = store.version
    assert before is not None  # migration 005: a token from the start
    store.replace_sources({"a.py": [rec("a.py", 0, "first words")]})
    first = store.version
    assert first not in (None, before) and store.version == first  # no write: the same
    store.replace_sources({"a.py": [rec("a.py", 0, "second words")]})
    second = store.version
    assert second not in (None, first)
    with pytest.raises(StoreError), store._write("fail on purpose") as conn:
        conn.execute("SELECT 1/0")
    assert store.version == second  # rolled back: the token too
    store.close()
