"""The filters a question names (pure): paths, language, tests, document domain, repo.

`strata.query.questions` reads the intent; `strata.query.router` turns both into a plan.
"""

from __future__ import annotations

import re
from typing import Protocol

from strata.query.filters import SearchFilters
from strata.query.phrases import PROJECT
from strata.query.verbatim import QUESTION_OPENERS

__all__ = [
    "EXTENSIONS",
    "ROUTE",
    "KnownNames",
    "asks_overview",
    "file_asked",
    "file_glob",
    "filters_of",
    "matches_any",
    "no_urls",
    "path_glob",
    "rx",
]

IGNORE_CASE = re.IGNORECASE
# A route in a question (`/api/v1/items`): an entry point's, not a path filter.
ROUTE = re.compile(r"(?<![\w.:/])(/(?:[\w{}<>:.\-]+/?)+)")


def rx(*patterns: str) -> tuple[re.Pattern[str], ...]:
    """Patterns compiled case-insensitively."""
    return tuple(re.compile(p, IGNORE_CASE) for p in patterns)


def matches_any(patterns: tuple[re.Pattern[str], ...], query: str) -> bool:
    """Whether any of `patterns` is found in `query`."""
    return any(p.search(query) for p in patterns)


def no_urls(query: str) -> str:
    """`query` with its URLs blanked (their slashes are no paths)."""
    return re.sub(r"\b\w+://\S+", " ", query)


