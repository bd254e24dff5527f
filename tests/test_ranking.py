"""The pure core of search: tokens, rank fusion, ranking signals, globs, the incremental plan."""

from __future__ import annotations

from pathlib import Path

from strata.index.plan import make_plan
from strata.index.records import make_record
from strata.query import fusion, path_priors, ranking, summaries
from strata.query.ranking import fused_order, rrf
from strata.text.globs import matches
from strata.text.tokens import is_identifier_like, query_terms, tokens
from strata.types import FileState, SourceFile


def test_identifiers_match_whole_and_by_parts() -> None:
    assert tokens("parse_header") == ["parseheader", "parse_header", "parse", "header"]
    assert tokens("HTTPServerError") == ["httpservererror", "http", "server", "error"]
    assert tokens("getHTTPResponse") == ["gethttpresponse", "get", "http", "response"]
    assert query_terms("where are the retries configured") == ["retries", "configured"]
    assert query_terms("the of and") == ["the", "of", "and"]  # nothing else left: keep them


def test_identifier_like_queries() -> None:
    for q in ("parse_header", "Client.send", "RetryPolicy", "getValue", "run()", "x-getValue"):
        assert is_identifier_like(q), q
    for q in ("how are retries configured", "reset", "Where is it"):
        assert not is_identifier_like(q), q
    # a hyphenated word is an adjective, not a name: a topic, searched as words
    for q in ("JSON-specific mapper builder", "Type-safe routing", "X-Forwarded-For"):
        assert not is_identifier_like(q), q


def test_rrf_sums_weighted_reciprocal_ranks() -> None:
    parts = rrf({"lexical": ["a", "b"], "semantic": ["b", "c"]}, weights={"semantic": 2.0}, k=1)
    assert parts["a"] == {"lexical": 1 / 2}
    assert parts["b"] == {"lexical": 1 / 3, "semantic": 2 / 2}
    assert fused_order(parts) == ["b", "c", "a"]


def _rec(  # type: ignore[no-untyped-def]
    path: str,
    title: str,
    kind: str = "function",
    layer: str = "C0_SOURCE_CHUNKS",
    content: str = "",
):
    return make_record(
        id=f"{path}:{title or content}",
        path=path,
        layer=layer,
        title=title,
        content=content or title,
        lang="python",
        file_hash="h",
        kind=kind,
    )


def test_definition_boost_only_for_code_shaped_names_in_a_sentence() -> None:
    reset = _rec("src/config.py", "reset")
    parse = _rec("src/headers.py", "parse_header")
    records = {r.id: r for r in (reset, parse)}
    base = {r.id: {"lexical": 0.01} for r in (reset, parse)}
    sentence = ranking.shape("how do I reset the bound context", ["reset", "bound", "context"])
    out = ranking.adjust(records, base, sentence, rrf_k=60, include_tests=False)
    assert "definition" not in out[reset.id]
    named = ranking.shape("who uses parse_header for cookies", ["parse_header", "cookies"])
    out = ranking.adjust(records, base, named, rrf_k=60, include_tests=False)
    assert "definition" in out[parse.id]
    bare = ranking.shape("reset", ["reset"])  # a single word may well be a name
    out = ranking.adjust(records, base, bare, rrf_k=60, include_tests=False)
    assert "definition" in out[reset.id] and "definition" not in out[parse.id]


def test_no_definition_boost_for_a_name_a_statement_says_its_code_uses() -> None:
    env_for = _rec("lib/rack/mock.rb", "Rack.MockRequest.env_for")
    other = _rec("lib/rack/other.rb", "Other.env_for")
    records = {r.id: r for r in (env_for, other)}
    base = {r.id: {"lexical": 0.01} for r in (env_for, other)}
    used = ranking.shape("Options given are passed to MockRequest.env_for.", ["options"])
    assert used.elsewhere == {"mockrequest.env_for"}
    out = ranking.adjust(records, base, used, rrf_k=60, include_tests=False)
    assert "definition" not in out[env_for.id]
    assert out[env_for.id]["elsewhere_x"] == ranking.ELSEWHERE_FACTOR  # not what it describes
    assert "elsewhere_x" not in out[other.id]
    assert out[other.id]["definition"] > 0  # another qualifier's: as before, a lesser part
    asked = ranking.shape("what is passed to MockRequest.env_for?", ["passed", "env_for"])
    assert not asked.elsewhere  # a question asks about the name itself
    out = ranking.adjust(records, base, asked, rrf_k=60, include_tests=False)
    assert out[env_for.id]["definition"] > out[other.id]["definition"]


