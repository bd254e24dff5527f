"""Query routing (pure): a question and what the index holds -> a retrieval `Plan` over layers.

Rule-based and transparent: every decision leaves a human-readable reason in the plan,
which `strata search --explain` prints. The rules follow the "Retrieval over layers"
table of shared/spec/layers.md:

| intent | steps |
|---|---|
| `symbol` | C1 exact name match, then C0 search |
| `callers` / `callees` | C2 walk, each link shown with its C0 chunk |
| `entrypoints` | C3 listing by type, route, framework and subject |
| `workflow` | D4 search, D0 search, then C0 search |
| `integrations` | D6 records of the subject, then D5 relations |
| `relations` | D5 relations of the subject, then D6 records |
| `definition` | D0 search, D1 cards, D3 entities, C0 search |
| `free_text` | one plain hybrid search (exactly `Engine.search`) |

An optional `Classifier` (e.g. an LLM) may replace the rules' classification; the
plan is still built here from its answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from strata import layers as L
from strata.tokens import STOP_WORDS, is_identifier_like, query_terms

__all__ = [
    "INTENTS",
    "Classification",
    "Classifier",
    "IndexFacts",
    "Plan",
    "Step",
    "classify",
    "route",
]

INTENTS = (
    "symbol",
    "callers",
    "callees",
    "entrypoints",
    "workflow",
    "integrations",
    "relations",
    "definition",
    "free_text",
    "empty",
)
METHODS = ("symbol", "callers", "callees", "entrypoints", "search", "related")
MAX_ROUTED_CHARS = 2000  # the same cap as the searcher: rules read only the head of a long query

# A name as written in a question: `Client.send`, "charge_card", charge_card(), pkg::f.
_NAME = r"[`'\"]?([A-Za-z_][\w.:]*?)(?:\(\))?[`'\"]?"
_WORD = r"[`'\"]?([\w][\w.-]*?)[`'\"]?"
_THE = r"(?:(?:the|a|an)\s+)?"
_END = r"(?=[\s?!,;]|\.(?:\s|$)|$)"  # a dot ends a name only at a sentence end
_F = re.IGNORECASE


def _rx(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, _F) for p in patterns)


_CALLERS = _rx(
    rf"\bwho\s+(?:calls|invokes|uses)\s+{_NAME}{_END}",
    rf"\bwhat\s+(?:calls|invokes)\s+{_NAME}{_END}",
    rf"\b(?:callers|call\s+sites|usages?)\s+of\s+{_NAME}{_END}",
    rf"\bwhere\s+(?:is|are)\s+{_NAME}\s+(?:called|used|invoked)\b",
    rf"\bкто\s+вызывает\s+{_NAME}{_END}",
    rf"\bгде\s+вызывается\s+{_NAME}{_END}",
)
_CALLEES = _rx(
    rf"\bwhat\s+(?:does|do)\s+{_NAME}\s+call\b",
    rf"\bwhat\s+(?:functions|methods)\s+(?:does|do)\s+{_NAME}\s+call\b",
    rf"\b(?:callees|calls\s+made)\s+(?:of|by)\s+{_NAME}{_END}",
    rf"\bwhat\s+is\s+called\s+by\s+{_NAME}{_END}",
    rf"\bчто\s+вызывает\s+функция\s+{_NAME}{_END}",
)
_SYMBOL = _rx(
    rf"\bwhere\s+(?:is|are)\s+{_THE}{_NAME}\s+(?:defined|declared|implemented)\b",
    rf"\b(?:definition|declaration|source)\s+of\s+{_NAME}{_END}",
    rf"\b(?:find|show|locate|open)\s+(?:me\s+)?{_THE}(?:class|function|method|symbol|type)\s+{_NAME}{_END}",
    rf"\bгде\s+(?:определ\w*|объявлен\w*|реализован\w*)\s+{_NAME}{_END}",
)
_ENTRY_HTTP = _rx(
    r"\b(?:http|rest|web|api)\s+(?:endpoints?|routes?|handlers?)\b",
    r"\bendpoints?\b",
    r"\broutes?\b",
    r"\burls?\b.*\b(?:served|handled|exposed)\b",
    r"\bэндпоинт\w*|\bмаршрут\w*",
)
_ENTRY_CLI = _rx(
    r"\bcli\b",
    r"\bcommand[- ]line\b",
    r"\bsub-?commands?\b",
    r"\b(?:which|what|list|all)\s+(?:\w+\s+)?commands\b",
    r"\bкоманд\w*\s+(?:cli|консол\w*)|\bконсольн\w+\s+команд\w*",
)
_ENTRY_ANY = _rx(r"\bentry[- ]?points?\b", r"\bточ\w+\s+вход\w*")
_ROUTE = re.compile(r"(?<![\w.:/])(/(?:[\w{}<>:.\-]+/?)+)")
_FRAMEWORKS = ("fastapi", "flask", "django", "click", "typer", "argparse", "express")
_WORKFLOW = _rx(
    r"\bhow\s+(?:does|do|is|are)\s+.+?\s+(?:work|works|happen|handled|processed|done|performed|flow)\b",
    r"\bwhat\s+happens\s+(?:when|if|after|during|to)\b",
    r"\b(?:workflow|scenario|use\s+case|process|steps)\s+(?:of|for|to|when)\b",
    r"\bwhat\s+are\s+the\s+steps\b",
    r"\bhow\s+(?:to|do\s+i|do\s+we|can\s+i|can\s+we|should\s+i)\b",
    r"\bкак\s+(?:работает|работают|происходит|устроен\w*|выполняется|проходит|сделать|оформить)\b",
    r"\bсценари\w*|\bчто\s+происходит\b",
)
_INTEGRATIONS = _rx(
    r"\bintegrat\w*\b",
    r"\b(?:talks?|connects?|sends?\s+\w+)\s+to\b",
    r"\bexternal\s+(?:systems?|services?|apis?)\b",
    r"\bинтегр\w*|\bинтеграци\w*",
)
_RELATIONS = _rx(
    r"\bdepend\w*\s+on\b",
    r"\bdependencies\s+of\b",
    r"\brelated\s+to\b",
    r"\b(?:refer|link|point)\w*\s+to\b",
    r"\breferenc\w+\b",
    r"\bзавис\w+\s+от\b",
    r"\bот\s+чего\s+завис\w*",
    r"\bсвязан\w*\s+с\b",
)
_DEFINITION = _rx(
    rf"^\s*(?:what|who)\s+(?:is|are)\s+{_THE}(?P<term>[^?]+?)\s*\??\s*$",
    r"\bwhat\s+does\s+(?P<term>.+?)\s+mean\b",
    r"\b(?:define|meaning\s+of|definition\s+of)\s+(?P<term>[^?]+)",
    r"\bчто\s+(?:такое|значит|означает)\s+(?P<term>[^?]+)",
)
# Subjects of docs questions: "what does payments integrate with", "integrations of X".
_SOURCE_SUBJECT = _rx(
    rf"\b(?:does|do|did)\s+{_THE}{_WORD}(?:\s+(?:service|module|system|component))?\s+(?:integrate|talk|connect|depend|use|relate|call)\b",
    rf"\b(?:integrations?|dependencies|relations?)\s+(?:of|for)\s+{_THE}{_WORD}{_END}",
    rf"\bинтегрир\w+\s+{_WORD}{_END}",
    rf"\bинтеграци\w+\s+{_WORD}{_END}",
    rf"\b{_WORD}\s+завис\w+\s+от\b",
    rf"\bот\s+чего\s+завис\w*\s+{_WORD}{_END}",
)
_TARGET_SUBJECT = _rx(
    rf"\b(?:integrates?|integrated|talks?|connects?)\s+(?:with|to)\s+{_THE}{_WORD}{_END}",
    rf"\b(?:depends?|rely|relies)\s+on\s+{_THE}{_WORD}{_END}",
    rf"\b(?:related|refers?|links?|points?)\s+to\s+{_THE}{_WORD}{_END}",
    rf"\breferenc\w+\s+{_THE}{_WORD}{_END}",
    rf"\bзавис\w+\s+от\s+{_WORD}{_END}",
    rf"\bсвязан\w*\s+с\s+{_WORD}{_END}",
)
_ENTRY_SUBJECT = _rx(
    rf"\b{_THE}{_WORD}\s+(?:service|module|app|application|package|api|server|cli)\b",
    rf"\b(?:in|of|from|by)\s+{_THE}{_WORD}{_END}",
)
_LANGS = {
    "python": "python",
    "typescript": "typescript",
    "javascript": "javascript",
    "go": "go",
    "golang": "go",
    "rust": "rust",
    "java": "java",
    "ruby": "ruby",
    "markdown": "markdown",
}
_LANG = _rx(
    r"\b(?:in|written\s+in)\s+(python|typescript|javascript|golang|go|rust|java|ruby|markdown)\b(?!\s*\w*\s*(?:domain|service))",
    r"\b(python|typescript|javascript|golang|rust|java|ruby|markdown)\s+(?:code|files?|functions?|classes|modules?|sources?|docs?)\b",
)
_PATH = re.compile(
    r"(?<![\w/:.])((?:[\w.-]+/)+[\w.-]*|[\w-]+\.(?:py|pyi|ts|tsx|js|jsx|go|rs|java|rb|md|rst|txt|toml|yaml|yml|json))(?![\w/])"
)
_IN_TESTS = _rx(
    r"\bin\s+(?:the\s+)?tests?\b", r"\btest\s+(?:code|files?|suite)\b", r"\bв\s+тестах\b"
)
_NO_TESTS = _rx(
    r"\b(?:excluding|without|not\s+in|except|outside(?:\s+of)?)\s+(?:the\s+)?tests?\b",
    r"\bnon-?test\b",
    r"\bбез\s+тестов\b",
)
_DOMAIN = _rx(r"\b(?:in|of)\s+(?:the\s+)?([\w-]+)\s+domain\b", r"\bdomain\s+[`'\"]?([\w-]+)")
_QUOTED = re.compile(r"`([^`]+)`|\"([^\"]+)\"|'([^'\s][^']*)'")
_SUBJECT_NOISE = frozenset(
    {*STOP_WORDS, "service", "services", "documents", "document", "docs", "module", "all"}
    | {"http", "rest", "web", "api", "cli", "endpoints", "routes", "commands", "expose", "our"}
)


@dataclass(frozen=True, slots=True)
class IndexFacts:
    """What the router may know of the index: layers with rows, repos, document domains."""

    layers: frozenset[str] = frozenset(L.ALL_LAYERS)
    repos: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()

    @classmethod
    def from_counts(
        cls,
        counts: Mapping[str, Mapping[str, int]],
        repos: Iterable[str] = (),
        domains: Iterable[str] = (),
    ) -> IndexFacts:
        """Facts from `Store.counts()` (layer -> {"rows": n, ...})."""
        have = frozenset(layer for layer, c in counts.items() if c.get("rows", 0) > 0)
        return cls(have, tuple(repos), tuple(domains))

    def has(self, *layers: str) -> bool:
        """Whether every given layer has rows."""
        return all(layer in self.layers for layer in layers)


@dataclass(frozen=True, slots=True)
class Step:
    """One retrieval: a method over a layer with its arguments, at most `limit` results.

    `weight` is the step's weight in the weighted RRF merge; a `required` step that
    finds nothing empties the answer (an exact name that the index does not have).
    """

    layer: str
    method: str
    args: Mapping[str, Any]
    limit: int
    weight: float = 1.0
    required: bool = False

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for `--explain` and the HTTP API."""
        return {
            "layer": self.layer,
            "method": self.method,
            "args": dict(self.args),
            "limit": self.limit,
            "weight": self.weight,
            "required": self.required,
        }


