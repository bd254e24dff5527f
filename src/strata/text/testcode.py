"""Test code by the conventions of its languages (pure): a test file by its path, and a
test written beside the code it tests (Rust's `#[test]`, Zig's `test` blocks)."""

from __future__ import annotations

import functools
import re

__all__ = ["is_test_path", "is_test_unit"]

_TEST_PATH = re.compile(
    r"(^|/)(tests?|Tests?|__tests__|spec|specs|testing)/"
    # a .NET test project (`Newtonsoft.Json.Tests/`, `App.UnitTests/`), a Swift `FooTests/`
    r"|(^|/)[^/]*[.A-Za-z](?:Unit|Integration|Functional)?Tests/"
    r"|(^|/)test_[^/]*$|_test\.[a-z0-9]+$|(^|/)[^/]*_tests?\.py$"
    r"|\.(spec|test)\.[a-z0-9]+$|(^|/)conftest\.py$|Tests?\.(java|kt|cs|swift|scala)$"
    r"|_spec\.(rb|lua)$|_SUITE\.erl$",
)


@functools.lru_cache(maxsize=4096)  # asked once per record: a generated module has 80k
def is_test_path(rel: str) -> bool:
    """Whether a path names a test file (`tests/`, `test_*.py`, `*_test.go`, `*.spec.ts`)."""
    return bool(_TEST_PATH.search(rel))


# A unit that is a test though its file is not: a Rust function or module under `#[test]`
# (`#[tokio::test]`) or `#[cfg(test)]` among its leading attributes, a Zig `test "name" {}`
# block. (The helpers of a Rust `mod tests` are not: measured, a doc comment's sentence finds
# them as it finds any function.)
_LEADING = re.compile(r"(?:[ \t]*(?://[^\n]*|#!?\[[^\n]*)\n)*")
_RUST_TEST = re.compile(r"^[ \t]*#\[(?:(?:\w+::)*test|cfg\(test\))\]", re.MULTILINE)
_ZIG_TEST = re.compile(r"^(?:[ \t]*//[^\n]*\n)*[ \t]*test\b")


def is_test_unit(lang: str, head: str) -> bool:
    """Whether a definition whose text (or its leading attributes and signature) starts
    with `head` is a test written beside the code it tests."""
    if lang == "rust":
        attributes = _LEADING.match(head + "\n")
        return bool(attributes and _RUST_TEST.search(attributes.group(0)))
    return lang == "zig" and bool(_ZIG_TEST.match(head))
