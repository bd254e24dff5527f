"""The Go interfaces benchmark's Strata side: the (type, interface) pairs of a package's
non-test files, by bare name, as go/types names them (benchmarks/go_interfaces)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.go_interfaces import strata_pairs


def test_the_pairs_of_a_package_by_bare_name(tmp_path: Path) -> None:
    (tmp_path / "value.go").write_text(
        "package flag\n\ntype Value interface {\n\tString() string\n\tSet(string) error\n}\n",
        encoding="utf-8",
    )
    (tmp_path / "bool.go").write_text(
        "package flag\n\ntype boolValue bool\n\n"
        'func (b *boolValue) String() string { return "" }\n\n'
        "func (b *boolValue) Set(s string) error { return nil }\n",
        encoding="utf-8",
    )
    (tmp_path / "bool_test.go").write_text(
        'package flag\n\ntype fake struct{}\n\nfunc (fake) String() string { return "" }\n\n'
        "func (fake) Set(s string) error { return nil }\n",
        encoding="utf-8",
    )
    assert strata_pairs(tmp_path) == {("boolValue", "Value")}  # a test file's type left out
