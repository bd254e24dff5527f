"""Configuration: every source in its order, and every key with a visible effect."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from strata import ConfigError, Engine
from strata.config import KEYS, load_config
from strata.layers import C0_SOURCE_CHUNKS

LEXICAL = {"embed.provider": "none"}


def test_sources_layer_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = Path(os.environ["XDG_CONFIG_HOME"]) / "strata" / "config.yaml"
    user.parent.mkdir(parents=True)
    user.write_text("search:\n  k: 3\n  rrf_k: 10\n  candidates: 50\n")
    project = tmp_path / ".strata"
    project.mkdir()
    (project / "config.yaml").write_text("search:\n  rrf_k: 20\n  candidates: 70\n")
    env = {"STRATA_SEARCH_CANDIDATES": "90"}
    cfg = load_config(project, {"search.mode": "lexical"}, env=env)
    assert (cfg.search.k, cfg.search.rrf_k, cfg.search.candidates, cfg.search.mode) == (
        3,
        20,
        90,
        "lexical",
    )
    assert cfg.sources["search.k"] == str(user)
    assert cfg.sources["search.rrf_k"] == str(project / "config.yaml")
    assert cfg.sources["search.candidates"] == "env"
    assert cfg.sources["search.mode"] == "flag"
    assert cfg.sources["index.workers"] == "default"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"STRATA_SEARCH_K": "many"}, "search.k"),
        ({"STRATA_EMBED_PROVIDER": "magic"}, "embed.provider"),
        ({"STRATA_NOPE_KEY": "1"}, "STRATA_NOPE_KEY"),
        ({"STRATA_INDEX_RESPECT_GITIGNORE": "maybe"}, "index.respect_gitignore"),
    ],
)
def test_bad_values_fail_with_the_key_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(None, env=env)
    assert message in str(err.value)


def test_every_key_is_documented_in_the_readme() -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    for key in KEYS:
        assert f"`{key}`" in readme, key


def _rows(root: Path, **cfg: object) -> list:  # type: ignore[type-arg]
    eng = Engine.open(
        root,
        index_dir=root.parent / f"idx-{abs(hash(tuple(cfg.items())))}",
        config={**LEXICAL, **cfg},
    )
    eng.index()
    return eng.records([C0_SOURCE_CHUNKS])


def test_chunk_budget_keys_shape_the_chunks(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    body = "\n".join(f"    x{i} = {i} * 2" for i in range(60))
    (root / "long.py").write_text(f"def long_function():\n{body}\n    return x0\n")
    (root / "notes.txt").write_text("\n".join(f"line {i} of notes" for i in range(100)))
    default = _rows(root)
    assert max(r.span_end - r.span_start + 1 for r in default if r.path == "long.py") == 62
    tight = _rows(root, **{"chunk.max_lines": 20, "chunk.max_chars": 400})
    assert max(r.span_end - r.span_start + 1 for r in tight) <= 20
    assert max(len(r.content) for r in tight) <= 400


def test_index_keys_change_what_is_indexed(tmp_path: Path) -> None:
    root = tmp_path / "r"
    (root / "gen").mkdir(parents=True)
    (root / ".gitignore").write_text("secret.txt\n")
    (root / "secret.txt").write_text("hidden words\n")
    (root / "gen" / "out.txt").write_text("generated words\n")
    (root / "keep.txt").write_text("kept words\n")
    (root / "link.txt").symlink_to(root / "keep.txt")
    paths = lambda rows: {r.path for r in rows}  # noqa: E731
    base = Engine.open(root, index_dir=tmp_path / "a", config=LEXICAL)
    base.index()
    assert paths(base.records()) == {"gen/out.txt", "keep.txt", "link.txt"}
    ex = Engine.open(
        root,
        index_dir=tmp_path / "b",
        config={
            **LEXICAL,
            "index.exclude": ["gen/"],
            "index.respect_gitignore": False,
            "index.follow_symlinks": False,
            "index.include": [".gitignore"],
        },
    )
    ex.index()
    assert paths(ex.records()) == {".gitignore", "keep.txt", "secret.txt"}


def test_commit_rows_sets_the_commit_size(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    for i in range(30):
        (root / f"f{i}.txt").write_text(f"note {i}\n")
    small = Engine.open(root, index_dir=tmp_path / "a", config={**LEXICAL, "index.commit_rows": 5})
    small.index()
    big = Engine.open(root, index_dir=tmp_path / "b", config={**LEXICAL, "index.commit_rows": 1000})
    big.index()
    assert small.store.version - big.store.version >= 4  # type: ignore[attr-defined]


def test_search_keys_take_effect(minirepo: Path) -> None:
    eng = Engine.open(minirepo, config={**LEXICAL, "search.k": 2})
    eng.index()
    assert len(eng.search("retry")) == 2
    tests_first = Engine.open(minirepo, config={**LEXICAL, "search.include_tests": True})
    penalised = eng.search("RetryPolicy delay", k=10, route=False)
    neutral = tests_first.search("RetryPolicy delay", k=10, route=False)
    test_hit = lambda res: next(h for h in res if h.record.is_test)  # noqa: E731
    assert "test_x" in test_hit(penalised).parts and "test_x" not in test_hit(neutral).parts
    k60 = Engine.open(minirepo, config={**LEXICAL, "search.rrf_k": 60}).search("retry", k=1)[0]
    k5 = eng.search("retry", k=1)[0]  # the default
    assert k5.parts["lexical"] > k60.parts["lexical"]
    # a question is fused with twice the constant: the same words, the same BM25 place,
    # weight / (10 + place) asked against weight / (5 + place) told
    top = lambda q: eng.search(q, k=1, route=False)[0].parts["lexical"]  # noqa: E731
    asked, told = top("how is a retry delayed?"), top("how is a retry delayed.")
    assert 0.8 / asked - 0.8 / told == pytest.approx(5)
    few = Engine.open(minirepo, config={**LEXICAL, "search.candidates": 1}).search("retry", k=1)
    assert few.plan["candidates"] == 3


def test_workers_sets_the_extraction_processes(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    for i in range(220):
        (root / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    one = Engine.open(root, index_dir=tmp_path / "a", config={**LEXICAL, "index.workers": 1})
    two = Engine.open(root, index_dir=tmp_path / "b", config={**LEXICAL, "index.workers": 2})
    s1, s2 = one.index(), two.index()
    assert (s1.workers, s2.workers) == (1, 2)
    assert sorted((r.id, r.content_hash) for r in one.records()) == sorted(
        (r.id, r.content_hash) for r in two.records()
    )


def test_parallel_indexing_from_an_unguarded_script(tmp_path: Path) -> None:
    """Spawned workers must not re-run the caller's script (no `if __name__` guard)."""
    import subprocess
    import sys

    script = tmp_path / "job.py"
    script.write_text(
        "from pathlib import Path\nfrom strata import Engine\n"
        f"root = Path({str(tmp_path / 'r')!r})\nroot.mkdir()\n"
        "for i in range(220):\n    (root / f'm{i}.py').write_text(f'X{i} = {i}\\n')\n"
        f"s = Engine.open(root, index_dir={str(tmp_path / 'idx')!r}, "
        "config={'embed.provider': 'none', 'index.workers': 2}).index()\n"
        "print('done', s.indexed, s.workers)\n"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["done", "220", "2"]


def test_store_uri_mode_and_window_keys_take_effect(tmp_path: Path, minirepo: Path) -> None:
    elsewhere = tmp_path / "rows-here"
    eng = Engine.open(minirepo, config={**LEXICAL, "store.uri": f"lancedb://{elsewhere}"})
    eng.index()
    assert (elsewhere / "chunks.lance").is_dir() and eng.status().store.endswith("rows-here")
    assert not (minirepo / ".strata" / "lance").exists()
    lexical = Engine.open(
        minirepo,
        config={**LEXICAL, "store.uri": f"lancedb://{elsewhere}", "search.mode": "lexical"},
    )
    result = lexical.search("retry", route=False)
    assert result.mode == "lexical" and not result.notes  # asked for: nothing to explain
    root = tmp_path / "text"
    root.mkdir()
    (root / "q.yaml").write_text("\n".join(f"k{i}: {i}" for i in range(30)))  # windowed
    spans = {}
    for n, o in ((10, 0), (10, 3)):
        e = Engine.open(
            root,
            index_dir=tmp_path / f"w{n}-{o}",
            config={**LEXICAL, "chunk.window_lines": n, "chunk.overlap_lines": o},
        )
        e.index()
        spans[(n, o)] = [(r.span_start, r.span_end) for r in e.records(["C0_SOURCE_CHUNKS"])]
    assert all(end - start + 1 <= 10 for start, end in spans[(10, 0)])
    assert spans[(10, 0)] != spans[(10, 3)]
