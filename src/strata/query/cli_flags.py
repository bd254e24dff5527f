"""Questions about a command-line flag ("what does the --reindent option do", "where is the
-o flag handled", `--strip-comments` alone) and the lines that define, document or read
one (pure; `strata.query.flag_lines` searches for them).

A flag is defined in the ways command-line parsers are told of one: written with its
dashes inside a string (argparse's `add_argument('-r', '--reindent')`, click's
`@click.option("--line-length")`, commander's `.option('-p, --port <n>')`, a usage text),
its name as a whole string (yargs' `'allow-uncaught': {...}`, optionator's `option:
"fix"`, Go's `flag.Bool("verbose", ...)`, cobra's `BoolVarP(&v, "verbose", "v", ...)`,
clap's `long("verbose")`, Getopt::Long's `'verbose|v!'`), or a shell `case` arm
(`--verbose|-v)`). It is read where the parsed value is (`args.reindent`, `opts.dryRun`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from enum import IntEnum

from strata.query.verbatim import is_question
from strata.text.tokens import query_terms

__all__ = ["DEFINES_ANY", "DEFINING_WORDS", "Written", "asked_flags", "asks_for_flags"]
__all__ += ["described", "flag_words", "how_written", "long_names"]

_LONG = re.compile(r"(?<![\w-])--([A-Za-z0-9](?:[\w-]*[A-Za-z0-9])?)")
_SHORT = re.compile(r"(?<![\w-])-([A-Za-z])(?![\w-])")
# A short flag is one only where the question calls it one ("the -o flag", "-v option").
_CALLED = re.compile(
    r"\b(?:flag|option|switch|argument|arg|opt)s?\b|\bфлаг|\bопци|\bключ", re.IGNORECASE
)
_CLI = r"(?:command[- ]?line|cli|terminal|shell)"
_KINDS = r"(?:options|flags|switches|arguments|args|parameters)"
# "which command line options does it accept", "list the CLI flags", "флаги командной строки"
_LISTING = re.compile(
    rf"\b{_CLI}\s+{_KINDS}\b|\b{_KINDS}\s+(?:of|for|on|to|in)\s+(?:the\s+)?{_CLI}\b"
    rf"|\b(?:which|what)\s+{_KINDS}\s+(?:does|do|can)\s+(?:the\s+|this\s+)?{_CLI}\s+"
    r"(?:accept|take|support|have|offer|understand)\b"
    r"|\b(?:опци\w*|флаг\w*|ключ\w*|параметр\w*)\s+командной\s+строки",
    re.IGNORECASE,
)
_RU_ASKING = re.compile(r"(?:что|где|как|какие|какой|зачем|почему|покажи)\b", re.IGNORECASE)
# The words a lexical search for the passages defining flags uses besides a flag's own.
DEFINING_WORDS = (
    "add_argument add_option make_option option flag argument argv parser usage command line"
    " help action store_true metavar dest default description alias"
)
# A flag written in a string, as every parser's definition and a usage text write one; an
# options object (yargs' `.options({`), optionator's `option: "fix"`.
DEFINES_ANY = re.compile(
    r"""["'`]-{1,2}[A-Za-z][\w-]*(?:["'`,|= <\[]|$)|\.options?\(\s*\{|\boption\s*:\s*["']""",
    re.MULTILINE,
)
# "what does -v do": a dash and a letter asked about, a flag though not called one
_SHORT_ASKED = re.compile(
    r"^\W*what\s+(?:does|do|is)\s+(?:the\s+)?-[A-Za-z](?![\w-])", re.IGNORECASE
)
_QUOTE = "[\"'`]"
_IN_QUOTES = "[^\"'`\\n]"
# The words an option's definition describes it with, in the lines from its flag on.
_DESCRIBING = re.compile(
    r"\b(?:help|description|desc|describe|usage|default|type|alias|aliases|action|metavar"
    r"|dest|choices|nargs|required|short|long|env)\b\s*[=:(]?",
    re.IGNORECASE,
)
DESCRIBED_LINES = 5
# What code names the parsed flags by (`args.reindent`, `options.dryRun`, `program.opts().port`).
_PARSED = r"(?:args|arguments|argv|opts|options|parsed|params|flags|ns|namespace|cli|cmd)"
# A Getopt::Long specification's tail (`=s`, `:i`, `=s@`, `!`, `+`).
_GETOPT_TAIL = r"(?:[=:][sifo][@%]?|[!+])?"


class Written(IntEnum):
    """How a passage writes the flag, the most telling first (the step's order)."""

    DASHED = 0  # a string that opens with the flag (or its short one), a `case` arm
    NAMED = 1  # its name as a whole string in code (a key, an argument, a list's item)
    DOCUMENTED = 2  # a document that writes the flag
    READ = 3  # code that reads the parsed value (`args.strip_comments`, `opts.dryRun`)
    MENTIONED = 4  # a string that says the flag among other words (a message, a help text)


def asked_flags(query: str) -> tuple[str, ...]:
    """The flags a question asks about, as written (`--reindent`, `-o`): every long flag,
    or the short ones when the question calls them a flag or an option. Only a question
    asks (`what does --harmony do`) or the flags alone (`--reindent option`): a sentence
    that mentions one ("You can enable --harmony in two ways.") describes something else."""
    if "-" not in query:  # most questions: no flag to look for
        return ()
    flags = [m.group(0) for m in _LONG.finditer(query)]
    if not flags and (_CALLED.search(query) or _SHORT_ASKED.match(query)):
        flags = [m.group(0) for m in _SHORT.finditer(query)]
    if not flags or not (_asking(query) or _alone(query, flags)):
        return ()
    return tuple(dict.fromkeys(flags))


def asks_for_flags(query: str) -> bool:
    """Whether the question asks which command-line flags there are (none named)."""
    said = query.casefold()
    if not any(w in said for w in ("line", "cli", "terminal", "shell", "командн")):
        return False  # every listing says where the flags are given (most questions: not)
    return _asking(query) and bool(_LISTING.search(query))


def _asking(query: str) -> bool:
    return is_question(query) or bool(_RU_ASKING.match(query.strip()))


def _alone(query: str, flags: Sequence[str]) -> bool:
    """The flags are all the query says, but for calling them flags or options."""
    rest = query
    for flag in flags:
        rest = rest.replace(flag, " ")
    return not _CALLED.sub(" ", rest).strip(" \t`'\",.?!/")


def flag_words(flags: Sequence[str]) -> str:
    """The words a lexical search for the flags' lines uses: each name's parts
    (`--strip-comments`: `strip comments`) and the name as one word."""
    words: list[str] = []
    for flag in flags:
        name = flag.lstrip("-")
        words += [*query_terms(name), name.replace("-", "_")]
    return " ".join(dict.fromkeys(words))


def long_names(flags: Sequence[str], defining: Sequence[str]) -> tuple[str, ...]:
    """The long flags defined beside the short ones asked about (`'-o', '--outfile'`,
    `'-p, --port <n>'`): the lines of `defining` that write a short flag, read for them."""
    shorts = [f for f in flags if not f.startswith("--")]
    found: list[str] = []
    for short in shorts:
        at = re.compile(rf"{_QUOTE}{_IN_QUOTES}*?(?<![\w-]){re.escape(short)}(?![\w-])")
        for text in defining:
            lines = [line for line in text.split("\n") if at.search(line)]
            found += [m.group(0) for line in lines for m in _LONG.finditer(line)]
    return tuple(f for f in dict.fromkeys(found) if f not in flags)


def how_written(flag: str, text: str, document: bool) -> tuple[Written, int] | None:
    """How `text` writes `flag` and the 0-based line it first does, or None (it does not)."""
    for kind, pattern in _patterns(flag, document):
        if m := pattern.search(text):
            return kind, text.count("\n", 0, m.start())
    return None


@functools.lru_cache(maxsize=64)
def _patterns(flag: str, document: bool) -> list[tuple[Written, re.Pattern[str]]]:
    """The ways a passage writes `flag`, the most telling first (read once per flag: every
    candidate of a search is asked)."""
    dashes, name = ("--", flag[2:]) if flag.startswith("--") else ("-", flag[1:])
    names = _spellings(name)
    alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    written = rf"(?<![\w-]){dashes}(?:{alt})(?![\w-])"
    if document:
        return [(Written.DOCUMENTED, re.compile(written))]
    # `'--reindent'`, `'-r, --reindent <n>'`, `"--build/--no-build"`, `'  -p --port  Port'`
    dashed = rf"[\"'][ \t]*(?:-{_IN_QUOTES}*?)?{written}"  # (a backtick quotes in prose)
    case_arm = rf"^[ \t]*(?:[^\s)|]+\|)*{dashes}(?:{alt})(?:=\*?)?(?:\|[^\s)|]+)*\)"
    out = [(Written.DASHED, re.compile(f"{dashed}|{case_arm}", re.MULTILINE))]
    if dashes == "--":  # a letter alone as a string (`"o"`) is too common to tell anything
        # a string of code, not words quoted in a message (`'due to "bail" flag'`)
        whole = rf"{_QUOTE}(?:[\w?-]+\|)*(?:{alt})(?:\|[\w?-]+)*{_GETOPT_TAIL}{_QUOTE}"
        key = rf"^[ \t]*(?:{alt})[ \t]*:[ \t]*\{{"  # yargs' `grep: {` (a name needs no quotes)
        named = rf"{whole}\s*(?:[:,)\]}};=]|$)|{key}"
        out.append((Written.NAMED, re.compile(named, re.MULTILINE)))
    attrs = sorted({n.replace("-", "_") for n in names} | {_camel(n) for n in names})
    read = rf"\b{_PARSED}\s*(?:\(\))?\.(?:{'|'.join(map(re.escape, attrs))})\b"
    out.append((Written.READ, re.compile(read)))
    mentioned = rf"{_QUOTE}{_IN_QUOTES}*?{written}{_IN_QUOTES}*{_QUOTE}"
    out.append((Written.MENTIONED, re.compile(mentioned)))
    return out


def described(text: str, line: int) -> bool:
    """Whether the lines from `line` (0-based) on describe an option as parsers are told
    one (`help=`, `description:`, `default`, `type`, `alias`, `action`, `metavar`, ...):
    a definition, not a list of the flags' names or a lookup of one."""
    window = "\n".join(text.split("\n")[line : line + DESCRIBED_LINES])
    return bool(_DESCRIBING.search(window))


def _spellings(name: str) -> set[str]:
    """A flag's name as parsers and their users write it: dashes or underscores, and the
    name a `--no-` flag negates."""
    names = {name, name.replace("-", "_"), name.replace("_", "-")}
    if name.startswith(("no-", "no_")):
        names |= _spellings(name[3:])
    return names


def _camel(name: str) -> str:
    """`dry-run` as commander and yargs name its value: `dryRun`."""
    head, *rest = re.split(r"[-_]", name)
    return head + "".join(part[:1].upper() + part[1:] for part in rest)
