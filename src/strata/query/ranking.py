"""Ranking (pure): weighted reciprocal rank fusion of the retrievers' lists, then code-aware
signals on top of it: weights, boosts, penalties.

Every factor is a named part so `--explain` can print it. The constants here are
chosen on the whole benchmark (docs/benchmarks.md), never per query.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from strata.layers import C0_SOURCE_CHUNKS
from strata.query import quoted, summaries
from strata.query.glue import SHORT_CHARS, is_glue
from strata.query.path_priors import (
    BUILD_WORDS,
    CHANGE_WORDS,
    EXAMPLE_WORDS,
    TEST_WORDS,
    is_changelog,
    path_kinds,
)
from strata.query.path_words import common_words, path_share
from strata.query.verbatim import is_question, message_words
from strata.text.tokens import STOP_WORDS, is_identifier_like, split_identifier
from strata.types import Record

K = TypeVar("K", bound=Hashable)


def rrf(
    rankings: Mapping[str, Sequence[K]],
    *,
    weights: Mapping[str, float] | None = None,
    k: int = 60,
) -> dict[K, dict[str, float]]:
    """Weighted reciprocal rank fusion.

    Each list contributes `weight / (k + rank)` (rank 1-based) to every key it holds; a
    key a list holds twice (two definitions shown at one chunk) counts at its first place,
    and the keys after it move up.

    Args:
        rankings: name of the retriever -> its keys, best first.
        weights: name -> weight (default 1.0 each).
        k: the RRF constant; larger flattens the head of each list.

    Returns:
        key -> {retriever name: its contribution}; sum the values for the fused score.
    """
    out: dict[K, dict[str, float]] = {}
    for name, keys in rankings.items():
        w = 1.0 if weights is None else weights.get(name, 1.0)
        for rank, key in enumerate(dict.fromkeys(keys), 1):
            out.setdefault(key, {})[name] = w / (k + rank)
    return out


def fused_order(parts: Mapping[K, Mapping[str, float]]) -> list[K]:
    """Keys sorted by the sum of their parts, best first (ties keep insertion order)."""
    return sorted(parts, key=lambda key: -sum(parts[key].values()))


# Retriever weights for weighted RRF: identifier-like queries lean lexical,
# sentences lean semantic; `symbols` is the list of the definitions the query names
# (strata.query.definitions).
# `frames`: the chunks a pasted stack trace points into (strata.query.frames), innermost
# first: the trace says where it failed, so they lead, the innermost well ahead (no RRF
# weight: a frame's part is `frame_part`, a quarter at each frame outwards).
FRAME_WEIGHT = 0.0
FRAME_UNITS = 4.0
FRAME_DECAY = 0.25
IDENTIFIER_WEIGHTS: Mapping[str, float] = {
    "lexical": 1.0,
    "semantic": 0.35,
    "symbols": 1.0,
    "frames": FRAME_WEIGHT,
}
SENTENCE_WEIGHTS: Mapping[str, float] = {
    "lexical": 0.8,
    "semantic": 1.0,
    "symbols": 0.5,
    "frames": FRAME_WEIGHT,
}
# A statement that reads as a doc comment's summary says what code does, as the sentences
# the query adapter's code map was fitted on do: the vectors lead further (measured).
DESCRIPTION_WEIGHTS: Mapping[str, float] = {**SENTENCE_WEIGHTS, "lexical": 0.5}
# Its vector moves at most half way through the query adapter (`adapter_weight`), where a
# statement of another shape goes `search.adapter` (0.7) of the way: taken 0.7 of the way
# too, the summaries of one project's doc comments gained and another's lost (`doc-rust`
# +.028, `doc-csharp` +.039, `doc-c` -.023, `doc-php` -.017; docs/benchmarks.md).
DESCRIPTION_ADAPTER = 0.5

# A question ("how are routes registered", "Why does get_logger return a proxy?") asks about
# an area where several places answer, more than a doc comment's sentence names one: its
# lists are fused with twice the RRF constant, so agreement deeper in both lists counts
# for more than one list's first place (measured: developer questions MRR .621 -> .643,
# semble's questions on registry packages .797 -> .800; 4x lost developer questions' file
# NDCG, docs/benchmarks.md).
QUESTION_RRF_FACTOR = 2

DEFINITION_BOOST = 1.0  # in units of "rank 1 of one retriever"
# A question about what the code does or where ("where is the level padded", "how does X
# skip its frames", "how chunked encoding is parsed"), not about how to use it ("how do I",
# "how can we", "how to"), or a topic named in a phrase ("multipart form data extraction",
# semble's questions): the code among the first `LEAN_DEPTH` candidates leads the docs
# among them by this many rank-1 units (1.0: 0.5 left docs first for semble's topics, 2.0
# cost docs questions). Lifting all code instead pushed a docs answer out of developer
# questions' top 10 (Recall@10 .904 -> .885; docs/benchmarks.md).
CODE_LEAN = 1.0
LEAN_DEPTH = 10
_ABOUT_CODE = re.compile(
    r"^\s*(?:where\s+(?:is|are|does|do)\b|how\s+(?!(?:(?:do|does|can|could|should|would"
    r"|may|might|must)\s+(?:i|we|you|one)|to)\b))",
    re.IGNORECASE,
)
# "how does attrs compare to dataclasses", "how is X different from Y": a comparison the
# documents make, not a question about what the code does.
_COMPARES = re.compile(
    r"\b(?:compares?|differs?|different|stacks?\s+up)\s+(?:to|with|from|against)\b", re.IGNORECASE
)
ELSEWHERE_FACTOR = 0.5  # the definition of a name a statement uses or points away to
# A definition of the right bare name under another qualifier than the query's
# (`BaseCommand.invoke` for `Context.invoke`) gets this share of the boost.
OTHER_QUALIFIER = 0.5
# Tests (measured on semble's public annotations asked of 12 registry packages: file
# NDCG@10 .735 -> .759 at 0.5); a test holding a pasted message or line verbatim (its
# `verbatim` part) is where that text was seen: the milder factor.
TEST_FACTOR = 0.5
VERBATIM_TEST_FACTOR = 0.75
VENDORED_FACTOR = 0.5
# Example and tutorial code (`examples/`, `_examples/`, FastAPI's `docs_src/`) and code kept
# for old versions (`legacy/`, `deprecated/`): it uses or repeats the library's names without
# being the code a question is about (semble's path priors), unless examples are asked for.
EXAMPLE_FACTOR = 0.5
# A package manifest (`go.mod`, `package.json`, `Cargo.toml`, `pyproject.toml`, `pom.xml`):
# it names the project and its dependencies, and so matches many topics' words without
# answering them, unless the question is about dependencies, versions or the build.
MANIFEST_FACTOR = 0.5
CHANGELOG_FACTOR = 0.6  # release notes mention everything; they rarely answer "how" or "where"
# A document chunk under `SHORT_CHARS` (query/glue) is a heading or a stub more often than
# an answer (the FSS-Mini-RAG guide's "very short chunks, likely incomplete"); so is a code
# chunk this short that defines nothing, for a sentence (`is_glue`). A one-line definition
# stays exempt: it is often exactly what a name query wants.
SHORT_FACTOR = 0.8
COHERENCE_WEIGHT = 0.0  # measured: any weight tried (0.15, 0.03) lowered MRR; see docs
# A sentence's words in the file's name or folder (semble's stem boost: a Java class is its
# file): `search.path_boost` rank-1 units times the share of the query's words matched, each
# word weighed by how few candidate files it names; off by default for a sentence (measured:
# it lifts Java and TypeScript and lowers JavaScript; docs/benchmarks.md). A topic or a
# question about the code ("timer implementation and heap-based scheduling", "how are
# routes registered") names the module it is about more often than a sentence describing
# one function does: it gets at least `TOPIC_PATH_BOOST` (measured: semble's questions on
# registry packages .801 -> .813, 39 up and 14 down; docs/benchmarks.md).
# A test's file name restates its subject's (`test_dependency_class.py`): no sign that the
# test is what the words are about, unless tests are asked for (measured: the probe .814 ->
# .815, fastapi's "how does dependency injection work" .15 -> .61; the quality sets the same).
PATH_MIN_SHARE = 0.1
TOPIC_PATH_BOOST = 1.0
# TypeScript declaration stubs (`.d.ts`, semble's prior): signatures without the doc or the
# body a question is about (measured: docs-md MRR .500 -> .518).
STUB_FACTOR = 0.7
# The kinds of record that define a name (C0 chunks and C1 rows alike).
DEFINITION_KINDS = frozenset(
    {
        *("function", "method", "property", "field", "class", "struct", "interface"),
        *("trait", "enum", "variant", "type", "constant", "constants", "symbol", "module"),
    }
)


@dataclass(frozen=True, slots=True)
class QueryShape:
    """What the query looks like, decided once per search."""

    identifier_like: bool
    names: frozenset[str]
    wants_tests: bool
    wants_changes: bool = False
    wants_examples: bool = False
    about_code: bool = False  # `_ABOUT_CODE`: code leads the docs by `CODE_LEAN`
    asked: tuple[str, ...] = ()  # the names as written (`Context.invoke`), in query order
    # A name or two rather than a sentence: their definitions are searched for as well
    # (in a sentence a name is more often mentioned than asked for: measured).
    lookup: bool = False
    words: frozenset[str] = frozenset()  # the sentence's content words, lower-case
    message: tuple[str, ...] = ()  # a pasted message's words as written (`verbatim`)
    quoted: tuple[str, ...] = ()  # the code names a sentence quotes (strata.query.quoted)
    wants_build: bool = False  # dependencies, versions, the build: manifests answer
    question: bool = False  # a question asked in words: fused flatter (`QUESTION_RRF_FACTOR`)
    elsewhere: frozenset[str] = frozenset()  # names a statement uses or points to (quoted)
    # The code name a statement opens with ("ListMapper is used to transform ..."): what it
    # describes, so its definition is counted as a name's (lower-case; "" for none).
    subject: str = ""
    describes: bool = False  # a statement that reads as a doc comment's summary (`summaries`)


def shape(query: str, terms: Sequence[str], *, topic: bool = False) -> QueryShape:
    """Classify a query: identifier-like or sentence; the names it may be asking for.
    `topic`: the query names a topic in a phrase (framing.is_topic): it is about code."""
    ident = is_identifier_like(query)
    raw = [w.rstrip(".:") for w in re.findall(r"[A-Za-z_][\w.:]*", query)]
    sentence = not ident and len(query.split()) > 2
    question = sentence and is_question(query)
    if sentence:
        # in a sentence only code-shaped words name a definition ("reset" does not);
        # a word or two on their own ("consume", "bound logger") may well be a name; a
        # special method alone ("how does attrs generate __init__") is every class's
        raw = [
            w for w in raw if (is_identifier_like(w) or f"`{w}`" in query) and not _DUNDER.match(w)
        ]
    names = {w.split(".")[-1].split("::")[-1].lower() for w in raw if len(w) > 2}
    names |= {w.replace(".", "").lower() for w in raw if "." in w}
    words = set(terms)
    written = [w.strip(".:").replace("::", ".") for w in raw]
    asked = [w for w in written if len(w) > 2 and w.lower() not in STOP_WORDS]
    return QueryShape(
        ident,
        frozenset(names),
        bool(TEST_WORDS & words),
        bool(CHANGE_WORDS & words),
        bool(EXAMPLE_WORDS & words),
        bool(_ABOUT_CODE.match(query) and not _COMPARES.search(query)) or (topic and sentence),
        tuple(dict.fromkeys(asked)),
        lookup=not sentence,
        words=_content_words(query) if sentence else frozenset(),
        message=message_words(query) if sentence else (),
        quoted=quoted.quoted_names(query) if sentence else (),
        wants_build=bool(BUILD_WORDS & words),
        question=question,
        elsewhere=quoted.named_elsewhere(query) if sentence and not question else frozenset(),
        subject=quoted.subject_name(query, asked) if sentence and not question else "",
        describes=sentence and not question and summaries.reads_as_summary(query),
    )


_DUNDER = re.compile(r"^__\w+__$")


def _content_words(query: str) -> frozenset[str]:
    """A sentence's words of three letters or more, lower-case, stop words out."""
    return frozenset(w.lower() for w in re.findall(r"[A-Za-z]+", query) if len(w) > 2) - STOP_WORDS


