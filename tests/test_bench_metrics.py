"""The quality benchmark's own rules: the hit rule, the metrics, and line-keeping blanking."""

from __future__ import annotations

import ast
import math
import os
import textwrap
from pathlib import Path

import pytest
from benchmarks.quality import indexes
from benchmarks.quality.baseline import Bm25Baseline, code_tokens, plain_tokens
from benchmarks.quality.blanking import blank_spans, first_sentence
from benchmarks.quality.devqs import parse_target
from benchmarks.quality.docstring_queries import candidates, sample
from benchmarks.quality.metrics import Retrieved, file_ndcg, is_hit, mean, score
from benchmarks.quality.model import Target
from benchmarks.quality.pydefs import definitions

from strata.types import Record

T = Target("pkg/mod.py", 50, 59)  # a 10-line function


@pytest.mark.parametrize(
    ("result", "hit"),
    [
        (Retrieved("pkg/mod.py", 45, 70), True),  # covers it
        (Retrieved("pkg/mod.py", 59, 80), True),  # overlaps its last line
        (Retrieved("pkg/mod.py", 60, 80), False),  # starts just after it
        (Retrieved("pkg/mod.py", 1, 49), False),  # ends just before it
        (Retrieved("pkg/other.py", 50, 59), False),  # right lines, wrong file
        (Retrieved("pkg/mod.py", 1, 100), True),  # 100 lines is still a passage
        (Retrieved("pkg/mod.py", 1, 101), False),  # 101 lines for a 10-line target is not
        (Retrieved("pkg/mod.py", 1, 900), False),  # a whole file is not a hit
        (Retrieved("pkg/mod.py", None, None), False),  # a record without a span
    ],
)
def test_hit_rule(result: Retrieved, hit: bool) -> None:
    assert is_hit(result, T) is hit


def test_long_targets_allow_chunks_twice_their_length() -> None:
    big = Target("a.py", 100, 249)  # 150 lines
    assert is_hit(Retrieved("a.py", 1, 300), big)
    assert not is_hit(Retrieved("a.py", 1, 301), big)


def test_rank_metrics_use_the_first_hit_among_any_target() -> None:
    other = Target("pkg/b.py", 1, 5)
    results = [
        Retrieved("x.py", 1, 5),
        Retrieved("pkg/b.py", 3, 9),
        Retrieved("pkg/mod.py", 50, 55),
    ]
    s = score(results, (T, other))
    assert (s.mrr, s.recall_1, s.recall_10) == (0.5, 0.0, 1.0)
    first = score([Retrieved("pkg/mod.py", 55, 56)], (T,))
    assert (first.mrr, first.recall_1, first.recall_10) == (1.0, 1.0, 1.0)
    miss = score([Retrieved("pkg/mod.py", 1, 900)] * 3, (T,))
    assert (miss.mrr, miss.recall_10) == (0.0, 0.0)


def test_hits_below_rank_ten_do_not_count() -> None:
    results = [Retrieved("x.py", i, i) for i in range(10)] + [Retrieved("pkg/mod.py", 50, 52)]
    assert score(results, (T,)).recall_10 == 0.0


def test_file_ndcg_ranks_distinct_files() -> None:
    results = [Retrieved("a.py", 1, 2), Retrieved("a.py", 5, 6), Retrieved("b.py", 1, 2)]
    # files in order: a, b -> the relevant file b is at rank 2
    assert file_ndcg(results, (Target("b.py", 1, 1),)) == pytest.approx(1 / math.log2(3))
    both = (Target("a.py", 1, 1), Target("b.py", 1, 1))
    assert file_ndcg(results, both) == pytest.approx(1.0)
    assert file_ndcg([], both) == 0.0


def test_mean_averages_each_metric() -> None:
    a = score([Retrieved("pkg/mod.py", 50, 51)], (T,))
    b = score([], (T,))
    m = mean([a, b])
    assert (m.mrr, m.recall_1, m.n) == (0.5, 0.5, 2)


