"""The tests-phrasing benchmark's oracle: jedi's references from the tests, calls only."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.pydefs import definitions
from benchmarks.quality.testforms import PHRASINGS, calls_from_tests


def test_the_oracle_holds_the_test_lines_that_call_the_definition(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "money.py").write_text(
        "def charge(card, amount):\n    return card, amount\n\n\n"
        "def refund(card):\n    return card\n"
    )
    (tmp_path / "tests" / "test_money.py").write_text(
        "from pkg.money import charge, refund\n\n\n"
        "def test_charge():\n    assert charge('4242', 5)\n\n\n"
        "def test_named_only():\n    f = refund  # named, not called here\n    assert f\n"
    )
    defs = definitions(tmp_path, "pkg/money.py")
    sites = calls_from_tests(tmp_path, ["tests/test_money.py"], defs)
    assert dict(zip([d.name for d in defs], sites, strict=True)) == {
        "charge": {("tests/test_money.py", 5)},
        "refund": set(),
    }
    assert all(p.count("{}") == 1 for p in PHRASINGS)