def rrf_constant(q: QueryShape, k: int) -> int:
    """The RRF constant for this query: `QUESTION_RRF_FACTOR` times `k` for a question."""
    return k * QUESTION_RRF_FACTOR if q.question else k


def weights(q: QueryShape) -> Mapping[str, float]:
    """Retriever weights for this query."""
    if q.identifier_like:
        return IDENTIFIER_WEIGHTS
    return DESCRIPTION_WEIGHTS if q.describes else SENTENCE_WEIGHTS


def adapter_weight(q: QueryShape, configured: float) -> float:
    """How far the query's vector moves through the index's query adapter: a question's
    not at all (the maps learnt statements: doc comments, sections' lead sentences,
    headings), a summary-shaped statement's at most `DESCRIPTION_ADAPTER`, any other
    query's `configured` (`search.adapter`) of the way."""
    if q.question:
        return 0.0
    return min(configured, DESCRIPTION_ADAPTER) if q.describes else configured


def frame_part(position: int, unit: float) -> float:
    """The part of the chunk of a trace's frame `position` (0: the innermost)."""
    return FRAME_UNITS * unit * FRAME_DECAY**position


def is_cut_from_one_line(rec: Record) -> bool:
    """Code cut from inside one overlong line (past `chunk.max_chars`): a bundle, a
    minified file or a data blob (Sphinx's `searchindex.js`) whatever its name says. A
    document's long line is a paragraph and stays as it is."""
    return rec.layer == C0_SOURCE_CHUNKS and "col_start" in rec.metadata


