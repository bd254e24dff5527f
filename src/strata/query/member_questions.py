"""Questions that ask what a type defines (pure): "what methods does Environment have",
"list the methods of the Template class", "fields of Config", "what's in class Node".
`strata.query.member_steps` lists them from the symbol catalogue."""

from __future__ import annotations

from strata.query.phrases import END, KIND, KIND_AFTER, NAME, THE
from strata.query.question_filters import rx

__all__ = ["members_asked"]

_MEMBERS = r"(?:methods|functions|fields|members|properties|attributes|operations|variants)"
_TYPE = r"(?:class|struct|interface|type|trait|enum)"
_HAVE = r"(?:have|has|define|defines|expose|exposes|provide|provides|offer|contain|declare)"
_ASKS = rx(
    rf"\b(?:what|which)\s+{_MEMBERS}\s+(?:does|do)\s+{THE}{KIND}{NAME}{KIND_AFTER}\s+{_HAVE}\b",
    rf"\b(?:list|show|give|find)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+)?{_MEMBERS}\s+"
    rf"(?:of|in|on)\s+{THE}{KIND}{NAME}{KIND_AFTER}{END}",
    rf"^\W*(?:all\s+)?(?:the\s+)?{_MEMBERS}\s+(?:of|in|on)\s+{THE}{KIND}{NAME}{KIND_AFTER}\W*$",
    rf"\b(?:what|which)\s+(?:are\s+)?(?:the\s+)?{_MEMBERS}\s+(?:of|in|on)\s+{THE}{KIND}{NAME}"
    rf"{KIND_AFTER}{END}",
    rf"\bwhat(?:'s|\s+is)\s+in\s+(?:the\s+)?(?:class|struct|interface|type|trait|enum)\s+{NAME}{END}",
    rf"\bwhat\s+does\s+(?:the\s+)?(?={_TYPE}\s|\S+\s+{_TYPE}\s)(?:{_TYPE}\s+)?{NAME}(?:\s+{_TYPE})?"
    r"\s+(?:contain|hold|define)\b",
    rf"\b(?:какие\s+(?:методы|поля)\s+(?:есть\s+)?(?:у\s+)?(?:класса\s+)?|(?:методы|поля)\s+"
    rf"класса\s+){NAME}{END}",
)


def members_asked(query: str) -> str:
    """The type a question asks the members of ("" none)."""
    said = query.casefold()
    words: tuple[str, ...] = (
        "method",
        "function",
        "field",
        "member",
        "propert",
        "attribute",
        "operation",
    )
    words += ("contain", "define", "hold", "variant", "what's in", "what is in", "метод", "пол")
    if not any(w in said for w in words):
        return ""
    for pattern in _ASKS:
        if m := pattern.search(query):
            return m.group(1).strip("`'\"").removesuffix("()")
    return ""