def test_a_special_method_alone_in_a_sentence_names_no_one_definition() -> None:
    init = _rec("src/attr/__init__.pyi", "Converter.__init__")
    records, base = {init.id: init}, {init.id: {"lexical": 0.01}}
    sentence = ranking.shape("how does attrs generate __init__", ["attrs", "generate", "init"])
    assert "__init__" not in sentence.names  # every class defines one
    out = ranking.adjust(records, base, sentence, rrf_k=60, include_tests=False)
    assert "definition" not in out[init.id]
    asked = ranking.shape("where is Converter.__init__", ["converter", "init"])
    out = ranking.adjust(records, base, asked, rrf_k=60, include_tests=False)
    assert "definition" in out[init.id]  # a name or two, qualified: the definition asked


def test_a_qualified_name_beats_the_same_bare_name_under_another_class() -> None:
    mine = _rec("src/core.py", "Context.invoke", kind="method")
    other = _rec("src/core.py", "BaseCommand.invoke", kind="method")
    records = {r.id: r for r in (mine, other)}
    base = {r.id: {"lexical": 0.01} for r in (mine, other)}
    for query in ("Context.invoke", "where is the method Context.invoke defined"):
        q = ranking.shape(query, ["context", "invoke"])
        out = ranking.adjust(records, base, q, rrf_k=5, include_tests=False)
        assert out[mine.id]["definition"] == 2 * out[other.id]["definition"], query
    bare = ranking.shape("invoke", ["invoke"])  # no qualifier asked: both are the name
    out = ranking.adjust(records, base, bare, rrf_k=5, include_tests=False)
    assert out[mine.id]["definition"] == out[other.id]["definition"]


def test_names_are_looked_up_for_a_name_or_two_not_for_a_sentence() -> None:
    assert ranking.shape("Context", ["context"]).lookup
    assert ranking.shape("Context.invoke", ["context", "invoke"]).asked == ("Context.invoke",)
    sentence = ranking.shape("a shortcut to create a `Notification` of type `next`", [])
    assert not sentence.lookup and sentence.asked == ("Notification", "next")


def test_penalties_multiply_and_tests_are_spared_when_asked_for() -> None:
    t = _rec("tests/test_headers.py", "test_parse")
    v = _rec("vendor/lib/six.py", "iteritems")
    records = {t.id: t, v.id: v}
    base = {r: {"lexical": 0.02} for r in records}
    q = ranking.shape("parsing helpers", ["parsing", "helpers"])
    out = ranking.adjust(records, base, q, rrf_k=60, include_tests=False)
    assert out[t.id]["test_x"] == ranking.TEST_FACTOR
    assert out[v.id]["vendored_x"] == ranking.VENDORED_FACTOR
    assert ranking.final_score(out[v.id]) < 0.02
    generated = ("uv.lock", "web/package-lock.json", "PKG-INFO", "x.egg-info/SOURCES.txt")
    generated += ("lib/index.umd.js", "dist/zod.bundle.min.js", "dist/umd/rx.js")
    for path in (*generated, "debian/control", "debian/patches/fix-build.patch"):
        assert path_priors.is_vendored(path), path
    assert not path_priors.is_vendored("src/lock.py")
    assert not path_priors.is_vendored("src/bundle.js") and not path_priors.is_vendored(
        "lib/umd.ts"
    )
    assert not path_priors.is_vendored("python_debian/debian/deb822.py")  # a package so named
    notes = _rec("RELEASE-NOTES-3.8.txt", "Changes", kind="section", layer="D0_DOC_CHUNKS")
    feed = _rec("docs/news_feed.md", "Feeds", kind="section", layer="D0_DOC_CHUNKS")
    assert path_priors.is_changelog(notes) and not path_priors.is_changelog(feed)
    # a folder of one-change notes (reno, towncrier, changesets), YAML ones too; not code
    notes_dirs = ("releasenotes/notes/add-x.yaml", "changelog.d/12.bugfix.md", ".changeset/a.md")
    for path in notes_dirs:
        assert path_priors.is_changelog(_rec(path, "", kind="text")), path
    assert not path_priors.is_changelog(_rec("src/news/feed.py", "Feed"))
    asked = ranking.shape("tests of parsing", ["tests", "parsing"])
    assert "test_x" not in ranking.adjust(records, base, asked, rrf_k=60, include_tests=False)[t.id]
    # a test holding the pasted text verbatim is where it was seen: the milder factor
    seen = {**base, t.id: {"lexical": 0.02, "verbatim": 0.01}}
    out = ranking.adjust(records, seen, q, rrf_k=60, include_tests=False)
    assert out[t.id]["test_x"] == ranking.VERBATIM_TEST_FACTOR > ranking.TEST_FACTOR


