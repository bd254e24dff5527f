"""Definitions a parse error hid: the lines the grammar could not read are parsed again.

The Perl sample is written as Test2's `Test2::Hub` is: `$$` (the process id) in a
condition and `map {$_ => $_} @_` make tree-sitter-perl turn the whole file into one
`ERROR` node, in which its tag query found the package and no sub at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from strata.config import ChunkConfig
from strata.engine import Engine
from strata.index.code.treesitter import recover, tagquery, tags
from strata.index.code.treesitter.chunker import chunk
from strata.index.code.treesitter.symbols import extract
from tests.test_treesitter import (
    DEFAULT,
    TIGHT,
    _budgets,
    _program,
    assert_chunk_invariants,
)

HUB = """\
package Test::Hub;
use strict;
use warnings;

use Carp qw/carp croak/;
use Test::Util::HashBase qw{ pid tid hid _listeners _filters };

sub init {
    my $self = shift;
    $self->{+PID} = $$;
    $self->{+TID} = get_tid();
    $self->{+_LISTENERS} = [];
}

sub listen {
    my $self = shift;
    my ($sub, %params) = @_;

    carp "Useless addition of a listener in a child process!"
        if $$ != $self->{+PID} || get_tid() != $self->{+TID};

    push @{$self->{+_LISTENERS}} => { %params, code => $sub };
    $sub;
}

sub unlisten {
    my $self = shift;

    carp "Useless removal of a listener in a child process!"
        if $$ != $self->{+PID} || get_tid() != $self->{+TID};

    my %subs = map {$_ => $_} @_;
    @{$self->{+_LISTENERS}} = grep { !$subs{$_->{code}} } @{$self->{+_LISTENERS}};
}

sub filter {
    my $self = shift;
    my ($sub, %params) = @_;
    croak "filter only takes coderefs" unless ref $sub eq 'CODE';
    push @{$self->{+_FILTERS}} => { %params, code => $sub };
    $sub;
}

sub send {
    my ($self, $event) = @_;
    $_->{code}->($self, $event) for @{$self->{+_LISTENERS}};
    return finalize($event);
}

sub finalize {
    my ($event) = @_;
    return $event;
}

