"""Questions about the project itself that its manifests answer (pure): what it depends on
("what are the dependencies of this project", "which packages does it require") and its
version ("what version is this", "where is the version number defined");
`strata.query.line_steps` finds the lines that say so.
"""

from __future__ import annotations

import re

from strata.query import path_priors
from strata.query.question_filters import rx
from strata.query.verbatim import is_question

__all__ = ["LINES", "NUMBER", "WORDS", "asks_about_project", "is_manifest", "is_source"]

_PROJECT = (
    r"(?:this|the)\s+(?:project|package|library|lib|app|application|tool|repo|module|crate|gem)"
)
_DEPENDS = rx(
    r"\b(?:what|which)\s+(?:are\s+)?(?:the\s+)?(?:\w+\s+)?(?:dependencies|deps|requirements)\b",
    r"\b(?:list|show|find)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?(?:\w+\s+)?(?:dependencies|deps)\b",
    rf"\b(?:what|which)\s+(?:\w+\s+){{0,2}}(?:does|do)\s+{_PROJECT}\s+(?:depend\s+on|require|need)\b",
    rf"\bwhat\s+does\s+{_PROJECT}\s+depend\s+on\b",
    r"\b(?:what|which)\s+(?:third[- ]party\s+)?(?:packages|libraries|modules|crates|gems)\s+"
    r"(?:does|do)\s+(?:it|this|the\s+\w+)\s+(?:depend\s+on|require|need|use)\b",
    r"\bwhere\s+are\s+(?:the\s+)?(?:dependencies|requirements)\s+(?:declared|defined|listed|set)\b",
    r"\b(?:какие|список)\s+зависимост",
)
_VERSION = rx(
    rf"\bwhat\s+version\s+(?:is|of)\s+{_PROJECT}\b",
    r"\b(?:what|which)\s+version\s+(?:is|are)\s+(?:this|it|we\s+on)\b",
    r"\bwhat\s+is\s+(?:the|its)\s+(?:current\s+|latest\s+|newest\s+)?version\b",
    # "the version": the project's; "where is version defined" asks for a name `version`
    r"\bwhere\s+is\s+(?:the\s+(?:project's\s+|package's\s+)?version(?:\s+number)?"
    r"|version\s+number)\s+(?:defined|set|declared|specified|stored|bumped)\b",
    r"\bwhere\s+is\s+__version__\s+(?:defined|set)\b",
    r"\bкакая\s+верси|\bгде\s+(?:задана|указана|определена)\s+верси",
)
# The lines a manifest or the code states each with (its key, then a value or a block).
LINES: dict[str, re.Pattern[str]] = {
    "dependencies": re.compile(
        r"^[ \t]*(?:[\"']?(?:dependencies|install_requires|requires|requirements|require"
        r"|build-depends|PREREQ_PM|deps)[\"']?[ \t]*[:=({\[]|\[(?:[\w.-]*\.)?dependencies\]"
        r"|<dependencies>|dependencies[ \t]*\{|require[ \t]*\(|(?:s|spec)\.add_(?:runtime_)?"
        r"dependency\b|gem[ \t]+[\"']|install_requires[ \t]*=|def[ \t]+deps\b)",
        re.MULTILINE | re.IGNORECASE,
    ),
    # a name holding `version` given a literal (`__version__ = '3.2.4'`, `APP_VERSION =
    # '1.35.1'`, `version_info = (7, 6, 1)`, `"version": "8.57.1"`, `version: "1.14.0"`)
    "version": re.compile(
        r"^[ \t]*(?:(?:const|static|final|public|export|let|var|val|def)[ \t]+)*[\"']?"
        r"[\w.]*version\w*[\"']?[ \t]*(?::[ \t]*[\w\[\], ]+)?[ \t]*[:=][ \t]*[\"'\d(\[]"
        r"|<version>|@version\b",
        re.MULTILINE | re.IGNORECASE,
    ),
}
# A version's number as a literal: `"8.57.1"`, `'v1.2'`, `(7, 6, 1`, `<version>1.0`.
NUMBER = re.compile(r"[\"'>]v?\d+\.\d+|\(\s*\d+\s*,\s*\d+")
# the words a lexical search of the manifests and version files uses, per kind
WORDS = {
    "dependencies": "dependencies install_requires requires require deps depends",
    "version": "version __version__",
}
# The files a project states them in: the manifests the ranking knows (`path_priors`), the
# others that declare dependencies, and for the version its modules of it.
_MORE_MANIFESTS = re.compile(
    r"(?:^|/)(?:setup\.py|requirements[\w.-]*\.(?:txt|in)|[^/]+\.cabal|[^/]+\.rockspec"
    r"|Makefile\.PL|cpanfile|Package\.swift|[^/]+\.csproj|DESCRIPTION|pubspec\.yaml)$"
)
_VERSION_FILE = re.compile(
    r"(?:^|/)(?:__init__\.py|[^/]*version[^/]*\.\w+|__about__\.py|about\.py|conf\.py"
    r"|[^/]*constants?\.\w+|meta\.\w+)$",
    re.IGNORECASE,
)


def asks_about_project(query: str) -> str:
    """What the question asks of the project's manifests (`dependencies`, `version`),
    "" for neither."""
    said = query.casefold()
    if not any(w in said for w in ("depend", "deps", "requirement", "version", "зависим", "верси")):
        return ""
    if not (is_question(query) or re.match(r"\W*(?:list|show|find|какие|какая|где)\b", said)):
        return ""
    if any(p.search(query) for p in _DEPENDS):
        return "dependencies"
    if any(p.search(query) for p in _VERSION):
        return "version"
    return ""


def is_manifest(path: str) -> bool:
    """Whether `path` is a package manifest (`package.json`, `pyproject.toml`, ...)."""
    return path_priors.is_manifest(path) or bool(_MORE_MANIFESTS.search(path))


def is_source(kind: str, path: str) -> bool:
    """Whether `path` is a file a project states `kind` in."""
    return is_manifest(path) or (kind == "version" and bool(_VERSION_FILE.search(path)))
