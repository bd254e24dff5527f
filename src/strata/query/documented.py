"""Questions that ask where a name is documented ("where is configure documented", "docs for
wrap_logger", "is BoundLogger documented") or for an example of its use ("show me an
example of using bind", "how do I use wrap_logger"); pure, `strata.query.line_steps`
finds the passages.
"""

from __future__ import annotations

import re

from strata.query.lookup.qualifiers import last_part
from strata.query.phrases import KIND, KIND_AFTER, NAME, THE
from strata.query.question_filters import rx

__all__ = ["asked_usage", "first_call", "writes"]

# Each asks of the whole question (a doc comment's "See [Channel] interface documentation
# for details." or "Rack response to use for files" mentions, and asks nothing).
_LEAD = (
    r"^\W*(?:(?:can|could)\s+you\s+)?"
    r"(?:(?:please\s+)?(?:show|give|find)\s+me\s+|is\s+there\s+|are\s+there\s+(?:any\s+)?)?"
)
_TAIL = r"\W*$"
_DOCUMENTED = rx(
    rf"^\W*where\s+(?:is|are)\s+{THE}{KIND}{NAME}{KIND_AFTER}\s+(?:documented|described|explained)"
    rf"{_TAIL}",
    rf"^\W*(?:is|are)\s+{THE}{KIND}{NAME}{KIND_AFTER}\s+documented{_TAIL}",
    rf"{_LEAD}(?:the\s+)?(?:docs?|documentation)\s+(?:for|of|on|about)\s+{THE}{KIND}{NAME}{KIND_AFTER}"
    rf"{_TAIL}",
    rf"^\W*где\s+(?:описан[аоы]?|документирован[аоы]?)\s+{NAME}{_TAIL}",
)
_EXAMPLE = rx(
    rf"{_LEAD}(?:an?\s+)?(?:examples?|samples?)\s+(?:of\s+)?(?:using\s+|calling\s+|how\s+to\s+use\s+)?"
    rf"{THE}{KIND}{NAME}{KIND_AFTER}{_TAIL}",
    rf"^\W*how\s+(?:do|can|should)\s+(?:i|we|you)\s+(?:use|call)\s+{THE}{KIND}{NAME}{KIND_AFTER}{_TAIL}",
    rf"{_LEAD}(?:an?\s+)?(?:examples?\s+)?(?:usage|use)\s+(?:examples?\s+)?(?:of|for)\s+{THE}{KIND}{NAME}"
    rf"{KIND_AFTER}{_TAIL}",
    rf"^\W*{NAME}\s+(?:usage\s+)?examples?{_TAIL}",
    rf"^\W*(?:покажи\s+)?(?:пример\w*)\s+(?:использования\s+|вызова\s+)?{NAME}{_TAIL}",
)
_DEFINING = re.compile(
    r"\b(?:def|function|fn|func|fun|sub|class|struct|interface|type|trait|macro_rules!)\s+$"
)
_WORDS = ("document", "docs", "doc ", "describ", "explain", "example", "sample", "usage", "use ")


def asked_usage(query: str) -> tuple[str, str]:
    """(`documented` or `example`, the name) a question asks for, or ("", "")."""
    said = query.casefold() + " "
    if not any(w in said for w in (*_WORDS, "описан", "документ", "пример")):
        return "", ""
    for kind, patterns in (("documented", _DOCUMENTED), ("example", _EXAMPLE)):
        for pattern in patterns:
            m = pattern.search(query)
            if m and _is_code_name(name := m.group(1).strip("`'\"").rstrip("?!")):
                return kind, name.removesuffix("()")
    return "", ""


def writes(name: str) -> re.Pattern[str]:
    """A passage that writes `name` (its last part) as a whole word, as written."""
    tail = last_part(name)
    return re.compile(rf"(?<![\w$]){re.escape(tail)}(?![\w$])")


def first_call(text: str, name: str) -> int | None:
    """Where `text` first calls or builds `name` (its last part: `name(`, `.name(`, `new
    Name(`, `Name::new(`, `name!(`), not where it defines it (`def name(`); None if it
    does not."""
    tail = re.escape(last_part(name))
    for m in re.finditer(rf"(?<![\w$]){tail}\s*!?\(|\b{tail}::new\b", text):
        if not _DEFINING.search(text[max(0, m.start() - 24) : m.start()]):
            return m.start()
    return None


def _is_code_name(name: str) -> bool:
    """A name as code writes it (`bind`, `wrap_logger`, `BoundLogger`, `Client.send`), not
    a phrase's word ("the docs", "this")."""
    return bool(
        re.fullmatch(r"[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*(?:\(\))?", name)
    ) and (
        name.lower() not in {"this", "it", "that", "them", "these", "those", "the", "api", "code"}
    )
