"""Code in a language no bundled grammar reads: definitions by their lines, chunks and
symbols from them, and "where is X defined" answered at the definition."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strata.config import load_config
from strata.index.chunking import chunk
from strata.index.code import sketch
from strata.index.code.treesitter.symbols import extract
from strata.text.langs import language_of, language_of_text
from strata.types import Extracted
from tests.sources import indexed_tree
from tests.test_chunking_properties import check_chunks

ELISP = """\
;;; mode.el --- a small mode

;; Indent by two.
(defun my-mode-indent-line ()
  "Indent the current line according to my-mode rules."
  (let ((col (current-indentation)))
    (indent-line-to (+ col 2))))

(defvar my-mode-hook nil
  "Hook run when entering my-mode.")

(cl-defstruct my-mode-state depth)

(provide 'mode)
"""
NIM = """\
proc fetchUrl*(url: string, timeout = 30): string =
  ## Fetches the body of `url`.
  proc inner(x: int): int = x
  result = newHttpClient(timeout = timeout).getContent(url)

type
  Client* = object
    host: string

proc close*(c: var Client) =
  discard
"""
PASCAL = """\
unit Shapes;

interface

type
  TCircle = class
    procedure Draw;
    function Area: Double;
  end;

implementation

{ Draws the circle. }
procedure TCircle.Draw;
begin
  WriteLn('circle');
end;

function TCircle.Area: Double;
begin
  Area := 3.14;
end;

end.
"""
TCL = """\
namespace eval ::struct::queue {
    variable count 0
}

# Adds an item at the end.
proc ::struct::queue::put {name item} {
    lappend ::struct::queue::items $item
}
"""
FSHARP = """\
module Geometry

type Point = { X: float; Y: float }

let distance (a: Point) (b: Point) =
    let dx = a.X - b.X
    let dy = a.Y - b.Y
    sqrt (dx * dx + dy * dy)
"""
VB = """\
Public Class Invoice
    Public Function Total() As Decimal
        Return 0
    End Function

    Private Sub Reset()
    End Sub
End Class
"""


def _outline(text: str, lang: str) -> list[tuple[str, str, int, int, int]]:
    return [
        (".".join(d.path), d.kind, d.start_line, d.decl_line, d.end_line)
        for d in sketch.outline(text, lang).definitions
    ]


def test_lisp_forms_at_the_left_margin_with_their_comments() -> None:
    assert _outline(ELISP, "elisp") == [
        ("my-mode-indent-line", "function", 3, 4, 7),
        ("my-mode-hook", "constant", 9, 9, 10),
        ("my-mode-state", "class", 12, 12, 12),  # `(provide` is no part of it
    ]


def test_an_indented_language_ends_a_definition_where_code_comes_back_out() -> None:
    assert _outline(NIM, "nim") == [
        ("fetchUrl", "function", 1, 1, 4),  # `inner` is a local of its body
        ("Client", "class", 7, 7, 8),
        ("close", "function", 10, 10, 11),
    ]
    assert _outline(FSHARP, "fsharp") == [
        ("Geometry", "module", 1, 1, 1),
        ("Point", "type", 3, 3, 3),
        ("distance", "function", 5, 5, 8),  # its `let dx` and `let dy` are locals
    ]


def test_members_by_indentation_closed_where_a_line_says_so() -> None:
    assert _outline(PASCAL, "pascal") == [
        ("TCircle", "class", 6, 6, 9),  # to its `end;`, not into `implementation`
        ("TCircle.Draw", "method", 7, 7, 7),
        ("TCircle.Area", "method", 8, 8, 8),
        ("TCircle.Draw", "method", 13, 14, 17),  # the body, its `{ }` comment above it
        ("TCircle.Area", "method", 19, 19, 22),
    ]
    assert _outline(TCL, "tcl") == [
        ("struct.queue", "module", 1, 1, 3),
        ("struct.queue.put", "function", 5, 6, 8),
    ]
    assert _outline(VB, "vbnet") == [
        ("Invoice", "class", 1, 1, 8),
        ("Invoice.Total", "method", 2, 2, 4),
        ("Invoice.Reset", "method", 6, 6, 7),
    ]


def test_a_pascal_heading_declares_what_its_body_defines() -> None:
    symbols, _ = extract(PASCAL, "pascal", "Shapes.pas")
    draw = [(s.start_line, s.declaration) for s in symbols if s.name == "Draw"]
    assert draw == [(7, True), (13, False)]  # "where is it defined" shows the body first


def test_chunks_and_symbols_come_from_the_outline() -> None:
    doc = Extracted("lisp/mode.el", ELISP, "elisp", "code", "h", ())
    chunks = chunk(doc, load_config(env={}).chunk)
    assert [(c.start_line, c.end_line, c.kind, c.title) for c in chunks] == [
        (1, 1, "module", ""),
        (3, 7, "function", "my-mode-indent-line"),
        (9, 10, "module", ""),  # a variable is no unit of its own, as in a tag query's
        (12, 12, "class", "my-mode-state"),
        (14, 14, "module", ""),
    ]
    assert "\n".join(c.text for c in chunks).count("defun") == 1  # every line once
    symbols, edges = extract(ELISP, "elisp", "lisp/mode.el")
    assert [(s.qname, s.kind, s.start_line) for s in symbols] == [
        ("lisp.mode.my-mode-indent-line", "function", 3),
        ("lisp.mode.my-mode-hook", "constant", 9),
        ("lisp.mode.my-mode-state", "class", 12),
    ]
    assert edges == []


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("init.el", "elisp"),
        ("net.nim", "nim"),
        ("Unit1.pas", "pascal"),
        ("app.d", "d"),
        ("lib.tcl", "tcl"),
        ("Program.fs", "fsharp"),
        ("boot.asm", "assembly"),
        ("tasks.rake", "ruby"),
        ("app.gemspec", "ruby"),
        ("t/basic.t", "perl"),
        ("notes.txt", "text"),
    ],
)
def test_languages_read_by_their_lines_are_code(path: str, lang: str) -> None:
    assert language_of(path) == lang


def test_where_is_it_defined_in_a_language_without_a_grammar(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, {"lisp/mode.el": ELISP, "src/net.nim": NIM, "Shapes.pas": PASCAL})
    for query, path, line in (
        ("where is my-mode-indent-line defined", "lisp/mode.el", 4),
        ("where is fetchUrl defined", "src/net.nim", 1),
        ("where is Client defined", "src/net.nim", 7),
        ("where is TCircle.Draw defined", "Shapes.pas", 14),
    ):
        hit = eng.search(query, k=3).hits[0].record
        assert (hit.path, hit.layer[:2]) == (path, "C0"), query
        assert hit.span_start <= line <= hit.span_end, (query, hit.span_start, hit.span_end)


def test_a_pp_file_is_pascal_when_its_text_is() -> None:
    assert language_of_text("src/streams.pp", "unit Streams;\n\ninterface\n") == "pascal"
    assert language_of_text("rtl/sysutils.pp", "{ header }\nprocedure Beep;\n") == "pascal"
    assert (
        language_of_text("manifests/init.pp", "class apache {\n  package { 'httpd': }\n}\n") is None
    )


_LINES = [
    *("(defun f-a ()", "  (body)", ";; doc", "(defvar v nil)", "proc x*() =", "  discard"),
    *("procedure T.F;", "begin", "end;", "function G: Integer;", "type", "C* = object"),
    *("}", "End Sub", "end", "let f x =", "let y = 1", "class K", "def m(self):", "{"),
    *("Public Function Total() As Decimal", "proc ::ns::p {a} {", "int f(int x) {", "x:"),
    *("module M", "(* note *)", "# note", "// note", "-- note", "fn g() {", "sub h {"),
]
_PROGRAMS = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from(["", *_LINES])), min_size=0, max_size=40
).map(lambda rows: "\n".join(" " * (2 * depth) + line for depth, line in rows))


@settings(max_examples=300, deadline=None)
@given(text=_PROGRAMS, lang=st.sampled_from(sorted(sketch.LANGUAGES)))
def test_any_program_gives_nested_spans_and_chunks_keeping_the_contract(
    text: str, lang: str
) -> None:
    defs = sketch.outline(text, lang).definitions
    for d in defs:
        assert d.start_line <= d.decl_line <= d.end_line <= max(1, text.count("\n") + 1), d
        if d.parent is not None:
            up = defs[d.parent]
            assert up.decl_line < d.decl_line and d.end_line <= up.end_line, (up, d)
    cfg = load_config(env={}).chunk
    check_chunks(text, chunk(Extracted("f", text, lang, "code", "h", ()), cfg), cfg, windows=True)


def test_the_corpus_pass_reads_the_same_symbols_again() -> None:
    from strata.index.corpus.artifacts import TREESITTER, artifact_of

    art = artifact_of("lisp/mode.el", ELISP, "elisp", "h", "code")
    assert art.kind == TREESITTER and "my-mode-indent-line" in art.payload