@dataclass(frozen=True, slots=True)
class Plan:
    """The router's answer: intent, the steps to run, filters, and why (human-readable)."""

    query: str
    intent: str
    steps: tuple[Step, ...]
    filters: Mapping[str, Any] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # filled by the executor: what running the plan found

    @property
    def is_free_text(self) -> bool:
        """Whether this plan is the plain hybrid search."""
        return self.intent == "free_text"

    def with_notes(self, notes: Iterable[str]) -> Plan:
        """The same plan with the executor's notes added."""
        return replace(self, notes=self.notes + tuple(notes))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for `--explain`, `--json` and the HTTP API."""
        return {
            "intent": self.intent,
            "names": list(self.names),
            "filters": dict(self.filters),
            "steps": [s.to_json() for s in self.steps],
            "reasons": list(self.reasons),
            "notes": list(self.notes),
        }

    def describe(self) -> list[str]:
        """Lines for a terminal: intent, filters, each step, reasons and notes."""
        out = [f"intent: {self.intent}" + (f" ({', '.join(self.names)})" if self.names else "")]
        if self.filters:
            out.append("filters: " + ", ".join(f"{k}={v}" for k, v in self.filters.items()))
        for i, s in enumerate(self.steps, 1):
            args = ", ".join(f"{k}={v!r}" for k, v in s.args.items() if k != "query")
            flag = " required" if s.required else ""
            out.append(
                f"step {i}: {s.method} {s.layer} [{args}] limit={s.limit} w={s.weight}{flag}"
            )
        out += [f"why: {r}" for r in self.reasons]
        out += [f"note: {n}" for n in self.notes]
        return out


@dataclass(frozen=True, slots=True)
class Classification:
    """What a question asks: the intent, names (identifiers) and subject it mentions."""

    intent: str
    names: tuple[str, ...] = ()
    subject: str = ""
    target: str = ""
    reason: str = ""
    entry_type: str | None = None
    route: str | None = None
    framework: str | None = None


class Classifier(Protocol):
    """A pluggable classifier (e.g. a local LLM); None means "fall back to the rules"."""

    def classify(self, query: str, facts: IndexFacts) -> Classification | None:
        """The question's classification, or None to let the rules decide."""
        ...


