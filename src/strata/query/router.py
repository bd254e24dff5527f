"""Query routing (pure): a question and what the index holds -> a `RetrievalPlan` over layers.

Rule-based and transparent: every decision leaves a human-readable reason in the plan,
which `strata search --explain` prints. The rules follow the "Retrieval over layers"
table of shared/spec/layers.md:

| intent | steps |
|---|---|
| `symbol` | C1 exact name match, then C0 search |
| `tests` | C2 callers and a C0 search of the name, in test files only |
| `file` | the file's first passage (a module's docstring), then a search in it |
| `overview` | the README's first sections, the docs index, the packages' heads |
| `callers` / `callees` | C2 walk, each link shown with its C0 chunk |
| `subclasses` / `bases` | C2 `inherits` edges, each type shown at its header |
| `importers` | C2 `imports` edges, each shown with the chunk of the import |
| `entrypoints` | C3 listing by type, route, framework and subject |
| `workflow` | D4 search, D0 search, then C0 search |
| `integrations` | D6 records of the subject, then D5 relations |
| `relations` | D5 relations of the subject, then D6 records |
| `definition` | D0 search, D1 cards, D3 entities, C0 search |
| `environment` | the passages reading an environment variable, then the plain search |
| `flag` | the passages defining a command-line flag, the docs and code that use it |
| `marked` | the code's TODO/FIXME comments, or its deprecations |
| `project` | the manifest lines stating the dependencies or the version |
| `changes` | the changelog's sections of a release, or its entries naming a thing |
| `tasks` | how to run the tests (build, lint, ...): dev docs, then scripts and targets |
| `caught` | the lines that catch an error (`except X`, `catch (X e)`, `rescue X`) |
| `assigned` | the lines that write a variable or attribute (`self.x = ...`, `x += 1`) |
| `default` | the lines that state a default (`DEFAULT_TIMEOUT = 5`, `timeout: float = 5`) |
| `members` | a type at its header, then each of its methods and fields at theirs |
| `usage` | the docs that write a name (then its docstring), or the passages calling it |
| `compare` | both names' definitions at their headers, then the plain search |
| `free_text` | one plain hybrid search (exactly `Engine.search`) |

The steps of each intent are `strata.query.intent_steps`'. The question itself is read
by `strata.query.questions` (intent, names, filters). An optional `Classifier` (e.g. an
LLM) may replace the rules' classification; the plan is still built from its answer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from strata import layers as L
from strata.query import frames
from strata.query.environment import asks_for_env
from strata.query.filters import NO_FILTERS, SearchFilters
from strata.query.graph_questions import imported_path
from strata.query.intent_steps import BUILDERS, NEEDS, Step
from strata.query.kinds import TYPE_KINDS, kind_asked
from strata.query.member_questions import defined_in_asked, imports_asked, kind_listed
from strata.query.module_names import exports_asked, module_asked, module_dir, module_file
from strata.query.plain_names import named
from strata.query.question_filters import asks_overview, file_asked, file_glob, filters_of
from strata.query.questions import Classification, classify, is_operator
from strata.text.globs import select
from strata.text.tokens import STOP_WORDS, query_terms

__all__ = [
    "INTENTS",
    "Classification",
    "Classifier",
    "IndexFacts",
    "RetrievalPlan",
    "SearchFilters",
    "Step",
    "classify",
    "filters_of",
    "route",
]


INTENTS = (
    "symbol",
    "tests",
    "file",
    "overview",
    "subclasses",
    "bases",
    "importers",
    "callers",
    "callees",
    "entrypoints",
    "workflow",
    "integrations",
    "relations",
    "definition",
    "environment",
    "flag",
    "marked",
    "project",
    "changes",
    "tasks",
    "caught",
    "assigned",
    "default",
    "members",
    "usage",
    "compare",
    "free_text",
    "empty",
)
METHODS = (
    *("symbol", "callers", "callees", "entrypoints", "search", "related", "file_head"),
    *("subclasses", "bases", "importers", "overview"),
    *("env_reads", "flag_lines", "marked_lines", "project_lines", "caught_lines"),
    *("assigned_lines", "members", "usage_lines", "change_lines", "default_lines"),
    "task_lines",
)
MAX_ROUTED_CHARS = 2000  # the same cap as the searcher: rules read only the head of a long query


@dataclass(frozen=True, slots=True)
class IndexFacts:
    """What the router may know of the index: layers with rows, repos, document domains."""

    layers: frozenset[str] = frozenset(L.ALL_LAYERS)
    repos: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    # The indexed paths, asked for only when a question holds something path-shaped
    # (None: not known, and every path-shaped word is taken as a filter).
    paths: Callable[[], Iterable[str]] | None = field(default=None, compare=False)
    # The kinds of the symbols the index defines of exactly this name, none when it defines
    # none (None: not known, and a plain word a question asks about is taken for a topic).
    defines: Callable[[str], Collection[str]] | None = field(default=None, compare=False)
    # The one defined name a word that names nothing misspells (`lookup.misspelt_word`).
    meant: Callable[[str], str | None] | None = field(default=None, compare=False)

    @classmethod
    def from_counts(
        cls,
        counts: Mapping[str, Mapping[str, int]],
        repos: Iterable[str] = (),
        domains: Iterable[str] = (),
        paths: Callable[[], Iterable[str]] | None = None,
        defines: Callable[[str], Collection[str]] | None = None,
        meant: Callable[[str], str | None] | None = None,
    ) -> IndexFacts:
        """Facts from `Store.counts()` (layer -> {"rows": n, ...})."""
        have = frozenset(layer for layer, c in counts.items() if c.get("rows", 0) > 0)
        return cls(have, tuple(repos), tuple(domains), paths, defines, meant)

    def names_a_path(self, glob: str) -> bool:
        """Whether `glob` matches an indexed path (True when the paths are not known)."""
        return self.paths is None or any(select(self.paths(), [glob]))

    def module_file(self, name: str, *, cased: bool | None = None) -> str:
        """The indexed file a module name stands for (`jinja2.sandbox`), "" for none or
        several (or when the paths are not known); `cased` as `module_names.module_file`."""
        if self.paths is None:
            return ""
        return module_file(name, self.paths(), cased=cased)

    def module_dir(self, name: str, *, cased: bool | None = None) -> str:
        """The indexed directory a package name stands for (`cobra/doc`), "" for none or
        several (or when the paths are not known)."""
        return "" if self.paths is None else module_dir(name, self.paths(), cased=cased)

    def points_into(self, text: str) -> bool:
        """Whether `text` holds a stack trace's frame or a `file:line` of an indexed file."""
        trace = frames.parse(text)
        return (
            bool(trace)
            and self.paths is not None
            and bool(frames.resolve(trace, tuple(self.paths())))
        )

    def has(self, *layers: str) -> bool:
        """Whether every given layer has rows."""
        return all(layer in self.layers for layer in layers)


