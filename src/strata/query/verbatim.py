"""A pasted message found where it is written (pure).

A user or an agent often pastes what a program printed: an error message, a log line, a
line of output ("n must be greater than 0", `ValueError: invalid format for describe,
got 'x'`). The words are in the code as a string literal, and BM25 and the vectors rank
the function that raises it among the many that talk about the same things. This part
finds the candidate whose string literals hold the longest run of the query's words as
written (case and spacing aside): a run covering `MIN_SHARE` of the query and at least
`MIN_WORDS` words (or the whole of a three-word one) gets `VERBATIM_BOOST` rank-1 units
times the share it covers. A pasted line of code (two code marks, no full stop at the end)
counts whole anywhere in a candidate's text. A sentence of prose (five words or more) also
counts in a candidate's comments and text, marks aside, when that candidate is the one
place that says it: no other holds a run within `1 - MIN_SHARE` of the query of its run (a
doc comment's sentence standing also in its twin, a `.d.ts` beside the `.js`, tells the
two apart no better than the rest does). A question ("how do I ...") or a name is never a
message.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Final

from strata.types import Record

VERBATIM_BOOST: Final = 2.0  # rank-1 units for a candidate that holds the whole query
MIN_WORDS: Final = 4  # a shorter run is a common phrase, not a message
MIN_SHARE: Final = 0.8  # a run of a long query under this share of it is a phrase it shares
MAX_WORDS: Final = 40  # a longer query is a paste of code or prose; its start is enough
TEXT_MIN_WORDS: Final = 5  # a sentence found in a comment or a document: no shorter
_SPACE = re.compile(r"\s+")
# A comment's line marks (` * `, `//`, `#`, `--`, `;`, `%`) where a sentence runs on, with
# the tag a doc comment's line may open with (NatSpec's `@notice` and `@dev`, Javadoc's
# `@return`, Doxygen's `\brief`): a rendered doc shows its text, not the tag, so a sentence
# that runs on into a `/// @dev` line is read as one.
_LINE_MARK = re.compile(r"\n[ \t]*(?:\*(?!/)|//+!?|#+|--+\|?|;+|%+)?[ \t]?(?:[@\\][a-z]+\b[ \t]*)?")
# A doc comment's markup around a name, read as the name (as its rendered doc shows it):
# `<see cref="T:App.Row"/>`, `<paramref name="n"/>`, `{@link Row}`, `[text](url)`.
_MARKUP_NAME = re.compile(
    r"<(?:see|seealso)\s+(?:cref|langword)=\"(?:\w:)?([^\"]+)\"\s*/>"
    r"|<paramref\s+name=\"([^\"]+)\"\s*/>|\{@(?:link|linkplain|code)\s+([^}]+)\}"
    r"|\[([^\]]+)\]\([^)]*\)"
)
_MARKUP_TAG = re.compile(r"</?(?:summary|remarks|returns|para|value|c|b|i|em|code)>")
# A string literal on one line: "...", '...' or `...`, with escapes.
_LITERAL = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\\n]|\\.)*`")
# The words a question or a request opens with (also query/framing's topic test).
QUESTION_OPENERS: Final = (
    *("how", "what", "where", "why", "which", "who", "whom", "whose", "when", "does", "do"),
    *("did", "can", "could", "should", "would", "is", "are", "was", "were", "will", "find"),
    *("show", "list", "explain", "describe", "tell", "give"),
)
_QUESTION = re.compile(rf"^(?:{'|'.join(QUESTION_OPENERS)})\b", re.IGNORECASE)
_QUOTES = "\"'`"
# A pasted line of code: two or more of its marks (`f(x)`, `a = b`, `obj.attr`, `->`).
_CODE_MARKS = re.compile(r"[(){}\[\];=]|->|=>|::|\w\.\w")
# What a program prints before its message: `ValueError:`, `error:`, `[WARN]`, `E123:`.
_PREFIX = re.compile(
    r"^(?:\[\w+\]\s*)?(?:(?:[\w.]*(?:Error|Exception|Warning|Exit)|error|warning|warn|fatal|"
    r"panic|critical|info|debug|[EW]\d+)\s*:\s*)?",
    re.IGNORECASE,
)


def is_question(query: str) -> bool:
    """A question mark, or a question's opening word in what is not a statement ("When the
    stream ends, the reader closes." ends with a full stop; "how are routes registered"
    does not)."""
    text = query.strip()
    return text.endswith("?") or (bool(_QUESTION.match(text)) and not text.endswith("."))


def message_words(query: str) -> tuple[str, ...]:
    """The query's words as a message to look for, or none when it reads as a question."""
    text = query.strip().strip(_QUOTES).strip()
    if _QUESTION.match(text) or text.endswith("?"):
        return ()
    text = _PREFIX.sub("", text).strip(_QUOTES)
    words = tuple(_SPACE.split(text.lower()))[:MAX_WORDS]
    return words if len(words) >= 3 else ()