def route(
    query: str,
    facts: IndexFacts | None = None,
    *,
    k: int = 10,
    classifier: Classifier | None = None,
) -> Plan:
    """Plan the retrieval of `query` over the layers the index has.

    Args:
        query: the user's question, as typed.
        facts: which layers have rows, known repos and domains (default: everything).
        k: results wanted; per-step limits are derived from it.
        classifier: optional classifier consulted before the rules.
    """
    facts = facts or IndexFacts()
    head = query.strip()[:MAX_ROUTED_CHARS]
    if not head:
        return Plan(query, "empty", (), reasons=("the query is empty",))
    if not any(t not in STOP_WORDS for t in query_terms(head, drop_stop_words=False)):
        why = "only stop words or punctuation: nothing to route on; plain search"
        return _free_text(query, {}, k, (why,))
    found = classifier.classify(head, facts) if classifier else None
    reasons: list[str] = []
    if found is not None:
        reasons.append(
            f"classifier: {found.intent}" + (f" ({found.reason})" if found.reason else "")
        )
    else:
        found = classify(head)
        reasons.append(found.reason)
    if len(query.strip()) > MAX_ROUTED_CHARS:
        reasons.append(f"only the first {MAX_ROUTED_CHARS} characters were read by the router")
    filters, named = filters_of(head, facts)
    return _build(query, found, filters, facts, k, reasons + named)