def test_a_manifest_ranks_low_unless_the_build_is_asked_about() -> None:
    manifest = _rec("go.mod", "go.mod", kind="module")
    alone = {manifest.id: manifest}
    topic = ranking.shape("route grouping with sub-routers", ["route", "grouping", "routers"])
    out = ranking.adjust(
        alone, {manifest.id: {"lexical": 0.02}}, topic, rrf_k=60, include_tests=False
    )
    assert out[manifest.id]["manifest_x"] == ranking.MANIFEST_FACTOR
    deps = ranking.shape("which dependencies does it need", ["dependencies", "need"])
    out = ranking.adjust(
        alone, {manifest.id: {"lexical": 0.02}}, deps, rrf_k=60, include_tests=False
    )
    assert "manifest_x" not in out[manifest.id]
    assert not path_priors.path_kinds("src/package_json.py").manifest


def test_globs() -> None:
    assert matches("src/a/b.py", ["src/**"]) and not matches("lib/src/a.py", ["src/**"])
    assert matches("a/b/c.py", ["*.py"]) and not matches("a/b/c.py", ["a/*.py"])
    assert matches("tests/x/test_a.py", ["tests/**/test_*.py"])


def test_plan_reads_only_what_changed_by_stat() -> None:
    f = lambda rel, size, mtime: SourceFile(Path(rel), rel, size, mtime)  # noqa: E731
    indexed = {
        "a.py": FileState("h1", 10, 5, 3),
        "b.py": FileState("h2", 20, 6, 2),
        "gone.py": FileState("h3", 1, 1, 1),
        "other/x.py": FileState("h4", 1, 1, 1),
    }
    plan = make_plan(
        [f("a.py", 10, 5), f("b.py", 21, 7), f("new.py", 1, 1)],
        indexed,
        scope=["a.py", "b.py", "gone.py", "new.py"],
    )
    assert [x.rel for x in plan.new] == ["new.py"]
    assert [x.rel for x in plan.changed] == ["b.py"]
    assert plan.unchanged == ("a.py",)
    assert plan.removed == ("gone.py",)  # outside the scope nothing is removed
    assert make_plan([f("a.py", 10, 5)], {"a.py": FileState("h1", 10, 5, 3)}).is_noop()
    again = make_plan([f("a.py", 10, 5), f("new.py", 1, 1)], indexed, reread=True)
    assert [x.rel for x in again.reread] == ["a.py"] and not again.unchanged
    assert [x.rel for x in again.to_read] == ["new.py", "a.py"] and not again.is_noop()


def test_short_document_chunks_are_penalised_short_code_is_not() -> None:
    stub = _rec("docs/refunds.md", "Details", kind="section", layer="D0_DOC_CHUNKS")
    long = make_record(
        id="docs/refunds.md:How",
        path="docs/refunds.md",
        layer="D0_DOC_CHUNKS",
        title="How",
        content="A refund returns the money to the card it was paid with, " * 3,
        lang="markdown",
        file_hash="h",
        kind="section",
    )
    code = _rec("src/refunds.py", "refund")  # a one-line definition is a fine answer
    records = {r.id: r for r in (stub, long, code)}
    base = {r: {"lexical": 0.02} for r in records}
    out = ranking.adjust(
        records, base, ranking.shape("refund", ["refund"]), rrf_k=60, include_tests=False
    )
    assert out[stub.id]["short_x"] == ranking.SHORT_FACTOR
    assert "short_x" not in out[long.id] and "short_x" not in out[code.id]
    assert ranking.final_score(out[stub.id]) < ranking.final_score(out[long.id])


