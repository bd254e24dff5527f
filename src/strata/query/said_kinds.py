"""The kind of definition a question names besides its name (pure): "where is the Command
struct defined" asks for the type, not `App.Command`, a method of that name; "the retry
decorator" for a function. Only the matches of that kind are its definitions, when there
are any (a kind stands for its like: a Go "class" is a struct, a "function" may be a
method); else every match is."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from strata.query.kinds import TYPE_KINDS
from strata.query.phrases import KIND_WORD

_CALLABLE = frozenset({"function", "method", "constructor", "procedure"})
_VALUE = frozenset({"constant", "variable", "field", "property", "attribute"})
_GROUPS = {
    **dict.fromkeys(("class", "struct", "type", "interface", "trait", "enum"), TYPE_KINDS),
    **dict.fromkeys(("function", "method", "decorator", "procedure"), _CALLABLE),
    **dict.fromkeys(("constant", "variable", "property", "field", "attribute"), _VALUE),
    "module": frozenset({"module", "package", "namespace"}),
}
T = TypeVar("T")


def said_kinds(query: str, name: str) -> tuple[str, ...]:
    """The symbol kinds the words of `query` other than `name` say the name is."""
    rest = re.sub(re.escape(name), " ", query, flags=re.IGNORECASE) if name else query
    kinds: set[str] = set()
    for word in KIND_WORD.findall(rest):
        kinds |= _GROUPS.get(word.lower(), {word.lower()})
    return tuple(sorted(kinds))


def of_kinds(matches: Sequence[T], kinds: Sequence[str]) -> list[T]:
    """Those of `matches` (each with a `.kind`) of `kinds`; all of them when none is."""
    wanted = set(kinds)
    kept = [m for m in matches if getattr(m, "kind", "") in wanted]
    return kept or list(matches)