_LANGS = {
    "python": "python",
    "typescript": "typescript",
    "javascript": "javascript",
    "go": "go",
    "golang": "go",
    "rust": "rust",
    "java": "java",
    "ruby": "ruby",
    "markdown": "markdown",
}
_LANG = rx(
    r"\b(?:in|written\s+in)\s+(python|typescript|javascript|golang|go|rust|java|ruby|markdown)\b(?!\s*\w*\s*(?:domain|service))",
    r"\b(python|typescript|javascript|golang|rust|java|ruby|markdown)\s+(?:code|files?|functions?|classes|modules?|sources?|docs?)\b",
)
# A statement (it ends as a sentence does and opens with no question or request word) that
# names a language, a path or tests says something about them ("(This is called 'remove'
# in Python; renamed …)", "This is an interface so that it can be easily mocked in tests.",
# a pasted doc comment): it asks for no filter.
_STATEMENT_END = (".", ";", ")", "…", "!")
_ASKS = re.compile(rf"^\W*(?:{'|'.join(QUESTION_OPENERS)}|search|look|get)\b", IGNORE_CASE)
_SCOPE_FIRST = re.compile(r"^\W*(?:in|inside|within|under|for|from|at|on)\b", IGNORE_CASE)
# The question after a statement's clause: ", but why ...", "; so how ..."
_ASKS_LATER = re.compile(
    rf"[,;:]\s+(?:(?:but|and|so|then)\s+)?(?:{'|'.join(QUESTION_OPENERS)})\b", IGNORE_CASE
)
# A file's extension in a question: the languages Strata reads, and the usual text files.
EXTENSIONS = (
    r"(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|kts|scala|swift|rb|php|cs|c|h|cc|cpp|hpp"
    r"|hs|lua|sol|zig|ex|exs|erl|dart|jl|pl|pm|ml|clj|groovy|sh|bash|sql|proto|vue|svelte"
    r"|md|rst|txt|toml|yaml|yml|json|ini|cfg)"
)
_PATH = re.compile(rf"(?<![\w/:.])((?:[\w.-]+/)+[\w.-]*|[\w-]+\.{EXTENSIONS})(?![\w/])")
# A question about one file ("what does db.py do", "explain src/app/cli.py"): its head.
_THE_FILE = r"(?:(?:the|a)\s+)?(?:file\s+|module\s+)?"
_FILE = rf"{_THE_FILE}[`'\"]?((?:[\w.-]+/)*[\w-][\w.-]*\.{EXTENSIONS})[`'\"]?(?![\w/])"
_ABOUT_FILE = rx(
    rf"^\s*{_FILE}\s*[?.!]?\s*$",  # the path alone
    rf"\bwhat\s+(?:does|do)\s+{_FILE}\s+(?:do|contain|hold|define|say)\b",
    rf"\bwhat\s+(?:is|'s)\s+(?:in|inside)\s+{_FILE}",
    rf"\b(?:explain|describe|summari[sz]e|overview\s+of)\s+{_FILE}",
    rf"\b(?:purpose|role|job)\s+of\s+{_FILE}",
    rf"\bwhat\s+is\s+{_FILE}\s+(?:for|about)\b",
    rf"\bчто\s+(?:делает|содержит|лежит\s+в|в)\s+(?:файле?\s+|модуле?\s+)?{_FILE}",
    rf"\b(?:объясни|опиши)\s+(?:файл\s+|модуль\s+)?{_FILE}",
    rf"\bзачем\s+(?:нужен\s+)?(?:файл\s+|модуль\s+)?{_FILE}",
)
# A question about the whole repository ("what does this project do", "how is the codebase
# structured"): its README's first sections and its packages' heads.
_WHOLE = r"(?:the|this|our|your)\s+(?:project|repo|repository|codebase|code\s*base|library|package)"
_WHOLE_WORD = re.compile(
    r"project|repo|code\s*base|library|package|start|architect|overall|high.level|big.picture"
    r"|fit\s+together|main\s+(?:components|modules|parts|pieces)"
    r"|проект|репозитор|кода|архитектур",
    IGNORE_CASE,
)
_OVERVIEW = rx(
    rf"\b(?:overview|summary|tour|structure|layout)\s+of\s+{_WHOLE}\b",
    rf"^\s*what\s+(?:does|is)\s+{_WHOLE}\s*(?:do|for|about)?\s*[?.!]?\s*$",
    rf"\bhow\s+is\s+{_WHOLE}\s+(?:structured|organi[sz]ed|laid\s+out)\b",
    r"^\s*(?:project|repo|repository|codebase)\s+(?:overview|structure|layout)\s*[?.!]?\s*$",
    r"\bwhere\s+(?:do|should)\s+i\s+start\b",
    # the whole's architecture: said of the whole, or overall (not "the parser's design")
    rf"\b(?:architecture|design|components|modules)\s+of\s+{_WHOLE}\b",
    r"\b(?:overall|high[- ]level|general|big[- ]picture)\s+(?:architecture|design|structure)\b",
    r"^\s*(?:what\s+is\s+the\s+)?architecture\s*[?.!]?\s*$",
    r"\bhow\s+do\s+(?:the\s+|all\s+the\s+)?(?:main\s+|different\s+)?"
    r"(?:components|modules|parts|pieces)\s+fit\s+together\b",
    r"^\s*what\s+are\s+the\s+main\s+(?:components|modules|parts|pieces)"
    rf"(?:\s+of\s+{_WHOLE})?\s*[?.!]?\s*$",
    r"\b(?:общая\s+)?архитектура\s+(?:проекта|репозитория|кода)\b",
    r"^\s*(?:какая\s+)?(?:общая\s+)?архитектура\s*[?.!]?\s*$",
    r"\bо\s+ч[её]м\s+(?:этот\s+)?(?:проект|репозиторий)\b",
    r"\bобзор\s+(?:проекта|репозитория|кода)\b",
    r"\bкак\s+устроен\s+(?:этот\s+)?(?:проект|репозиторий)\b",
)
_WHOLE_TESTED = rf"{PROJECT}\s+tested\b"
_IN_TESTS = rx(
    r"\bin\s+(?:the\s+)?tests?\b",
    r"\btest\s+(?:code|files?|suite)\b",
    r"\bв\s+тестах\b",
    # where something is tested: the tests are the answer
    # (not the whole's: "how is the project tested" asks for its commands, query/dev_tasks)
    rf"\b(?:is|are)\s+(?!{_WHOLE_TESTED})(?:\S+\s+){{1,4}}tested\b",
    r"\b(?:tests?|test\s+cases?)\s+(?:for|of)\s",
    r"\b(?:which|what)\s+tests?\s(?!(?:framework|runner|library|tool)s?\b)",
    r"\bтестиру(?:ется|ют)\b|\bтесты\s+(?:для|на)\s|\bкакие\s+тесты\b",
)
# "How do I mock the transport in tests", "is there a way to freeze time in tests": how to
# do something in one's own tests; the library's helpers and docs answer, not its tests.
_HOW_IN_TESTS = re.compile(
    r"^\W*(?:how\s+(?:do|can|could|should|would)\s+(?:i|we|you|one)|how\s+to"
    r"|is\s+there\s+(?:a|an|any)\s+(?:\w+\s+)?(?:way|helper|utility|tool|fixture)"
    r"|(?:can|could)\s+(?:i|we|you))\b(?:(?!\bin\s+(?:the\s+)?tests?\b).)*"
    r"\bin\s+tests?\s*[?.!]?\s*$",
    IGNORE_CASE,
)
_NO_TESTS = rx(
    r"\b(?:excluding|without|not\s+in|except|outside(?:\s+of)?)\s+(?:the\s+)?tests?\b",
    r"\bnon-?test\b",
    r"\bбез\s+тестов\b",
)
_DOMAIN = rx(r"\b(?:in|of)\s+(?:the\s+)?([\w-]+)\s+domain\b", r"\bdomain\s+[`'\"]?([\w-]+)")


class KnownNames(Protocol):
    """What of the index a question may name: repositories and document domains."""

    @property
    def repos(self) -> tuple[str, ...]: ...

    @property
    def domains(self) -> tuple[str, ...]: ...

    def names_a_path(self, glob: str) -> bool:
        """Whether a path glob matches something in the index."""
        ...