def test_a_short_statement_between_definitions_ranks_below_them_for_a_sentence() -> None:
    def code(title: str, content: str):  # type: ignore[no-untyped-def]
        return _rec("lib/params.js", title, "function" if title else "block", content=content)

    glue = code("", "export default AxiosURLSearchParams;")
    block = code(
        "", "function encode(str) {\n  return encodeURIComponent(str)" + " + x" * 40 + ";\n}"
    )
    one_line_def = code("encode", "const encode = (s) => encodeURIComponent(s);")
    records = {r.id: r for r in (glue, block, one_line_def)}
    base = {r: {"semantic": 0.02} for r in records}
    sentence = ranking.shape("how are query params serialized", ["query", "params", "serialized"])
    out = ranking.adjust(records, base, sentence, rrf_k=60, include_tests=False)
    assert out[glue.id]["short_x"] == ranking.SHORT_FACTOR
    assert "short_x" not in out[block.id] and "short_x" not in out[one_line_def.id]
    assert ranking.final_score(out[glue.id]) < ranking.final_score(out[one_line_def.id])
    # asked for by name, the same line is an answer like any other
    name = ranking.shape("AxiosURLSearchParams", ["axiosurlsearchparams"])
    by_name = ranking.adjust(records, base, name, rrf_k=60, include_tests=False)
    assert "short_x" not in by_name[glue.id]


def test_fair_kinds_rank_docs_and_code_each_among_their_own() -> None:
    from strata.query.fusion import fair_rrf

    code = [_rec(f"src/m{i}.py", f"f{i}") for i in range(3)]
    doc = _rec("docs/guide.md", "Usage", kind="section", layer="D0_DOC_CHUNKS")
    records = {r.id: r for r in (*code, doc)}
    lists = {"lexical": [c.id for c in code] + [doc.id], "semantic": [code[0].id, doc.id]}
    joint = rrf(lists, k=5)
    fair = fair_rrf(lists, records, {}, 5)
    assert joint[doc.id] == {"lexical": 1 / 9, "semantic": 1 / 7}  # behind every code chunk
    assert fair[doc.id] == {"lexical": 1 / 6, "semantic": 1 / 6}  # first of the docs
    assert fair[code[1].id] == joint[code[1].id]  # code keeps its ranks among code
    assert fused_order(fair)[:2] == [code[0].id, doc.id]


def test_a_sentence_naming_the_file_lifts_its_chunks() -> None:
    q = ranking.shape("the main activity of the Cordova application", [])
    assert q.words == {"main", "activity", "cordova", "application"}
    folder = "framework/src/org/apache/cordova/"
    assert ranking.path_share(folder + "CordovaActivity.java", q.words) == 2 / 4
    assert ranking.path_share(folder + "LOG.java", q.words) == 1 / 4  # the folder
    assert ranking.path_share("lib/applications.js", q.words) == 1 / 4  # by prefix
    assert ranking.shape("CordovaActivity", []).words == frozenset()  # a name is looked up
    activity = _rec(folder + "CordovaActivity.java", "CordovaActivity.onCreate", kind="method")
    log = _rec(folder + "LOG.java", "LOG.d", kind="method")
    plugin = _rec(folder + "CordovaPlugin.java", "CordovaPlugin.execute", kind="method")
    records = {r.id: r for r in (activity, log, plugin)}
    base = {r: {"semantic": 0.1} for r in records}
    assert "path" not in ranking.adjust(records, base, q, rrf_k=5, include_tests=False)[activity.id]
    out = ranking.adjust(records, base, q, rrf_k=5, include_tests=False, path_boost=1.0)
    # `cordova` names every candidate's folder: it tells none apart; `activity` names one
    # file of three, so it weighs 2/3 of a word (of the query's four)
    assert abs(out[activity.id]["path"] - 1.0 / 6 * (2 / 3) / 4) < 1e-12
    assert "path" not in out[log.id] and "path" not in out[plugin.id]
    # a topic, or a question about the code, gets the boost without the key
    topic = ranking.shape("cordova main activity lifecycle", [], topic=True)
    asked = ranking.shape("how does the main activity start the cordova app", [])
    for shaped in (topic, asked):
        assert (
            "path"
            in ranking.adjust(records, base, shaped, rrf_k=5, include_tests=False)[activity.id]
        )


