"""Check an answer's `[n]` citations against the sources it was given. Pure.

A marker is `[n]` or `[n, m, ...]` not glued to a word or `)` (so `items[1]` and
`f()[0]` are code, not citations). Numbers outside 1..count name no source: they are
removed (with the space before a marker left empty) and reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ONE = r"\[\d{1,4}(?:\s*[,;]\s*\d{1,4})*\]"
# A run of adjacent markers ("[1][7]") is checked as one, with the space before it.
MARKERS = re.compile(rf"(?P<lead> ?)(?P<run>(?:{_ONE})+)")
# A run that may still grow at the end of a stream is held back until it cannot.
_OPEN_END = re.compile(r" ?(?:\[\d[\d,;\s]*\])*(?:\[[\d,;\s]*)?\Z")


@dataclass(frozen=True, slots=True)
class Checked:
    """The answer with invalid markers removed, the sources it cites, the numbers it made up."""

    text: str
    cited: tuple[int, ...]
    invalid: tuple[int, ...]


def check(text: str, count: int) -> Checked:
    """Keep markers naming sources 1..count; drop (and report) every other number."""
    cited: list[int] = []
    invalid: list[int] = []

    def fix(m: re.Match[str]) -> str:
        before = m.string[m.start() - 1] if m.start() > 0 else ""
        if not m.group("lead") and (before.isalnum() or before in "_)"):
            return m.group(0)  # code such as items[1], not a citation
        kept = []
        for group in re.findall(r"\[([^\]]*)\]", m.group("run")):
            nums = [int(n) for n in re.split(r"\s*[,;]\s*", group)]
            good = [n for n in nums if 1 <= n <= count]
            cited.extend(n for n in dict.fromkeys(good) if n not in cited)
            invalid.extend(n for n in dict.fromkeys(nums) if n not in good and n not in invalid)
            if good:
                kept.append("[" + ", ".join(str(n) for n in good) + "]")
        return m.group("lead") + "".join(kept) if kept else ""

    return Checked(MARKERS.sub(fix, text), tuple(cited), tuple(invalid))


class CitationFilter:
    """`check` applied to a stream: emits checked text as soon as no marker can still grow."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._raw = ""
        self._sent = 0

    def feed(self, text: str) -> str:
        """The checked text that `text` makes safe to show."""
        self._raw += text
        held = _OPEN_END.search(self._raw)
        return self._send(self._raw[: held.start()] if held else self._raw)

    def flush(self) -> str:
        """The rest, at the end of the stream."""
        return self._send(self._raw)

    def result(self) -> Checked:
        """The whole answer, checked."""
        return check(self._raw, self.count)

    def _send(self, raw: str) -> str:
        clean = check(raw, self.count).text
        new = clean[self._sent :]
        self._sent = len(clean)
        return new
