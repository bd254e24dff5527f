"""A sentence's words in a candidate's name or heading (pure).

A doc comment, a README sentence or a question often says in words what the code's name
says in parts: "Determine if a value is a plain Object" and `isPlainObject`, "Remove an
interceptor" and `InterceptorManager.eject`'s neighbours, a section "Custom option
processing" and "You may specify a function to do custom processing of options". The
embedder reads the name as sub-word pieces and BM25 weighs it as one more word of a long
chunk; this part counts it as the name: the share of a definition's name words (or a doc
section's heading words) that the sentence holds, each weighed by how few candidates'
names hold it (`option` in every name of a CLI library tells none apart). A name at least
half held gets `TITLE_BOOST` rank-1 units times the share squared.

Measured over the whole benchmark (docs/benchmarks.md, fifth pass): applied when both
lists are fused; in lexical or semantic search alone it cost developer questions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final

from strata.query.quoted import is_elsewhere
from strata.query.ranking import DEFINITION_KINDS
from strata.text.tokens import STOP_WORDS, split_identifier
from strata.types import Record

TITLE_BOOST: Final = 0.4  # rank-1 units for a name the sentence holds in full
TITLE_MIN_SHARE: Final = 0.5
_MIN_STEM: Final = 4  # a word and a name part match when one starts the other (4+ letters)
_MAX_SUFFIX: Final = 3  # and the other is at most this much longer: `values` ~ `value`


def title_words(rec: Record) -> tuple[str, ...]:
    """The content words of a code definition's own name (`Headers.isPlainObject`: plain,
    object) or of a doc section's heading; none for anything else."""
    if not rec.title:
        return ()
    if rec.layer == "D0_DOC_CHUNKS":
        parts = (p for w in re.findall(r"[A-Za-z]\w*", rec.title) for p in split_identifier(w))
        return tuple(dict.fromkeys(p for p in parts if len(p) > 2 and p not in STOP_WORDS))
    if rec.layer != "C0_SOURCE_CHUNKS" or rec.kind not in DEFINITION_KINDS:  # titled by a name
        return ()
    name = re.split(r"[.:#]+", rec.title.split(" ")[0])[-1]
    return tuple(p for p in split_identifier(name) if len(p) > 1 and p not in STOP_WORDS)


def title_parts(
    records: Mapping[str, Record],
    words: frozenset[str],
    *,
    unit: float,
    elsewhere: frozenset[str] = frozenset(),
) -> dict[str, float]:
    """The `title` part of each candidate whose name the sentence's `words` hold at least
    `TITLE_MIN_SHARE` of (weighed by rarity among the candidates' names); none for the
    definition of a name the sentence says its code uses (`elsewhere`, lower-case)."""
    if not words or TITLE_BOOST <= 0:
        return {}
    names = {
        rid: ()
        if elsewhere and is_elsewhere(rec.title or "", elsewhere, rec.path)
        else title_words(rec)
        for rid, rec in records.items()
    }
    common = commonness(names.values())
    out: dict[str, float] = {}
    for rid, parts in names.items():
        share = title_share(parts, words, common)
        if share >= TITLE_MIN_SHARE:
            out[rid] = TITLE_BOOST * unit * share * share
    return out


def commonness(names: Iterable[tuple[str, ...]]) -> dict[str, float]:
    """Each name word's share of the named candidates that hold it."""
    named = [set(n) for n in names if n]
    count: dict[str, int] = {}
    for parts in named:
        for p in parts:
            count[p] = count.get(p, 0) + 1
    return {p: c / len(named) for p, c in count.items()}


def title_share(
    parts: tuple[str, ...], words: frozenset[str], common: Mapping[str, float]
) -> float:
    """The share of `parts` found among `words`, each found part counting 1 - its
    commonness."""
    if not parts:
        return 0.0
    found = sum(1.0 - common.get(p, 0.0) for p in parts if any(same_word(p, w) for w in words))
    return found / len(parts)


def same_word(a: str, b: str) -> bool:
    """Equal, or one starts the other and is at most `_MAX_SUFFIX` letters shorter
    (`value`/`values`, `parse`/`parsed`; not `set`/`settings`)."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return (
        len(short) >= _MIN_STEM and long.startswith(short) and len(long) - len(short) <= _MAX_SUFFIX
    )
