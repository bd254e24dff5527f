"""YAML frontmatter: split it from a Markdown body, never failing the document.

Hostile YAML is bounded before anything is built from it: aliases may be expanded only
up to `NODE_BUDGET` nodes and `CHAR_BUDGET` characters in all (a "billion laughs" of a few
hundred bytes otherwise grows to gigabytes when its values are copied into records), and
every value kept is capped (`MAX_VALUE_CHARS`, `MAX_ITEMS`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

NODE_BUDGET: Final = 10_000  # YAML nodes after alias expansion
CHAR_BUDGET: Final = 1_000_000  # scalar characters after alias expansion
MAX_VALUE_CHARS: Final = 4096  # longest string kept from a frontmatter value
MAX_ITEMS: Final = 256  # most items kept from a frontmatter list or mapping

_FENCE = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n")
_END = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)


class FrontmatterRefused(ValueError):
    """Frontmatter that expands past the budgets (alias bombs): the file is skipped."""


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """The parsed frontmatter, the body after it, and where the body starts.

    `body_start_line` is the 1-based line of the file where `body` begins, so
    spans computed inside the body map back to the file. `warning` is set when
    frontmatter was present but unusable (malformed YAML, not a mapping); the
    document then indexes as plain Markdown with `data == {}`.
    """

    data: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    body_start_line: int = 1
    raw: str = ""
    warning: str = ""


def split_frontmatter(text: str) -> Frontmatter:
    """Split `---`-fenced YAML frontmatter from the top of `text`.

    Raises:
        FrontmatterRefused: the YAML expands past `NODE_BUDGET` or `CHAR_BUDGET`.
    """
    start = _FENCE.match(text)
    if not start:
        return Frontmatter(body=text)
    end = _END.search(text, start.end())
    if not end:
        return Frontmatter(body=text, warning="frontmatter opened with --- but never closed")
    raw = text[start.end() : end.start()]
    after = end.end()
    if text.startswith("\r\n", after):
        after += 2
    elif text.startswith("\n", after):
        after += 1
    body = text[after:]
    body_start_line = text.count("\n", 0, after) + 1
    try:
        data = _load(raw) if raw.strip() else {}
    except yaml.YAMLError as exc:
        reason = str(exc).splitlines()[0] if str(exc) else "invalid YAML"
        return Frontmatter(
            body=body,
            body_start_line=body_start_line,
            raw=raw,
            warning=f"malformed frontmatter ignored: {reason}",
        )
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return Frontmatter(
            body=body,
            body_start_line=body_start_line,
            raw=raw,
            warning=f"frontmatter is a {type(data).__name__}, not a mapping; ignored",
        )
    return Frontmatter(
        data={str(k): _capped(v) for k, v in list(data.items())[:MAX_ITEMS]},
        body=body,
        body_start_line=body_start_line,
        raw=raw,
    )


def _load(raw: str) -> Any:
    """`yaml.safe_load`, refusing a document whose alias expansion exceeds the budgets."""
    loader = yaml.SafeLoader(raw)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_expansion(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _check_expansion(root: Node) -> None:
    """Count nodes and scalar characters as if every alias were copied out (cycles too)."""
    nodes = chars = 0
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        nodes += 1
        if isinstance(node, ScalarNode):
            chars += len(node.value)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, MappingNode):
            stack.extend(part for pair in node.value for part in pair)
        if nodes > NODE_BUDGET or chars > CHAR_BUDGET:
            raise FrontmatterRefused(
                f"frontmatter refused: its aliases expand past {NODE_BUDGET} nodes"
                f" or {CHAR_BUDGET} characters"
            )


def _capped(value: Any, depth: int = 0) -> Any:
    """A copy of a YAML value small enough for metadata: strings, lists and depth capped."""
    if isinstance(value, str):
        return value[:MAX_VALUE_CHARS]
    if depth >= 8:
        return None
    if isinstance(value, dict):
        return {k: _capped(v, depth + 1) for k, v in list(value.items())[:MAX_ITEMS]}
    if isinstance(value, (list, tuple)):
        return [_capped(v, depth + 1) for v in value[:MAX_ITEMS]]
    if isinstance(value, (bytes, bytearray)):
        return bytes(value[:MAX_VALUE_CHARS])
    return value
