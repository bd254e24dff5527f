"""The tag queries' shapes that tree-sitter accepts but that match nothing as meant.

`([(a) (b)] (child))` reads as an `a` or `b` node followed by a sibling `child`, not as an
`a` or `b` holding `child`: PHP's `require 'x.php'` was never an import for that reason. A
parent's alternation with children is written as one pattern per parent, or as
`[(a (child)) (b (child))]`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

QUERIES = Path(__file__).parent.parent / "src" / "strata" / "index" / "code" / "treesitter"
QUERY_FILES = sorted((QUERIES / "queries").rglob("*.scm"))
_STRING_OR_COMMENT = re.compile(r'"(?:\\.|[^"\\])*"|;[^\n]*')
_GROUP_OF_ALTERNATION = re.compile(r"\(\s*\[")


def _blanked(text: str) -> str:
    """`text` with its strings and comments blanked, at the same offsets."""
    return _STRING_OR_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def _close(text: str, at: int) -> int:
    """The offset of the bracket that closes the one at `at`."""
    depth = 0
    for i in range(at, len(text)):
        depth += (text[i] in "([") - (text[i] in ")]")
        if depth == 0:
            return i
    raise ValueError(f"unbalanced at {at}")


def children_beside_an_alternation(text: str) -> list[str]:
    """The groups that open with an alternation and hold a node pattern after it."""
    code = _blanked(text)
    found = []
    for m in _GROUP_OF_ALTERNATION.finditer(code):
        end = _close(code, m.start())
        after = code[_close(code, m.end() - 1) + 1 : end]
        if re.search(r"\((?!\s*#)", after) or re.search(r"\b\w+:\s*\(", after):
            found.append(" ".join(text[m.start() : end + 1].split())[:80])
    return found


def test_the_check_finds_children_beside_an_alternation() -> None:
    assert children_beside_an_alternation(
        "([(require_expression) (include_expression)] (string) @name) @reference.import"
    )
    assert children_beside_an_alternation(
        "([(struct_item) (union_item)] body: (field_declaration_list)) @definition.struct"
    )
    assert not children_beside_an_alternation(
        '([(chunk (call) @a) (block (call) @a)] @x (#eq? @x "y"))  ; "([(a)] (b))"'
    )


@pytest.mark.parametrize("path", QUERY_FILES, ids=lambda p: p.name)
def test_no_query_writes_children_beside_an_alternation(path: Path) -> None:
    assert children_beside_an_alternation(path.read_text(encoding="utf-8")) == []
