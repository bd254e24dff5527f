"""Discovery: ignore rules at every level, the segment denylist, single files, symlinks, scale."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from strata.config import IndexConfig, load_config
from strata.errors import UserError
from strata.index.discovery import Discovery, IgnoreRules, discover, discover_one, is_under
from strata.index.ignore import DENY_DIRS
from strata.types import Skip, SkipReason, SourceFile
from tests.gitrepo import git


def config(**values: object) -> IndexConfig:
    return load_config(env={}).with_values({f"index.{k}": v for k, v in values.items()}).index


def make(root: Path, *rels: str, text: str = "x = 1\n") -> None:
    for rel in rels:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def rels(found: Discovery) -> list[str]:
    return [f.rel for f in found.files]


def test_nested_gitignore_with_negation_and_dir_only_patterns(tmp_path: Path) -> None:
    make(tmp_path, "a.py", "a.tmp", "cache/c.py", "src/cache", "src/keep.tmp", "src/drop.tmp",
         "src/local/l.py", "gen/g.py", "src/gen/g.py", "src/deep/x.tmp")  # fmt: skip
    (tmp_path / ".gitignore").write_text("# comment\n*.tmp\ncache/\n/gen/\n")
    (tmp_path / "src/.gitignore").write_text("!keep.tmp\nlocal/\n")
    assert rels(discover(tmp_path, config())) == [
        "a.py", "src/cache", "src/gen/g.py", "src/keep.tmp",
    ]  # fmt: skip


def test_a_line_that_is_no_pattern_is_left_out_and_the_rest_applies(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # black's own tests ship such a file (`tests/data/invalid_gitignore_tests/.gitignore`)
    make(tmp_path, "a.py", "b.log", "sub/c.py", "sub/d.tmp")
    (tmp_path / ".gitignore").write_text("!\n*.log\n")
    (tmp_path / "sub/.gitignore").write_text("*.tmp\n!\n")
    # a CLI test run before may have cut `strata` off the root logger, or quietened it
    log = logging.getLogger("strata.index.ignore")
    log.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.WARNING, logger=log.name):
            assert rels(discover(tmp_path, config(exclude=["!"]))) == ["a.py", "sub/c.py"]
    finally:
        log.removeHandler(caplog.handler)
    assert "sub/.gitignore: pattern '!' left out" in caplog.text
    assert "index.exclude: pattern '!' left out" in caplog.text


def test_a_negation_cannot_reinclude_a_file_of_an_ignored_directory(tmp_path: Path) -> None:
    make(tmp_path, "out_dir/keep.py", "out_dir/drop.py")
    (tmp_path / ".gitignore").write_text("out_dir/\n!out_dir/keep.py\n")
    assert rels(discover(tmp_path, config())) == []


def test_strataignore_applies_at_any_level_and_overrides_gitignore(tmp_path: Path) -> None:
    make(tmp_path, "a.py", "secret.md", "pkg/gen.py", "pkg/hand.py", "pkg/x.log")
    (tmp_path / ".strataignore").write_text("secret.md\n")
    (tmp_path / ".gitignore").write_text("*.log\n")
    (tmp_path / "pkg/.strataignore").write_text("gen.py\n!x.log\n")
    assert rels(discover(tmp_path, config())) == [
        "a.py", "pkg/hand.py", "pkg/x.log",
    ]  # fmt: skip


def test_exclude_patterns_are_relative_to_the_root(tmp_path: Path) -> None:
    make(tmp_path, "docs/old/a.md", "src/docs/old/b.md", "x.snap", "src/y.snap", "z.py")
    found = discover(tmp_path, config(exclude=["/docs/old/", "*.snap"]))
    assert rels(found) == ["src/docs/old/b.md", "z.py"]


def test_respect_gitignore_false_keeps_gitignored_files_but_not_strataignored(
    tmp_path: Path,
) -> None:
    make(tmp_path, "a.log", "b.md")
    (tmp_path / ".gitignore").write_text("*.log\n")
    (tmp_path / ".strataignore").write_text("b.md\n")
    assert rels(discover(tmp_path, config(respect_gitignore=False))) == ["a.log"]
    assert rels(discover(tmp_path, config())) == []


def test_denylist_matches_whole_segments_below_the_root_only(tmp_path: Path) -> None:
    root = tmp_path / "builds" / "my-env-projects" / ".hidden" / "build" / "repo"
    denied = [f"{name}/x.py" for name in sorted(DENY_DIRS)] + [".github/ci.yml", "a/dist/b.py",
              ".env", "src/.dotfile.py"]  # fmt: skip
    kept = ["distance.py", "outputs/o.py", "vendored/v.py", "rebuild/r.py", "my-env/e.py",
            "builds/b.py", "src/build", "targets.md"]  # fmt: skip
    make(root, *denied, *kept)
    assert rels(discover(root, config())) == sorted(kept)


def test_vendor_is_left_out_only_when_a_package_manager_filled_it(tmp_path: Path) -> None:
    own = ["contracts/vendor/compound/ICompoundTimelock.sol", "include/vendor/span.h"]
    filled = ["go/vendor/modules.txt", "go/vendor/github.com/pkg/errors/errors.go",
              "php/vendor/autoload.php", "php/vendor/psr/log/Logger.php",
              "rb/vendor/bundle/ruby/3.1.0/gems/rack/lib/rack.rb",
              "rs/vendor/serde/.cargo-checksum.json", "rs/vendor/serde/src/lib.rs"]  # fmt: skip
    make(tmp_path, *own, *filled, "go/main.go")
    assert rels(discover(tmp_path, config())) == sorted([*own, "go/main.go"])
    brought_back = discover(tmp_path, config(include=["go/vendor/github.com/"]))
    assert "go/vendor/github.com/pkg/errors/errors.go" in rels(brought_back)
    assert rels(discover(tmp_path, config(exclude=["vendor/"]))) == ["go/main.go"]


def test_build_output_is_walked_only_when_it_is_a_packages_shipped_code(tmp_path: Path) -> None:
    # yargs' tarball: its code is build/lib/*.js, a few shims beside it
    shipped = ["build/lib/command.js", "build/lib/completion.js", "build/lib/usage.js",
               "build/lib/utils/which-module.js", "build/lib/typings/common.d.ts"]  # fmt: skip
    make(tmp_path / "yargs", "package.json", "index.cjs", "helpers/helpers.mjs", *shipped)
    make(tmp_path / "yargs", "node_modules/dep/build/dep.js", "build/contracts/A.json")
    assert rels(discover(tmp_path / "yargs", config())) == sorted(
        ["package.json", "index.cjs", "helpers/helpers.mjs", *shipped, "build/contracts/A.json"]
    )
    # compiled from the sources beside it; a bundle beside lib/; no package.json
    make(tmp_path / "zod", "package.json", "src/types.ts", "src/errors.ts", "src/index.ts",
         "dist/esm/types.js", "dist/esm/errors.js", "dist/esm/index.js", "dist/cjs/types.js",
         "dist/cjs/errors.js", "dist/cjs/index.js", "dist/cjs/extra.js")  # fmt: skip
    make(tmp_path / "axios", "package.json", "lib/axios.js", "lib/core/a.js", "dist/axios.min.js")
    make(tmp_path / "py", "pkg/a.py", "build/lib/pkg/a.py", "build/lib/pkg/b.js", "build/c.js")
    make(tmp_path / "gen", "package.json", "dist/index.js", "dist/util.js")
    (tmp_path / "gen/.gitignore").write_text("dist/\n")
    for name in ("zod", "axios", "py", "gen"):
        assert not any(
            r.startswith(("dist/", "build/")) for r in rels(discover(tmp_path / name, config()))
        ), name
    only = discover(tmp_path / "gen", config(respect_gitignore=False))  # a tarball: only dist/
    assert rels(only) == ["dist/index.js", "dist/util.js", "package.json"]


def test_root_named_like_a_denied_directory_is_indexed(tmp_path: Path) -> None:
    make(tmp_path / "node_modules", "index.js")
    assert rels(discover(tmp_path / "node_modules", config())) == ["index.js"]


def test_rel_paths_are_posix_and_sorted(tmp_path: Path) -> None:
    make(tmp_path, "b/z.py", "a.py", "b/a/c.py", "B.py")
    found = discover(tmp_path, config())
    assert rels(found) == ["B.py", "a.py", "b/a/c.py", "b/z.py"]
    assert found.root == tmp_path
    assert all(f.abspath == tmp_path / f.rel for f in found.files)
    assert found.files[0].size == 6


def test_a_single_file_roots_at_its_parent_and_yields_only_it(tmp_path: Path) -> None:
    make(tmp_path, "pkg/one.py", "pkg/two.py", "pkg/debug.log")
    (tmp_path / "pkg/.gitignore").write_text("*.log\n")
    found = discover(tmp_path / "pkg/one.py", config())
    assert found.root == tmp_path / "pkg"
    assert rels(found) == ["one.py"]
    # named explicitly, an ignored file is still taken
    assert rels(discover(tmp_path / "pkg/debug.log", config())) == ["debug.log"]


def test_a_single_special_file_is_a_skip(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "p")
    found = discover(tmp_path / "p", config())
    assert found.files == ()
    assert found.skips == (Skip("p", SkipReason.NOT_A_FILE, "FIFO"),)


def test_a_missing_target_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="does not exist"):
        discover(tmp_path / "nope", config())


def test_too_large_files_are_skipped_from_stat(tmp_path: Path) -> None:
    make(tmp_path, "small.txt", text="hello\n")
    with (tmp_path / "big.txt").open("wb") as fh:
        fh.truncate(2048)
    found = discover(tmp_path, config(max_file_bytes=1024))
    assert rels(found) == ["small.txt"]
    assert [(s.rel, s.reason) for s in found.skips] == [("big.txt", SkipReason.TOO_LARGE)]


def test_symlinks_inside_the_root_are_followed_once(tmp_path: Path) -> None:
    make(tmp_path, "real/a.py", "node_modules/pkg/index.js")
    (tmp_path / "alias.py").symlink_to("real/a.py")
    (tmp_path / "again").symlink_to("real")  # already walked as real/: no duplicates
    (tmp_path / "real/loop").symlink_to("..")
    (tmp_path / "lib").symlink_to("node_modules/pkg")
    found = discover(tmp_path, config())
    assert rels(found) == ["alias.py", "lib/index.js", "real/a.py"]
    assert found.skips == ()


def test_symlinks_are_left_out_when_not_followed(tmp_path: Path) -> None:
    make(tmp_path, "real/a.py")
    (tmp_path / "alias.py").symlink_to("real/a.py")
    (tmp_path / "dangling.py").symlink_to("missing.py")
    found = discover(tmp_path, config(follow_symlinks=False))
    assert rels(found) == ["real/a.py"]
    assert found.skips == ()


def test_broken_and_escaping_symlinks_are_skips(tmp_path: Path) -> None:
    root = tmp_path / "root"
    make(tmp_path, "outside/o.py")
    root.mkdir()
    (root / "out.py").symlink_to(tmp_path / "outside/o.py")
    (root / "outdir").symlink_to(tmp_path / "outside")
    (root / "dangling.py").symlink_to("missing.py")
    (root / "self").symlink_to("self")
    found = discover(root, config())
    assert found.files == ()
    assert {s.rel: s.detail for s in found.skips} == {
        "dangling.py": "dangling symlink to missing.py",
        "out.py": "symlink points outside the root",
        "outdir": "symlink points outside the root",
        "self": "symlink loop",
    }
    assert {s.reason for s in found.skips} == {SkipReason.NOT_A_FILE}


def test_twenty_thousand_files_in_one_directory(tmp_path: Path) -> None:
    flat = tmp_path / "flat"
    flat.mkdir()
    for i in range(20_000):
        fd = os.open(flat / f"f{i:05d}.txt", os.O_WRONLY | os.O_CREAT, 0o644)
        os.close(fd)
    found = discover(tmp_path, config())
    assert len(found.files) == 20_000
    assert found.files[0].rel == "flat/f00000.txt"
    assert found.files[-1].rel == "flat/f19999.txt"


def test_ignore_rules_answer_for_the_watcher(tmp_path: Path) -> None:
    make(tmp_path, "src/a.py")
    (tmp_path / ".gitignore").write_text("*.tmp\nlogs/\n")
    (tmp_path / "src/.gitignore").write_text("!keep.tmp\n")
    rules = IgnoreRules(tmp_path, config(exclude=["secret/"]))
    assert not rules.ignored("src/a.py", is_dir=False)
    assert rules.ignored("x.tmp", is_dir=False)
    assert not rules.ignored("src/keep.tmp", is_dir=False)
    assert rules.ignored("logs", is_dir=True)
    assert not rules.ignored("logs", is_dir=False)  # dir-only pattern
    assert rules.ignored("logs/today/a.py", is_dir=False)
    assert rules.ignored("a/node_modules/b/c.js", is_dir=False)
    assert rules.ignored("src/.cache", is_dir=True)
    assert not rules.ignored("src/build", is_dir=False)  # a file named like a denied dir
    assert rules.ignored("secret/k.pem", is_dir=False)
    assert not rules.ignored("my-env-projects/distance.py", is_dir=False)


def test_ignore_rules_rebuilt_see_a_changed_gitignore(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.tmp\n")
    assert IgnoreRules(tmp_path, config()).ignored("a.tmp", is_dir=False)
    (tmp_path / ".gitignore").write_text("*.bak\n")
    rules = IgnoreRules(tmp_path, config())
    assert not rules.ignored("a.tmp", is_dir=False)
    assert rules.ignored("a.bak", is_dir=False)


def test_discover_one_classifies_a_single_path(tmp_path: Path) -> None:
    make(tmp_path, "src/a.py", "node_modules/m.js", "x.tmp")
    (tmp_path / ".gitignore").write_text("*.tmp\n")
    os.mkfifo(tmp_path / "fifo")
    cfg = config()
    rules = IgnoreRules(tmp_path, cfg)
    got = discover_one(tmp_path, tmp_path / "src/a.py", cfg, rules)
    assert isinstance(got, SourceFile)
    assert (got.rel, got.abspath, got.size) == ("src/a.py", tmp_path / "src/a.py", 6)
    assert discover_one(tmp_path, tmp_path / "node_modules/m.js", cfg, rules) is None
    assert discover_one(tmp_path, tmp_path / "x.tmp", cfg, rules) is None
    assert discover_one(tmp_path, tmp_path / "src", cfg, rules) is None
    assert discover_one(tmp_path, tmp_path.parent / "elsewhere.py", cfg, rules) is None
    gone = discover_one(tmp_path, tmp_path / "src/gone.py", cfg, rules)
    assert isinstance(gone, Skip) and gone.reason is SkipReason.VANISHED
    fifo = discover_one(tmp_path, tmp_path / "fifo", cfg, rules)
    assert isinstance(fifo, Skip) and fifo.reason is SkipReason.NOT_A_FILE


def test_a_walk_narrowed_to_a_subtree_keeps_what_lies_under_it(tmp_path: Path) -> None:
    assert is_under("src/a.py", "src") and is_under("src", "src/") and is_under("src", "src")
    assert not is_under("srcs/a.py", "src") and not is_under("a/src/b.py", "src")
    (tmp_path / "src").mkdir()
    (tmp_path / "srcs").mkdir()
    for rel in ("src/a.py", "srcs/b.py", "c.py"):
        (tmp_path / rel).write_text("x = 1\n")
    (tmp_path / "src" / "big.py").write_text("x" * 100)
    (tmp_path / "big.py").write_text("x" * 100)
    whole = discover(tmp_path, config(max_file_bytes=50))
    part = whole.under("src")
    assert [f.rel for f in part.files] == ["src/a.py"]
    assert [s.rel for s in part.skips] == ["src/big.py"] and part.root == whole.root


def test_include_brings_back_dot_files_and_denied_or_ignored_paths(tmp_path: Path) -> None:
    make(tmp_path, "a.py", ".env", ".dotfile.py", "src/.flake8", ".github/workflows/ci.yml",
         ".github/notes.md", "node_modules/pkg/index.js", "gen/out.py")  # fmt: skip
    (tmp_path / ".gitignore").write_text("gen/\n")
    assert rels(discover(tmp_path, config())) == ["a.py"]
    found = discover(
        tmp_path,
        config(include=[".dotfile.py", ".flake8", ".github/workflows/*.yml", "node_modules/",
                        "gen/out.py"]),
    )  # fmt: skip
    assert rels(found) == [
        ".dotfile.py", ".github/workflows/ci.yml", "a.py", "gen/out.py",
        "node_modules/pkg/index.js", "src/.flake8",
    ]  # fmt: skip
    # exclude still wins over include
    found = discover(tmp_path, config(include=[".dotfile.py", ".env"], exclude=[".env"]))
    assert rels(found) == [".dotfile.py", "a.py"]


def test_include_is_a_config_key_with_an_effect_through_the_engine(tmp_path: Path) -> None:
    from strata import Engine

    make(tmp_path / "repo", "a.py", ".pythonrc.py")
    (tmp_path / "repo" / ".strata").mkdir()
    (tmp_path / "repo" / ".strata" / "config.yaml").write_text(
        "index:\n  include: ['.pythonrc.py']\n"
    )
    eng = Engine.open(tmp_path / "repo", config={"embed.provider": "none"})
    eng.index()
    assert {r.path for r in eng.records()} == {"a.py", ".pythonrc.py"}


def test_what_git_tracks_is_indexed_though_a_gitignore_matches_it(tmp_path: Path) -> None:
    # ujson: the Python template's `.gitignore` says `lib/`, the C sources live in `lib/`
    git(tmp_path, "init", "-q")
    make(tmp_path, "lib/core.c", "lib/private.c", "lib/scratch.c", "debug.log", "other.log")
    make(tmp_path, "src/app.py")
    (tmp_path / ".gitignore").write_text("lib/\n*.log\n")
    (tmp_path / ".strataignore").write_text("lib/private.c\n")
    git(tmp_path, "add", "src/app.py", ".gitignore")
    git(tmp_path, "add", "-f", "lib/core.c", "lib/private.c", "debug.log")
    found = discover(tmp_path, config())
    # tracked: indexed, unless `.strataignore` says otherwise; untracked: ignored, as in git
    assert rels(found) == ["debug.log", "lib/core.c", "src/app.py"]
    assert IgnoreRules(tmp_path, config()).ignored("lib/scratch.c", is_dir=False)
    # with the ignore files off, nothing is asked of git and nothing is left out by them
    everything = discover(tmp_path, config(respect_gitignore=False))
    assert "lib/scratch.c" in rels(everything) and "other.log" in rels(everything)