def test_a_test_file_named_like_the_topic_gets_no_path_part_unless_tests_are_asked() -> None:
    code = _rec("fastapi/dependencies/utils.py", "solve_dependencies")
    test = make_record(
        id="t", path="tests/test_dependency_class.py", layer="C0_SOURCE_CHUNKS",
        title="test_dependency_class", content="x", lang="python", file_hash="h",
        kind="function", is_test=True,
    )  # fmt: skip
    other = _rec("fastapi/routing.py", "APIRoute")  # a word every candidate has tells none apart
    records = {r.id: r for r in (code, test, other)}
    base = {r: {"semantic": 0.1} for r in records}
    topic = ranking.shape("how does dependency injection work", [])
    out = ranking.adjust(records, base, topic, rrf_k=5, include_tests=False)
    assert "path" in out[code.id] and "path" not in out[test.id]
    asked = "how do the tests check dependency injection"
    tests = ranking.shape(asked, query_terms(asked))
    assert tests.wants_tests
    out = ranking.adjust(records, base, tests, rrf_k=5, include_tests=False)
    assert "path" in out[test.id]


def test_a_word_names_a_path_part_in_another_form() -> None:
    words = frozenset({"dependency", "injection"})
    assert ranking.path_share("fastapi/dependencies/utils.py", words) == 1 / 2
    assert ranking.path_share("src/routing/method_router.rs", frozenset({"routing"})) == 1.0
    assert ranking.path_share("lib/handler.js", frozenset({"handling"})) == 1.0
    assert ranking.path_share("src/parser.c", frozenset({"parsing"})) == 1.0
    # a shared beginning is not enough: `logger` is not `login`, `format` not `formal`
    assert ranking.path_share("auth/login.py", frozenset({"logger"})) == 0.0
    assert ranking.path_share("text/formal.py", frozenset({"format"})) == 0.0


def test_the_path_boost_key_reaches_the_ranking(tmp_path: Path) -> None:
    from strata import Engine

    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "activity.py").write_text(
        "def open_screen(intent):\n    return intent.screen\n", encoding="utf-8"
    )
    (tmp_path / "app" / "views.py").write_text(
        "def open_view(screen):\n    return screen.open()\n", encoding="utf-8"
    )
    for boost, expected in ((0.0, False), (1.0, True)):
        eng = Engine.open(
            tmp_path,
            index_dir=tmp_path / f"idx{boost}",
            config={"embed.provider": "none", "search.path_boost": boost},
        )
        eng.index()
        hits = eng.search("It opens the screen of an activity.", k=3, mode="lexical")
        assert ("path" in hits[0].parts) is expected
        eng.close()


def test_declaration_stubs_rank_below_the_code_they_declare() -> None:
    stub = _rec("typings/index.d.ts", "Command.option", kind="method")
    code = _rec("lib/command.js", "Command.option", kind="method")
    records = {stub.id: stub, code.id: code}
    base = {r: {"lexical": 0.02} for r in records}
    q = ranking.shape("define an option of the command", [])
    out = ranking.adjust(records, base, q, rrf_k=5, include_tests=False)
    assert out[stub.id]["stub_x"] == ranking.STUB_FACTOR < 1.0 and "stub_x" not in out[code.id]


def test_a_first_candidate_far_ahead_of_its_list_stands_out() -> None:
    # BM25 found one chunk with every word (score 14.2, the next 6.1); the vectors rank
    # it fifth. A chunk both lists rank second would otherwise win the fusion.
    lexical = [("answer", 14.2), ("both", 6.1), ("x1", 5.9), ("x2", 5.7)]
    semantic = [("y1", 0.55), ("both", 0.54), ("y2", 0.53), ("y3", 0.53), ("answer", 0.52)]
    lists = {"lexical": lexical, "semantic": semantic}
    ranks = {name: [key for key, _ in pairs] for name, pairs in lists.items()}
    weights = ranking.SENTENCE_WEIGHTS
    plain = rrf(ranks, weights=weights, k=5)
    assert fused_order(plain)[0] == "both"
    heads = fusion.standouts(lists, k=5)
    assert heads == {"answer": fusion.STANDOUT_BOOST / 6}  # the vectors' head is flat
    for key, part in heads.items():
        plain[key]["standout"] = part
    assert fused_order(plain)[0] == "answer"


