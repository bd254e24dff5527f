"""Hostile files and names on a real file system: swapped paths, FIFOs, links, bad names."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from strata import Engine
from strata.config import IndexConfig, load_config
from strata.index.discovery import Discovery, IgnoreRules, discover, discover_one
from strata.index.extraction import extract
from strata.layers import C0_SOURCE_CHUNKS
from strata.text.globs import select
from strata.types import Skip, SkipReason, SourceFile
from strata.workspace.fileread import file_hash
from tests.bounded import within


def config(**values: object) -> IndexConfig:
    return load_config(None, {f"index.{k}": v for k, v in values.items()}).index


def one(root: Path, rel: str) -> SourceFile:
    return next(f for f in discover(root, config()).files if f.rel == rel)


def test_a_file_swapped_for_a_link_out_of_the_root_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("harmless notes\n")
    found = one(tmp_path, "notes.txt")
    (tmp_path / "notes.txt").unlink()
    (tmp_path / "notes.txt").symlink_to("/etc/passwd")  # swapped after discovery
    got = extract(found)
    assert isinstance(got, Skip) and got.reason is SkipReason.NOT_A_FILE
    assert "outside the root" in got.detail
    assert file_hash(found) == ""


def test_a_parent_directory_swapped_for_a_link_out_of_the_root_is_not_read(
    tmp_path: Path,
) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "passwd").write_text("user notes\n")
    found = one(tmp_path, "etc/passwd")
    (tmp_path / "etc" / "passwd").unlink()
    (tmp_path / "etc").rmdir()
    (tmp_path / "etc").symlink_to("/etc")
    got = extract(found)
    assert isinstance(got, Skip) and "outside the root" in got.detail


def test_a_link_inside_the_root_is_still_read(tmp_path: Path) -> None:
    (tmp_path / "real.py").write_text("x = 1\n")
    (tmp_path / "alias.py").symlink_to("real.py")
    got = extract(one(tmp_path, "alias.py"))
    assert not isinstance(got, Skip) and got.text == "x = 1\n"


def test_a_file_swapped_for_a_fifo_is_hashed_and_read_without_blocking(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    found = one(tmp_path, "a.py")
    (tmp_path / "a.py").unlink()
    os.mkfifo(tmp_path / "a.py")
    with within(10):
        assert file_hash(found) == ""
        got = extract(found)
    assert isinstance(got, Skip) and got.detail == "no longer a regular file (FIFO)"


def test_a_file_that_grew_past_the_cap_is_not_read_whole(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("a line\n")
    found = one(tmp_path, "big.txt")
    (tmp_path / "big.txt").write_text("a line\n" * 1000)
    got = extract(found, max_bytes=100)
    assert isinstance(got, Skip) and got.reason is SkipReason.TOO_LARGE


def test_swapped_files_are_never_indexed_through_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import strata.engine.indexing

    root = tmp_path / "repo"
    root.mkdir()
    (root / "secret.txt").write_text("nothing here\n")
    (root / "keep.py").write_text("def keep():\n    return 1\n")
    eng = Engine.open(root, index_dir=tmp_path / "idx", config={"embed.provider": "none"})
    eng.index()
    (root / "secret.txt").write_text("nothing here, changed\n")
    (root / "keep.py").write_text("def keep():\n    return 2\n")
    real_discover = strata.engine.indexing.discover

    def discover_then_swap(target: Path, cfg: IndexConfig) -> Discovery:
        found = real_discover(target, cfg)  # the walk saw regular files; now swap them
        (root / "secret.txt").unlink()
        (root / "secret.txt").symlink_to("/etc/passwd")
        (root / "keep.py").unlink()
        os.mkfifo(root / "keep.py")
        return found

    monkeypatch.setattr(strata.engine.indexing, "discover", discover_then_swap)
    with within(60):
        summary = eng.index()
    assert {s.rel for s in summary.skips} == {"secret.txt", "keep.py"}
    contents = "\n".join(r.content for r in eng.records([C0_SOURCE_CHUNKS]))
    assert "root:" not in contents


@pytest.mark.parametrize("kind", ["fifo", "zero", "huge"])
def test_an_ignore_file_that_is_not_a_small_regular_file_is_not_read(
    tmp_path: Path, kind: str
) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    ignore = tmp_path / ".gitignore"
    if kind == "fifo":
        os.mkfifo(ignore)
    elif kind == "zero":
        ignore.symlink_to("/dev/zero")
    else:
        ignore.write_text("*.py\n" + "#" * 2000)
    with within(10):
        found = discover(tmp_path, config(max_file_bytes=1000))
    assert "a.py" in [f.rel for f in found.files]


def test_a_backtracking_ignore_pattern_matches_in_linear_time(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("**?" * 12 + "!\n")
    rules = IgnoreRules(tmp_path, config())
    start = time.perf_counter()
    with within(20):
        for n in (19, 23, 40):
            assert not rules.ignored("a" * n, is_dir=False)
        assert rules.ignored("a" * 30 + "!", is_dir=False)
    assert time.perf_counter() - start < 1.0


def test_a_backtracking_path_glob_matches_in_linear_time() -> None:
    glob = "*?" * 19 + "!"  # 39 characters
    paths = ["a" * n for n in (20, 25, 30)] + ["b" * 40 + "!"]
    start = time.perf_counter()
    with within(20):
        assert select(paths, [glob]) == ["b" * 40 + "!"]
    assert time.perf_counter() - start < 1.0


def test_a_file_name_that_is_not_utf8_is_a_skip_not_a_crash(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "good.py").write_text("def good():\n    return 1\n")
    bad = os.fsdecode(b"bad\xff.py")
    (root / bad).write_text("x = 1\n")
    (root / os.fsdecode(b"dir\xfe")).mkdir()
    (root / os.fsdecode(b"dir\xfe") / "in.py").write_text("y = 2\n")
    found = discover(root, config())
    assert [f.rel for f in found.files] == ["good.py"]
    assert sorted(s.rel for s in found.skips) == ["bad\\xff.py", "dir\\xfe"]
    assert all("not valid UTF-8" in s.detail for s in found.skips)
    skip = discover_one(root, root / bad, config(), IgnoreRules(root, config()))
    assert isinstance(skip, Skip) and skip.rel == "bad\\xff.py"
    eng = Engine.open(root, index_dir=tmp_path / "idx", config={"embed.provider": "none"})
    summary = eng.index()
    assert summary.indexed == 1 and len(summary.skips) == 2
    assert {r.path for r in eng.records()} == {"good.py"}


BILLION_LAUGHS = """---
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
---
# Laughs

