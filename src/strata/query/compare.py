"""Questions that compare two names (pure): "what is the difference between Template and
Environment", "BoundLogger vs BoundLoggerLazyProxy", "compare dumps and dump", "how does
X differ from Y"; the plan shows both definitions side by side."""

from __future__ import annotations

import re

from strata.query.phrases import NAME, THE
from strata.query.question_filters import rx

__all__ = ["compared"]

_ASKS = rx(
    rf"\b(?:what(?:'s|\s+is|\s+are)?\s+)?(?:the\s+)?differences?\s+between\s+{THE}{NAME}\s+and\s+"
    rf"{THE}{NAME}\W*$",
    rf"^\W*(?:compare\s+)?{NAME}\s+(?:vs\.?|versus|or|and)\s+{NAME}\W*$",
    rf"\bhow\s+(?:does|do|is|are)\s+{THE}{NAME}\s+(?:differ|different)\s+from\s+{THE}{NAME}\W*$",
    rf"\bwhen\s+(?:should\s+I|to)\s+use\s+{THE}{NAME}\s+(?:instead\s+of|rather\s+than|over)\s+"
    rf"{THE}{NAME}\W*$",
    rf"\b(?:разница|отличие|различие)\s+между\s+{NAME}\s+и\s+{NAME}\W*$",
)
_CODE = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*")


def compared(query: str) -> tuple[str, str] | None:
    """The two names a question compares, written as code, or None. The bare "X and Y" or
    "X or Y" form needs both code-shaped (`Template or Environment` reads as two names,
    "cats and dogs" does not)."""
    said = query.casefold()
    if not any(w in said for w in ("differ", " vs", "versus", "compare", " or ", " and ")) and (
        not any(w in said for w in ("instead", "rather", "разниц", "отлич", "различ"))
    ):
        return None
    for n, pattern in enumerate(_ASKS):
        if m := pattern.search(query):
            a, b = (g.strip("`'\"").rstrip("?!").removesuffix("()") for g in m.groups())
            if not (_CODE.fullmatch(a) and _CODE.fullmatch(b)) or a == b:
                return None
            bare = n == 1 and not re.search(r"\b(?:compare|vs\.?|versus)\b", said)
            if bare and not (_shaped(a) and _shaped(b)):
                return None
            return a, b
    return None


def _shaped(name: str) -> bool:
    """Written as only code writes a name: a capital inside, an underscore, a separator."""
    return bool(re.search(r"[a-z][A-Z]|_|\.|::|^[A-Z][a-z]+[A-Z]", name))