def classify(query: str) -> Classification:
    """The rule-based classification of one question (English and some Russian)."""
    for intent, patterns in (("callers", _CALLERS), ("callees", _CALLEES), ("symbol", _SYMBOL)):
        for p in patterns:
            m = p.search(query)
            if m and _is_name(m.group(1)):
                name = _quoted(query) or m.group(1)
                return Classification(intent, (name,), reason=f"{intent}: matched {m.group(0)!r}")
    entry = _entrypoint(query)
    if entry is not None:
        return entry
    if _any(_INTEGRATIONS, query):
        src, tgt = _subject(query, _SOURCE_SUBJECT), _subject(query, _TARGET_SUBJECT)
        return Classification(
            "integrations",
            subject=src,
            target="" if src else tgt,
            reason="integrations: the question asks what a component integrates with",
        )
    if _any(_RELATIONS, query):
        src, tgt = _subject(query, _SOURCE_SUBJECT), _subject(query, _TARGET_SUBJECT)
        return Classification(
            "relations",
            subject=src,
            target="" if src else tgt,
            reason="relations: the question asks what depends on or relates to what",
        )
    if _any(_WORKFLOW, query):
        return Classification(
            "workflow", names=_identifiers(query), reason="workflow: a how/what-happens question"
        )
    for p in _DEFINITION:
        m = p.search(query)
        if m:
            term = m.group("term").strip(" `'\"?.")
            term_names = (term,) if is_identifier_like(term) and " " not in term else ()
            return Classification(
                "definition",
                names=term_names,
                subject=term,
                reason=f"definition: asks what {term!r} is",
            )
    names = _identifiers(query)
    if names and is_identifier_like(query) and not _has_question_word(query):
        return Classification(
            "symbol", names, reason=f"symbol: the query is a code name {names[0]!r}"
        )
    return Classification("free_text", names, reason="free text: no structural intent recognised")


