"""Remove a query's source text from the corpus without moving any line: blank its lines."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`~?([^`]+)`")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "approx.", "resp.")


def blank_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """`text` with every line of each 1-based inclusive span made empty.

    The number of lines, and so every other line's number, is unchanged: a chunk or
    target span computed on the original file points at the same code in the copy.
    """
    lines = text.split("\n")
    for start, end in spans:
        for i in range(start - 1, end):
            lines[i] = "\r" if lines[i].endswith("\r") else ""
    return "\n".join(lines)


def first_sentence(doc: str) -> str:
    """The first sentence of a docstring or doc comment, on one line, RST roles unwrapped."""
    paragraph = doc.strip().split("\n\n", 1)[0]
    flat = _ROLE.sub(r"\1", " ".join(paragraph.split()))
    for match in _SENTENCE_END.finditer(flat):
        head = flat[: match.start()]
        if not head.endswith(_ABBREVIATIONS):
            return head
    return flat


def standalone_docstring(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, lines: list[str]
) -> tuple[int, int] | None:
    """The line span of a node's docstring when it has lines of its own, else None.

    "Lines of its own" means nothing else shares them (no `def f(): \"\"\"doc\"\"\"`), so
    blanking them cannot remove code; and the body must hold more than the docstring.
    """
    body = node.body
    if not body or len(body) < 2:
        return None
    first = body[0]
    if not (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return None
    start, end = first.lineno, first.end_lineno or first.lineno
    # ast columns count UTF-8 bytes, not characters
    before = lines[start - 1].encode()[: first.col_offset]
    after = lines[end - 1].encode()[first.end_col_offset or 0 :]
    if before.strip() or after.strip() or body[1].lineno <= end:
        return None
    return start, end
