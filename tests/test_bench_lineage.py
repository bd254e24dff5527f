"""The lineage benchmark's oracle: Python's own parse of the classes and their bases."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.lineage import BASE_PHRASINGS, SUBCLASS_PHRASINGS, classes
from benchmarks.quality.model import Target


def test_bases_are_kept_when_they_name_exactly_one_class_of_the_tree(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "import abc\n\n\nclass Base(abc.ABC):\n    pass\n\n\n"
        "class Twice:\n    pass\n\n\nclass Child(Base, Twice):\n    pass\n"
    )
    (tmp_path / "b.py").write_text(
        "from typing import Generic\nfrom a import Base\n\n\nclass Twice:\n    pass\n\n\n"
        "class Grand(mod.Child, Generic[T]):\n    pass\n"
    )
    defined, bases = classes(tmp_path)
    assert "Twice" not in defined  # defined in both files: no name to ask by
    assert defined["Base"] == Target("a.py", 4, 4)
    assert bases == {"Child": ["Base"], "Grand": ["Child"]}  # ABC and Generic: not the tree's
    assert all(p.count("{}") == 1 for p in SUBCLASS_PHRASINGS + BASE_PHRASINGS)
