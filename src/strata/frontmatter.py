"""YAML frontmatter: split it from a Markdown body, never failing the document."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

_FENCE = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n")
_END = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)


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
    """Split `---`-fenced YAML frontmatter from the top of `text`."""
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
        data = yaml.safe_load(raw) if raw.strip() else {}
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
        data={str(k): v for k, v in data.items()},
        body=body,
        body_start_line=body_start_line,
        raw=raw,
    )
