"""The import benchmark's oracle: Python's own parse of each module's imports."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.importforms import PHRASINGS, import_sites, modules
from benchmarks.quality.model import Target


def test_absolute_relative_and_from_package_imports_are_each_an_import_of_a_module(
    tmp_path: Path,
) -> None:
    pkg = tmp_path / "src" / "shop"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from shop.pay import charge\n")
    (pkg / "pay.py").write_text("import os\nfrom . import util\n")
    (pkg / "util.py").write_text("X = 1\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "deep.py").write_text("from ..util import X\nimport shop.pay\n")
    assert modules(tmp_path) == {
        "shop": "src/shop/__init__.py",
        "shop.pay": "src/shop/pay.py",
        "shop.sub": "src/shop/sub/__init__.py",
        "shop.sub.deep": "src/shop/sub/deep.py",
        "shop.util": "src/shop/util.py",
    }
    assert import_sites(tmp_path) == {
        "shop.pay": [Target("src/shop/__init__.py", 1, 1), Target("src/shop/sub/deep.py", 2, 2)],
        "shop.util": [Target("src/shop/pay.py", 2, 2), Target("src/shop/sub/deep.py", 1, 1)],
    }
    assert all(p.count("{}") == 1 for p in PHRASINGS)