def adjust(
    records: Mapping[str, Record],
    parts: Mapping[str, dict[str, float]],
    q: QueryShape,
    *,
    rrf_k: int,
    include_tests: bool,
    path_boost: float = 0.0,
    compiled: frozenset[str] = frozenset(),
) -> dict[str, dict[str, float]]:
    """Add boost and penalty parts to each candidate's fused parts (returns new dicts).

    Parts ending in `_x` are multiplicative factors; the rest are added. `compiled`: the
    paths that are build output of an indexed source (strata.query.compiled).
    """
    unit = 1.0 / (rrf_k + 1)
    base = {rid: sum(p.values()) for rid, p in parts.items()}
    per_file: dict[str, float] = defaultdict(float)
    for rid, score in base.items():
        per_file[records[rid].path] += score
    boost = max(path_boost, TOPIC_PATH_BOOST) if q.about_code else path_boost
    common = common_words(q.words, {records[rid].path for rid in parts}) if boost else {}
    out: dict[str, dict[str, float]] = {}
    for rid, p in parts.items():
        rec = records[rid]
        new = dict(p)
        strength = _defines(rec, q)
        if strength:
            scale = 1.0 if q.identifier_like or quoted.is_subject(rec.title, q.subject) else 0.5
            new["definition"] = DEFINITION_BOOST * unit * scale * strength
        others = per_file[rec.path] - base[rid]
        if COHERENCE_WEIGHT > 0 and others > 1e-12:
            new["coherence"] = COHERENCE_WEIGHT * unit * math.log1p(others / unit)
        if boost and q.words and (q.wants_tests or not rec.is_test):
            share = path_share(rec.path, q.words, common)
            if share >= PATH_MIN_SHARE:
                new["path"] = boost * unit * share
        new.update(_penalties(rec, q, include_tests, verbatim="verbatim" in p))
        if q.elsewhere and rec.title and quoted.is_elsewhere(rec.title, q.elsewhere, rec.path):
            new["elsewhere_x"] = ELSEWHERE_FACTOR
        if rec.path in compiled:
            new["vendored_x"] = VENDORED_FACTOR
        out[rid] = new
    if q.about_code:  # among the first LEAN_DEPTH only: no code comes in from below them
        for rid in heapq.nlargest(LEAN_DEPTH, out, key=lambda r: final_score(out[r])):
            if records[rid].layer.startswith("C"):
                out[rid]["code_lean"] = CODE_LEAN * unit
    return out


