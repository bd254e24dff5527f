"""Code names a sentence quotes, found where they are used (pure).

A doc comment or a question marks the names it means: `max_depth`, ``Output``, 'oldpc'
(Lua's C comments), +host+ (RDoc). "'psize' is filled with option's size, 'notoalign'
with its alignment requirements" is about the function that uses `psize` and `notoalign`;
BM25 weighs those two among the sentence's other words, and the vectors hardly see them.
This part gives a candidate `QUOTED_BOOST` rank-1 units times the share of the quoted
names its text holds as whole words, each name weighed by how few of the candidates hold
it (`(1 - share of the others) ** RARITY`: full for a name one candidate holds; none for
one that every candidate holds): a name that most candidates hold (`Observable`
in rxjs, `next` in a scheduler) tells none of them apart. Literals (`True`, `null`) are
no names, and neither is a name the sentence points away to ("See `WriteStream`", "Like
`stringify`", "an alternative to calling `write`"): the code it means is elsewhere. A name
a statement opens with is its subject ("ListMapper is used to transform a collection ..."):
what the statement describes (`subject_name`, `is_subject`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Final

from strata.query.lookup.qualifiers import last_part
from strata.text.tokens import STOP_WORDS, is_identifier_like
from strata.types import Record

__all__ = [
    *("QUOTED_BOOST", "is_elsewhere", "is_subject", "named_elsewhere", "quoted_names"),
    *("quoted_parts", "subject_name"),
]

QUOTED_BOOST: Final = 1.0  # rank-1 units for a candidate that holds every quoted name
MIN_STATEMENT_WORDS: Final = 5  # a statement that points away says more than where to look
RARITY: Final = 4  # how sharply a name held by many candidates loses its weight
_QUOTED = re.compile(r"``?([A-Za-z_$][\w$]*)``?|'([A-Za-z_$][\w$]*)'|\+([A-Za-z_]\w*)\+")
# Code in backticks that is more than a name (`2**treeDepth`, `address(0)`).
_BACKTICKED = re.compile(r"(``?)([^`\n]+)\1")
# An operation or a call with arguments (not `name()`, `a.b`, `nextAlloc*()`, a Sphinx
# reference `Schema <marshmallow.Schema>` or an escape `\pN`).
_OPERATION = re.compile(
    r"^(?![^<]*<[\w.]+>$)[^\\]*(?:[\w)\]]\s*(?:\*\*|[-+/%=<>&|^]=?)\s*[\w(]|\w\([^)\s])"
)
# The words before a name that point away to it: "see X", "like X", "instead of X".
_ELSEWHERE = re.compile(
    r"\b(?:see(?:\s+also)?|like|unlike|instead\s+of|alternative\s+to(?:\s+calling)?|cf\.?"
    r"|equivalent\s+to|same\s+as)\s*$",
    re.IGNORECASE,
)
# The words before a name a statement says its code uses: "passed to X", "it will use X",
# "calls X", "delegates to X": the code it describes holds the name, it does not define it
# ("you can call X" is how to use X itself).
_USES = re.compile(
    r"\b(?:uses|(?:will|would)\s+(?:use|call)|calls|by\s+calling|passe[sd](?:\s+\w+)?\s+(?:on\s+)?to"
    r"|delegates\s+to|forwards\s+to|wraps|via)\s*$",
    re.IGNORECASE,
)
_PHRASE_CHARS = 48  # a phrase ends just before its name: its last words are enough to read
_ARTICLE = re.compile(r"\s+(?:the|an?)\s*$", re.IGNORECASE)
_QUOTE_MARKS = "`'\""
_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*")
_LITERALS = frozenset(
    {"true", "false", "none", "null", "nil", "undefined", "nan", "void", "self", "this"}
    | {"default", "new", "return", "it"}
)


def quoted_names(query: str) -> tuple[str, ...]:
    """The names `query` quotes, in order, once each (no literals, none of one letter)."""
    found = [
        (m.start(), next(g for g in m.groups() if g))
        for m in _QUOTED.finditer(query)
        if not _ELSEWHERE.search(_ahead(query, m.start()))
    ]
    # the names in a quoted expression (`2**treeDepth`, `address(0)`, `a.b + c`)
    found += [
        (m.start(), n.group(0))
        for m in _BACKTICKED.finditer(query)
        if _OPERATION.search(m.group(2)) and not _ELSEWHERE.search(_ahead(query, m.start()))
        for n in re.finditer(r"[A-Za-z_$][\w$]*", m.group(2))
    ]
    names = (n for _, n in sorted(found))
    return tuple(dict.fromkeys(n for n in names if len(n) > 1 and n.lower() not in _LITERALS))


def named_elsewhere(query: str) -> frozenset[str]:
    """The names a statement points away to ("See `AccessManager` for ...") or says its
    code uses ("Options are passed to MockRequest.env_for", code-shaped or quoted), each
    lower-case and dotted as written (`mockrequest.env_for`). The code the statement
    describes is not their definition. A short request ("see the Foo class") asks for
    the name itself: none under `MIN_STATEMENT_WORDS`."""
    out: set[str] = set()
    if len(query.split()) < MIN_STATEMENT_WORDS:
        return frozenset()
    for m in _NAME.finditer(query):
        name = m.group(0)
        before = _ARTICLE.sub("", _ahead(query, m.start()).rstrip(_QUOTE_MARKS))
        quoted = m.start() > 0 and query[m.start() - 1] in _QUOTE_MARKS
        code = quoted or is_identifier_like(name)  # "wraps the result": a word, no name
        # not a word of the phrase itself ("an alternative to calling `write`": `calling`)
        pointed = _ELSEWHERE.search(before) and not _ELSEWHERE.search(_ahead(query, m.end()))
        if (pointed and name.lower() not in STOP_WORDS) or (code and _USES.search(before)):
            out.add(re.sub(r"::|#", ".", name).lower())
    return frozenset(out)


def _ahead(query: str, at: int) -> str:
    """The characters of `query` before `at` that a pointing phrase ending there is in."""
    return query[max(0, at - _PHRASE_CHARS) : at]


def subject_name(query: str, asked: Sequence[str]) -> str:
    """The code name a statement opens with, lower-case and without its qualifier
    (`XmlSerializableConstraint tests whether ...`), or "". `asked`: the statement's code
    names as written, in order."""
    first = query.split(maxsplit=1)[0].strip("`'\"").rstrip(".:,;").replace("::", ".")
    if not asked or first != asked[0]:
        return ""
    return first.rsplit(".", 1)[-1].lower()


def is_subject(title: str | None, subject: str) -> bool:
    """Whether a definition titled `title` is named as the statement's subject."""
    return bool(subject and title) and last_part((title or " ").split(" ")[0]).lower() == subject


