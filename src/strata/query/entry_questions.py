"""Whether a question asks for entry points (pure): a listing of the HTTP routes or the CLI
commands, not a question that only mentions them.

"which endpoints does the api expose", "list all subcommands", "cli commands" and "what
handles /api/items" ask for the listing. "how the root command finds the active
subcommand" asks how something works, and "route matching and parameter extraction" names
a topic: the plain search answers them, where a listing of every command answered nothing
(topical questions, docs/benchmarks.md, twentieth session).
"""

from __future__ import annotations

import re

from strata.query.question_filters import matches_any, rx

__all__ = ["ANY", "CLI", "FRAMEWORKS", "HTTP", "asks_for_entrypoints"]

HTTP = rx(
    r"\b(?:http|rest|web|api)\s+(?:endpoints?|routes?|handlers?)\b",
    r"\bendpoints?\b",
    r"\broutes?\b",
    r"\burls?\b.*\b(?:served|handled|exposed)\b",
    r"\bэндпоинт\w*|\bмаршрут\w*",
)
CLI = rx(
    r"\bcli\b",
    r"\bcommand[- ]line\b",
    r"\bsub-?commands?\b",
    r"\b(?:which|what|list|all)\s+(?:\w+\s+)?commands\b",
    r"\bкоманд\w*\s+(?:cli|консол\w*)|\bконсольн\w+\s+команд\w*",
)
ANY = rx(r"\bentry[- ]?points?\b", r"\bточ\w+\s+вход\w*")
FRAMEWORKS = ("fastapi", "flask", "django", "click", "typer", "argparse", "express")

# How or why something works, or what happens: a mechanism, not a listing.
_MECHANISM = rx(
    r"^\W*(?:how|why)\b(?!\s+many\b)",
    r"\bwhat\s+happens\b",
    r"^\W*(?:как|почему|зачем)\b",
)
# A listing cue said of the entry noun itself ("which HTTP endpoints", "show me the routes"),
# not of something else ("show me the code responsible for command line parsing").
_NOUN = r"(?:end-?points?|routes?|commands?|sub-?commands?|handlers?|urls?|apis?)"
# A listing said in so many words, even inside a how-question ("how do I list the commands";
# not "how the list of commands is sorted").
_LIST_VERB = rx(
    rf"\b(?:list|enumerate)\s+(?!of\b)(?:[\w-]+\s+){{0,3}}?{_NOUN}\b",
    rf"\bhow\s+many\s+(?:[\w-]+\s+){{0,2}}?{_NOUN}\b",
    r"\bперечисл\w*|\bсписок\b|\bсколько\b",
)
# "which struct holds the route variables" asks for a struct: the cue is said of a kind
# of data (a function or a file "that handles the routes" is a handler or holds them).
_A_KIND = (
    r"(?!(?:structs?|class(?:es)?|types?|interfaces?"
    r"|variables?|fields?|constants?)\b)"
)
_LISTING = rx(
    rf"\b(?:which|what|show|all|every|available|any)\s+{_A_KIND}(?:[\w-]+\s+){{0,3}}?{_NOUN}\b",
    rf"\b{_NOUN}\s+(?:are|is)\s+there\b",
    r"\bexpos\w*",
    r"\bкак(?:ие|ой|ая|ое|их)\b|\bвсе\b|\bесть\b",
)
# The words of an entry phrase and of what frames it: "the billing api endpoints" is the
# phrase and a subject; "route matching and parameter extraction" has a topic besides.
_PHRASE_WORDS = frozenset(
    {"cli", "command", "commands", "line", "sub", "subcommand", "subcommands", "http"}
    | {"rest", "web", "api", "apis", "endpoint", "endpoints", "route", "routes", "url"}
    | {"urls", "handler", "handlers", "entry", "point", "points", "service", "app"}
    | {"application", "server", "our", "the", "its", "this", *FRAMEWORKS}
)
_PHRASE_STEMS = ("эндпоинт", "маршрут", "команд", "консол", "точк", "вход", "сервис")
_WORDS = re.compile(r"[^\W\d_]+")


def asks_for_entrypoints(query: str, *, route: bool = False) -> bool:
    """Whether `query` asks for the entry points (`route`: it names a route path)."""
    if route or matches_any(ANY, query):
        return True
    if not (matches_any(HTTP, query) or matches_any(CLI, query)):
        return False
    if matches_any(_LIST_VERB, query):
        return True
    if matches_any(_MECHANISM, query):
        return False
    return matches_any(_LISTING, query) or _only_the_phrase(query)


def _only_the_phrase(query: str) -> bool:
    """The query is the entry phrase with at most one other word (its subject)."""
    rest = [
        w
        for w in (m.lower() for m in _WORDS.findall(query))
        if w not in _PHRASE_WORDS and not w.startswith(_PHRASE_STEMS) and len(w) > 2
    ]
    return len(rest) <= 1