def _penalties(
    rec: Record, q: QueryShape, include_tests: bool, *, verbatim: bool = False
) -> dict[str, float]:
    """The multiplicative `_x` factors of one candidate (priors by path and kind)."""
    out: dict[str, float] = {}
    if rec.is_test and not include_tests and not q.wants_tests:
        out["test_x"] = VERBATIM_TEST_FACTOR if verbatim else TEST_FACTOR
    kinds = path_kinds(rec.path)
    if kinds.vendored or is_cut_from_one_line(rec):
        out["vendored_x"] = VENDORED_FACTOR
    if kinds.example and not q.wants_examples:
        out["example_x"] = EXAMPLE_FACTOR
    if kinds.stub or rec.metadata.get("declaration"):  # a `.pyi`, `.d.ts`, an `@overload`
        out["stub_x"] = STUB_FACTOR
    if kinds.manifest and not q.wants_build:
        out["manifest_x"] = MANIFEST_FACTOR
    if not q.wants_changes and is_changelog(rec):
        out["changelog_x"] = CHANGELOG_FACTOR
    short_doc = rec.layer == "D0_DOC_CHUNKS" and len(rec.content.strip()) < SHORT_CHARS
    if short_doc or (not q.lookup and is_glue(rec)):
        out["short_x"] = SHORT_FACTOR
    return out


