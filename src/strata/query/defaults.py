"""Questions about a default ("what is the default timeout", "what is the default value of
max_redirects", "what does follow_redirects default to", "how many retries by default") and
the lines that state one (pure; `strata.query.line_steps` searches for them): a constant
named for it (`DEFAULT_TIMEOUT = 5.0`), a parameter or field given it (`timeout: float =
5.0`, `function get(url, timeout = 0)`), a line that says `default` beside its name
(`add_argument("--timeout", default=5)`, "timeout -- defaults to 5 seconds").
"""

from __future__ import annotations

import re
from enum import IntEnum

from strata.query.phrases import END, THE
from strata.query.question_filters import rx
from strata.text.tokens import split_identifier

__all__ = [
    "DEFAULT_WORDS",
    "Stated",
    "default_asked",
    "keyed",
    "name_pattern",
    "signature_defaults",
    "stated",
]

# the asked thing: a code name or up to three words ("line length", "max redirects")
_FUNCTION_WORDS = r"(?:for|of|in|on|at|when|if|and|or|to|by|set|used|is|are|was|do|does)"
_THING = (
    rf"[`'\"]?-{{0,2}}([A-Za-z_$][\w.$-]*(?:\s+(?!{_FUNCTION_WORDS}\b)[A-Za-z_][\w-]*){{0,2}})"
    r"(?:\(\))?[`'\"]?"
)
_HOLDER = r"(?:(?:setting|option|parameter|param|argument|arg|field|config|value)\s+)?"
_ASKS = rx(
    rf"\bwhat(?:'s|\s+is|\s+are|\s+was)\s+{THE}default\s+(?:value\s+(?:of|for)\s+)?{THE}"
    rf"{_HOLDER}{_THING}{END}",
    rf"\b(?:what|which)\s+(?:is|are)\s+{THE}{_HOLDER}{_THING}\s+(?:set\s+to\s+|when\s+unset\s+)?"
    r"by\s+default\b",
    rf"\bwhat\s+(?:does|do)\s+{THE}{_HOLDER}{_THING}\s+default\s+to\b",
    rf"^\W*(?:show\s+(?:me\s+)?|find\s+)?{THE}default\s+(?:value\s+)?(?:of|for)\s+{THE}{_HOLDER}"
    rf"{_THING}{END}",
    rf"\bhow\s+(?:many|much|long|often)\s+{_THING}\s+(?:\w+\s+){{0,3}}by\s+default\b",
    # "what port does the server listen on by default", "which encoding does it use by default"
    rf"\b(?:what|which)\s+{_THING}\s+(?:does|do|is|are|will)\s+(?:[\w.-]+\s+){{1,4}}by\s+default\b",
    rf"\bwhere\s+is\s+{THE}default\s+(?:value\s+(?:of|for)\s+)?{THE}{_HOLDER}{_THING}\s+"
    r"(?:set|specified|configured)\b",  # "where is the default tab width defined": a name
    rf"\bзначение\s+по\s+умолчанию\s+(?:для\s+|у\s+)?{_THING}{END}",
)
_STOP = frozenset({"the", "a", "an", "is", "are", "be", "it", "of", "for", "to", "when"})
_HOLDERS = frozenset(
    {"option", "setting", "parameter", "param", "argument", "arg", "flag", "field", "value"}
    | {"property", "attribute", "variable", "number", "config"}
)
# what names no thing: "what is the default value", "what is the default behaviour"
_VAGUE = frozenset({"value", "values", "default", "defaults", "behavior", "behaviour", "one"})
# the words a lexical search for the stating lines uses besides the thing's own
DEFAULT_WORDS = "default defaults DEFAULT"


class Stated(IntEnum):
    """How a line states the default asked about, the strongest first."""

    NAMED = 0  # a constant or variable named for it: `DEFAULT_TIMEOUT = 5.0`
    GIVEN = 1  # a parameter or field given a literal: `timeout: float = 5.0`
    PASSED = 2  # ... given anything else: `= USE_CLIENT_DEFAULT`, `= None`
    SAID = 3  # a line saying `default` beside it: `default=5`, "defaults to 5"


def default_asked(query: str) -> str:
    """The thing a question asks the default of, as its words or code name ("" none)."""
    said = query.casefold()
    if "default" not in said and "умолчани" not in said:
        return ""
    for pattern in _ASKS:
        if m := pattern.search(query):
            words = [w for w in m.group(1).strip("`'\"").split() if w.lower() not in _STOP]
            while len(words) > 1 and words[-1].lower() in _HOLDERS:
                words.pop()  # "the --line-length option", "the port number"
            thing = " ".join(words).removesuffix("()")
            return "" if thing.lower() in _VAGUE else thing
    return ""


def _parts(thing: str) -> list[str]:
    """The lowercase parts of a thing asked about (`max_redirects`, "max redirects",
    `maxRedirects` -> max, redirects; `--line-length` -> line, length)."""
    return [p for w in re.split(r"[\s.:-]+", thing) if w for p in split_identifier(w)]


def name_pattern(thing: str) -> re.Pattern[str]:
    """A code name that is the thing asked about, in any case and joining (`max_redirects`,
    `maxRedirects`, `MAX_REDIRECTS`, `max-redirects`), inside a longer one as well
    (`DEFAULT_MAX_REDIRECTS`, `defaultMaxRedirects`)."""
    joined = r"[_-]?".join(re.escape(p) for p in _parts(thing)) or re.escape(thing)
    return re.compile(rf"(?<![\w$-])[\w$]*?{joined}[\w$]*", re.IGNORECASE)


