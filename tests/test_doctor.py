"""`strata doctor`: a real index corrupted on purpose is diagnosed, backed up and repaired."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from strata.engine import Engine
from strata.engine.doctor import check
from strata.engine.repair import repair
from strata.store import Filter
from strata.store.arrow import to_arrow
from strata.surfaces.cli import app
from strata.surfaces.cli.ops import attach

pytestmark = pytest.mark.usefixtures("both_stores")

LEXICAL = {"embed.provider": "none"}
attach(app)


@pytest.fixture
def eng(minirepo: Path) -> Engine:
    e = Engine.open(minirepo, config=LEXICAL)
    e.index()
    return e


def kinds(report: object) -> set[str]:
    return {p.kind for p in report.problems if p.severity == "error"}  # type: ignore[attr-defined]


def test_a_fresh_index_is_healthy(eng: Engine) -> None:
    report = check(eng, deep=True)
    assert report.healthy, report.problems
    assert report.stats["rows"] > 0


def test_a_file_deleted_behind_its_back_leaves_orphans_that_repair_drops(
    eng: Engine, minirepo: Path
) -> None:
    (minirepo / "docs" / "notes.txt").unlink()
    report = check(eng)
    assert report.paths("orphan") == {"docs/notes.txt"}
    fixed = repair(eng, report)
    assert fixed.healthy, fixed.problems
    assert "docs/notes.txt" not in eng.store.sources()
    assert fixed.backup and Path(fixed.backup).is_dir()


def damage(eng: Engine, statement: str) -> None:
    """Change the PostgreSQL store behind Strata's back (as a hand-run SQL session would)."""
    with psycopg.connect(eng.store.uri, autocommit=True) as conn:  # type: ignore[attr-defined]
        conn.execute(statement.encode())


LANCE_ONLY = pytest.mark.parametrize("both_stores", ["lancedb"], indirect=True)


@LANCE_ONLY  # PostgreSQL's primary key refuses a duplicate row (see the next test)
def test_duplicate_rows_written_with_the_store_are_found_and_removed(eng: Engine) -> None:
    rows = eng.store.fetch(Filter(paths=("README.md",)))
    before = len(rows)
    eng.store._table.add(to_arrow(rows[:3], eng.store.dim))  # type: ignore[attr-defined]
    report = check(eng)
    assert "duplicate" in kinds(report)
    assert report.paths("duplicate") == {"README.md"}
    fixed = repair(eng, report)
    assert fixed.healthy, fixed.problems
    ids = [r.id for r in eng.store.fetch(Filter(paths=("README.md",)))]
    assert len(ids) == len(set(ids)) == before


@pytest.mark.parametrize("both_stores", ["postgresql"], indirect=True)
def test_postgresql_refuses_a_duplicate_row(eng: Engine) -> None:
    victim = eng.store.fetch(Filter(paths=("README.md",)))[0]
    with pytest.raises(psycopg.errors.UniqueViolation):
        damage(
            eng,
            "INSERT INTO rag_chunks (repo_id, id, file_hash, path, layer) "
            f"SELECT repo_id, id, file_hash, path, layer FROM rag_chunks WHERE id = '{victim.id}'",
        )


def test_a_file_changed_without_reindex_is_stale_until_repaired(
    eng: Engine, minirepo: Path
) -> None:
    (minirepo / "docs" / "guide.md").write_text("# Guide\n\nAll about the wombatcarousel.\n")
    report = check(eng)
    assert report.paths("stale") == {"docs/guide.md"}
    fixed = repair(eng, report)
    assert fixed.healthy, fixed.problems
    hits = eng.search("wombatcarousel", mode="lexical")
    assert [h.record.path for h in hits][:1] == ["docs/guide.md"]


def test_rows_lost_from_a_current_file_are_found_by_a_deep_check(
    eng: Engine, both_stores: str
) -> None:
    victim = eng.store.fetch(
        Filter(paths=("src/minihttp/client.py",), layers=("C0_SOURCE_CHUNKS",))
    )[0]
    if both_stores == "lancedb":
        eng.store._table.delete(f"id = '{victim.id}'")  # type: ignore[attr-defined]
    else:
        damage(eng, f"DELETE FROM rag_chunks WHERE id = '{victim.id}'")
    report = check(eng, deep=True)
    assert report.paths("rows") == {"src/minihttp/client.py"}
    assert repair(eng, report).healthy
    assert victim.id in {r.id for r in eng.store.fetch(Filter(paths=("src/minihttp/client.py",)))}


