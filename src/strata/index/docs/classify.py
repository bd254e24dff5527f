"""doc_kind: classify a document as readme, spec, runbook, adr, changelog, guide, api or other."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any, Final

DOC_KINDS: Final = ("readme", "spec", "runbook", "adr", "changelog", "guide", "api", "other")

# File stems (casefolded, without extension) that decide the kind on their own.
_STEMS: Final[dict[str, str]] = {
    "readme": "readme",
    "readme-ru": "readme",
    "index": "other",
    "changelog": "changelog",
    "changes": "changelog",
    "history": "changelog",
    "news": "changelog",
    "release-notes": "changelog",
    "releases": "changelog",
    "release_notes": "changelog",
    "releasenotes": "changelog",
    "contributing": "guide",
    "quickstart": "guide",
    "getting-started": "guide",
    "tutorial": "guide",
    "howto": "guide",
    "how-to": "guide",
    "install": "guide",
    "installation": "guide",
    "runbook": "runbook",
    "playbook": "runbook",
}
# Directory names (casefolded) that decide the kind of everything below them.
_DIRS: Final[dict[str, str]] = {
    "adr": "adr",
    "adrs": "adr",
    "decisions": "adr",
    "architecture-decisions": "adr",
    "runbooks": "runbook",
    "runbook": "runbook",
    "playbooks": "runbook",
    "ops": "runbook",
    "operations": "runbook",
    "api": "api",
    "reference": "api",
    "api-reference": "api",
    "specs": "spec",
    "spec": "spec",
    "specifications": "spec",
    "rfcs": "spec",
    "rfc": "spec",
    "guide": "guide",
    "guides": "guide",
    "tutorial": "guide",
    "tutorials": "guide",
    "howto": "guide",
    "how-to": "guide",
    "user-guide": "guide",
    "getting-started": "guide",
}
_STEM_WORDS: Final = (
    (re.compile(r"^adr[-_ ]?\d+"), "adr"),
    (re.compile(r"runbook|playbook"), "runbook"),
    (re.compile(r"changelog|release[-_]?notes"), "changelog"),
    (re.compile(r"(^|[-_])(spec|specification|rfc)([-_]|$)"), "spec"),
    (re.compile(r"(^|[-_])api([-_]|$)"), "api"),
    (re.compile(r"guide|tutorial|quickstart|how[-_]?to"), "guide"),
)
_ADR_CONTENT = re.compile(
    r"^#+\s*(status|статус)\b.*?^#+\s*(context|контекст)\b.*?^#+\s*(decision|решение)\b",
    re.IGNORECASE | re.MULTILINE | re.DOTALL,
)
# A heading naming a release: Markdown's `## 1.2.0`, `## [v1.2] - 2024-01-02`, `## Version
# 1.2`, `## 4.21.2 / 2024-11-06`, or reStructuredText's title over its underline (`10.7.0` /
# `------`). A word right after the number makes it a numbered section (`## 1.2 Scope`).
_RELEASE = r"(?:version\s+|release\s+)?\[?v?\d+\.\d+(?:\.\d+)?\b(?:[ \t]*(?:[^\w\s][^\n]*)?)$"
_CHANGELOG_CONTENT = re.compile(
    rf"^#+\s*{_RELEASE}|^{_RELEASE}\n([=\-~^*+#\"'`])\1{{2,}}[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
_LAYERED_CONTENT = re.compile(
    r"^#+\s*(scenario|сценарий|integrations|интеграции)\b", re.IGNORECASE | re.MULTILINE
)


def classify(path: str, text: str = "", frontmatter: Mapping[str, Any] | None = None) -> str:
    """The doc_kind of a document, from its path first, then frontmatter `type`, then content.

    Args:
        path: POSIX path relative to the indexed root.
        text: the document's text (body), used when the path says nothing.
        frontmatter: the parsed frontmatter; a `type` naming a kind decides.
    """
    p = PurePosixPath(path.casefold())
    stem = p.name.split(".", 1)[0]
    if stem in _STEMS:
        return _STEMS[stem]
    for part in reversed(p.parts[:-1]):
        if part in _DIRS:
            return _DIRS[part]
    for pattern, kind in _STEM_WORDS:
        if pattern.search(stem):
            return kind
    declared = str((frontmatter or {}).get("type", "")).casefold()
    if declared in DOC_KINDS:
        return declared
    return _by_content(text)


def _by_content(text: str) -> str:
    head = text[:20000]
    if _ADR_CONTENT.search(head):
        return "adr"
    if len(_CHANGELOG_CONTENT.findall(head)) >= 2:
        return "changelog"
    if _LAYERED_CONTENT.search(head):
        return "spec"
    return "other"