def filters_of(query: str, facts: IndexFacts) -> tuple[dict[str, Any], list[str]]:
    """Filters named in the question: path globs, language, domain, repo, tests."""
    out: dict[str, Any] = {}
    why: list[str] = []
    paths = [_glob(p) for p in _PATH.findall(_ROUTE.sub(" ", _no_urls(query)))]
    paths = [p for p in dict.fromkeys(paths) if p]
    if paths:
        out["path"] = paths
        why.append(f"path filter {', '.join(paths)}: a path in the question")
    m = next((m for p in _LANG if (m := p.search(query))), None)
    if m:
        out["lang"] = _LANGS[m.group(1).lower()]
        why.append(f"language filter {out['lang']}: {m.group(0)!r}")
    if _any(_NO_TESTS, query):
        out["is_test"] = False
        why.append("tests excluded: the question says so")
    elif _any(_IN_TESTS, query):
        out["is_test"] = True
        why.append("tests only: the question asks about tests")
    m = next((m for p in _DOMAIN if (m := p.search(query))), None)
    if m:
        out["domain"] = m.group(1).lower()
        why.append(f"domain filter {out['domain']}: {m.group(0)!r}")
    elif facts.domains:
        named = [d for d in facts.domains if re.search(rf"\b{re.escape(d)}\s+domain\b", query, _F)]
        if named:
            out["domain"] = named[0]
    repo = _repo(query, facts)
    if repo:
        out["repo"] = repo
        why.append(f"repo filter {repo}: the repository is named")
    return out, why


# ---- building the plan ----------------------------------------------------------------------


def _build(
    query: str,
    c: Classification,
    filters: dict[str, Any],
    facts: IndexFacts,
    k: int,
    reasons: list[str],
) -> Plan:
    builder = _BUILDERS.get(c.intent)
    if builder is None:
        return _free_text(query, filters, k, tuple(reasons))
    needs = _NEEDS[c.intent]
    if not any(facts.has(layer) for layer in needs):
        short = "/".join(layer.split("_", 1)[0] for layer in needs)
        reasons.append(f"the index has no {short} rows: plain search instead of {c.intent}")
        return _free_text(query, filters, k, tuple(reasons))
    steps = tuple(s for s in builder(query, c, k) if facts.has(s.layer) or s.layer == "passages")
    steps = tuple(_passages(s) for s in steps)
    return Plan(query, c.intent, steps, filters, c.names, tuple(reasons))


def _free_text(query: str, filters: dict[str, Any], k: int, reasons: tuple[str, ...]) -> Plan:
    step = Step("passages", "search", {"query": query, "layers": None}, k)
    return Plan(query, "free_text", (_passages(step),), filters, (), reasons)


def _passages(step: Step) -> Step:
    """`passages` is shorthand for the default search layers (C0 + D0)."""
    if step.layer != "passages":
        return step
    return replace(step, layer="+".join(L.PASSAGE_LAYERS))


