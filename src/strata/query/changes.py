"""Questions a project's changelog answers (pure): what changed in a release ("what changed
in 0.28.0", "what's new in version 2.0", "release notes for v1.2.3"), in the latest one
("what changed in the latest release"), and when something changed ("when was the proxy
argument added", "which version deprecated X"); `strata.query.line_steps` finds the
changelog's sections that say so, by the version their headings name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from strata.query.question_filters import rx
from strata.text.tokens import STOP_WORDS

__all__ = [
    "CHANGE_VERBS",
    "Asked",
    "changes_asked",
    "heading_version",
    "is_changelog_path",
    "same_release",
    "verb_stem",
    "version_key",
    "versions",
]

# A release's number: `0.28.0`, `v1.2`, `2.0.0-rc.1`, `1.0b2` (two parts at least; "version
# 3" names one by its word).
_NUMBER = r"v?\d+(?:\.\d+)+(?:[-.]?(?:a|b|c|rc|alpha|beta|pre|dev|post)\.?\d*)?"
_VERSION = re.compile(rf"(?<![\w.]){_NUMBER}(?![\w.]*\d)|(?<=version )\d+\b", re.IGNORECASE)
_RELEASE = r"(?:version|release|v(?=\d))"
# A heading that opens with a release's number, or with "Version 3", or with the project's
# name and the number alone or before a date (towncrier's "pluggy 1.5.0 (2024-04-19)",
# "attrs 23.1.0 - 2023-04-16"); a section of release notes that mentions "Python 3.10
# support" names no release.
_HEADING = re.compile(
    rf"^\W*(?:(?:version|release|changes\s+(?:in|for)|what's\s+new\s+in)\s+)?\[?({_NUMBER})"
    r"(?![\w.]*\d)|^\W*(?:version|release)\s+v?(\d+)\b"
    rf"|^\W*[A-Za-z][\w.-]*\s+\[?({_NUMBER})\]?(?![\w.]*\d)\s*(?:$|[(\[/:,–—-])",
    re.IGNORECASE,
)
_LATEST = r"(?:latest|last|newest|most\s+recent|current|recent)"
CHANGE_VERBS = (
    r"(?:add(?:ed)?|introduced?|deprecated?|removed?|dropp?(?:ed)?|changed?|renamed?|fix(?:ed)?)"
)
_IN_RELEASE = rx(
    # what changed in 0.28.0 / what's new in version 2.0 / what was fixed in 1.2
    r"\bwhat(?:'s|\s+is|\s+was|\s+were|\s+has|\s+have)?\s+(?:new|changed|different|fixed"
    r"|added|removed|deprecated|broken|breaking)\b.*\b(?:in|with|since|for|between)\b",
    r"\bwhat\s+(?:changes?|fixes|features|breaking\s+changes)\s+(?:are|were|did|came|does"
    r"|is|went)?\b",
    r"\b(?:release\s+notes|changelog|change\s*log|changes|news)\s+(?:for|of|in|since)\b",
    r"\bwhat\s+did\s+.*\bchange\b",
    r"\bwhat(?:'s|\s+is|\s+was)\s+in\s+(?:the\s+)?(?:version|release|v?\d)",
    r"\bчто\s+(?:нового|изменилось)",
)
_LATEST_RELEASE = rx(
    rf"\b{_LATEST}\s+(?:release|version|changes|changelog|change\s*log|release\s+notes)\b",
    rf"\bwhat(?:'s|\s+is|\s+was)?\s+(?:new|changed)\s+(?:in\s+)?(?:the\s+)?{_LATEST}\b",
    r"\b(?:последн\w*|нов\w*)\s+(?:верси|релиз)",
)
# when was the proxy argument added / which version deprecated X / in which release was X
# removed / since which version is X available / since when does X exist
_WHEN = rx(
    rf"^\W*when\s+(?:was|were|did|has|have)\s+(?P<what>.+?)\s+(?:first\s+)?{CHANGE_VERBS}\b",
    rf"^\W*when\s+(?:was|were|did)\s+(?P<what>.+?)\s+(?:get|become)\s+{CHANGE_VERBS}\b",
    rf"\b(?:which|what)\s+{_RELEASE}\s+(?:first\s+)?(?:added|introduced|deprecated|removed"
    r"|dropped|changed|renamed|fixed)\s+(?P<what>.+)",
    rf"\bin\s+(?:which|what)\s+{_RELEASE}\s+(?:was|were|did|has|have)\s+(?P<what>.+?)\s+"
    rf"(?:first\s+)?(?:get\s+)?{CHANGE_VERBS}\b",
    rf"\bsince\s+(?:which|what)\s+{_RELEASE}\s+(?:is|are|was|has|have|does|do)\s+(?P<what>.+?)"
    r"\s+(?:available|supported|there|existed|exists?|been\s+\w+)\b",
)
_FILLER = frozenset(
    {"argument", "arguments", "option", "options", "parameter", "parameters", "function"}
    | {"method", "class", "support", "feature", "flag", "setting", "first", "ever", "this"}
)
# A changelog's name (`CHANGELOG.md`, `CHANGES.rst`, `History.md`, `NEWS`,
# `RELEASENOTES.md`, `docs/changelog.rst`, `docs/whatsnew/3.1.rst`).
_PROSE = r"(?:\.(?:md|markdown|rst|txt|adoc|asciidoc|org))"
_CHANGELOG = re.compile(
    r"(?:^|/)(?:change[-_ ]?logs?|changes|history|news|releases?|release[-_ ]?notes"
    rf"|whats[-_]?new)(?:[-_.]v?\d[\w.]*)?{_PROSE}?$"
    r"|(?:^|/)(?:change[-_]?logs?|changes|whats[-_]?new|release[-_]?notes|releases|news)/"
    rf"[^/]+{_PROSE}$",
    re.IGNORECASE,
)


Asked = tuple[str, str]  # ("release", "0.28.0") | ("latest", "") | ("when", "proxy")


def changes_asked(query: str) -> Asked | None:
    """What the question asks of the changelog: a release's changes (`release` and its
    number), the latest release's (`latest`), or when a thing changed (`when` and its
    words), or None."""
    said = " ".join(query.split())
    for pattern in _WHEN:
        if (m := pattern.search(said)) and (what := _subject(m.group("what"))):
            return "when", what
    numbers = [m.group() for m in _VERSION.finditer(said)]
    if numbers and any(p.search(said) for p in _IN_RELEASE):
        return "release", " ".join(numbers)
    if any(p.search(said) for p in _LATEST_RELEASE) and _asks_changes(said):
        return "latest", ""
    return None


def _asks_changes(said: str) -> bool:
    """Whether a question naming the latest release asks what it changed (not "what is
    the latest version", which the manifests answer)."""
    return bool(
        re.search(
            r"\b(?:new|chang\w*|release\s+notes|fix\w*|added|removed|news|нового|изменил\w*)\b",
            said,
            re.I,
        )
    )


def _subject(what: str) -> str:
    """The words of what is asked about, without articles and kind words (`the proxy
    argument` -> `proxy`); a code name as written."""
    words = [w.strip("`'\"?.,") for w in what.split()]
    kept = [w for w in words if w and w.lower() not in STOP_WORDS and w.lower() not in _FILLER]
    return " ".join(kept)


def heading_version(title: str) -> str | None:
    """The release number a changelog heading opens with (`0.26.0 (20th December, 2023)`,
    `[1.2.3] - 2024-05-01`, `Version 3.1`, `v2.0.0-rc.1`), or None (`Unreleased`, `Added`,
    `Python 3.10 support`)."""
    m = _HEADING.match(title)
    if m is None:
        return None
    number = m.group(1) or m.group(2) or m.group(3)
    if re.fullmatch(r"\d{4}\.\d{1,2}\.\d{1,2}|\d{1,2}\.\d{1,2}\.\d{4}", number):
        return None  # a date written with dots is no release
    return number


def version_key(version: str) -> tuple[tuple[int, ...], str]:
    """A release number's order: its numbers (trailing zeros dropped, so `2.0` is `2`), then
    its pre-release tag (`rc1` before the release itself: "~" sorts after letters)."""
    m = re.match(r"v?(\d+(?:\.\d+)*)(.*)", version.strip(), re.IGNORECASE)
    if m is None:
        return (), version
    numbers = [int(n) for n in m.group(1).split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers), m.group(2).lstrip("-.").lower() or "~"


def same_release(asked: str, named: str) -> int:
    """How well a heading's release number `named` answers `asked`: 2 the same release
    (`2.0` is `2.0.0`), 1 one of its series (`0.28` asks for `0.28.1` too), 0 neither."""
    a, n = version_key(asked), version_key(named)
    if a == n:
        return 2
    asked_numbers = tuple(int(x) for x in re.findall(r"\d+", asked.split("-")[0]))
    named_numbers = version_key(named)[0] + (0,) * 4
    depth = len(asked_numbers)
    if a[1] == "~" and depth and named_numbers[:depth] == asked_numbers:
        return 1
    return 0


def verb_stem(query: str) -> str:
    """The stem of the change a `when` question asks about (`add` for "when was X added"),
    "" for none: an entry that says so comes first."""
    m = re.search(rf"\b{CHANGE_VERBS}\b", query, re.IGNORECASE)
    return m.group()[:4].lower() if m else ""


def is_changelog_path(path: str) -> bool:
    """Whether `path` is a changelog or release notes by its name."""
    return bool(_CHANGELOG.search(path))


def versions(numbers: str) -> Sequence[str]:
    """The release numbers an `Asked` of kind `release` holds."""
    return numbers.split()