A document about refunds.
"""


def test_a_billion_laughs_frontmatter_is_skipped_with_a_reason(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "bomb.md").write_text(BILLION_LAUGHS)
    (root / "fine.md").write_text(
        "---\ntitle: Fine\nx: &x [1, 2]\ny: *x\n---\n# Fine\n\nRefund policy.\n"
    )
    eng = Engine.open(root, index_dir=tmp_path / "idx", config={"embed.provider": "none"})
    with within(60):
        summary = eng.index()
    assert [s.rel for s in summary.skips] == ["bomb.md"]
    assert "aliases expand past" in summary.skips[0].line()
    assert {r.path for r in eng.records()} == {"fine.md"}


def test_frontmatter_values_copied_into_metadata_are_capped() -> None:
    from strata.text.frontmatter import MAX_ITEMS, MAX_VALUE_CHARS, split_frontmatter

    many = ", ".join(str(i) for i in range(MAX_ITEMS * 2))
    fm = split_frontmatter(f"---\nlong: {'x' * (MAX_VALUE_CHARS * 3)}\nmany: [{many}]\n---\nbody\n")
    assert len(fm.data["long"]) == MAX_VALUE_CHARS
    assert len(fm.data["many"]) == MAX_ITEMS
    assert fm.body == "body\n"