def _search(layer: str, query: str, limit: int, weight: float = 1.0) -> Step:
    layers = None if layer == "passages" else [layer]
    return Step(layer, "search", {"query": query, "layers": layers}, limit, weight)


def _symbol_steps(query: str, c: Classification, k: int) -> list[Step]:
    name = c.names[0]
    return [
        Step(L.C1_SYMBOL_CATALOG, "symbol", {"name": name, "exact": True}, k, 2.0, required=True),
        _search(L.C0_SOURCE_CHUNKS, name, k, 1.0),
    ]


def _walk_steps(query: str, c: Classification, k: int) -> list[Step]:
    return [
        Step(
            L.C2_DEPENDENCY_GRAPH,
            c.intent,
            {"name": c.names[0], "depth": 1},
            max(k, 20),
            required=True,
        )
    ]


def _entry_steps(query: str, c: Classification, k: int) -> list[Step]:
    args = {"type": c.entry_type, "framework": c.framework, "route": c.route, "subject": c.subject}
    return [Step(L.C3_ENTRYPOINTS, "entrypoints", {a: v for a, v in args.items() if v}, max(k, 50))]


def _workflow_steps(query: str, c: Classification, k: int) -> list[Step]:
    return [
        _search(L.D4_WORKFLOW_INDEX, query, 5, 1.5),
        _search(L.D0_DOC_CHUNKS, query, k, 1.0),
        _search(L.C0_SOURCE_CHUNKS, query, k, 0.6),
    ]


def _integration_steps(query: str, c: Classification, k: int) -> list[Step]:
    steps = []
    if c.subject or c.target:
        who = {"source": c.subject} if c.subject else {"target": c.target}
        steps.append(Step(L.D6_INTEGRATION_INDEX, "related", who, max(k, 20), 1.5))
        doc = c.subject or c.target
        direction = "out" if c.subject else "in"
        steps.append(
            Step(L.D5_RELATION_GRAPH, "related", {"document": doc, "direction": direction}, k, 0.8)
        )
    else:
        steps.append(_search(L.D6_INTEGRATION_INDEX, query, k, 1.5))
    steps.append(_search(L.D0_DOC_CHUNKS, query, k, 0.5))
    return steps


def _relation_steps(query: str, c: Classification, k: int) -> list[Step]:
    steps = []
    doc = c.subject or c.target
    if doc:
        args: dict[str, Any] = {"document": doc, "direction": "out" if c.subject else "in"}
        if re.search(r"depend|завис", query, _F):
            args["relation_types"] = ["depends_on", "uses"]
        steps.append(Step(L.D5_RELATION_GRAPH, "related", args, max(k, 20), 1.5))
        who = {"source": doc} if c.subject else {"target": doc}
        steps.append(Step(L.D6_INTEGRATION_INDEX, "related", who, k, 0.8))
    else:
        steps.append(_search(L.D5_RELATION_GRAPH, query, k, 1.5))
    steps.append(_search(L.D0_DOC_CHUNKS, query, k, 0.5))
    return steps


def _definition_steps(query: str, c: Classification, k: int) -> list[Step]:
    steps = []
    if c.names:
        steps.append(
            Step(L.C1_SYMBOL_CATALOG, "symbol", {"name": c.names[0], "exact": True}, 5, 1.5)
        )
    steps.append(_search(L.D0_DOC_CHUNKS, query, k, 1.0))
    steps.append(_search(L.D1_DOCUMENT_CATALOG, query, 3, 0.8))
    steps.append(_search(L.D3_ENTITY_CATALOG, query, 3, 0.6))
    steps.append(_search(L.C0_SOURCE_CHUNKS, query, k, 0.7))
    return steps


