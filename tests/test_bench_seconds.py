"""The `seconds` group: a second project per language, drawn by its family's rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks.quality import families, model, morelangs, seconds

CORPUS = Path(__file__).parent / "corpora" / "langs"


def test_a_second_package_is_drawn_by_its_familys_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(model, "CORPORA", tmp_path)
    second = seconds.Second(
        morelangs.build, morelangs.Package(morelangs.C, "ring", lambda: CORPUS, ("ring.c",))
    )
    assert second.fetch() == CORPUS
    corpus = seconds.build(second, 5, 5, 13)
    assert corpus.name == "c-ring"
    assert corpus.root == tmp_path / "c-ring"
    # ring.c's doc comments are under six words: no `doc-c` question, as for any package
    assert {q.set for q in corpus.queries} == {"def-c"}
    assert {q.text for q in corpus.queries if q.set == "def-c"} >= {"where is ring_push defined"}
    assert (tmp_path / "c-ring" / "ring.c").is_file()


def test_each_second_project_is_another_than_its_languages_first() -> None:
    build, packages = families.LANGUAGE_FAMILIES["seconds"]
    assert build is seconds.build
    firsts = {
        pkg.slug
        for group, (_, pkgs) in families.LANGUAGE_FAMILIES.items()
        if group != "seconds"
        for pkg in pkgs
    }
    slugs = [second.package.slug for second in packages]
    assert len(slugs) == 12 and not set(slugs) & firsts
    langs = {slug.split("-")[0] for slug in slugs}
    assert langs == {
        *("go", "rust", "java", "ruby", "solidity", "lua", "c", "cpp", "haskell", "php"),
        *("kotlin", "csharp"),
    }