_ASSIGNS = re.compile(r"\s*(?::\s*[^=,()\n]{1,80}?)?\s*(?::=|=(?![=>]))")  # `: float =`, `:=`
# a value written out: a number, a string, a boolean, an empty collection (`None`, `null`:
# a sentinel that says little, as a name does), then the end of the value
_LITERAL = re.compile(
    r"\s*(?:-?\.?\d[\w.]*|True|False|true|false|\"[^\"]*\"|'[^']*'|\[\]|\{\}|\(\))"
    r"\s*(?=[,;)\]}]|$|#|//)"
)
_DECLARES = re.compile(r"(?:#\s*define|\bconst|\bfinal|\bstatic)\s+(?:[\w<>\[\]]+\s+)*$")
_MODIFIERS = (
    r"(?:(?:export|public|private|protected|static|final|readonly|async|pub|let|var|const|val"
    r"|my|our|local)\s+)*"
)
_OWN = re.compile(rf"\s*{_MODIFIERS}(?:[\w<>\[\]?]+\s+)?")  # `    `, `  private int `
_SIGNATURE = re.compile(rf"\s*{_MODIFIERS}(?:def|function|fn|func|fun|sub|constructor)\b")


def stated(line: str, thing: re.Pattern[str]) -> Stated | None:
    """How `line` states the default of what `thing` matches, or None: a name holding
    `default` assigned or declared, the thing given a value where a parameter or field is
    declared (its own line, or a signature; not a call's keyword), or the word `default`
    beside it."""
    found = None
    for m in thing.finditer(line):
        before, after = line[: m.start()], line[m.end() :]
        assigns = _ASSIGNS.match(after)
        if "default" in m.group().lower() and (assigns or _DECLARES.search(before)):
            return Stated.NAMED
        declared = _OWN.fullmatch(before) or (
            _SIGNATURE.match(line) and re.search(r"[(,]\s*(?:[\w$<>\[\]]+\s+)?\**$", before)
        )
        if assigns and declared:
            literal = _LITERAL.match(after[assigns.end() :])
            found = min(found or Stated.PASSED, Stated.GIVEN if literal else Stated.PASSED)
    if found is None and re.search(r"(?i)\bdefault", line) and thing.search(line):
        return Stated.SAID
    return found


# A parameter given a default in a signature: `timeout: float = 5.0`, `*, retries=3`, JS's
# `{ retries = 3 }`, Kotlin's `retries: Int = 3`; the value up to the next comma or bracket.
_PARAM = re.compile(
    r"(?:^|[(,{\[]\s*)(?:(?:val|var|final|const|mut)\s+)?\**\$?([A-Za-z_][\w]*)\s*"
    r"(?::\s*[^=,(){}]{1,80}?)?\s*=(?![=>])\s*([^,(){}\[\]]*(?:\([^()]*\))?)"
)


def signature_defaults(signature: str) -> list[tuple[str, Stated]]:
    """The parameters a signature gives a default, each with how (`GIVEN` a literal,
    `PASSED` anything else): `def f(a, timeout: float = 5.0, mode=MODE)` -> timeout
    GIVEN, mode PASSED."""
    out = []
    for m in _PARAM.finditer(signature):
        literal = _LITERAL.match(m.group(2)) if m.group(2).strip() else None
        out.append((m.group(1), Stated.GIVEN if literal else Stated.PASSED))
    return out


# A mapping of defaults opening a statement (`DEFAULT = {`, `const defaults = {`,
# `DEFAULT_CONFIG = dict(`, `self.defaults = {`; not `default_error_messages = {`, whose
# keys are messages), and a key in it (`'max-spaces-inside': 0,`, `timeout: 0,`).
_DEFAULTS_OPEN = re.compile(
    r"(?i)^\s*(?:(?:export|const|let|var|static|final|public|private|readonly)\s+)*"
    r"(?:[\w$]+\.)*_?defaults?(?:_?(?:config|conf|options|opts|settings|values|params))?"
    r"\s*(?::\s*[^=\n]{1,60}?)?\s*[:=]\s*(?:dict\s*\(|\{)"
)
_KEY = re.compile(r"(?:^|[{(,])\s*[\"']?([\w$-]+)[\"']?\s*[:=](?![=:])\s*")


def keyed(lines: list[str], thing: re.Pattern[str]) -> list[tuple[Stated, int]]:
    """The keys of a mapping of defaults (`DEFAULT = {'max-spaces-inside': 0}`, axios'
    `const defaults = { timeout: 0 }`) that are the thing asked about, with how (a literal
    value `GIVEN`, else `PASSED`) and their 0-based line."""
    out: list[tuple[Stated, int]] = []
    depth = 0
    for i, line in enumerate(lines):
        rest = line
        if depth <= 0:
            opened = _DEFAULTS_OPEN.search(line)
            if opened is None:
                continue
            rest = line[opened.end() - 1 :]
            depth = 0
        depth += rest.count("{") + rest.count("(") - rest.count("}") - rest.count(")")
        for key in _KEY.finditer(rest):
            if (m := thing.fullmatch(key.group(1))) is not None and m.group() == key.group(1):
                literal = _LITERAL.match(rest[key.end() :])
                out.append((Stated.GIVEN if literal else Stated.PASSED, i))
    return out