def test_a_statement_that_reads_as_a_summary_leans_on_the_vectors() -> None:
    for said in ("Returns the value for the key.", "Parse a config file", "Applies the patch"):
        assert summaries.reads_as_summary(said), said
    for said in ("The value for the key.", "If the key is missing", "Returns it", "Is done"):
        assert not summaries.reads_as_summary(said), said
    terms = ["returns", "value", "key"]
    summary = ranking.shape("Returns the value associated with the key.", terms)
    assert summary.describes and ranking.weights(summary) == ranking.DESCRIPTION_WEIGHTS
    assert ranking.DESCRIPTION_WEIGHTS["lexical"] < ranking.SENTENCE_WEIGHTS["lexical"]
    detail = ranking.shape("This value is cached until the key changes.", terms)
    assert not detail.describes and ranking.weights(detail) == ranking.SENTENCE_WEIGHTS
    asked = ranking.shape("Returns what for a missing key?", terms)  # a question is not
    assert asked.question and not asked.describes
    assert not ranking.shape("get_value", ["get_value"]).describes
    # the query adapter: a summary at most half way, a question not at all
    cap = ranking.DESCRIPTION_ADAPTER
    assert (
        ranking.adapter_weight(summary, 0.7) == cap and ranking.adapter_weight(summary, 0.3) == 0.3
    )
    assert ranking.adapter_weight(detail, 0.7) == 0.7 and ranking.adapter_weight(asked, 0.7) == 0.0
    assert ranking.adapter_weight(ranking.shape("get_value", ["get_value"]), 0.7) == 0.7
    assert ranking.adapter_weight(summary, 0.0) == 0.0  # off is off


def test_a_standout_leads_the_next_other_name_not_its_namesakes() -> None:
    # BM25's first two are one function's overloads in one file (`mulDiv`, 19.8 and 16.2):
    # the lead that counts is over the next other name (`tryAdd`, 13.9), not its namesake
    first, namesake = _rec("Math.sol", "Math.mulDiv"), _rec("Math.sol", "Math.mulDiv", content="b")
    other, vec = _rec("Math.sol", "Math.tryAdd"), _rec("Math.sol", "Math.ceilDiv")
    lexical = [(first, 19.8), (namesake, 16.2), (other, 13.9)]
    lists = {"lexical": lexical, "semantic": [(vec, 0.66), (other, 0.65)]}
    heads = fusion.heads(lists, by_kind=True)
    assert heads[0]["lexical"] == [(first.id, 19.8), (other.id, 13.9)]
    assert fusion.standouts(heads[0], k=5) == {first.id: fusion.STANDOUT_BOOST / 6}
    # a rival of another name as near is one: no standout
    near = [(first, 19.8), (_rec("Math.sol", "Math.max"), 16.2), (other, 13.9)]
    near_heads = fusion.heads({**lists, "lexical": near}, by_kind=False)[0]
    assert fusion.standouts(near_heads, k=5) == {}
    # in the vectors' list a namesake is a rival (measured: docs questions lost first places)
    close = [(first, 0.70), (namesake, 0.69), (other, 0.60)]
    vectors = fusion.heads({"lexical": lexical, "semantic": close}, by_kind=True)[0]
    assert vectors["semantic"] == [(first.id, 0.70), (namesake.id, 0.69)]
    # the same name in another file is another definition: a rival
    copy = _rec("vendor/Math.sol", "Math.mulDiv")
    vendored = fusion.heads({"lexical": [(first, 19.8), (copy, 16.2)]}, by_kind=False)[0]
    assert vendored["lexical"] == [(first.id, 19.8), (copy.id, 16.2)]
    # a doc section of the same title is a rival all the same
    doc = _rec("README.md", "Math.mulDiv", kind="section", layer="D0_DOC_CHUNKS", content="d")
    mixed = fusion.heads({"lexical": [(first, 19.8), (doc, 16.2)]}, by_kind=False)[0]
    assert mixed["lexical"] == [(first.id, 19.8), (doc.id, 16.2)]


