"""Questions about the code's graph, as patterns (pure): who calls a name, what it calls,
where it is tested, what derives from it and what it derives from. `strata.query.questions`
classifies with them; each pattern's group 1 is the name asked about."""

from __future__ import annotations

import re

from strata.query.phrases import END, KIND, KIND_AFTER, KINDS, NAME, THE
from strata.query.question_filters import rx

__all__ = ["GRAPH_INTENTS", "RAISED", "WALKS_OF_CODE", "imported_path"]

# A question about where an error is raised or thrown.
RAISED = re.compile(r"\b(?:rais|throw)|брос|выбрасыва|возбужда", re.IGNORECASE)
# Raising or throwing an error is a call of its constructor (`raise TemplateNotFound(...)`,
# `throw new JsonException(...)`): "where is X raised" asks for those sites.
CALLERS = rx(
    rf"\bwho\s+(?:calls|invokes|uses|raises|throws)\s+{NAME}{END}",
    rf"\bwhat\s+(?:calls|invokes|uses|raises|throws)\s+{NAME}{END}",
    rf"\b(?:which|what)\s+(?:functions?|methods?|code|classes|modules|files|places)\s+"
    rf"(?:calls?|uses?|invokes?|raises?|throws?)\s+{NAME}{END}",
    rf"\b(?:callers|call\s+sites|usages?)\s+of\s+{NAME}{END}",
    rf"\bwhere\s+(?:is|are)\s+{NAME}\s+"
    r"(?:called|used|invoked|instantiated|constructed|raised|thrown)\b",
    rf"\bwho\s+(?:creates|instantiates|constructs)\s+{THE}{NAME}{END}",
    # "when is Response.close called": the places that call it say when
    rf"\bwhen\s+(?:is|are|does|do)\s+{NAME}\s+(?:get\s+)?(?:called|invoked|run|executed|"
    r"triggered|fired)\b",
    # "where is the OperatorFunction type used", "where is the class Context used"
    rf"\bwhere\s+(?:is|are)\s+{THE}(?={KINDS}\s|\S+\s+{KINDS}\s)(?:{KINDS}\s+)?{NAME}"
    rf"(?:\s+{KINDS})?\s+(?:used|referenced|called|instantiated)\b",
    rf"\bwhere\s+(?:do|does|did|can)\s+(?:we|i|you|they|it|the\s+code)\s+"
    rf"(?:call|use|invoke|raise|throw)\s+{NAME}{END}",
    rf"\bwhat\s+(?:is|are)\s+{NAME}\s+(?:called|used|invoked)\s+(?:by|from)\b",
    rf"\bкто\s+(?:вызывает|бросает|выбрасывает)\s+{NAME}{END}",
    rf"\bгде\s+(?:вызывается|выбрасывается|бросается|возбуждается)\s+{NAME}{END}",
    rf"\bгде\s+(?:используется|используют|применяется)\s+{NAME}{END}",
    rf"\bкто\s+использует\s+{NAME}{END}",
)
# Where a name is tested: the tests that call it, and those that name it.
TESTS = rx(
    rf"\b(?:where|how)\s+(?:is|are)\s+{THE}{KIND}{NAME}{KIND_AFTER}\s+tested\b",
    rf"\b(?:unit\s+)?(?:tests?|test\s+cases?)\s+(?:for|of)\s+{THE}{KIND}{NAME}{END}",
    rf"\b(?:which|what)\s+tests?\s+(?:cover|exercise|call|use|check)s?\s+{THE}{KIND}{NAME}{END}",
    rf"\bгде\s+(?:тестируется|тестируют|проверяется)\s+{NAME}{END}",
    rf"\bтесты\s+(?:для|на)\s+{NAME}{END}",
    rf"\bкакие\s+тесты\s+(?:проверяют|покрывают|вызывают)\s+{NAME}{END}",
)
# Asked of a name written as code only ("how is `retry` used", "what does parse() depend
# on"): of a plain word ("how is caching used", "what does payments depend on") they ask
# about a topic or a document, unless the index defines the word (`plain_names`).
CALLERS_OF_CODE = rx(
    rf"\bhow\s+(?:is|are)\s+{NAME}\s+(?:used|called|invoked)\b",
    rf"\bwhere\s+(?:is|are)\s+{NAME}\s+referenced\b",
    rf"^\W*(?:find\s+|show\s+(?:me\s+)?|list\s+)?(?:all\s+)?(?:the\s+)?references\s+to\s+{NAME}\W*$",
)
CALLEES_OF_CODE = rx(
    rf"\bwhat\s+(?:does|do)\s+{NAME}\s+(?:use|depend\s+on|rely\s+on)\b",
    rf"\bdependencies\s+of\s+{NAME}{END}",
)
WALKS_OF_CODE = (("callers", CALLERS_OF_CODE), ("callees", CALLEES_OF_CODE))
CALLEES = rx(
    rf"\bwhat\s+(?:does|do)\s+{NAME}\s+(?:call|invoke)\b",
    rf"\b(?:what|which)\s+(?:functions|methods)\s+(?:does|do)\s+{NAME}\s+(?:call|invoke|use)\b",
    rf"\b(?:what|which)\s+(?:functions|methods)?\s*(?:is|are|gets?)\s+called\s+(?:by|from|in)\s+"
    rf"{NAME}{END}",
    rf"\b(?:callees|calls\s+made)\s+(?:of|by)\s+{NAME}{END}",
    rf"\bwhat\s+is\s+called\s+by\s+{NAME}{END}",
    rf"\bчто\s+вызывает\s+функция\s+{NAME}{END}",
)
# What derives from a type, and what a type derives from (the `inherits` edges).
SUBCLASSES = rx(
    rf"\b(?:which|what)\s+(?:classes|types|structs|interfaces|exceptions|errors)\s+(?:inherit|"
    rf"derive|extend|subclass|implement)s?\s+(?:from\s+)?{THE}{KIND}{NAME}{END}",
    rf"\b(?:subclasses|sub-classes|descendants|implementations|implementers|implementors|"
    rf"derived\s+classes|child\s+classes)\s+of\s+{THE}{KIND}{NAME}{END}",
    rf"\b(?:who|what)\s+(?:inherits|derives|extends|implements|subclasses)\s+(?:from\s+)?"
    rf"{THE}{KIND}{NAME}{END}",
    rf"\b(?:наследники|подклассы|потомки|реализации)\s+(?:класса\s+)?{NAME}{END}",
    rf"\bкто\s+наследует(?:ся\s+от)?\s+{NAME}{END}",
    rf"\bкакие\s+классы\s+(?:наследуют(?:ся)?|реализуют)\s+(?:от\s+)?{NAME}{END}",
    rf"\b(?:which|what)\s+(?:classes|types|exceptions|errors)\s+(?:are\s+)?(?:derived|"
    rf"inherited)\s+from\s+"
    rf"{THE}{KIND}{NAME}{END}",
    # "classes that extend X", "all types implementing X", "structs conforming to X"
    rf"\b(?:classes|types|structs|interfaces|objects)\s+(?:that|which)\s+(?:inherit|derive|"
    rf"extend|subclass|implement|conform)s?\s+(?:from\s+|to\s+)?{THE}{KIND}{NAME}{END}",
    rf"\b(?:classes|types|structs|interfaces|objects)\s+(?:inheriting\s+from|deriving\s+from|"
    rf"extending|subclassing|implementing|conforming\s+to)\s+{THE}{KIND}{NAME}{END}",
)
BASES = rx(
    rf"\bwhat\s+(?:does|do)\s+{THE}{KIND}{NAME}\s+(?:inherit|derive|extend|implement|subclass)"
    rf"(?:\s+from)?\b",
    rf"\b(?:base\s+class(?:es)?|parent\s+class(?:es)?|superclass(?:es)?|super\s+class(?:es)?|"
    rf"supertypes?|base\s+types?)\s+of\s+{THE}{KIND}{NAME}{END}",
    rf"\bwhat\s+is\s+{THE}{KIND}{NAME}\s+(?:derived|inherited)\s+from\b",
    rf"\bот\s+(?:чего|кого|какого\s+класса|каких\s+классов)\s+наследуется\s+{NAME}{END}",
    rf"\b(?:базовые\s+классы|базовый\s+класс|родители|родитель)\s+(?:класса\s+)?{NAME}{END}",
)
# Who imports a module or a name.
IMPORTERS = rx(
    rf"\b(?:who|what)\s+imports\s+{THE}{KIND}{NAME}{END}",
    rf"\bwhere\s+(?:is|are)\s+{THE}{KIND}{NAME}\s+imported\b",
    rf"\b(?:which|what)\s+(?:files?|modules?|packages?|code|places)\s+imports?\s+{THE}{KIND}{NAME}{END}",
    rf"\b(?:importers|imports)\s+of\s+{THE}{KIND}{NAME}{END}",
    rf"\bкто\s+импортирует\s+{NAME}{END}",
    rf"\bгде\s+импортиру(?:ется|ют)\s+{NAME}{END}",
)
# Who imports a file named by its path (`src/app/utils.py`), not by a module's name.
_PATH = r"[`'\"]?((?:[\w.-]+/)+[\w.-]+)[`'\"]?"
_A_FILE = rf"{THE}(?:file\s+|module\s+)?{_PATH}"
IMPORTED_PATH = rx(
    rf"\b(?:who|what)\s+imports\s+{_A_FILE}",
    rf"\bwhere\s+(?:is|are)\s+{_A_FILE}\s+imported\b",
    rf"\b(?:importers|imports)\s+of\s+{_A_FILE}",
    rf"\bкто\s+импортирует\s+{_A_FILE}",
)


def imported_path(query: str) -> str:
    """The path a "who imports src/app/utils.py" question asks about ("" none)."""
    if "/" not in query:
        return ""
    m = next((m for p in IMPORTED_PATH if (m := p.search(query))), None)
    return m.group(1) if m else ""


# In this order: "which tests call X" asks for tests, "what calls X" for callers. Each
# group's patterns are tried only when its word is in the question (a router runs on
# every search: 20-40 us a question saved).
_CALLED = (
    r"call|invok|use|usag|instantia|construct|creat|rais|throw"
    r"|вызыва|использ|примен|брос|выбрасыва|возбужда"
)
GRAPH_INTENTS = (
    ("tests", rx(r"test|тест"), TESTS),
    (
        "subclasses",
        rx(
            r"inherit|deriv|extend|subclass|implement|child|descendant|наслед|подкласс|потомк|реализ"
        ),
        SUBCLASSES,
    ),
    ("bases", rx(r"inherit|deriv|extend|implement|base|parent|super|наслед|базов|родител"), BASES),
    ("importers", rx(r"import|импорт"), IMPORTERS),
    ("callers", rx(_CALLED), CALLERS),
    ("callees", rx(r"call|invok|use|вызыва"), CALLEES),
)