def filters_of(query: str, facts: KnownNames) -> tuple[SearchFilters, list[str]]:
    """Filters named in the question: path globs, language, domain, repo, tests."""
    why: list[str] = []
    stated = _is_statement(query)
    paths = _paths(query, facts, stated, why)
    lang = None
    m = next((m for p in _LANG if (m := p.search(query))), None)
    if m and stated:
        why.append(f"no language filter: {m.group(0)!r} is in a statement, not asked for")
    elif m:
        lang = _LANGS[m.group(1).lower()]
        why.append(f"language filter {lang}: {m.group(0)!r}")
    tests = _tests(query, stated, why)
    domain = None
    m = next((m for p in _DOMAIN if (m := p.search(query))), None)
    known = {d.lower() for d in facts.domains}
    if m and m.group(1).lower() in known:  # "domain specific methods" names no domain
        domain = m.group(1).lower()
        why.append(f"domain filter {domain}: {m.group(0)!r}")
    elif facts.domains:
        named = [
            d
            for d in facts.domains
            if re.search(rf"\b{re.escape(d)}\s+domain\b", query, IGNORE_CASE)
        ]
        if named:
            domain = named[0]
    repo = _repo(query, facts)
    if repo:
        why.append(f"repo filter {repo}: the repository is named")
    lang_of = (lang,) if lang else ()
    return SearchFilters(paths, lang_of, (), tests, repo or None, domain), why


def _paths(query: str, facts: KnownNames, stated: bool, why: list[str]) -> tuple[str, ...]:
    """The indexed paths the question names (none in a statement), with the reasons."""
    shaped = [path_glob(p) for p in _PATH.findall(ROUTE.sub(" ", no_urls(query)))]
    shaped = [p for p in dict.fromkeys(shaped) if p]
    # a path from the root, else the end of one (`minihttp/client.py` is `src/minihttp/...`)
    anywhere = (p if p.startswith("**/") else "**/" + p for p in shaped)
    found = [p if facts.names_a_path(p) else a for p, a in zip(shaped, anywhere, strict=True)]
    paths = tuple(p for p in dict.fromkeys(found) if facts.names_a_path(p))
    if len(paths) < len(found):  # `LIMIT/OFFSET`, `and/or`: words with a slash, not paths
        unknown = ", ".join(p for p in shaped if p not in paths and "**/" + p not in paths)
        why.append(f"no path filter {unknown}: no indexed path matches")
    if paths and stated:
        why.append(f"no path filter {', '.join(paths)}: named in a statement, not asked for")
        return ()
    if paths:
        why.append(f"path filter {', '.join(paths)}: a path in the question")
    return paths


def _tests(query: str, stated: bool, why: list[str]) -> bool | None:
    """Tests only (True), tests excluded (False) or either (None), with the reason."""
    if stated and matches_any((*_NO_TESTS, *_IN_TESTS), query):
        why.append("no tests filter: tests are named in a statement, not asked for")
        return None
    if matches_any(_NO_TESTS, query):
        why.append("tests excluded: the question says so")
        return False
    if _HOW_IN_TESTS.search(query):
        why.append("no tests filter: how to do it in one's own tests")
        return None
    if matches_any(_IN_TESTS, query):
        why.append("tests only: the question asks about tests")
        return True
    return None


def _is_statement(query: str) -> bool:
    """Whether the query states something rather than asking (`_STATEMENT_END`), or opens
    with a statement and asks after it ("this is also in Perldoc.pm, but why look there
    ...?": the path is where something is, not where to look)."""
    text = query.strip()
    if _ASKS.match(text):
        return False
    if text.endswith(_STATEMENT_END):
        return True  # "in client.py, where is ...?" opens with its scope, not a statement
    return text.endswith("?") and not _SCOPE_FIRST.match(text) and bool(_ASKS_LATER.search(text))


def asks_overview(query: str) -> bool:
    """Whether the question asks about the whole repository ("what does this project do")."""
    return bool(_WHOLE_WORD.search(query)) and matches_any(_OVERVIEW, query)


def file_asked(query: str) -> str:
    """The file a "what does db.py do" question asks about ("" none)."""
    if "." not in query:  # a file name has its extension
        return ""
    m = next((m for p in _ABOUT_FILE if (m := p.search(no_urls(query)))), None)
    return m.group(1) if m else ""


def file_glob(path: str) -> str:
    """The glob of a file a question names: the path as written, at any depth
    (`core/README.md` is `lib/core/README.md` too)."""
    return "**/" + path.strip("`'\"").lstrip("./")


def path_glob(path: str) -> str:
    """The glob a path written in a question stands for (a directory: all below it)."""
    path = path.strip("`'\".,;:")
    if not path or path.startswith(("http:", "https:")):
        return ""
    if path.endswith("/"):
        return path + "**"
    last = path.rsplit("/", 1)[-1]
    return path if "." in last else path + "/**"


def _repo(query: str, facts: KnownNames) -> str:
    # One known repository is the whole index: a filter on it would change nothing.
    if len(facts.repos) < 2:
        return ""
    for repo in facts.repos:
        if re.search(rf"(?<![\w-]){re.escape(repo)}(?![\w-])", query, IGNORE_CASE):
            return repo
    return ""