def test_standouts_need_a_wide_lead_and_both_lists() -> None:
    flat_bm25 = [("a", 10.0), ("b", 9.0)]  # the second at 90 % of the first
    steep_vectors = [("c", 0.71), ("d", 0.62)]  # a cosine 0.09 lower
    assert fusion.standouts({"lexical": flat_bm25, "semantic": steep_vectors}, k=5) == {
        "c": fusion.STANDOUT_BOOST / 6
    }
    steep_bm25 = [("a", 10.0), ("b", 7.0)]
    assert fusion.standouts({"lexical": steep_bm25}, k=5) == {}  # lexical search alone
    assert fusion.standouts({"lexical": steep_bm25, "semantic": [("a", 0.7)]}, k=5) == {
        "a": fusion.STANDOUT_BOOST / 6
    }
    both = fusion.standouts({"lexical": steep_bm25, "semantic": steep_vectors[:1] * 2}, k=5)
    assert both == {"a": fusion.STANDOUT_BOOST / 6}  # equal vector scores: no lead


def test_code_cut_from_one_overlong_line_ranks_below_written_code(tmp_path: Path) -> None:
    from strata import Engine

    root = tmp_path / "repo"
    (root / "docs" / "_build").mkdir(parents=True)
    (root / "src").mkdir()
    words = " ".join(f'"select_{i}": [{i}, {i + 1}], "users_{i}": {i},' for i in range(2_000))
    (root / "docs" / "searchindex.js").write_text(f"Search.setIndex({{{words}}})\n")  # one line
    (root / "src" / "queries.py").write_text(
        "def select_users(session, user_id):\n"
        '    """Select the users whose id is given."""\n'
        "    return session.execute(select(User).where(User.id == user_id))\n",
        encoding="utf-8",
    )
    eng = Engine.open(root, config={"embed.provider": "none"})
    eng.index()
    hits = eng.search("select users where id", k=5).hits
    assert hits[0].record.path == "src/queries.py"
    cut = [h for h in hits if h.record.path == "docs/searchindex.js"]
    assert cut and all(h.parts["vendored_x"] == ranking.VENDORED_FACTOR for h in cut)
    doc = make_record(
        id="d:0", path="README.md", layer="D0_DOC_CHUNKS", title="", content="a long line",
        lang="markdown", file_hash="h", kind="section", metadata={"col_start": 0, "col_end": 9},
    )  # fmt: skip
    assert not ranking.is_cut_from_one_line(doc)  # a document's long line is a paragraph


def test_a_doc_section_far_ahead_of_the_other_sections_stands_out_under_code() -> None:
    # Code leads both lists; among the docs, one section is far ahead of the next (BM25
    # 9.0 against 4.0, a cosine 0.12 higher). Fusion ranks each kind among its own, so the
    # standout is read among its own too: that section is a confident docs answer.
    from strata.config import load_config
    from strata.query.hybrid import QueryContext, Searcher

    code = [_rec(f"src/m{i}.py", f"helper_{i}") for i in range(3)]
    guide = _rec("docs/guide.md", "Retries", kind="section", layer="D0_DOC_CHUNKS")
    other = _rec("docs/faq.md", "Questions", kind="section", layer="D0_DOC_CHUNKS")
    lists = {
        "lexical": [(code[0], 12.0), (code[1], 11.5), (guide, 9.0), (code[2], 8.0), (other, 4.0)],
        "semantic": [(code[1], 0.62), (code[0], 0.61), (guide, 0.60), (other, 0.48)],
    }
    q = ranking.shape("how often does the client try again", [])
    for fair in (True, False):
        cfg = load_config(env={}, flags={"search.fair_kinds": fair})
        hits = Searcher(QueryContext(store=None, config=cfg))._rank(q, lists, 5, False)  # type: ignore[arg-type]
        stood = {h.record.id for h in hits if "standout" in h.parts}
        if fair:  # the section among the sections, not the mixed lists' heads
            assert guide.id in stood and other.id not in stood
            assert hits[0].record.id == guide.id
        else:
            assert guide.id not in stood and hits[0].record.layer == "C0_SOURCE_CHUNKS"