@dataclass(frozen=True, slots=True)
class RetrievalPlan:
    """The router's answer: intent, the steps to run, filters, and why (human-readable)."""

    query: str
    intent: str
    steps: tuple[Step, ...]
    filters: SearchFilters = NO_FILTERS
    names: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # filled by the executor: what running the plan found
    # The filter keys read from the question, not given by the caller: guesses, which the
    # executor drops when they leave fewer results than the plain search (strata.query.fallback).
    guessed: tuple[str, ...] = ()

    @property
    def is_free_text(self) -> bool:
        """Whether this plan is the plain hybrid search."""
        return self.intent == "free_text"

    def with_notes(self, notes: Iterable[str]) -> RetrievalPlan:
        """The same plan with the executor's notes added."""
        return replace(self, notes=self.notes + tuple(notes))

    def narrowed(self, caller: SearchFilters) -> RetrievalPlan:
        """The plan under the caller's filters too: each one given replaces the router's
        guess for that field (the caller's filter is no guess)."""
        given = caller.given()
        if not given:
            return self
        guessed = tuple(key for key in self.guessed if key not in given)
        return replace(self, filters=self.filters.narrowed_by(caller), guessed=guessed)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for `--explain`, `--json` and the HTTP API."""
        return {
            "intent": self.intent,
            "names": list(self.names),
            "filters": self.filters.to_json(),
            "guessed": list(self.guessed),
            "steps": [s.to_json() for s in self.steps],
            "reasons": list(self.reasons),
            "notes": list(self.notes),
        }

    def describe(self) -> list[str]:
        """Lines for a terminal: intent, filters, each step, reasons and notes."""
        out = [f"intent: {self.intent}" + (f" ({', '.join(self.names)})" if self.names else "")]
        if self.filters.given():
            shown = self.filters.to_json().items()
            out.append("filters: " + ", ".join(f"{k}={v}" for k, v in shown))
        for i, s in enumerate(self.steps, 1):
            args = ", ".join(f"{k}={v!r}" for k, v in s.args.items() if k != "query")
            flag = " required" if s.required else ""
            out.append(
                f"step {i}: {s.method} {s.layer} [{args}] limit={s.limit} w={s.weight}{flag}"
            )
        out += [f"why: {r}" for r in self.reasons]
        out += [f"note: {n}" for n in self.notes]
        return out


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
) -> RetrievalPlan:
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
        return RetrievalPlan(query, "empty", (), reasons=("the query is empty",))
    words = query_terms(head, drop_stop_words=False)
    if not any(t not in STOP_WORDS for t in words) and not is_operator(head):
        why = "only stop words or punctuation: nothing to route on; plain search"
        return _free_text(query, NO_FILTERS, k, (why,))
    if facts.points_into(head):
        why = "a stack trace or a file:line of the index: plain search, its frames first"
        return _free_text(query, NO_FILTERS, k, (why,))
    found = classifier.classify(head, facts) if classifier else None
    if found is not None:
        why = f"classifier: {found.intent}" + (f" ({found.reason})" if found.reason else "")
    else:
        found = _by_rules(head, facts)
        why = found.reason
    reasons = [why]
    if len(query.strip()) > MAX_ROUTED_CHARS:
        reasons.append(f"only the first {MAX_ROUTED_CHARS} characters were read by the router")
    filters, said = filters_of(head, facts)
    file = found.names[0] if found.intent == "file" else ""  # `core/README.md`: at any depth;
    # `addressable/idna`: the file `idna.rb`, not the directory `idna/` the question names too
    if file and (not filters.path or ("*" not in file and not select([file], filters.path))):
        filters = replace(filters, path=(file_glob(file),))
    if found.intent == "importers" or found.names[1:] == ("imports",):
        # "who imports utils.py", "what does utils.py import": other files answer
        filters = replace(filters, path=tuple(p for p in filters.path if p not in found.names))
    return _build(query, found, filters, facts, k, reasons + said)


def _by_rules(head: str, facts: IndexFacts) -> Classification:
    """The question's classification by the rules: the whole-question patterns first
    (importers of a file, environment variables, the lines a kind of question asks for, a
    type's members, where a name is documented or an example of it, the repository, a
    file, a module), then `classify` with the index's names."""
    if path := imported_path(head):
        return Classification("importers", (path,), reason=f"importers: of the file {path!r}")
    if asks_for_env(head):
        return Classification("environment", reason="environment: asks which variables are read")
    if kind := kind_asked(head, facts.defines):
        return kind
    if about := _defined_in(head, facts):
        return about
    if asks_overview(head):
        return Classification("overview", reason="overview: asks about the whole repository")
    if (path := file_asked(head)) and facts.names_a_path(file_glob(path)):
        return Classification("file", (path,), reason=f"file: asks about {path!r}")
    if (module := module_asked(head) or exports_asked(head)) and (about := _module(module, facts)):
        return about
    return named(classify(head), head, facts.defines, facts.meant)


