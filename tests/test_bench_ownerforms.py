"""The method-with-its-class benchmark reads each class's methods off the files with `ast`."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.model import Target
from benchmarks.quality.ownerforms import PHRASINGS, methods


def test_methods_of_classes_defined_once_outside_the_tests(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(
        "class Lexer:\n    def __init__(self):\n        pass\n\n"
        "    def tokeniter(self, source):\n        return iter(source)\n\n\n"
        "class Twice:\n    def run(self):\n        pass\n",
        encoding="utf-8",
    )
    (tmp_path / "pkg" / "b.py").write_text("class Twice:\n    def go(self):\n        pass\n")
    (tmp_path / "tests").mkdir()
    test = "class Case:\n    def test(self):\n        pass\n"
    (tmp_path / "tests" / "test_a.py").write_text(test, encoding="utf-8")
    assert methods(tmp_path) == {("Lexer", "tokeniter"): Target("pkg/a.py", 5, 6)}


def test_every_phrasing_names_the_class_and_the_method() -> None:
    assert len(set(PHRASINGS)) == len(PHRASINGS)
    assert all("{cls}" in p and "{name}" in p for p in PHRASINGS)