def test_example_and_legacy_code_rank_below_the_library_unless_asked_for() -> None:
    lib = _rec("fastapi/datastructures.py", "UploadFile")
    examples = [
        _rec(p, "create_upload_file")
        for p in ("docs_src/request_files/tutorial001.py", "_examples/upload/main.go")
    ]
    legacy = _rec("pydantic/deprecated/decorator.py", "validate_arguments")
    records = {r.id: r for r in (lib, legacy, *examples)}
    base = {r: {"lexical": 0.02} for r in records}
    q = ranking.shape("file upload handling", ["file", "upload", "handling"])
    out = ranking.adjust(records, base, q, rrf_k=60, include_tests=False)
    assert "example_x" not in out[lib.id]
    for rec in (legacy, *examples):
        assert out[rec.id]["example_x"] == ranking.EXAMPLE_FACTOR, rec.path
    asked = ranking.shape("example of a file upload", ["example", "file", "upload"])
    out = ranking.adjust(records, base, asked, rrf_k=60, include_tests=False)
    assert not any("example_x" in p for p in out.values())


def test_a_question_about_what_the_code_does_leans_to_code() -> None:
    code = _rec("aiohttp/http_parser.py", "HttpPayloadParser")
    doc = _rec("docs/streams.rst", "Reading chunks", kind="section", layer="D0_DOC_CHUNKS")
    records = {code.id: code, doc.id: doc}
    base = {r: {"lexical": 0.02} for r in records}
    for question in (
        "how chunked transfer encoding is parsed",
        "How does the parser read chunks?",
        "where is the chunk size read",
    ):
        q = ranking.shape(question, ["chunked", "parsed"])
        out = ranking.adjust(records, base, q, rrf_k=60, include_tests=False)
        assert out[code.id]["code_lean"] > 0 and "code_lean" not in out[doc.id], question
    usage = ("How do I read chunks?", "how to read chunks", "How can we stream chunks")
    # a comparison the documents make, not what the code does
    compared = ("how does aiohttp compare to requests", "how is a stream different from a file")
    for question in (*usage, *compared):
        q = ranking.shape(question, ["read", "chunks"])
        out = ranking.adjust(records, base, q, rrf_k=60, include_tests=False)
        assert "code_lean" not in out[code.id], question


def test_the_code_lean_reorders_the_first_candidates_and_brings_in_none_from_below() -> None:
    docs = [
        _rec(f"docs/page{i}.md", f"Section {i}", kind="section", layer="D0_DOC_CHUNKS")
        for i in range(ranking.LEAN_DEPTH)
    ]
    low = _rec("src/parser.py", "parse_chunk")
    records = {r.id: r for r in (*docs, low)}
    base = {r.id: {"lexical": 0.05} for r in docs} | {low.id: {"lexical": 0.01}}
    q = ranking.shape("how does the parser read chunks", ["parser", "read", "chunks"])
    out = ranking.adjust(records, base, q, rrf_k=60, include_tests=False)
    assert "code_lean" not in out[low.id]  # below the first ten: a docs answer keeps its place
    records[docs[-1].id] = _rec("src/reader.py", "read_chunks")  # now code among the ten
    out = ranking.adjust(records, base, q, rrf_k=60, include_tests=False)
    assert out[docs[-1].id]["code_lean"] > 0 and "code_lean" not in out[low.id]


def test_the_name_a_statement_opens_with_is_what_it_describes() -> None:
    mapper = _rec("framework/ListMapper.cs", "NUnit.Framework.ListMapper", kind="class")
    helper = _rec("framework/AssertionHelper.cs", "AssertionHelper.Map", kind="method")
    records = {mapper.id: mapper, helper.id: helper}
    base = {r: {"lexical": 0.1} for r in records}
    statement = "ListMapper is used to transform a collection into another."
    q = ranking.shape(statement, query_terms(statement))
    assert q.subject == "listmapper"
    out = ranking.adjust(records, base, q, rrf_k=5, include_tests=False)
    # named as the subject: a name's full definition part, as a name alone would get
    assert out[mapper.id]["definition"] == ranking.DEFINITION_BOOST / 6
    # named elsewhere in a statement: half of it
    later = "Transforms a collection with a ListMapper."
    q = ranking.shape(later, query_terms(later))
    assert q.subject == ""
    out = ranking.adjust(records, base, q, rrf_k=5, include_tests=False)
    assert out[mapper.id]["definition"] == ranking.DEFINITION_BOOST / 12
    # a question opening with a name asks about it; it describes nothing
    assert ranking.shape("ListMapper does what?", []).subject == ""
    assert ranking.shape("`Context.invoke` calls the callback.", []).subject == "invoke"
