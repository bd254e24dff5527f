"""The `newlangs` benchmark's own walk of definitions and doc comments (not Strata's queries)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.morelangs import HASKELL, LUA, SOLIDITY, ZIG, C, Spec, definitions

CORPUS = Path(__file__).parent / "corpora" / "langs"


def _by_name(spec: Spec, name: str) -> dict[str, tuple[int, int, tuple[int, int] | None, str]]:
    return {d.name: (d.start, d.end, d.comment, d.doc) for d in definitions(spec, CORPUS, name)}


def test_lua_functions_with_their_ldoc_comment_from_its_triple_dash_line() -> None:
    defs = _by_name(LUA, "queue.lua")
    assert set(defs) == {"new", "push", "full", "encode", "dump"}
    assert defs["new"] == (12, 17, (10, 11), "Create an empty queue.")  # `@param` ends it
    assert defs["full"][2] is None  # no comment
    assert defs["dump"][:2] == (35, 37)  # `Queue.dump = function ... end`


def test_solidity_natspec_without_its_dev_tag_and_members_inside_contracts() -> None:
    defs = _by_name(SOLIDITY, "Token.sol")
    assert defs["transfer"] == (29, 32, (26, 28), "Moves `amount` tokens from the caller to `to`.")
    assert defs["Token"][2:] == ((7, 9), "A minimal token with a fixed owner.")
    assert {"Grant", "Minted", "SupplyExceeded", "onlyMinter", "SafeAdd", "add"} <= set(defs)


def test_zig_types_and_the_methods_of_a_type_a_function_returns() -> None:
    defs = _by_name(ZIG, "buffer.zig")
    assert set(defs) == {"Buffer", "init", "append", "Mode", "Ring", "get"}
    assert defs["init"][2:] == ((11, 11), "Makes an empty buffer.")
    assert defs["get"][:2] == (30, 32)


def test_haskell_function_is_its_signature_and_equations_under_its_haddock() -> None:
    defs = _by_name(HASKELL, "Parser.hs")
    assert defs["char"] == (14, 18, (13, 13), "Parse one given character.")
    assert defs["many1"][:2] == (22, 23)
    assert {"Token", "Pretty", "pretty", "prettyList", "digits"} <= set(defs)


def test_c_function_definitions_with_the_comment_above_and_inside_if_blocks() -> None:
    defs = _by_name(C, "ring.c")
    assert set(defs) == {"ring_push", "ring_next", "ring_dump"}  # not the prototype
    assert defs["ring_push"] == (
        12,
        16,
        (9, 11),
        "Push one byte. Drops the oldest byte when the ring is full.",
    )
    assert defs["ring_next"][2] is None
    assert defs["ring_dump"][2:] == ((23, 23), "Print the ring.")