SOURCE = textwrap.dedent('''\
    """Module docstring."""


    @decorator
    def parse(raw: str) -> int:
        """Parse the raw text into an integer value.

        More words here.
        """
        return int(raw)


    class Box:
        def get(self, key: str) -> str:
            """Return the value stored under the given key."""
            return self.data[key]

        def abstract(self) -> None:
            """Only a docstring: nothing would be left to find."""

        def inline(self): """One line shared with the def, never blanked."""; return 1
    ''')


def test_blanking_docstrings_keeps_every_line_number(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
    defs = {d.qualname: d for d in definitions(tmp_path, "m.py")}
    assert (defs["parse"].start, defs["parse"].end) == (4, 10)  # decorator included
    assert defs["parse"].doc_span == (6, 9)
    assert defs["Box.get"].doc_span == (15, 15)
    assert defs["Box.abstract"].doc_span is None and defs["Box.inline"].doc_span is None

    blanked = blank_spans(SOURCE, [defs["parse"].doc_span, defs["Box.get"].doc_span])
    assert len(blanked.split("\n")) == len(SOURCE.split("\n"))
    assert "Parse the raw" not in blanked and "Return the value" not in blanked
    assert "Module docstring" in blanked and "Only a docstring" in blanked
    (tmp_path / "m.py").write_text(blanked, encoding="utf-8")
    ast.parse(blanked)
    after = {d.qualname: d for d in definitions(tmp_path, "m.py")}
    for name in ("parse", "Box.get", "Box", "Box.abstract"):
        assert (after[name].start, after[name].end) == (defs[name].start, defs[name].end)
    assert after["parse"].doc is None and after["Box.get"].doc is None
    same = SOURCE.split("\n")
    for n, line in enumerate(blanked.split("\n"), start=1):
        assert line == ("" if n in (6, 7, 8, 9, 15) else same[n - 1])


def test_blank_spans_keeps_crlf_line_count() -> None:
    text = "a\r\nb\r\nc\r\n"
    out = blank_spans(text, [(2, 2)])
    assert out == "a\r\n\r\nc\r\n"


def test_docstring_candidates_need_a_long_unique_first_sentence(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
    names = [d.qualname for d in candidates(definitions(tmp_path, "m.py"))]
    assert names == ["parse", "Box.get"]  # classes, stubs and one-liners are left out


def test_sample_is_fixed_by_the_seed(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
    defs = definitions(tmp_path, "m.py")
    import random

    one = sample(defs, 3, random.Random("13:x"))
    two = sample(defs, 3, random.Random("13:x"))
    assert one == two and len(one) == 3
    assert [d.start for d in one] == sorted(d.start for d in one)


def test_first_sentence() -> None:
    assert first_sentence("Split text, e.g. a line. Then more.") == "Split text, e.g. a line."
    doc = "Return the :class:`~jinja2.Template` for\n  a name.\n\nDetails."
    assert first_sentence(doc) == "Return the jinja2.Template for a name."
    assert first_sentence("No full stop at all") == "No full stop at all"


def test_ts_doc_comments_are_found_and_blanked_in_place(tmp_path: Path) -> None:
    pytest.importorskip("tree_sitter_typescript")
    from benchmarks.quality.doccomment_queries import documented

    ts = textwrap.dedent("""\
        export function sum(a: number): number;
        /**
         * Adds all the numbers of a list together and returns the total.
         * @param xs the numbers
         */
        export function sum(xs: number[]): number {
          return xs.reduce((a, b) => a + b, 0);
        }
        /** Not above a function. */
        const limit = 3;
        class Bag {
          /** Puts one item into the bag and counts it. */
          put(x: string): void {
            this.items.push(x);
          }
        }
        """)
    (tmp_path / "m.ts").write_text(ts, encoding="utf-8")
    found = documented(tmp_path, "m.ts")
    assert [(d.name, d.comment, d.start, d.end) for d in found] == [
        ("sum", (2, 5), 6, 8),
        ("put", (12, 12), 13, 15),
    ]
    assert first_sentence(found[0].doc) == (
        "Adds all the numbers of a list together and returns the total."
    )
    blanked = blank_spans(ts, [d.comment for d in found])
    assert len(blanked.split("\n")) == len(ts.split("\n"))
    assert "Adds all" not in blanked and "Puts one" not in blanked


def test_parse_target() -> None:
    assert parse_target("docs/a b.md:3-9") == Target("docs/a b.md", 3, 9)
    assert parse_target("src/x.py:7") == Target("src/x.py", 7, 7)


def _record(path: str, content: str, title: str = "") -> Record:
    return Record(
        id=path,
        path=path,
        layer="C0_SOURCE_CHUNKS",
        title=title,
        content=content,
        lang="python",
        span_start=1,
        span_end=3,
        kind="block",
        is_test=False,
        metadata={},
        file_hash="",
        content_hash="",
    )


def test_baseline_uses_plain_lowercase_words() -> None:
    assert plain_tokens("def parse_header(Raw):") == ["def", "parse_header", "raw"]
    base = Bm25Baseline(
        [
            _record("a.py", "def parse_header(raw): return raw.split(':')"),
            _record("b.py", "def render(template): return template"),
            _record("c.py", "class Cookie: pass"),
        ]
    )
    assert [r.path for r in base.search("render a template")] == ["b.py"]
    assert base.search("parse header") == []  # no identifier splitting in the baseline
    assert base.search("nothing matches") == []


def test_code_aware_tokens_split_identifiers_keep_names_and_stem() -> None:
    assert code_tokens("getHTTPResponse") == ["gethttpresponse", "get", "http", "respons"]
    assert code_tokens("Context.invoke") == ["context.invoke", "context", "invok"]
    assert code_tokens("the entries of std::io") == ["entri", "std.io", "std", "io"]


def test_code_aware_baseline_matches_parts_paths_and_qualified_names() -> None:
    base = Bm25Baseline.code_aware(
        [
            _record("src/http/headers.py", "def parse_header(raw): ...", "parse_header"),
            _record("src/render.py", "def render(template): ...", "render"),
            _record("src/core.py", "def invoke(self): ...", "Context.invoke"),
            _record("src/base.py", "def invoke(self): ...", "BaseCommand.invoke"),
        ]
    )
    assert base.name == "code-aware BM25"
    assert [r.path for r in base.search("parse header")][:1] == ["src/http/headers.py"]
    assert [r.path for r in base.search("rendering templates")] == ["src/render.py"]
    assert [r.path for r in base.search("headers")] == ["src/http/headers.py"]  # the path
    assert [r.path for r in base.search("Context.invoke")][:1] == ["src/core.py"]


def test_cached_indexes_keep_the_newest_builds_of_one_corpus_and_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexes, "INDEXES", tmp_path)
    stem = "docstring-jinja2-abc-all-MiniLM-L6-v2"
    made = []
    for i in range(5):
        d = tmp_path / f"{stem}-0.1.0+{i:08x}"
        d.mkdir()
        os.utime(d, (1000 + i, 1000 + i))
        made.append(d)
    other_model = tmp_path / f"{stem}-int8-0.1.0+00000000"  # another model, same prefix
    other_model.mkdir()
    assert indexes.builds(stem) == made[::-1]
    gone = indexes.prune_builds(stem, keep=made[0])  # the one just built may be the oldest
    assert sorted(gone) == [made[1], made[2]]
    assert sorted(p for p in tmp_path.iterdir()) == sorted([made[0], made[3], made[4], other_model])


def test_langsets_find_doc_comments_and_definitions_in_four_languages(tmp_path: Path) -> None:
    from benchmarks.quality import langsets as L

    sources = {
        "a.go": "package a\n\n// Run starts the command and waits for it.\n"
        "// It returns the first error.\nfunc Run() error {\n\treturn nil\n}\n",
        "a.rs": "/// Escapes all meta characters in the text.\n#[inline]\n"
        "pub fn escape(t: &str) -> String {\n    t.into()\n}\n",
        "A.java": "class A {\n  /** Routes the result to the awaiting plugin. */\n"
        "  @Override\n  void route() {\n  }\n}\n",
        "a.js": "/**\n * Remove an interceptor from the stack.\n * @param {number} id\n */\n"
        "proto.eject = function eject(id) {\n  return id;\n};\n",
    }
    for name, text in sources.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    grammars = {"a.go": L.GO, "a.rs": L.RUST, "A.java": L.JAVA, "a.js": L.JAVASCRIPT}
    found = {n: L.definitions(g, tmp_path, n) for n, g in grammars.items()}
    [go] = found["a.go"]
    assert (go.name, go.start, go.end, go.comment) == ("Run", 5, 7, (3, 4))
    first, second = L._sentences(go)  # Go's leading name is dropped from the query
    assert first == "Starts the command and waits for it."
    assert second == "It returns the first error."
    [rs] = found["a.rs"]
    assert (rs.name, rs.start, rs.comment, rs.doc) == (
        "escape",
        3,
        (1, 1),
        "Escapes all meta characters in the text.",
    )
    java = {d.name: d for d in found["A.java"]}
    assert java["route"].comment == (2, 2) and java["A"].comment is None
    [js] = found["a.js"]
    assert (js.name, js.start, js.end, js.comment) == ("eject", 5, 7, (1, 4))
    assert js.doc == "Remove an interceptor from the stack."


def test_callers_oracle_places_names_and_scores_call_sites() -> None:
    from benchmarks.callers_oracle import _scores, name_position
    from benchmarks.quality.pydefs import Definition

    d = Definition("m.py", "load", "load", "function", 1, 3, None, None)  # decorated: line 1
    assert name_position(["@cache", "def  load(x):", "    return x"], d) == (2, 5)
    rows = [
        {"oracle": {("a.py", 3), ("b.py", 9)}, "strata": {("a.py", 3), ("c.py", 1)}},
        {"oracle": set(), "strata": set()},
    ]
    assert _scores(rows, "strata") == {"precision": 0.5, "recall": 0.5, "listed": 2, "correct": 1}


def test_a_ranking_variant_reranks_the_lists_it_already_retrieved(minirepo: Path) -> None:
    from benchmarks.quality.rerank import retrieval_kept

    from strata import Engine
    from strata.query import hybrid

    eng = Engine.open(minirepo, config={"embed.provider": "none"})
    eng.index(full=True)
    calls: list[list[str]] = []
    store = eng.store
    searched = store.lexical_search

    def counted(terms: list[str], *rest: object) -> object:
        calls.append(terms)
        return searched(terms, *rest)  # type: ignore[arg-type]

    store.lexical_search = counted  # type: ignore[method-assign]
    original = hybrid.Searcher._retrieve
    with retrieval_kept():
        first = [h.record.id for h in eng.search("load the configuration", mode="lexical")]
        again = [h.record.id for h in eng.search("load the configuration", mode="lexical")]
    after = [h.record.id for h in eng.search("load the configuration", mode="lexical")]
    eng.close()
    assert first and first == again == after
    assert len(calls) == 2  # once inside (the repeat came from memory), once after it
    assert hybrid.Searcher._retrieve is original


def test_a_just_built_index_is_searched_as_a_reused_one(
    minirepo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An engine that has just embedded documents still embeds queries with the model's
    # light twin, as a fresh one and `strata search` do (`Parts.query_embedder`). Both runs
    # of a build must measure the same queries the same way, built or found cached.
    from benchmarks.quality.model import Corpus

    monkeypatch.setattr(indexes, "INDEXES", tmp_path / "indexes")
    corpus = Corpus("mini", minirepo, ())
    built, facts = indexes.open_index(corpus, "all-MiniLM-L6-v2")
    assert not facts["reused"] and facts["vectors_embedded"] > 0
    first = built.search("load the configuration", mode="hybrid", route=False)
    reused, facts = indexes.open_index(corpus, "all-MiniLM-L6-v2")
    assert facts["reused"]
    assert built.parts.query_embedder().name == reused.parts.query_embedder().name
    built.close()
    again = reused.search("load the configuration", mode="hybrid", route=False)
    reused.close()
    assert [(h.record.id, h.score) for h in first] == [(h.record.id, h.score) for h in again]