def is_code(words: tuple[str, ...]) -> bool:
    """Whether the message is a line of code rather than prose (a sentence ends with a
    full stop; a line of code with a bracket, a colon, a name)."""
    return len(_CODE_MARKS.findall(" ".join(words))) >= 2 and not words[-1].endswith(".")


def verbatim_parts(
    records: Mapping[str, Record], words: tuple[str, ...], *, unit: float
) -> dict[str, float]:
    """Each candidate's part: the longest run of `words` its text holds as written (a
    message in its string literals; a line of code, whole, anywhere in it)."""
    if not words:
        return {}
    n = len(words)
    code = is_code(words)
    least = max(min(MIN_WORDS, n), math.ceil(MIN_SHARE * n))
    # every run long enough holds the words between the last start and the first end
    middle = words[n - least : least] or words
    must = max(middle, key=len)
    out: dict[str, float] = {}
    in_text: list[tuple[int, str]] = []  # (run, id) of a sentence in the text
    for rid, rec in records.items():
        low = rec.content.lower()
        if must not in low:
            continue
        if code and " ".join(words) in _SPACE.sub(" ", low):
            out[rid] = VERBATIM_BOOST * unit  # the line of code, whole
            continue
        literals = " \0 ".join(m.group(0)[1:-1] for m in _LITERAL.finditer(rec.content))
        run = _longest_run(words, _SPACE.sub(" ", literals.lower()), least)
        if run >= least:
            out[rid] = VERBATIM_BOOST * unit * run / n
        if not code and n >= TEXT_MIN_WORDS and all(w in low for w in middle):
            in_text.append((_longest_run(words, _prose(low), least), rid))
    the_one = _the_one_place(in_text, n, least)
    if the_one:
        run, rid = the_one
        out[rid] = max(out.get(rid, 0.0), VERBATIM_BOOST * unit * run / n)
    return out


def _prose(text: str) -> str:
    """A candidate's text as its comments read: line marks and doc markup out."""
    text = _MARKUP_TAG.sub(" ", _MARKUP_NAME.sub(lambda m: next(g for g in m.groups() if g), text))
    return _SPACE.sub(" ", _LINE_MARK.sub(" ", "\n" + text))


def _the_one_place(runs: list[tuple[int, str]], n: int, least: int) -> tuple[int, str] | None:
    """The longest run of `n` words, when it is long enough and no other comes within
    `1 - MIN_SHARE` of the words of it."""
    ranked = sorted((r for r in runs if r[0] >= least), reverse=True)
    if not ranked:
        return None
    second = ranked[1][0] if len(ranked) > 1 else 0
    return ranked[0] if ranked[0][0] - second >= (1 - MIN_SHARE) * n else None


def _longest_run(words: tuple[str, ...], text: str, least: int) -> int:
    """The most consecutive `words` that `text` holds, or 0 when under `least`."""
    best = 0
    for i in range(len(words) - least + 1):
        if len(words) - i <= best:
            break
        if " ".join(words[i : i + least]) not in text:
            continue
        k = i + least
        while k < len(words) and " ".join(words[i : k + 1]) in text:
            k += 1
        best = max(best, k - i)
    return best