1;
"""

SUBS = [
    ("init", 8, 13),
    ("listen", 15, 24),
    ("unlisten", 26, 34),
    ("filter", 36, 42),
    ("send", 44, 48),
    ("finalize", 50, 53),
]


def _subs(text: str) -> list[tuple[str, int, int]]:
    found = tags.outline(text, "perl")
    return [(d.name, d.decl_line, d.end_line) for d in found.definitions if d.kind == "function"]


def test_subs_after_what_the_grammar_cannot_read_are_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert tags.outline(HUB, "perl").has_errors
    assert _subs(HUB) == SUBS
    monkeypatch.setattr(recover, "MAX_DEPTH", 0)  # the parse alone: no sub at all
    assert _subs(HUB) == []


def test_a_sub_whose_own_body_cannot_be_read_is_found_from_its_first_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(recover, "opened", lambda src, run, part, opens: part)
    parsed_again = {name for name, _, _ in _subs(HUB)}
    assert {"listen", "filter", "send", "finalize"} <= parsed_again
    assert not {"init", "unlisten"} & parsed_again  # `$$;` and `map {$_ => $_}` fail again


def test_a_forward_declaration_makes_no_definition() -> None:
    text = HUB.replace("sub finalize {", "sub later;\n\nsub finalize {")
    names = [name for name, _, _ in _subs(text)]
    assert "later" not in names
    assert names[-1] == "finalize"


def test_the_found_subs_are_chunks_symbols_and_callers() -> None:
    for cfg in (DEFAULT, TIGHT):
        chunks = chunk(HUB, "perl", cfg)
        assert_chunk_invariants(HUB, chunks, cfg)
    starts = {(c.title, c.start_line) for c in chunk(HUB, "perl", DEFAULT)}
    assert {(name, first) for name, first, _ in SUBS} <= starts
    symbols, edges = extract(HUB, "perl", "lib/Test/Hub.pm")
    assert {f"Test.Hub.{name}" for name, _, _ in SUBS} <= {s.qname for s in symbols}
    calls = {(e.src_qname, e.dst_ref, e.resolution) for e in edges if e.edge_type == "calls"}
    assert ("Test.Hub.send", "finalize", "resolved") in calls
    assert any(src == "Test.Hub.unlisten" and ref == "carp" for src, ref, _ in calls)


def test_a_language_without_openers_keeps_what_one_parse_reads() -> None:
    # Lua's `ltm.h`: read again on its own, the line the grammar cannot read
    # (`LUAI_DDEC(...)`) would come back as a function; C's query has no `; opens` line, so
    # it is left as it is. The `LUAI_FUNC` prototypes the parse reads inside the include
    # guard are the header's declarations
    text = (
        "#ifndef ltm_h\n#define ltm_h\n\n"
        "#define notm(tm)\tttisnil(tm)\n\n"
        "#define ttypename(x)\tluaT_typenames_[(x) + 1]\n\n"
        "LUAI_DDEC(const char *const luaT_typenames_[LUA_TOTALTYPES];)\n\n\n"
        "LUAI_FUNC const char *luaT_objtypename (lua_State *L, const TValue *o);\n\n"
        "LUAI_FUNC void luaT_init (lua_State *L);\n\n"
        "#endif\n"
    )
    found = tags.outline(text, "c")
    assert found.has_errors and not tagquery.openers("c")
    names = ["ltm_h", "notm", "ttypename", "luaT_objtypename", "luaT_init"]
    assert [d.name for d in found.definitions] == names
    assert tagquery.openers("perl") == {b"sub": "function", b"package": "package"}


def test_where_is_a_recovered_sub_defined(tmp_path: Path) -> None:
    (tmp_path / "lib" / "Test").mkdir(parents=True)
    (tmp_path / "lib" / "Test" / "Hub.pm").write_text(HUB, encoding="utf-8")
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    eng.index()
    hits = eng.search("where is unlisten defined", k=3)
    assert (hits[0].record.path, hits[0].record.span_start) == ("lib/Test/Hub.pm", 26)
    eng.close()


# Pieces of `HUB`'s kind: in 90 of 100 programs drawn from them (seed 1) the grammar loses
# subs that the recovery finds.
PERL_PIECES = [
    "sub {n} {{\n    my $self = shift;\n    $self->{{+PID}} = $$;\n}}\n",
    'sub {n} {{\n    my $self = shift;\n    carp "child process!"\n'
    "        if $$ != $self->{{+PID}} || get_tid() != $self->{{+TID}};\n"
    "    push @{{$self->{{+_L}}}} => {{ code => $self }};\n}}\n",
    "# Drops {n}.\nsub {n} {{\n    my $self = shift;\n    my %subs = map {{$_ => $_}} @_;\n"
    "    @{{$self->{{+_L}}}} = grep {{ !$subs{{$_->{{code}}}} }} @{{$self->{{+_L}}}};\n}}\n",
    "sub {n} {{\n    my ($a, $b) = @_;\n    return $a + $b;\n}}\n",
    "sub {n};\n",
    "=head2 {n}\n\nText.\n\n=cut\n",
    "sub {n} {{ 1 }}\n",
]


def test_a_body_that_runs_on_over_the_next_sub_ends_above_it() -> None:
    # the grammar reads `sub n5` into `n4`'s failed body: one node over both, inside an
    # ERROR node; n4 ends above n5's line, and n5 is parsed again on its own
    text = _program(PERL_PIECES, [0, 0, 5, 0, 1, 0], "package P;\nuse strict;")
    found = {d.name: d for d in tags.outline(text, "perl").definitions}
    assert (found["n4"].start_line, found["n4"].end_line) == (24, 29)
    assert (found["n5"].start_line, found["n5"].end_line, found["n5"].parent) == (31, 34, None)


def test_a_sub_the_failed_body_ran_on_over_is_parsed_again_and_not_its_child() -> None:
    # `sub n0`'s failed body runs to the end of the file: a pod block it swallowed hides
    # `sub n3` (no ERROR node holds it), and `n5`, `n7` were read as n0's inner subs
    text = _program(PERL_PIECES, [0, 2, 5, 0, 5, 3, 4, 2], "package P;\nuse strict;")
    found = [
        (d.name, d.start_line, d.parent, d.path) for d in tags.outline(text, "perl").definitions
    ]
    assert found[1:] == [
        ("n0", 3, None, ("n0",)),
        ("n1", 8, None, ("n1",)),
        ("n3", 21, None, ("n3",)),
        ("n5", 32, None, ("n5",)),
        ("n7", 39, None, ("n7",)),
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, len(PERL_PIECES) - 1), max_size=25), _budgets())
@example([0, 0, 5, 0, 1, 0], DEFAULT)
@example([0, 2, 5, 0, 5, 3, 4, 2], DEFAULT)
def test_property_perl_chunks_cover_without_overlap_however_the_parse_fails(
    picks: list[int], cfg: ChunkConfig
) -> None:
    text = _program(PERL_PIECES, picks, "package P;\nuse strict;")
    assert_chunk_invariants(text, chunk(text, "perl", cfg), cfg)
    found = tags.outline(text, "perl").definitions
    subs = {f"n{i}" for i, pick in enumerate(picks) if PERL_PIECES[pick].startswith(("sub", "#"))}
    declared = {f"n{i}" for i, pick in enumerate(picks) if PERL_PIECES[pick] == "sub {n};\n"}
    assert subs - declared <= {d.name for d in found}  # every sub with a body, found
    assert [d.decl_line for d in found] == sorted(d.decl_line for d in found)
    assert all(d.parent is None or found[d.parent].decl_line <= d.decl_line for d in found)


# bash-completion 2.11's `bash_completion` as it is written: the `=~` pattern in
# `_variables` makes tree-sitter-bash read the whole file as one `ERROR` node, where its tag
# query found the functions above that line and none of the 50 below it.
COMPLETION = r"""_filedir()
{
    local cur="$1"
    COMPREPLY+=($cur)
}

_variables()
{
    if [[ $cur =~ ^(\$(\{[!#]?)?)([A-Za-z0-9_]*)$ ]]; then
        return 0
    fi
    return 1
}

# Initialize completion and deal with various general things.
_init_completion()
{
    local exclude="" flag outx errx inx OPTIND=1
    _variables && return 1
    _filedir
}

function _known_hosts
{
    _init_completion || return
}
"""


def test_a_shell_function_after_a_parse_error_is_found() -> None:
    syms, edges = extract(COMPLETION, "bash", "bash_completion")
    found = {s.name: (s.start_line, s.end_line) for s in syms}
    assert found["_init_completion"] == (15, 21)  # its comment above is its doc
    assert found["_known_hosts"] == (23, 26)
    assert {"_filedir", "_variables"} <= found.keys()
    assert tagquery.openers("bash") == {b"function": "function", b"()": "function"}
    calls = {(e.src_qname, e.dst_ref) for e in edges if e.edge_type == "calls"}
    assert ("bash_completion._known_hosts", "_init_completion") in calls
