"""Code names a sentence quotes lead to the code that uses them (real files, real index)."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from strata import Engine
from strata.index.records import make_record
from strata.query.quoted import (
    QUOTED_BOOST,
    RARITY,
    is_elsewhere,
    named_elsewhere,
    quoted_names,
    quoted_parts,
)
from strata.types import Record


@pytest.mark.parametrize(
    ("query", "names"),
    [
        (
            "'psize' is filled with option's size, 'notoalign' with its alignment",
            ("psize", "notoalign"),
        ),
        ("Returns ``True`` when `max_depth` is reached", ("max_depth",)),  # a literal is no name
        ("Returns +host+ with its port", ("host",)),  # RDoc's mark
        ("See `WriteStream` for how the value is written", ()),  # pointed away to
        ("Like `stringify` with configurable nesting depth, using `std.fmt`", ()),
        ("don't stop the user's 'x'", ()),  # apostrophes, one letter
        ("The capacity of the tree is set to `2**treeDepth`.", ("treeDepth",)),  # an operation
        ("Return a string if `self.as_string=True`, otherwise", ("as_string",)),
        ("`address(0)` 's role is also considered", ("address",)),
        ("`stackHeight()` up to that number", ()),  # a call with no arguments: no operation
        ("Generate a `Schema <marshmallow.Schema>` class", ()),  # a Sphinx reference
        ("See also `std.json.Token` for `nextAlloc*()`", ()),
    ],
)
def test_the_names_a_sentence_quotes(query: str, names: tuple[str, ...]) -> None:
    assert quoted_names(query) == names


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("Options given are passed to MockRequest.env_for.", {"mockrequest.env_for"}),
        ("If they are plain tables, it will use tablex.deepcompare.", {"tablex.deepcompare"}),
        ("See AccessManager description for the authorization logic.", {"accessmanager"}),
        ("An alternative to calling `write` that formats a value", {"write"}),
        ("Same as the Value::removeMember overload", {"value.removemember"}),
        ("Delegates to `Base#render` and wraps the result", {"base.render"}),
        # how to use the name itself, not code that uses it
        ("You can call `innerParse(T, ...)` for each of the container's items.", set()),
        ("Use `connect` before sending", set()),
        ("Parses the header into a dict", set()),
        ("see the Foo class", set()),  # a short request for the name itself
    ],
)
def test_the_names_a_statement_points_away_to_or_says_its_code_uses(
    query: str, names: set[str]
) -> None:
    assert named_elsewhere(query) == names


def test_a_definition_is_elsewhere_when_its_dotted_name_ends_with_the_name_written() -> None:
    away = frozenset({"mockrequest.env_for", "accessmanager"})
    assert is_elsewhere("Rack.MockRequest.env_for", away)
    assert is_elsewhere("AccessManager", away)
    assert not is_elsewhere("Rack.MockRequest.request", away)
    assert not is_elsewhere("Other.env_for", away)  # the same name under another qualifier
    assert not is_elsewhere("IAccessManager", away)  # a name that only ends the same
    assert is_elsewhere("env_for", away, "lib/mockrequest.rb")  # the module's name, then its own
    used = frozenset({"cordovainterface.haspermission"})  # a variable named after its type
    assert is_elsewhere("CordovaInterfaceImpl.hasPermission", used)
    assert is_elsewhere("org.ICordovaInterface.hasPermission", used)
    assert not is_elsewhere("PermissionHelper.hasPermission", used)
    assert not is_elsewhere("env_for", away, "lib/mock.rb")


_C_CHUNK = {"layer": "C0_SOURCE_CHUNKS", "lang": "c", "file_hash": "h", "kind": "function"}


def _rec(path: str, content: str) -> Record:
    return make_record(id=path, path=path, title=path, content=content, **_C_CHUNK)


def test_a_name_most_candidates_hold_tells_none_apart() -> None:
    records = {
        "a.c": _rec("a.c", "int f(lua_State *L, size_t psize) { return psize; }"),
        **{f"b{i}.c": _rec(f"b{i}.c", f"int g{i}(lua_State *L) {{ return 0; }}") for i in range(4)},
    }
    # every candidate uses lua_State: it tells none apart and adds next to nothing
    assert quoted_parts(records, ("lua_State",), unit=1.0)["a.c"] == pytest.approx(
        QUOTED_BOOST * (1 / 5) ** RARITY
    )
    alone = quoted_parts(records, ("psize",), unit=1.0)
    assert alone == {"a.c": pytest.approx(QUOTED_BOOST)}  # only one candidate holds it
    both = quoted_parts(records, ("psize", "lua_State"), unit=1.0)
    assert both["a.c"] == pytest.approx(QUOTED_BOOST * (1 + (1 / 5) ** RARITY) / 2)
    assert quoted_parts(records, (), unit=1.0) == {}


FILES = {
    "lstrlib.c": """
        /* Read an integer numeral from string 'fmt' or return 'df' if there is none. */
        static int getnum (const char **fmt, int df) {
          if (!digit(**fmt)) return df;
          return readnum(fmt);
        }

        /* Read the size and the alignment of the next option in a format string. */
        static int getdetails (Header *h, size_t totalsize, const char **fmt, int *psize,
                               int *notoalign) {
          int align = 1;
          *psize = optsize(h, fmt);
          *notoalign = align;
          return align;
        }

        /* The size of an option and its alignment requirements: an option's size is
           filled from the format, its alignment requirements from the option's size. */
        static int optsize (Header *h, const char **fmt) {
          return getnum(fmt, 1);
        }
    """,
}


def test_a_sentence_that_quotes_names_finds_the_code_that_uses_them(tmp_path: Path) -> None:
    for rel, text in FILES.items():
        (tmp_path / rel).write_text(dedent(text).lstrip(), encoding="utf-8")
    query = "'psize' is filled with option's size, 'notoalign' with its alignment requirements."
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        hits = eng.search(query, k=3, mode="lexical")
    assert hits[0].record.title == "getdetails", [(h.record.title, h.parts) for h in hits]
    assert hits[0].parts.get("quoted", 0) > 0