@functools.lru_cache(maxsize=4096)  # asked by the title, definition and factor parts alike
def is_elsewhere(title: str, elsewhere: frozenset[str], path: str = "") -> bool:
    """Whether a definition titled `title` (`Rack.MockRequest.env_for`) in the file `path`
    is one of the names `elsewhere` holds: its dotted name, or its module's name and its
    own (`tablex.deepcompare` in `tablex.py`), ends with one (`env_for`,
    `mockrequest.env_for`; not `cordovainterface.haspermission` for
    `PermissionHelper.hasPermission`). A qualifier written as a variable named after its
    type stands for the type, its interface and its implementation
    (`cordovaInterface.hasPermission`: `CordovaInterfaceImpl.hasPermission`)."""
    own = re.sub(r"[.:#]+", ".", title.split(" ")[0]).lower().split(".")
    module = [PurePosixPath(path).stem.lower(), *own] if path else own
    return any(_ends_with(d, name.split(".")) for name in elsewhere for d in (own, module))


def _ends_with(parts: list[str], name: list[str]) -> bool:
    """Whether the dotted `parts` end with `name`'s, each qualifier also as `IName` or
    `NameImpl`."""
    if len(parts) < len(name) or parts[-1] != name[-1]:
        return False
    tail = parts[len(parts) - len(name) : -1]
    return all(p in (q, f"i{q}", f"{q}impl") for p, q in zip(tail, name[:-1], strict=True))


def quoted_parts(
    records: Mapping[str, Record], names: tuple[str, ...], *, unit: float
) -> dict[str, float]:
    """The `quoted` part of each candidate that holds a quoted name (see the module)."""
    if not names or not records:
        return {}
    words = [re.compile(rf"(?<![\w$]){re.escape(n)}(?![\w$])") for n in names]
    holds = {rid: [bool(w.search(rec.content)) for w in words] for rid, rec in records.items()}
    n = len(records)
    held = [sum(h[i] for h in holds.values()) for i in range(len(words))]
    weight = [(1.0 - (k - 1) / n) ** RARITY if k else 0.0 for k in held]
    out: dict[str, float] = {}
    for rid, has in holds.items():
        share = sum(w for w, h in zip(weight, has, strict=True) if h) / len(words)
        if share > 0:
            out[rid] = QUOTED_BOOST * unit * share
    return out