_BUILDERS = {
    "symbol": _symbol_steps,
    "callers": _walk_steps,
    "callees": _walk_steps,
    "entrypoints": _entry_steps,
    "workflow": _workflow_steps,
    "integrations": _integration_steps,
    "relations": _relation_steps,
    "definition": _definition_steps,
}
# The layers an intent is about: with none of them indexed, the plain search is the answer.
_NEEDS = {
    "symbol": (L.C1_SYMBOL_CATALOG,),
    "callers": (L.C2_DEPENDENCY_GRAPH,),
    "callees": (L.C2_DEPENDENCY_GRAPH,),
    "entrypoints": (L.C3_ENTRYPOINTS,),
    "workflow": (L.D4_WORKFLOW_INDEX,),
    "integrations": (L.D6_INTEGRATION_INDEX, L.D5_RELATION_GRAPH),
    "relations": (L.D5_RELATION_GRAPH,),
    "definition": (L.D1_DOCUMENT_CATALOG, L.D3_ENTITY_CATALOG),
}


# ---- reading the question -------------------------------------------------------------------


def _entrypoint(query: str) -> Classification | None:
    http, cli = _any(_ENTRY_HTTP, query), _any(_ENTRY_CLI, query)
    routes = _ROUTE.findall(_no_urls(query))
    routes = [r for r in routes if "." not in r.rsplit("/", 1)[-1]]  # /src/x.py is a file
    if not (http or cli or routes or _any(_ENTRY_ANY, query)):
        return None
    kind = "http" if (http or routes) and not cli else "cli" if cli and not http else None
    framework = next((f for f in _FRAMEWORKS if re.search(rf"\b{f}\b", query, _F)), None)
    subject = _subject(query, _ENTRY_SUBJECT)
    if subject in _FRAMEWORKS:
        subject = ""
    what = kind or "any"
    return Classification(
        "entrypoints",
        subject=subject,
        reason=f"entrypoints: the question asks for {what} entry points"
        + (f" at {routes[0]}" if routes else ""),
        entry_type=kind,
        route=routes[0] if routes else None,
        framework=framework,
    )


def _subject(query: str, patterns: tuple[re.Pattern[str], ...]) -> str:
    quoted = _quoted(query)
    if quoted:
        return quoted
    for p in patterns:
        for m in p.finditer(query):
            word = m.group(1).strip(".-").lower()
            if word and word not in _SUBJECT_NOISE and not word.isdigit():
                return word
    return ""


def _identifiers(query: str) -> tuple[str, ...]:
    quoted = _quoted(query)
    if quoted and _is_name(quoted):
        return (quoted,)
    words = [w.strip("`'\"?,!;:()") for w in query.split()]
    words = [w.removesuffix("()").rstrip(".") for w in words]
    return tuple(w for w in dict.fromkeys(words) if w and _is_name(w) and is_identifier_like(w))


def _is_name(word: str) -> bool:
    word = word.strip("`'\"").removesuffix("()")
    # `For` may be a class (sqlparse has one); `for` is a word.
    return bool(re.fullmatch(r"[A-Za-z_][\w]*(?:(?:\.|::)[A-Za-z_]\w*)*", word)) and (
        word not in STOP_WORDS
    )


def _quoted(query: str) -> str:
    m = _QUOTED.search(query)
    return next((g for g in m.groups() if g), "").strip() if m else ""


def _has_question_word(query: str) -> bool:
    first = query.strip().split()[0].lower()
    return first in {"how", "what", "why", "where", "who", "which", "when", "is", "does", "can"}


def _glob(path: str) -> str:
    path = path.strip("`'\".,;:")
    if not path or path.startswith(("http:", "https:")):
        return ""
    if path.endswith("/"):
        return path + "**"
    last = path.rsplit("/", 1)[-1]
    return path if "." in last else path + "/**"


def _no_urls(query: str) -> str:
    return re.sub(r"\b\w+://\S+", " ", query)


def _repo(query: str, facts: IndexFacts) -> str:
    # One known repository is the whole index: a filter on it would change nothing.
    if len(facts.repos) < 2:
        return ""
    for repo in facts.repos:
        if re.search(rf"(?<![\w-]){re.escape(repo)}(?![\w-])", query, _F):
            return repo
    return ""


def _any(patterns: tuple[re.Pattern[str], ...], query: str) -> bool:
    return any(p.search(query) for p in patterns)
