"""The `strata` command as a user runs it: real processes, real stdout/stderr, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def strata(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "strata", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_index_search_status_from_the_working_directory(minirepo: Path) -> None:
    done = strata("index", "--embedder", "none", cwd=minirepo)
    assert done.returncode == 0, done.stderr
    assert "indexed 7 files" in done.stderr
    found = strata("search", "parse_header", "--json", "-k", "2", cwd=minirepo / "src")
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    # a code name is routed to the symbol catalog first, then to the source chunks; the
    # definition is shown at its header chunk (found by both steps: one hit)
    assert len(hits) == 2 and hits[0]["path"] == "src/minihttp/headers.py"
    assert [h["layer"] for h in hits] == ["C0_SOURCE_CHUNKS", "C0_SOURCE_CHUNKS"]
    assert hits[0]["title"] == "parse_header" and hits[0]["start_line"] == 4
    assert hits[0]["metadata"]["qname"] == "minihttp.headers.parse_header"
    assert "lexical only" in found.stderr
    status = json.loads(strata("status", "--json", cwd=minirepo).stdout)
    assert status["root"] == str(minirepo) and status["files_pending"] == 0
    assert status["embedder"]["lexical_only"] is True


def test_terminal_output_shows_path_lines_and_the_snippet(minirepo: Path) -> None:
    strata("index", "--embedder", "none", cwd=minirepo)
    shown = strata(
        "search",
        "RetryPolicy",
        "-k",
        "1",
        "--path",
        "src/**",
        "--explain",
        "--layer",
        "C0",
        cwd=minirepo,
    )
    assert shown.returncode == 0
    assert "src/minihttp/client.py:11-" in shown.stdout
    assert "class RetryPolicy" in shown.stdout and "lexical=" in shown.stdout
    assert "search:" in shown.stderr
    routed = strata("search", "who calls parse_header", "--explain", cwd=minirepo)
    assert "plan: intent callers" in routed.stderr and "why:" in routed.stderr
    assert "src/minihttp/client.py" in routed.stdout


def test_a_snippet_line_is_cut_where_a_bundle_holds_thousands(tmp_path: Path) -> None:
    blob = ",".join(f"token_{i}" for i in range(4_000))
    (tmp_path / "bundle.js").write_text(f"var words = [{blob}];\n", encoding="utf-8")
    assert strata("index", str(tmp_path), "--embedder", "none").returncode == 0
    shown = strata("search", "token_3999", "-k", "1", "--index-dir", str(tmp_path / ".strata"))
    assert shown.returncode == 0, shown.stderr
    assert "bundle.js:1-1" in shown.stdout and " …" in shown.stdout
    assert max(len(line) for line in shown.stdout.splitlines()) < 400


def test_index_json_summary_and_skip_warnings(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    (tmp_path / "empty.txt").write_text("")
    done = strata("index", str(tmp_path), "--embedder", "none", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["indexed"] == 1
    assert summary["skipped"] == {"image": 1, "empty": 1}
    assert "WARN skip img.png: image" in done.stderr
    assert "WARN skip empty.txt: empty" in done.stderr
    status = json.loads(strata("status", "--json", "--index-dir", str(tmp_path / ".strata")).stdout)
    assert status["files_pending"] == 0, "known skips are not pending work"
    (tmp_path / "b.py").write_text("X = 1\n")
    status = json.loads(strata("status", "--json", "--index-dir", str(tmp_path / ".strata")).stdout)
    assert status["files_pending"] == 1


def test_batch_prints_one_json_array_per_query(minirepo: Path, tmp_path: Path) -> None:
    strata("index", "--embedder", "none", cwd=minirepo)
    queries = tmp_path / "q.txt"
    queries.write_text("parse_header\nRetryPolicy\n\nformat_cookie\n")
    out = strata("search", "--batch", str(queries), "-k", "3", cwd=minirepo)
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(lines) == 3 and all(isinstance(x, list) and x for x in lines)
    assert lines[2][0]["title"].endswith("format_cookie")


def test_exit_codes(tmp_path: Path, minirepo: Path) -> None:
    no_index = strata("search", "anything", cwd=tmp_path)
    assert no_index.returncode == 1
    assert "strata index" in no_index.stderr
    strata("index", "--embedder", "none", cwd=minirepo)
    empty = strata("search", "   ", cwd=minirepo)
    assert empty.returncode == 1 and "empty query" in empty.stderr
    mismatch = strata(
        "index",
        "--embedder",
        "ollama",
        cwd=minirepo,
        env={"STRATA_EMBED_BASE_URL": "http://127.0.0.1:9"},
    )
    assert mismatch.returncode == 2
    assert "strata index --full" in mismatch.stderr or "ollama" in mismatch.stderr
    bad_config = strata("status", cwd=minirepo, env={"STRATA_SEARCH_K": "many"})
    assert bad_config.returncode == 1 and "search.k" in bad_config.stderr


def test_config_lists_every_key_with_its_source(minirepo: Path) -> None:
    strata("index", "--embedder", "none", cwd=minirepo)
    (minirepo / ".strata" / "config.yaml").write_text("search:\n  k: 7\n")
    out = strata("config", "--json", cwd=minirepo, env={"STRATA_CHUNK_MAX_LINES": "50"})
    rows = {r["key"]: r for r in json.loads(out.stdout)}
    assert rows["search.k"]["value"] == 7 and rows["search.k"]["source"].endswith("config.yaml")
    assert rows["chunk.max_lines"]["value"] == 50 and rows["chunk.max_lines"]["source"] == "env"
    assert rows["embed.provider"]["source"] == "index"  # the embedder the index recorded
    assert rows["embed.provider"]["value"] == "none"
    assert rows["search.mode"]["source"] == "default"


def test_max_file_bytes_flag_takes_effect(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("word " * 400)
    (tmp_path / "small.txt").write_text("tiny note\n")
    done = strata("index", str(tmp_path), "--embedder", "none", "--json", "--max-file-bytes", "100")
    summary = json.loads(done.stdout)
    assert summary["skipped"] == {"too large": 1} and summary["indexed"] == 1
