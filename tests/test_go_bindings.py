"""What a Go variable holds, so that a call on it names its type's method (real files, a real
index): `fs.Parse(...)` after `fs := NewFlagSet(...)` calls `FlagSet.Parse`."""

from __future__ import annotations

from pathlib import Path

from strata.index.code.bindings import CALLED, go_bindings, receiver_of, returned_type
from tests.sources import indexed_tree

FLAG_GO = """\
package pflag

type FlagSet struct {
	name string
}

type Value struct{}

var CommandLine = NewFlagSet("cmd")

func NewFlagSet(name string) *FlagSet {
	return &FlagSet{name: name}
}

func (f *FlagSet) Parse(args []string) error {
	return f.parseArgs(args)
}

func (f *FlagSet) parseArgs(args []string) error {
	return nil
}

func (v *Value) Parse(s string) error {
	return nil
}

func Parse() {
	CommandLine.Parse(nil)
}
"""

FLAG_TEST_GO = """\
package pflag

import "testing"

func TestParse(t *testing.T) {
	f := NewFlagSet("test")
	if err := f.Parse([]string{"--x"}); err != nil {
		t.Fatal(err)
	}
}

func TestValue(t *testing.T) {
	f := &Value{}
	f.Parse("1")
}
"""


def test_the_names_a_go_file_binds_per_function() -> None:
    bound = go_bindings(FLAG_GO + FLAG_TEST_GO.replace("package pflag", ""))
    assert bound.package == {"CommandLine": CALLED + "NewFlagSet"}
    assert bound.at(17)["f"] == "FlagSet"  # a receiver
    test_parse = FLAG_GO.count("\n") + 4  # a line inside TestParse
    assert bound.at(test_parse + 2)["f"] == CALLED + "NewFlagSet"
    assert bound.at(test_parse + 8)["f"] == "Value"  # the same name, another function
    assert receiver_of("f.Parse", test_parse + 2, bound) == CALLED + "NewFlagSet"
    assert receiver_of("Parse", test_parse + 2, bound) == ""
    assert receiver_of("g.Parse", test_parse + 2, bound) == ""


def test_a_name_bound_to_two_things_in_one_function_is_not_bound() -> None:
    bound = go_bindings("func f() {\n\tx := NewA()\n\tx := &B{}\n\tx.Run()\n}\n")
    assert "x" not in bound.at(4)


def test_the_type_a_go_function_returns() -> None:
    assert returned_type(
        "func NewFlagSet(name string, h ErrorHandling) *FlagSet", "NewFlagSet"
    ) == ("FlagSet")
    assert returned_type("func Open(p string) (*File, error)", "Open") == "File"
    assert returned_type("func (f *FlagSet) Lookup(name string) *Flag", "Lookup") == "Flag"
    assert returned_type("func Close() error", "Close") == ""
    assert returned_type("func Run()", "Run") == ""


def test_callers_of_a_method_through_the_values_that_hold_its_type(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, {"flag.go": FLAG_GO, "flag_test.go": FLAG_TEST_GO})
    walk = eng.callers("FlagSet.Parse")
    callers = sorted((link.edge.path, link.symbol.qname.rsplit(".", 1)[-1]) for link in walk.links)
    assert callers == [("flag.go", "Parse"), ("flag_test.go", "TestParse")]
    assert all(link.resolved for link in walk.links)
    value = eng.callers("Value.Parse")
    assert [link.symbol.qname.rsplit(".", 1)[-1] for link in value.links] == ["TestValue"]
    own = eng.callers("FlagSet.parseArgs")  # on the receiver
    assert [link.symbol.qname.rsplit(".", 2)[-2:] for link in own.links] == [["FlagSet", "Parse"]]