def _defined_in(head: str, facts: IndexFacts) -> Classification | None:
    """What a file or module defines ("what functions are defined in utils.py", "list the
    classes in jinja2.nodes"): its definitions, when the name is a file's path or a
    module's."""
    noun, name = defined_in_asked(head)
    if imported := imports_asked(head):
        noun, name = "imports", imported
    if not name and (listed := kind_listed(head))[0]:
        noun, word = listed
        reason = f"members: the project's {f'{word} ' if word else ''}{noun}"
        return Classification("members", ("", noun, word), target="file", reason=reason)
    if not name:
        return None
    path = name if "/" in name or "\\" in name else facts.module_file(name)
    if not path and "." in name and facts.names_a_path(file_glob(name)):
        path = name  # `utils.py`: a file at any depth
    if not path or not facts.names_a_path(file_glob(path)):
        return None
    what = noun or "definitions"
    reason = f"members: the {what} of the file {path!r}"
    if noun == "imports":
        reason = f"members: what the file {path!r} imports"
    return Classification("members", (path, noun), target="file", reason=reason)


def _module(name: str, facts: IndexFacts) -> Classification | None:
    """A module or package asked about (`jinja2.sandbox`, `cobra/doc`, "what does the
    Math::BigFloat module do"), in this order: a type or module the index defines by a name
    with no slash (Perl's package, `org.example.Cart` in `Cart.java`); the one file it stands
    for, then the one directory (the heads of its files, then the question in them), each
    as written before in another case (Java's package `getcapacitor.plugin` is `plugin/`,
    not `Plugin.java`); a member the index defines by it. A member that a package's path
    qualifies (`jinja2.environment` is also `Context.environment` of `jinja2/runtime.py`)
    leaves the file its place."""
    kinds = set(facts.defines(name)) if facts.defines and "/" not in name else set()  # a path
    if kinds & TYPE_KINDS:
        return Classification("symbol", (name,), reason=f"symbol: the index defines {name!r}")
    for cased in (True, False):  # a directory as written before a file in another case
        if path := facts.module_file(name, cased=cased):
            return Classification("file", (path,), reason=f"file: the module {name!r} is {path}")
        if folder := facts.module_dir(name, cased=cased):
            why = f"file: the package {name!r} is the directory {folder}/"
            return Classification("file", (f"{folder}/*",), reason=why)
    if kinds:
        return Classification("symbol", (name,), reason=f"symbol: the index defines {name!r}")
    return None


