"""Discovery and extraction over a corpus of hostile files: every file meets its expected fate."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from strata.config import IndexConfig, load_config
from strata.index.discovery import discover
from strata.index.extraction import extract
from strata.types import Extracted, Skip, SkipReason, SourceFile
from tests.nasty_corpus import IGNORED, INDEXED, build_nasty_corpus

Corpus = tuple[Path, dict[str, str]]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    root = tmp_path_factory.mktemp("nasty") / "corpus"
    return root, build_nasty_corpus(root)


@pytest.fixture(scope="module")
def cfg() -> IndexConfig:
    return load_config(env={}).index


def run(root: Path, cfg: IndexConfig) -> dict[str, Extracted | Skip]:
    found = discover(root, cfg)
    results: dict[str, Extracted | Skip] = {s.rel: s for s in found.skips}
    for f in found.files:
        results[f.rel] = extract(f)
    return results


def outcome(result: Extracted | Skip) -> str:
    return INDEXED if isinstance(result, Extracted) else result.reason.value


def test_the_corpus_is_nasty_enough(corpus: Corpus) -> None:
    _, expected = corpus
    assert len(expected) >= 40
    wanted = {INDEXED, IGNORED, *(r.value for r in SkipReason)} - {SkipReason.VANISHED.value}
    assert wanted <= set(expected.values())


def test_every_file_meets_its_expected_fate(corpus: Corpus, cfg: IndexConfig) -> None:
    root, expected = corpus
    got = {rel: outcome(r) for rel, r in run(root, cfg).items()}
    assert got == {rel: want for rel, want in expected.items() if want != IGNORED}


def test_outcome_counts_match(corpus: Corpus, cfg: IndexConfig) -> None:
    root, expected = corpus
    got = Counter(outcome(r) for r in run(root, cfg).values())
    want = Counter(v for v in expected.values() if v != IGNORED)
    assert got == want


def test_indexed_texts_are_clean(corpus: Corpus, cfg: IndexConfig) -> None:
    root, _ = corpus
    texts = {r.rel: r for r in run(root, cfg).values() if isinstance(r, Extracted)}
    for rel, got in texts.items():
        assert "\r" not in got.text, rel
        assert not got.text.startswith("\ufeff"), rel
    assert texts["enc/utf16_bom.txt"].text == "h\u00e9llo utf16\n"
    assert texts["enc/mixed_endings.txt"].text == "unix\nwindows\nold mac\nend\n"
    assert "Strata PDF text layer" in texts["docs/real.pdf"].text
    assert texts["one_line_5mb.txt"].text.count("\n") == 0
    assert texts["links/alias.md"].text == texts["links/real.md"].text
    assert texts["enc/cp1252.md"].warnings == ("decoded as cp1252: invalid UTF-8 at byte 5",)
    assert [r for r, t in texts.items() if t.warnings] == [
        "enc/cp1252.md",
        "enc/invalid_utf8.txt",
    ]


def test_skips_say_why(corpus: Corpus, cfg: IndexConfig) -> None:
    root, _ = corpus
    skips = {r.rel: r for r in run(root, cfg).values() if isinstance(r, Skip)}
    assert skips["special/pipe.fifo"].detail == "FIFO"
    assert skips["special/app.sock"].detail == "socket"
    assert skips["links/loop_a"].detail == "symlink loop"
    assert skips["links/escape.txt"].detail == "symlink points outside the root"
    assert skips["links/dangling.txt"].detail.startswith("dangling symlink")
    assert skips["docs/scanned.pdf"].line() == (
        "skip docs/scanned.pdf: no text (scanned PDF? no text layer)"
    )
    assert skips["docs/broken.pdf"].detail.startswith("broken PDF: ")
    assert "50.0 MiB" in skips["huge_50mb.log"].detail


def test_pdf_trouble_does_not_reach_stderr(
    corpus: Corpus, cfg: IndexConfig, capfd: pytest.CaptureFixture[str]
) -> None:
    root, _ = corpus
    for rel in ("docs/broken.pdf", "docs/scanned.pdf"):
        extract(SourceFile(root / rel, rel, 0, 0))
    err = capfd.readouterr().err
    assert "Traceback" not in err
    assert err == ""


def test_a_file_vanishing_after_discovery_is_skipped(tmp_path: Path, cfg: IndexConfig) -> None:
    (tmp_path / "stays.py").write_text("x = 1\n")
    (tmp_path / "goes.py").write_text("y = 2\n")
    found = discover(tmp_path, cfg)
    (tmp_path / "goes.py").unlink()
    results = {f.rel: extract(f) for f in found.files}
    assert isinstance(results["stays.py"], Extracted)
    assert results["goes.py"] == Skip("goes.py", SkipReason.VANISHED, "deleted before it was read")


@contextlib.contextmanager
def world_traversable_dir() -> Iterator[Path]:
    # pytest's tmp_path sits under a 0700 directory another uid cannot even traverse.
    path = Path(tempfile.mkdtemp(prefix="strata-perm-"))
    try:
        path.chmod(0o755)
        yield path
    finally:
        shutil.rmtree(path)


def read_as_nobody(files: list[SourceFile]) -> list[str]:
    """Extract files in a forked child that dropped to uid/gid 65534; their outcomes."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: no pytest machinery, just the already imported code
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            line = "|".join(outcome(extract(f)) for f in files)
            os.write(write_end, line.encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as fh:
        data = fh.read().decode()
    os.waitpid(pid, 0)
    return data.split("|")


def test_a_file_without_read_permission_is_unreadable(cfg: IndexConfig) -> None:
    with world_traversable_dir() as d:
        (d / "open.txt").write_text("anyone may read\n")
        (d / "open.txt").chmod(0o644)
        (d / "locked.txt").write_text("nobody may read\n")
        (d / "locked.txt").chmod(0)
        files = list(discover(d, cfg).files)
        assert [f.rel for f in files] == ["locked.txt", "open.txt"]
        if os.geteuid() == 0:
            assert outcome(extract(files[0])) == INDEXED  # root ignores the mode bits
            assert read_as_nobody(files) == ["unreadable", INDEXED]
        else:
            assert [outcome(extract(f)) for f in files] == ["unreadable", INDEXED]
