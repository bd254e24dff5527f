"""Go's interfaces, satisfied without `implements` (code/gointerfaces.py): a type whose
methods, its own and its embedded types', cover an interface's (its own and its embedded
interfaces') with as many parameters and results implements it. The real Go grammar, and
a real index asked in words."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strata import Engine
from strata.index.code.gointerfaces import arity, implementations
from strata.index.code.treesitter import symbols
from tests.sources import indexed_tree

GO = {
    "log/formatter.go": """
        package log

        // Formatter renders an entry.
        type Formatter interface {
        \tFormat(*Entry) ([]byte, error)
        }

        // Closer and Formatter at once.
        type ClosingFormatter interface {
        \tFormatter
        \tClose() error
        }

        // Reads from outside the repository: its methods are unknown.
        type ReadFormatter interface {
        \tio.Reader
        \tFormatter
        }

        // A constraint of types only.
        type Number interface {
        \t~int | ~float64
        }
        """,
    "log/json.go": """
        package log

        type JSONFormatter struct {
        \tPretty bool
        }

        func (f *JSONFormatter) Format(entry *Entry) ([]byte, error) {
        \treturn nil, nil
        }
        """,
    # a method apart from its type's file, and a type that promotes an embedded one's
    "log/json_close.go": """
        package log

        func (f *JSONFormatter) Close() error { return nil }

        type PrettyFormatter struct {
        \tJSONFormatter
        \tIndent int
        }
        """,
    "log/text.go": """
        package log

        type TextFormatter struct{}

        // Not a Formatter: one parameter too many.
        func (f TextFormatter) Format(entry *Entry, colors bool) ([]byte, error) {
        \treturn nil, nil
        }
        """,
    "plugins/xml/xml.go": """
        package xml

        type Formatter struct{}

        func (x *Formatter) Format(e *log.Entry) (
        \t[]byte, error) {
        \treturn nil, nil
        }
        """,
    "log/json_test.go": """
        package log

        type fakeFormatter struct{}

        func (fakeFormatter) Format(*Entry) ([]byte, error) { return nil, nil }
        """,
}


def _implements(files: dict[str, str]) -> set[tuple[str, str]]:
    syms, edges = [], []
    for rel, text in files.items():
        s, e = symbols.extract(text, "go", rel)
        syms += s
        edges += e
    found = implementations(syms, edges)
    assert all(e.edge_type == "inherits" and e.resolution == "resolved" for e in found)
    return {(e.src_qname, e.dst_qname or "") for e in found}


def test_a_type_with_an_interfaces_methods_implements_it() -> None:
    found = _implements(GO)
    assert {
        ("log.json.JSONFormatter", "log.formatter.Formatter"),
        ("log.json.JSONFormatter", "log.formatter.ClosingFormatter"),  # `Close` elsewhere
        ("log.json_close.PrettyFormatter", "log.formatter.Formatter"),  # promoted
        ("log.json_close.PrettyFormatter", "log.formatter.ClosingFormatter"),
        ("plugins.xml.xml.Formatter", "log.formatter.Formatter"),  # results on two lines
        ("log.json_test.fakeFormatter", "log.formatter.Formatter"),
    } == found
    # left out: `TextFormatter` (an extra parameter), `ReadFormatter` (embeds `io.Reader`),
    # `Number` (no methods), and no interface implements itself


@pytest.mark.parametrize(
    ("signature", "name", "expected"),
    [
        ("func (f *T) Format(entry *Entry) ([]byte, error)", "Format", (1, 2)),
        ("Format(*Entry) ([]byte, error)", "Format", (1, 2)),
        ("func (l *L) Log(level Level, args ...interface{})", "Log", (2, 0)),
        ("Do(a, b int, f func(x, y int) error) error {", "Do", (3, 1)),
        ("func (m M) Get(k string) (v T, ok bool)", "Get", (1, 2)),
        ("func (c *C) Run(", "Run", None),  # cut before its parameters close
        ("Close() error", "Close", (0, 1)),
    ],
)
def test_a_signatures_parameters_and_results_are_counted(
    signature: str, name: str, expected: tuple[int, int] | None
) -> None:
    assert arity(signature, name) == expected


def _routed(eng: Engine, query: str) -> list[str]:
    result = eng.search(query, k=10)
    return [h.record.title for h in result.hits[: result.plan["route"]["routed_hits"]]]


def test_implementations_and_bases_are_asked_in_words(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, GO)
    assert _routed(eng, "what implements Formatter") == [
        *("ClosingFormatter", "ReadFormatter"),  # the interfaces that embed it
        *("JSONFormatter", "PrettyFormatter"),
        "Formatter",  # plugins/xml's
        "fakeFormatter",  # tests last
    ]
    assert set(_routed(eng, "what does JSONFormatter implement")) == {
        "Formatter",
        "ClosingFormatter",
    }
    # an interface's embedded interface is one it extends
    assert _routed(eng, "what does ClosingFormatter extend") == ["Formatter"]


@given(st.text(alphabet="Fo(),[]{} *.abxyz\n", max_size=60))
def test_any_signature_is_counted_or_left_unknown(signature: str) -> None:
    counted = arity(signature, "Fo")
    assert counted is None or (counted[0] >= 0 and counted[1] >= 0)


def test_a_call_through_an_interface_calls_its_implementations(tmp_path: Path) -> None:
    files = {
        **GO,
        "log/entry.go": (
            "package log\n\ntype Entry struct {\n\tFormatter Formatter\n}\n\n"
            "func (e *Entry) Bytes() ([]byte, error) {\n\treturn e.Formatter.Format(e)\n}\n"
        ),
    }
    eng = indexed_tree(tmp_path, files)
    walk = eng.callers("JSONFormatter.Format")
    through = [link for link in walk.links if link.match == "interface"]
    assert [(link.symbol.qname, link.via) for link in through] == [
        ("log.entry.Entry.Bytes", "log.formatter.Formatter.Format")
    ]
    assert through[0].resolved  # not a guess by the bare name
    # a method of no interface (one parameter too many) has none
    walk = eng.callers("TextFormatter.Format")
    assert not [link for link in walk.links if link.match == "interface"]
