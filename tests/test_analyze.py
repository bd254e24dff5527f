"""`strata analyze`: the pure core on plain values, the edges on real files and the corpus."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from strata.config import load_config
from strata.engine import analyze as analyze_mod
from strata.engine.analyze import analyze, write_suggestions
from strata.index.analysis import (
    EMBED_CHUNKS_PER_S,
    FileFact,
    Suggestion,
    analyse,
    chunk_lines,
    exclude_patterns,
    merge,
)
from strata.index.discovery import discover
from strata.index.passages import chunk_file
from strata.surfaces.cli import app
from strata.types import SkipReason

CORPUS = Path(__file__).parent / "corpora" / "analyze"


# -- the pure core ------------------------------------------------------------------------


def test_languages_are_counted_and_unsampled_files_extrapolated_by_language() -> None:
    facts = [
        FileFact("a.py", "python", 1000, 40, chunks=4),
        FileFact("b.py", "python", 2000, 80, chunks=None),
        FileFact("c.md", "markdown", 500, 10, chunks=1),
    ]
    r = analyse("/r", facts, chunk_seconds=0.5)
    assert [(s.lang, s.files, s.lines, s.bytes) for s in r.languages] == [
        ("python", 2, 120, 3000),
        ("markdown", 1, 10, 500),
    ]
    assert r.expected_chunks == 4 + 8 + 1  # b.py at a.py's 4 chunks per 1000 bytes
    assert r.sampled and r.chunked_files == 2
    assert r.chunking_s == pytest.approx(0.5 * 3500 / 1500)
    assert r.embed_s == pytest.approx(13 / EMBED_CHUNKS_PER_S)
    assert r.to_json()["chunks"]["measured_on"] == "a sample of 2 of 3 files"


def test_generated_vendored_locked_minified_and_data_files_get_excludes() -> None:
    facts = [
        FileFact("pkg/api_pb2.py", "python", 10, 1),
        FileFact("pkg/api_pb2_grpc.py", "python", 10, 1),
        FileFact("src/third_party/x/y.c", "c", 10, 1),
        FileFact("contracts/vendor/compound/ITimelock.sol", "solidity", 10, 1),
        FileFact("web/app.min.js", "javascript", 10, 1),
        FileFact("web/bundle.js", "javascript", 50_000, 1, minified=True),
        FileFact("yarn.lock", "text", 10, 1),
        FileFact("data/big.csv", "text", 3 * 1024 * 1024, 1),
        FileFact("data/small.csv", "text", 100, 1),
        FileFact("src/main.py", "python", 100, 5),
    ]
    assert exclude_patterns(facts) == {
        "*_pb2.py": "generated files",
        "*_pb2_grpc.py": "generated files",
        "third_party/": "vendored code",
        "vendor/": "vendored code",
        "*.min.js": "generated files",
        "/web/bundle.js": "minified (a few very long lines)",
        "yarn.lock": "lock file",
        "/data/big.csv": "data file of 3.0 MiB",
    }


def test_excludes_already_configured_are_not_suggested_again() -> None:
    facts = [FileFact("a_pb2.py", "python", 1, 1), FileFact("Cargo.lock", "text", 1, 1)]
    r = analyse("/r", facts, current={"index.exclude": ["*_pb2.py"], "embed.provider": "local"})
    assert [(s.key, s.value) for s in r.suggestions] == [("index.exclude", ["Cargo.lock"])]


def test_chunk_size_holds_ninety_percent_of_the_functions() -> None:
    units = [10] * 18 + [95, 130]  # p90 is 10: the default 80 holds them
    assert chunk_lines(units, 80) is None
    long = [10] * 10 + [120] * 10  # p90 is 120: 80 would split half of them
    assert chunk_lines(long, 80) == 120
    assert chunk_lines([500] * 30, 80) == 200  # never past the largest sensible chunk
    assert chunk_lines([120] * 5, 80) is None  # too few functions to say


def test_embedder_by_size() -> None:
    small = analyse("/r", [FileFact("a.py", "python", 100, 5, chunks=10)], current={})
    big = analyse("/r", [FileFact("a.py", "python", 100, 5, chunks=500_000)], current={})
    provider = {s.key: s.value for s in small.suggestions}["embed.provider"]
    assert provider == "local"
    assert {s.key: s.value for s in big.suggestions}["embed.provider"] == "none"
    same = analyse(
        "/r", [FileFact("a.py", "python", 100, 5, chunks=10)], current={"embed.provider": "local"}
    )
    assert "embed.provider" not in {s.key for s in same.suggestions}


def test_merge_keeps_the_users_keys_and_says_what_changed() -> None:
    existing = {"index": {"exclude": ["docs/old/"], "workers": 2}, "embed": {"provider": "none"}}
    suggestions = [
        Suggestion("index.exclude", ["docs/old/", "*_pb2.py"], ""),
        Suggestion("embed.provider", "local", ""),  # the user chose none: kept
        Suggestion("chunk.max_lines", 120, ""),
    ]
    merged, changes = merge(existing, suggestions)
    assert merged == {
        "index": {"exclude": ["docs/old/", "*_pb2.py"], "workers": 2},
        "embed": {"provider": "none"},
        "chunk": {"max_lines": 120},
    }
    assert [(c.key, c.old, c.new) for c in changes] == [
        ("index.exclude", ["docs/old/"], ["docs/old/", "*_pb2.py"]),
        ("chunk.max_lines", None, 120),
    ]
    assert existing["index"]["exclude"] == ["docs/old/"]  # the input is not changed


# -- the edges, on real files -------------------------------------------------------------


def test_real_files_skips_ignores_and_chunks_match_indexing(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return 2\n")
    (tmp_path / "README.md").write_text("# Title\n\nSome words.\n\n## Usage\n\nMore.\n")
    (tmp_path / "bundle.js").write_text("var a=1;" * 3000)  # 24,000 chars on one line
    (tmp_path / "blob.dat").write_bytes(b"\x00\x01\x02binary" * 10)
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / ".gitignore").write_text("*.log\n")
    (tmp_path / "run.log").write_text("noise\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.js").write_text("x\n")
    seen: list[tuple[str, int, int, str]] = []
    r = analyze(tmp_path, progress=lambda *a: seen.append(a))
    assert seen[-1][:3] == ("analyze", 5, 5) and len(seen) == 5  # every discovered file
    reasons = {s.rel: s.reason for s in r.skipped}
    assert reasons == {"blob.dat": SkipReason.BINARY, "empty.txt": SkipReason.EMPTY}
    assert {i.rel for i in r.ignored} == {".gitignore", "run.log", "node_modules"}
    assert not r.sampled
    cfg = load_config(tmp_path / ".strata")
    indexed = sum(len(chunk_file(f, cfg).records) for f in discover(tmp_path, cfg.index).files)
    assert r.expected_chunks == indexed
    assert {s.key: s.value for s in r.suggestions}["index.exclude"] == ["/bundle.js"]


def test_a_large_tree_is_sampled_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(40):
        (tmp_path / f"m{i}.py").write_text(
            "".join(f"def f{j}():\n    return {j}\n\n" for j in range(5))
        )
    monkeypatch.setattr(analyze_mod, "SAMPLE_ALL_UP_TO", 10)
    monkeypatch.setattr(analyze_mod, "SAMPLE_SIZE", 8)
    r = analyze(tmp_path)
    assert r.files == 40 and r.chunked_files == 8
    assert r.expected_chunks == 40 * 5  # same-sized files: the sample's rate is exact
    assert "a sample of 8 of 40 files" in r.to_json()["chunks"]["measured_on"]


def test_not_a_directory_is_one_clear_error(tmp_path: Path) -> None:
    f = tmp_path / "f.py"
    f.write_text("x = 1\n")
    result = CliRunner().invoke(app, ["analyze", str(f)])
    assert result.exit_code != 0
    assert "f.py" in result.output and "Traceback" not in result.output


# -- the committed corpus and the CLI -----------------------------------------------------


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    dest = tmp_path / "analyze"
    shutil.copytree(CORPUS, dest)
    return dest


def test_corpus_report_as_json(corpus: Path) -> None:
    result = CliRunner().invoke(app, ["analyze", str(corpus), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    langs = {lang["lang"]: lang["files"] for lang in data["languages"]}
    assert langs["python"] == 5 and langs["markdown"] == 1 and langs["bash"] == 1
    assert data["skipped_by_reason"] == {"empty": 1}
    assert {i["path"] for i in data["ignored"]} == {".gitignore", "build.log"}
    assert data["function_lines"]["count"] == 23  # 12 functions, 10 methods, 1 vendored
    suggested = {s["key"]: s["value"] for s in data["suggestions"]}
    assert suggested["index.exclude"] == ["*_pb2.py", "poetry.lock", "third_party/"]
    assert data["chunks"]["measured_on"] == "all files"
    assert data["chunks"]["expected"] > 0 and "written" not in data


def test_ignored_paths_say_why(corpus: Path) -> None:
    for rel in ("go/vendor/modules.txt", "go/vendor/x/y.go", "contracts/vendor/I.sol"):
        (corpus / rel).parent.mkdir(parents=True, exist_ok=True)
        (corpus / rel).write_text("x\n")
    result = CliRunner().invoke(app, ["analyze", str(corpus), "--json"])
    why = {i["path"]: i["why"] for i in json.loads(result.stdout)["ignored"]}
    assert why == {
        ".gitignore": "dot-file or default denylist",
        "build.log": "ignore rules (.gitignore, .strataignore, index.exclude)",
        "go/vendor": "dependencies a package manager filled",
    }


def test_write_merges_into_the_project_config(corpus: Path) -> None:
    cfg_file = corpus / ".strata" / "config.yaml"
    cfg_file.parent.mkdir()
    cfg_file.write_text("index:\n  exclude: [docs/]\n  workers: 1\nembed:\n  provider: none\n")
    result = CliRunner().invoke(app, ["analyze", str(corpus), "--write"])
    assert result.exit_code == 0, result.output
    assert "set index.exclude" in result.stderr
    assert yaml.safe_load(cfg_file.read_text()) == {
        "index": {"exclude": ["docs/", "*_pb2.py", "poetry.lock", "third_party/"], "workers": 1},
        "embed": {"provider": "none"},
    }
    cfg = load_config(corpus / ".strata")
    rels = {f.rel for f in discover(corpus, cfg.index).files}
    assert "app/proto/messages_pb2.py" not in rels and "poetry.lock" not in rels
    assert "app/pipeline.py" in rels
    _, again = write_suggestions(analyze(corpus))
    assert again == ()  # nothing left to suggest
