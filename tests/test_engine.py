"""End to end through the Engine: index a real tree, search it, edit it, re-index."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine, NoIndexError, QueryError
from strata.layers import C0_SOURCE_CHUNKS, D0_DOC_CHUNKS

pytestmark = pytest.mark.usefixtures("both_stores")

LEXICAL = {"embed.provider": "none"}


def _index(root: Path, **cfg: object) -> tuple[Engine, object]:
    eng = Engine.open(root, config={**LEXICAL, **cfg})
    return eng, eng.index()


def test_index_then_search_finds_definitions_with_exact_lines(minirepo: Path) -> None:
    eng, summary = _index(minirepo)
    assert summary.indexed == 7 and not summary.skips
    routed = eng.search("RetryPolicy", k=3)
    assert routed.plan["route"]["intent"] == "symbol"
    assert routed[0].record.layer == "C0_SOURCE_CHUNKS"  # the definition, at its header
    assert routed[0].record.metadata["qname"] == "minihttp.client.RetryPolicy"
    hits = eng.search("RetryPolicy", k=3, route=False)
    top = hits[0].record
    assert top.path == "src/minihttp/client.py"
    assert top.title == "RetryPolicy"
    lines = (minirepo / top.path).read_text().splitlines()
    assert "\n".join(lines[top.span_start - 1 : top.span_end]) == top.content
    assert lines[top.span_start - 1].startswith("@dataclass")


def test_search_covers_docs_and_code(minirepo: Path) -> None:
    eng, _ = _index(minirepo)
    hits = eng.search("how do I expire a cookie with max_age", k=5)
    layers = {h.record.layer for h in hits}
    assert {C0_SOURCE_CHUNKS, D0_DOC_CHUNKS} <= layers
    assert any(h.record.path == "docs/guide.md" for h in hits)


def test_edit_reindexes_only_that_file_and_forgets_the_removed_token(minirepo: Path) -> None:
    eng, _ = _index(minirepo)
    assert any("format_cookie" in h.record.content for h in eng.search("format_cookie"))
    headers = minirepo / "src/minihttp/headers.py"
    headers.write_text(headers.read_text().replace("format_cookie", "render_cookie"))
    (minirepo / "docs/guide.md").write_text(
        (minirepo / "docs/guide.md").read_text().replace("format_cookie", "render_cookie")
    )
    summary = eng.index()
    assert summary.indexed == 2 and summary.unchanged == 5
    assert not any("format_cookie" in h.record.content for h in eng.search("format_cookie", k=20))
    assert any(h.record.path == "src/minihttp/headers.py" for h in eng.search("render_cookie"))
    rows = eng.records()
    ids = [r.id for r in rows]
    assert len(ids) == len(set(ids)), "duplicate rows after an update"
    per_file = {r.path: r.file_hash for r in rows if r.path == "src/minihttp/headers.py"}
    assert len(set(per_file.values())) == 1


def test_noop_reindex_reads_nothing(minirepo: Path) -> None:
    eng, first = _index(minirepo)
    before = sorted((r.id, r.content_hash) for r in eng.records())
    again = eng.index()
    assert again.indexed == 0 and again.unchanged == first.indexed and again.removed == 0
    assert sorted((r.id, r.content_hash) for r in eng.records()) == before


def test_deleted_file_leaves_the_index(minirepo: Path) -> None:
    eng, _ = _index(minirepo)
    (minirepo / "docs/notes.txt").unlink()
    summary = eng.index()
    assert summary.removed == 1
    assert not [r for r in eng.records() if r.path == "docs/notes.txt"]


def test_single_file_roots_at_its_parent(minirepo: Path) -> None:
    target = minirepo / "src/minihttp/headers.py"
    eng = Engine.open(target, config=LEXICAL)
    summary = eng.index(target)
    assert eng.root == target.parent
    assert summary.indexed == 1
    assert {r.path for r in eng.records()} == {"headers.py"}


def test_filters_path_lang_kind_and_tests(minirepo: Path) -> None:
    eng, _ = _index(minirepo)
    in_src = eng.search("retry", k=10, filters={"path": ["src/**"]})
    assert in_src.hits and all(h.record.path.startswith("src/") for h in in_src)
    md = eng.search("retry", k=10, filters={"lang": ["markdown"]})
    assert md.hits and all(h.record.lang == "markdown" for h in md)
    fn = eng.search("retry", k=10, filters={"kind": ["method"]})
    assert fn.hits and all(h.record.kind == "method" for h in fn)
    no_tests = eng.search("RetryPolicy delay", k=20, filters={"no_tests": True})
    assert no_tests.hits and not any(h.record.is_test for h in no_tests)
    with_tests = eng.search("RetryPolicy delay", k=20)
    assert any(h.record.is_test for h in with_tests)


def test_k_results_whenever_k_exist(minirepo: Path) -> None:
    eng, _ = _index(minirepo)
    matching = eng.search("the", k=50, mode="lexical")
    assert len(eng.search("the", k=4)) == min(4, len(matching))


def test_hit_json_has_the_interface_fields(minirepo: Path) -> None:
    eng, _ = _index(minirepo)
    data = eng.search("parse_header", k=1, route=False)[0].to_json()
    for key in (
        "id",
        "path",
        "start_line",
        "end_line",
        "layer",
        "title",
        "lang",
        "score",
        "content",
        "metadata",
    ):
        assert key in data
    assert data["id"].startswith(data["path"] + ":")
    assert data["metadata"]["chunk_type"] in (
        "function",
        "method",
        "class",
        "module",
        "block",
        "section",
        "text",
    )


def test_lexical_only_is_said_plainly(minirepo: Path) -> None:
    eng, _ = _index(minirepo)
    result = eng.search("retry backoff", mode="hybrid")
    assert result.mode == "lexical"
    assert any("lexical only" in n for n in result.notes)
    status = eng.status().to_json()
    assert status["embedder"]["lexical_only"] is True
    assert status["layers"][C0_SOURCE_CHUNKS]["rows"] > 0
    assert status["files_pending"] == 0


def test_bad_queries_get_clear_errors(minirepo: Path) -> None:
    eng, _ = _index(minirepo)
    with pytest.raises(QueryError):
        eng.search("   ")
    with pytest.raises(QueryError):
        eng.search("?! ... ---")
    long = eng.search("retry " * 2000)
    assert any("truncated" in n for n in long.notes)


def test_search_without_an_index_says_what_to_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NoIndexError) as err:
        Engine.open()
    assert "strata index" in str(err.value)


def test_index_dir_elsewhere_records_the_root(minirepo: Path, tmp_path: Path) -> None:
    idx = tmp_path / "elsewhere"
    eng = Engine.open(minirepo, index_dir=idx, config=LEXICAL)
    eng.index()
    again = Engine.open(index_dir=idx, config=LEXICAL)
    assert again.root == minirepo
    assert again.search("parse_header").hits
    assert not (minirepo / ".strata").exists()


def test_index_if_empty_only_indexes_once(minirepo: Path) -> None:
    eng = Engine.open(minirepo, config=LEXICAL)
    assert eng.index_if_empty() is not None
    assert eng.index_if_empty() is None


def test_a_repeated_route_decorator_does_not_break_the_commit(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(
        "from flask import Flask\n\napp = Flask(__name__)\n\n\n"
        '@app.route("/")\n@app.route("/")\ndef index():\n    """Home page."""\n    return "hi"\n'
    )
    eng = Engine.open(tmp_path, config=LEXICAL)
    summary = eng.index()
    assert summary.indexed == 1
    routes = [r for r in eng.records(["C3_ENTRYPOINTS"])]
    assert [r.metadata["route_or_command"] for r in routes] == ["/"]


def test_release_notes_rank_below_the_answer_unless_asked_for(tmp_path: Path) -> None:
    (tmp_path / "CHANGELOG.md").write_text(
        "# Changelog\n\n## 2.0\n\n- The retry timeout can now be configured with "
        "`Client(timeout=...)`; retry timeout defaults changed.\n"
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(
        "# Guide\n\n## Timeouts\n\nSet the retry timeout with `Client(timeout=5)`.\n"
    )
    eng = Engine.open(tmp_path, config=LEXICAL)
    eng.index()
    how = eng.search("configure the retry timeout", k=2)
    assert how[0].record.path == "docs/guide.md"
    assert "changelog_x" in next(h for h in how if h.record.path == "CHANGELOG.md").parts
    asked = eng.search("what changed in the retry timeout release", k=2)
    assert all("changelog_x" not in h.parts for h in asked)


def test_a_touched_file_gets_its_stat_recorded_not_re_extracted(
    minirepo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    import strata.index.indexer

    eng = Engine.open(minirepo, config=LEXICAL)
    eng.index()
    before = {r.id: r.content for r in eng.records()}
    edited = minirepo / "src" / "minihttp" / "headers.py"
    edited.write_text(edited.read_text() + "\n\ndef freshly_added():\n    return 1\n")
    for path in minirepo.rglob("*"):
        if path.is_file() and ".strata" not in path.parts:
            st = path.stat()
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - 60_000_000_000))  # a minute back
    read: list[str] = []
    real = strata.index.indexer.process_batch

    def counting(files: list, cfg: object) -> list:  # type: ignore[type-arg]
        read.extend(f.rel for f in files)
        return real(files, cfg)  # type: ignore[arg-type]

    monkeypatch.setattr(strata.index.indexer, "process_batch", counting)
    summary = eng.index()
    assert read == ["src/minihttp/headers.py"]  # only the file whose bytes changed
    files = len(eng.repo_store().sources())
    assert summary.indexed == 1 and summary.unchanged == files - 1
    assert eng.search("freshly_added", route=False).hits
    kept = {r.id: r.content for r in eng.records() if not r.path.endswith("headers.py")}
    assert all(before[i] == c for i, c in kept.items())
    read.clear()
    again = eng.index()  # the recorded stats match the disk now: a plain no-op
    assert read == [] and again.indexed == 0 and again.unchanged == files


def test_a_first_run_answers_lexically_before_it_loads_the_model(
    minirepo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table's width comes from the packaged model's files: the model itself loads only
    when there is something to embed, so a model that cannot load costs no lexical search."""
    import strata.engine.parts
    from strata.errors import EmbedderError

    def cannot_load(*_: object) -> object:
        raise EmbedderError("no model today")

    monkeypatch.setattr(strata.engine.parts, "make_embedder", cannot_load)
    eng = Engine.open(minirepo)  # the default configuration: the local model
    with pytest.raises(EmbedderError):
        eng.index()
    hits = eng.search("RetryPolicy", k=3, mode="lexical", route=False)
    assert hits[0].record.title == "RetryPolicy"
    assert eng.status().to_json()["vectors"]["done"] == 0
