"""Questions about the project's own commands (pure): how to run its tests ("how do I run
the tests"), build it or its docs, lint or format it, start its dev server, and which
scripts or targets it has ("what npm scripts are there", "list the make targets"); and the
lines that define such a command: a `package.json` script, a Makefile's or justfile's
target, a tox environment, a nox session, a task of `pyproject.toml` (poe, hatch, pdm,
taskipy); `strata.query.fact_steps` finds them, after the documents' sections on it.
"""

from __future__ import annotations

import re

from strata.query.phrases import PROJECT
from strata.query.question_filters import rx

__all__ = [
    "TASK_WORDS",
    "configures_pytest",
    "defines_task",
    "is_dev_doc",
    "is_task_file",
    "named_tool",
    "task_asked",
    "titled_for",
]

_HOW = r"\bhow\s+(?:do|can|should|would)\s+(?:i|we|you|one)\s+|\bhow\s+to\s+"
_TESTS = (
    r"(?:the\s+|all\s+(?:the\s+)?|its\s+)?(?:unit\s+|integration\s+|e2e\s+)?"
    r"(?:tests?|test\s*suite|specs?)"
)
_ASKS: dict[str, tuple[re.Pattern[str], ...]] = {
    "test": rx(
        rf"(?:{_HOW})(?:run|execute|launch|invoke)\s+{_TESTS}\b",
        rf"\bhow\s+(?:are|is)\s+{_TESTS}\s+(?:run|executed|launched)\b",
        rf"\b(?:command|script)\s+(?:to|that|which)\s+runs?\s+{_TESTS}\b",
        rf"^\W*(?:running|run)\s+{_TESTS}\W*$",
        rf"\bhow\s+(?:is|are)\s+{PROJECT}\s+tested\b",
        rf"(?:{_HOW})test\s+(?:{PROJECT}|my\s+changes|the\s+changes)\s*[?.!]?\s*$",
        rf"\b(?:what|which)\s+test\s+(?:framework|runner|library|tool)\s+(?:does|do|is)\s+"
        rf"(?:{PROJECT}\s+)?(?:use|used)\b",
        r"\bкак\s+запустить\s+тесты\b",
    ),
    "docs": rx(rf"(?:{_HOW})(?:build|generate|make|render)\s+(?:the\s+)?(?:docs|documentation)\b"),
    "build": rx(
        rf"(?:{_HOW})(?:build|compile)\s+(?:it|this|the\s+(?:project|package|library|code|wheel"
        r"|app|application|binary|extension)|from\s+source)\b",
        r"\bкак\s+собрать\b",
    ),
    "lint": rx(
        rf"(?:{_HOW})(?:run\s+(?:the\s+)?)?(?:lint(?:er|ers)?|type[- ]?check(?:er)?|mypy|flake8"
        r"|ruff|eslint)\b",
        rf"(?:{_HOW})check\s+(?:the\s+)?code\s+style\b",
    ),
    "format": rx(
        rf"(?:{_HOW})(?:format|reformat|auto-?format)\s+(?:the\s+)?(?:code|source|files)\b"
    ),
    "dev": rx(
        rf"(?:{_HOW})(?:start|run|launch)\s+(?:the\s+|a\s+)?(?:local\s+)?dev(?:elopment)?\s+server\b"
    ),
    "list": rx(
        r"\b(?:what|which)\s+(?:npm\s+|yarn\s+|pnpm\s+|make\s+|just\s+)?(?:scripts|targets|tasks"
        r"|recipes|tox\s+environments|nox\s+sessions)\s+(?:are\s+there|are\s+(?:defined|available)"
        r"|exist|does\s+(?:it|this|the\s+\w+)\s+(?:have|define))",
        r"\b(?:list|show)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?(?:npm\s+|yarn\s+|make\s+|just\s+)?"
        r"(?:scripts|targets|tasks|recipes|tox\s+environments|nox\s+sessions)\b",
    ),
}
# The words a task of each kind is named with (`test`, `tests`, `unit`, `docs`, `lint`, ...).
_NAMED: dict[str, re.Pattern[str]] = {
    "test": re.compile(r"test|spec|check|pytest|jest|mocha|unit|coverage", re.IGNORECASE),
    "docs": re.compile(r"doc|sphinx|mkdocs", re.IGNORECASE),
    "build": re.compile(r"build|compile|dist|bundle|package|wheel", re.IGNORECASE),
    "lint": re.compile(r"lint|style|check|mypy|type|flake|ruff|pre-?commit", re.IGNORECASE),
    "format": re.compile(r"format|fmt|fix|black|prettier", re.IGNORECASE),
    "dev": re.compile(r"dev|start|serve|watch", re.IGNORECASE),
    "list": re.compile(r"."),
}
# A document section about it, by its heading ("Running the tests", "Testing", "Building
# the documentation").
_TITLES: dict[str, re.Pattern[str]] = {
    "test": re.compile(r"\btest(?:s|ing)?\b|\bspecs?\b", re.IGNORECASE),
    "docs": re.compile(r"\bdoc(?:s|umentation)\b", re.IGNORECASE),
    "build": re.compile(r"\bbuild(?:ing)?\b|\bfrom\s+source\b|\bcompil", re.IGNORECASE),
    "lint": re.compile(r"\blint|\bstyle\b|\bcode\s+quality\b|\bpre-?commit\b|\btype", re.I),
    "format": re.compile(r"\bformat|\bstyle\b", re.IGNORECASE),
    "dev": re.compile(r"\bdevelop|\bdev\s+server\b|\blocal\b", re.IGNORECASE),
    "list": re.compile(r"\b(?:scripts|commands|tasks|targets|develop\w*|contribut\w*)\b", re.I),
}
# the words a lexical search of the documents uses, per kind
TASK_WORDS = {
    "test": "tests testing run running test suite",
    "docs": "docs documentation build building",
    "build": "build building from source",
    "lint": "lint linting style checks",
    "format": "format formatting style",
    "dev": "development server local start",
    "list": "scripts commands tasks targets development",
}
_TASK_FILE = re.compile(
    r"(?:^|/)(?:package\.json|(?:GNU)?[Mm]akefile|[^/]+\.mk|[Jj]ustfile|tox\.ini|noxfile\.py"
    r"|pyproject\.toml|setup\.cfg|pytest\.ini|Taskfile\.ya?ml|Rakefile|build\.gradle(?:\.kts)?"
    r"|composer\.json)$"
)
# pytest's own table: the tests are run with `pytest` (no task names them)
_PYTEST = re.compile(r"^\[(?:tool\.pytest\.ini_options|tool:pytest|pytest)\]", re.MULTILINE)
_DEV_DOC = re.compile(r"(?:^|/)(?:contributing|hacking|development|developing|howto)[^/]*$", re.I)
# a task's definition in each kind of file: a script's key, a target, a tox environment, a
# nox session, a task's key in `pyproject.toml`'s table of them
_SCRIPT_KEY = re.compile(r'^\s*"([\w:.-]+)"\s*:\s*"')
_DEFINES = {
    "package.json": _SCRIPT_KEY,
    "composer.json": _SCRIPT_KEY,
    "Makefile": re.compile(r"^([A-Za-z_][\w.-]*)\s*:(?![=:])"),
    "tox.ini": re.compile(r"^\[testenv(?::([\w.,-]+))?\]"),
    "noxfile.py": re.compile(r"^\s*def\s+(\w+)\s*\(\s*session\b"),
    "pyproject.toml": re.compile(r"^\s*([\w-]+)\s*="),
}
_MAKEFILES = frozenset({"makefile", "gnumakefile", "justfile"})
# where a manifest's table of commands opens (a task is defined only inside it)
_TABLE = re.compile(
    r'"scripts"\s*:\s*\{|^\[tool\.(?:poe\.tasks|pdm\.scripts|taskipy\.tasks'
    r"|hatch\.envs\.[\w.-]+\.scripts)\]",
    re.MULTILINE,
)