def final_score(parts: Mapping[str, float]) -> float:
    """Sum of the additive parts times the product of the `_x` factors."""
    total = sum(v for k, v in parts.items() if not k.endswith("_x"))
    for k, v in parts.items():
        if k.endswith("_x"):
            total *= v
    return total


def _defines(rec: Record, q: QueryShape) -> float:
    """How surely `rec` defines a name the query asks for: 1.0, `OTHER_QUALIFIER` for the
    right bare name under another qualifier than the query wrote, 0.0 not at all."""
    if not q.names or not rec.title:
        return 0.0
    if rec.kind not in DEFINITION_KINDS and rec.layer != "C1_SYMBOL_CATALOG":
        return 0.0
    if q.elsewhere and quoted.is_elsewhere(rec.title, q.elsewhere, rec.path):
        return 0.0
    title = rec.title.split(" ")[0]
    last = re.split(r"[.:]+", title)[-1].lower()
    named = (
        last in q.names
        or title.replace(".", "").lower() in q.names
        or (len(q.names) == 1 and "".join(split_identifier(last)) in q.names)
    )
    if not named:
        return 0.0
    dotted = "." + re.sub(r"[.:]+", ".", title).lower()
    qualified = [a.lower() for a in q.asked if "." in a and a.rsplit(".", 1)[-1].lower() == last]
    if qualified and not any(dotted.endswith("." + a) for a in qualified):
        return OTHER_QUALIFIER
    return 1.0