# ---- building the plan ----------------------------------------------------------------------


def _build(
    query: str,
    c: Classification,
    filters: SearchFilters,
    facts: IndexFacts,
    k: int,
    reasons: list[str],
) -> RetrievalPlan:
    builder = BUILDERS.get(c.intent)
    if builder is None:
        return _free_text(query, filters, k, tuple(reasons))
    needs = NEEDS[c.intent]
    if not any(facts.has(layer) for layer in needs):
        short = "/".join(layer.split("_", 1)[0] for layer in needs)
        reasons.append(f"the index has no {short} rows: plain search instead of {c.intent}")
        return _free_text(query, filters, k, tuple(reasons))
    steps = tuple(s for s in builder(query, c, k) if facts.has(s.layer) or s.layer == "passages")
    steps = tuple(_passages(s) for s in steps)
    return RetrievalPlan(
        query, c.intent, steps, filters, c.names, tuple(reasons), guessed=filters.given()
    )


def _free_text(
    query: str, filters: SearchFilters, k: int, reasons: tuple[str, ...]
) -> RetrievalPlan:
    step = Step("passages", "search", {"query": query, "layers": None}, k)
    return RetrievalPlan(
        query, "free_text", (_passages(step),), filters, (), reasons, guessed=filters.given()
    )


def _passages(step: Step) -> Step:
    """`passages` is shorthand for the default search layers (C0 + D0)."""
    if step.layer != "passages":
        return step
    return replace(step, layer="+".join(L.PASSAGE_LAYERS))
