"""Questions about where an error is caught or handled ("where is TemplateNotFound caught",
"who catches IOException", "где перехватывается X") and the lines that catch one, in each
language's way (pure; `strata.query.line_steps` searches for them).
"""

from __future__ import annotations

import re

from strata.query.lookup.qualifiers import last_part
from strata.query.phrases import END, NAME, THE
from strata.query.question_filters import rx

__all__ = ["CATCH_WORDS", "catching", "caught_name"]

_CATCH = r"(?:caught|handled|rescued|trapped|intercepted)"
_ASKS = rx(
    rf"\bwhere\s+(?:is|are)\s+{THE}{NAME}\s+(?:exceptions?\s+|errors?\s+)?(?:being\s+)?{_CATCH}"
    r"(?=\s*(?:[?.!]|$|\s(?:by|in|from|when|during|at|inside|within)\b))",
    rf"\b(?:who|what)\s+(?:catches|handles|rescues|traps)\s+{THE}{NAME}{END}",
    rf"\b(?:which|what)\s+(?:functions?|methods?|code|places|handlers?)\s+"
    rf"(?:catch|handle|rescue)(?:es)?\s+{THE}{NAME}{END}",
    rf"\bwhere\s+(?:do|does|did|can)\s+(?:we|i|you|they|it|the\s+code)\s+"
    rf"(?:catch|handle|rescue)\s+{THE}{NAME}{END}",
    # the whole question: "CouchDB handler for Doctrine CouchDB ODM" names a class's job
    rf"^\W*(?:(?:exception|error)\s+)?(?:handlers?|catch\s+(?:blocks?|sites?|clauses?))\s+"
    rf"(?:of|for)\s+{THE}{NAME}\W*$",
    rf"\bгде\s+(?:перехватывается|обрабатывается|ловится|ловят|перехватывают)\s+{NAME}{END}",
    rf"\bкто\s+(?:перехватывает|обрабатывает|ловит)\s+{NAME}{END}",
)
# the words a lexical search for the catching lines uses besides the error's name
CATCH_WORDS = "except catch rescue"


def caught_name(query: str) -> str:
    """The error a question asks where it is caught ("" none): a name with a capital or
    a qualifier (`TemplateNotFound`, `io.EOF`, `ErrNotExist`), not a plain word ("where
    are errors handled" asks about a topic)."""
    said = query.casefold()
    if not any(w in said for w in ("catch", "caught", "handl", "rescu", "trap", "intercept")) and (
        not any(w in said for w in ("перехват", "обрабат", "лов"))
    ):
        return ""
    for pattern in _ASKS:
        if (m := pattern.search(query)) and re.search(r"[A-Z.:]", name := m.group(1).strip("`'\"")):
            return name.removesuffix("()")
    return ""


def catching(name: str) -> re.Pattern[str]:
    """The lines that catch `name` (its last part, any qualifier before it): Python's
    `except (A, X) as e:`, `catch (X e)`/`catch (A | X e)`/`catch (e: X)`, Ruby's `rescue
    A, X => e`, Elixir's `rescue e in X`, Scala's `case e: X =>`, `instanceof X`, Go's
    `errors.Is(err, X)` and `errors.As(err, &x)` of a `*X`, Perl's `->isa('X')`."""
    tail = re.escape(last_part(name))
    qualified = rf"(?:[\w$]+(?:\.|::|\\))*\\?{tail}\b"
    return re.compile(
        rf"\bexcept\b[^:\n]*?(?<![\w.]){qualified}"
        rf"|\bcatch\s*\([^)\n]*?(?<![\w.$]){qualified}"
        rf"|\brescue\b[^\n]*?(?<![\w:]){qualified}"
        rf"|\bcase\s+\w+\s*:\s*{qualified}|\bcase\s+\*?{qualified}\s*[:,]"
        rf"|\binstanceof\s+{qualified}"
        rf"|\berrors\.(?:Is|As)\([^)\n]*?(?<![\w.]){qualified}"
        rf"|->isa\(\s*['\"](?:\w+::)*{tail}['\"]"
    )
