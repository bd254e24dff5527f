"""Questions about the environment variables the code reads ("which environment variables
does this project read", "where is the RACK_ENV environment variable read"), and the
usual ways a language reads one (pure; `strata.query.steps` searches for them)."""

from __future__ import annotations

import re

from strata.query.question_filters import matches_any, rx
from strata.text.tokens import STOP_WORDS, query_terms

__all__ = ["READS", "asks_for_env", "reading_words"]

_ENV = r"(?:environment|env)\s+(?:variables?|vars?)"
_ASKS = rx(
    rf"\b(?:which|what)\s+(?:{_ENV}|env)\b",
    rf"\b(?:list|show|find)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?{_ENV}",
    rf"\bwhere\s+(?:are|is)\s+(?:the\s+)?{_ENV}\s+(?:read|used|loaded|accessed|set|parsed)\b",
    rf"\b{_ENV}\s+(?:that|which)?\s*(?:are|is)?\s*(?:read|used|supported|recognised|recognized)\b",
    r"\bwhere\s+is\s+(?:the\s+)?[`'\"]?[A-Z][A-Z0-9_]{2,}[`'\"]?\s+(?:environment|env)\s+"
    r"(?:variable|var)\s+(?:read|used|set)\b",
    r"\bwhere\s+is\s+[`'\"]?[A-Z][A-Z0-9_]{2,}[`'\"]?\s+read\s+from\s+the\s+environment\b",
    r"\b(?:какие|где)\s+(?:\w+\s+)?переменн\w+\s+окружения\b",
)
# The usual ways to read a variable: Python, Node, the JVM, Go, Ruby, C, Perl, Elixir,
# Rust, .NET, PHP, Lua (`os.getenv`), Zig (`getEnvVarOwned`), Haskell (`lookupEnv`).
READS = re.compile(
    r"os\.environ\b|\bgetenv\s*\(|process\.env\b|System\.getenv\b|os\.Getenv\b|os\.LookupEnv\b"
    r"|\bENV\s*(?:\[|\.fetch\b)|\$ENV\{|System\.get_env\b|\benv::var(?:_os)?\b"
    r"|GetEnvironmentVariable\b|\$_ENV\[|\bgetEnvVarOwned\b|\blookupEnv\b|\bgetEnv\b"
)
# words that find a reading line by BM25 (`os.environ`, `getenv`, `process.env`, `%ENV`)
_IDIOMS = ("env", "environ", "getenv", "get_env")
_ASKING = frozenset({"environment", "variable", "variables", "var", "vars", "read", "used"})


def asks_for_env(query: str) -> bool:
    """Whether the question asks which environment variables are read, or where one is."""
    said = query.casefold()  # every pattern says `env` or `окружени` (every question routes)
    return ("env" in said or "окружени" in said) and matches_any(_ASKS, query)


def reading_words(query: str) -> str:
    """The words a lexical search for the reading lines uses: the question's own (a
    variable's name), and the idioms' (`env`, `environ`, `getenv`)."""
    words = [t for t in query_terms(query) if t not in STOP_WORDS and t not in _ASKING]
    return " ".join([*words, *_IDIOMS])