def task_asked(query: str) -> str:
    """The kind of command a question asks how to run (`test`, `docs`, `build`, `lint`,
    `format`, `dev`) or that it asks to list (`list`), "" for none."""
    said = " ".join(query.split())
    for kind, patterns in _ASKS.items():
        if any(p.search(said) for p in patterns):
            return kind
    return ""


_TOOLS = {
    "npm": "package.json",
    "yarn": "package.json",
    "pnpm": "package.json",
    "make": "Makefile",
    "tox": "tox.ini",
    "nox": "noxfile.py",
    "just": "justfile",
}


def named_tool(query: str) -> str:
    """The task file of the tool a question names (`package.json` for "npm scripts"),
    "" for none."""
    m = re.search(rf"\b({'|'.join(_TOOLS)})\b", query, re.IGNORECASE)
    return _TOOLS[m.group(1).lower()] if m else ""


def is_task_file(path: str) -> bool:
    """Whether `path` is a file that defines a project's commands."""
    return bool(_TASK_FILE.search(path))


def is_dev_doc(path: str) -> bool:
    """Whether `path` is a document for the project's developers (`CONTRIBUTING.md`)."""
    return bool(_DEV_DOC.search(path))


def defines_task(path: str, text: str, kind: str) -> int | None:
    """The 0-based line of `text` (a part of the file at `path`) that first defines a
    command of `kind`, or None. A `package.json` or `pyproject.toml` defines one only in
    its table of them (`"scripts": {`, `[tool.poe.tasks]`)."""
    line = _defined(path.rsplit("/", 1)[-1], text, kind)
    if line is None and kind == "test" and (pytest := _PYTEST.search(text)):
        return text.count("\n", 0, pytest.start())  # no task, but pytest's own table
    return line


def _defined(name: str, text: str, kind: str) -> int | None:
    """`defines_task` of a task file by its name, pytest's table aside."""
    is_make = name.lower() in _MAKEFILES or name.endswith(".mk")
    pattern = _DEFINES["Makefile" if is_make else name] if is_make or name in _DEFINES else None
    if pattern is None:
        return None
    start = 0
    if name in ("package.json", "composer.json", "pyproject.toml"):
        if (table := _TABLE.search(text)) is None:
            return None
        start = text.count("\n", 0, table.end()) + 1
    lines = text.split("\n")
    for i in range(start, len(lines)):
        if start and re.match(r"\s*\}|\[", lines[i]):
            return None  # the table ended
        m = pattern.match(lines[i])
        task = (m.group(1) or "test") if m else ""  # tox's bare `[testenv]` runs the tests
        if m and not task.startswith(".") and (kind == "list" or _NAMED[kind].search(task)):
            return i
    return None


def configures_pytest(line: str) -> bool:
    """Whether `line` opens pytest's own table (`[tool.pytest.ini_options]`)."""
    return bool(_PYTEST.match(line))


def titled_for(title: str, kind: str) -> bool:
    """Whether a document section's heading is about a command of `kind`."""
    return bool(_TITLES[kind].search(title))