def test_a_missing_lexical_index_is_found_and_rebuilt(eng: Engine, both_stores: str) -> None:
    if both_stores == "lancedb":
        eng.store._table.drop_index("lex_idx")  # type: ignore[attr-defined]
    else:
        damage(eng, "DROP INDEX rag_chunks_lex")
    eng.close()
    report = check(eng)
    assert "lexical" in kinds(report)
    fixed = repair(eng, report)
    assert fixed.healthy, fixed.problems


@LANCE_ONLY  # PostgreSQL's tokens are stemmed since its first schema version
def test_a_full_text_index_without_stems_is_found_and_rebuilt(eng: Engine) -> None:
    store = eng.store
    meta = store.read_meta()  # type: ignore[attr-defined]
    del meta["lex_analysis"]  # what an index made before BM25 had stems looks like
    store.write_meta(meta)  # type: ignore[attr-defined]
    report = check(eng)
    assert any("older Strata" in p.detail for p in report.problems)
    fixed = repair(eng, report)
    assert fixed.healthy, fixed.problems
    assert store.full_text_current()  # type: ignore[attr-defined]


def test_new_files_not_yet_indexed_are_reported(eng: Engine, minirepo: Path) -> None:
    (minirepo / "docs" / "new.md").write_text("# New\n\nNot indexed yet.\n")
    (minirepo / "docs" / "blob.bin").write_bytes(
        b"\x00\x01\x02" * 100
    )  # unindexable: not a problem
    report = check(eng)
    assert report.paths("unindexed") == {"docs/new.md"}


def test_leftover_temporary_files_are_reported_and_removed(eng: Engine) -> None:
    (eng.index_dir / "index.json.tmp").write_text("{")
    report = check(eng)
    assert "index.json.tmp" in report.paths("lock")
    assert report.healthy  # informational
    repair(eng, report)
    assert not (eng.index_dir / "index.json.tmp").exists()


def test_cli_exit_codes_and_json(eng: Engine, minirepo: Path) -> None:
    runner = CliRunner()
    args = ["doctor", "--index-dir", str(eng.index_dir), "--embedder", "none", "--json"]
    ok = runner.invoke(app, args)
    assert ok.exit_code == 0, ok.output
    (minirepo / "README.md").unlink()
    bad = runner.invoke(app, args)
    assert bad.exit_code == 2
    assert json.loads(bad.stdout)["counts"]["orphan"] == 1
    fixed = runner.invoke(app, [*args, "--repair"])
    assert fixed.exit_code == 0, fixed.output
    data = json.loads(fixed.stdout)
    assert data["healthy"] and data["backup"] and any("dropped" in a for a in data["actions"])


def test_an_embedded_index_is_healthy_as_status_says(minirepo: Path) -> None:
    from tests.embed_server import serve

    for server in serve():
        cfg = {
            "embed.provider": "ollama",
            "embed.base_url": server.url,
            "embed.model": "test-model",
        }
        e = Engine.open(minirepo, config=cfg)
        e.index()
        assert e.status().to_json()["healthy"]
        report = check(e, deep=True)
        assert report.healthy, report.problems  # layers never embedded are not missing vectors
        runner = CliRunner()
        args = ["doctor", "--index-dir", str(e.index_dir), "--json"]
        env = {f"STRATA_EMBED_{k.split('.')[1].upper()}": v for k, v in cfg.items()}
        done = runner.invoke(app, [*args, "--repair"], env=env)
        assert done.exit_code == 0, done.output
        assert json.loads(done.stdout)["backup"] is None
        assert not list(minirepo.glob(".strata.bak-*"))


def test_repair_backs_up_only_with_something_to_fix_and_prunes_old_backups(
    eng: Engine, minirepo: Path
) -> None:
    assert repair(eng, check(eng)).backup is None
    assert not list(minirepo.glob(".strata.bak-*"))
    keep = Engine.open(minirepo, config={**LEXICAL, "doctor.keep_backups": 2})
    made = []
    for n in range(4):
        (minirepo / "docs" / f"late{n}.md").write_text(f"# Late {n}\n\nAdded behind its back.\n")
        fixed = repair(keep, check(keep))
        assert fixed.healthy and fixed.backup, fixed.problems
        made.append(Path(fixed.backup).name)
    left = sorted(p.name for p in minirepo.glob(".strata.bak-*"))
    assert left == sorted(made[-2:])
