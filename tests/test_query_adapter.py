"""The query adapter: fitted on a project's documented symbols at each index run, used by
the semantic list for code rows only (embedding/adapter, engine/adapting, query/adapted)."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from strata import Engine
from strata.embedding import adapter
from strata.engine.adapting import FILE_NAME
from strata.engine.watch import Watcher
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG, D0_DOC_CHUNKS
from strata.query import adapted, ranking
from strata.store import Filter
from strata.surfaces.cli import app
from strata.types import Record
from tests.embed_server import EmbedServer, serve


def _rec(rid: str, layer: str, path: str, span: tuple[int, int], **kw: Any) -> Record:
    fields: dict[str, Any] = {
        "title": "", "content": "", "lang": "python", "kind": "function", "is_test": False,
        "metadata": {}, "file_hash": "h", "content_hash": "c", **kw,
    }  # fmt: skip
    return Record(id=rid, path=path, layer=layer, span_start=span[0], span_end=span[1], **fields)


# --- the pure parts -------------------------------------------------------------------------


def test_summary_is_what_follows_the_signature_and_says_enough() -> None:
    sym = _rec(
        "s", C1_SYMBOL_CATALOG, "a.py", (1, 3),
        title="a.load", content="def load(path)\nRead the settings file from disk.",
        metadata={"signature": "def load(path)"},
    )  # fmt: skip
    assert adapter.summary_of(sym) == "Read the settings file from disk."
    short = _rec("t", C1_SYMBOL_CATALOG, "a.py", (1, 3), title="a.f", content="a.f\nLoads.")
    assert adapter.summary_of(short) == ""  # too few words to learn from
    bare = _rec("u", C1_SYMBOL_CATALOG, "a.py", (1, 3), title="a.g", content="a.g")
    assert adapter.summary_of(bare) == ""


def test_doc_block_takes_out_the_whole_doc_comment_the_summary_came_from() -> None:
    text = (
        "// Parse reads the settings file from disk.\n"
        "// It returns an error when missing.\n"
        "func Parse(path string) error {\n"
        "    // settings are cached\n"
        "    return load(path)\n"
        "}"
    )
    code, doc = adapter.doc_block(text, "Parse reads the settings file from disk.")
    assert code == "func Parse(path string) error {\n    return load(path)\n}"
    # the comment's words without their markers; a lone comment with a summary word goes too
    assert doc == (
        "Parse reads the settings file from disk. It returns an error when missing. "
        "settings are cached"
    )


def test_doc_block_keeps_directives_and_code_lines_out_of_the_comment() -> None:
    text = (
        "#define MAXREFS 8\n"
        "/* Frees the references of a table. */\n"
        "#[inline]\n"
        "int unref (Table *t) {\n"
        "  t->refs = 0;  /* no references to a table */\n"
        "}"
    )
    code, doc = adapter.doc_block(text, "Frees the references of a table.")
    assert code == "#define MAXREFS 8\n#[inline]\nint unref (Table *t) {\n}"
    assert doc == "Frees the references of a table."  # the code line said it, it is no comment


def test_doc_block_takes_a_docstring_whole_and_leaves_other_comments() -> None:
    text = (
        "class Template:\n"
        '    """A compiled template that can be rendered.\n'
        "\n"
        "    Use the methods on :class:`Environment` to load one.\n"
        '    """\n'
        "\n"
        "    #: the class of environment made for one alone\n"
        "    environment_class = Environment\n"
    )
    code, doc = adapter.doc_block(text, "A compiled template that can be rendered.")
    assert code.splitlines() == [
        "class Template:",
        "",
        "    #: the class of environment made for one alone",
        "    environment_class = Environment",
    ]
    assert doc == (
        "A compiled template that can be rendered. Use the methods on :class:`Environment` "
        "to load one."
    )


def test_pairs_take_the_smallest_chunk_around_each_documented_symbol() -> None:
    sig = {"signature": "def f()"}
    syms = [
        _rec("a.f", C1_SYMBOL_CATALOG, "a.py", (5, 8), title="a.f",
             content="def f()\nCompute the total of the basket.", metadata=sig),
        _rec("a.g", C1_SYMBOL_CATALOG, "a.py", (9, 9), title="a.g",
             content="def f()\nCompute the mean of the basket.", metadata=sig, is_test=True),
        _rec("b.h", C1_SYMBOL_CATALOG, "b.py", (1, 2), title="b.h",
             content="def f()\nA function nobody chunked.", metadata=sig),
    ]  # fmt: skip
    chunks = {
        "a.py": [
            _rec("a:0", C0_SOURCE_CHUNKS, "a.py", (1, 20), content="class Basket: ..."),
            _rec("a:1", C0_SOURCE_CHUNKS, "a.py", (5, 8), content="def f():\n    return 1"),
        ]
    }
    assert adapter.pairs(adapter.matches(syms, chunks)) == [
        ("Compute the total of the basket.", "def f():\n    return 1")
    ]


def _matched(sym: Record, comment: list[str], code: str) -> list[tuple[str, Record]]:
    """`adapter.matches` for `sym` in one chunk: its doc comment's lines, then `code`."""
    text = "\n".join([*comment, code])
    end = len(comment) + 1
    return adapter.matches(
        [sym], {sym.path: [_rec("c:0", C0_SOURCE_CHUNKS, sym.path, (1, end), content=text)]}
    )


def test_pairs_take_the_next_sentences_of_the_doc_comment_too() -> None:
    sym = _rec(
        "r.f", C1_SYMBOL_CATALOG, "r.rs", (1, 5), title="r.f",
        content="r.f\nReturns the first item of the queue.", metadata={"decl_line": 5},
    )  # fmt: skip
    code = "fn f(&self) -> Item { self.q.pop() }"
    comment = [
        "/// Returns the first item of the queue.",
        "/// Blocks until one arrives. Panics when closed.",
        "/// Ok.",
        "/// The lock is held meanwhile.",
    ]
    matched = _matched(sym, comment, code)
    assert adapter.pairs(matched, sentences=3) == [
        ("Returns the first item of the queue.", code),
        ("Blocks until one arrives.", code),
        ("Panics when closed.", code),
    ]
    # a sentence of fewer than three words is passed over
    assert adapter.pairs(matched, sentences=9)[3:] == [("The lock is held meanwhile.", code)]
    assert adapter.pairs(matched, sentences=1) == [("Returns the first item of the queue.", code)]


def test_pairs_leave_out_doc_comment_tags() -> None:
    # NatSpec: `@dev` only says prose follows (the sentence is the summary again, not
    # another); `@param` and `@return` open what no one asks in words, and a tag ends the
    # sentence before it
    sym = _rec(
        "t.f", C1_SYMBOL_CATALOG, "T.sol", (1, 7), title="T.f",
        content="function f(uint256 x)\nHelper to set the length of a dynamic array.",
        metadata={"decl_line": 7, "signature": "function f(uint256 x)"},
    )  # fmt: skip
    code = "function f(uint256 x) internal { sstore(x) }"
    comment = [
        "/**",
        " * @dev Helper to set the length of a dynamic array.",
        " * Writing the length directly is forbidden",
        " * @param x the new length of the array.",
        " * @return whether the length was set",
        " */",
    ]
    assert adapter.pairs(_matched(sym, comment, code), sentences=9) == [
        ("Helper to set the length of a dynamic array.", code),
        ("Writing the length directly is forbidden", code),
    ]
    # a summary an older index kept with its tag loses it; another tag's text is none
    tagged = _rec(
        "u", C1_SYMBOL_CATALOG, "a.h", (1, 3), title="a.read",
        content="a.read\n\\brief Read a value from a document.",
    )  # fmt: skip
    assert adapter.summary_of(tagged) == "Read a value from a document."
    content = "a.n\n@return the count of it"
    returns = _rec("v", C1_SYMBOL_CATALOG, "a.h", (1, 3), title="a.n", content=content)
    assert adapter.summary_of(returns) == ""


def test_pairs_are_a_stable_sample_when_there_are_too_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(adapter, "MAX_PAIRS", 3)

    def sym(i: int) -> Record:
        return _rec(
            f"m.f{i}", C1_SYMBOL_CATALOG, "m.py", (i, i), title=f"m.f{i}",
            content=f"m.f{i}\nReturn the value number {i} here.",
        )  # fmt: skip

    chunks = {"m.py": [_rec(f"m:{i}", C0_SOURCE_CHUNKS, "m.py", (i, i)) for i in range(12)]}
    first = adapter.matches([sym(i) for i in range(10)], chunks)
    again = adapter.matches([sym(i) for i in reversed(range(12))], chunks)
    assert len(first) == 3
    new = {f"Return the value number {i} here." for i in (10, 11)}
    # new symbols only take some places of the old
    assert {s for s, _ in again} <= {s for s, _ in first} | new
    assert first == adapter.matches([sym(i) for i in reversed(range(10))], chunks)
    # the candidates read for a large project: twice the sample, the same sample from them
    chosen = adapter.candidates([sym(i) for i in range(10)])
    assert len(chosen) == 6 and adapter.matches(chosen, chunks) == first


def _section(rid: str, title: str, text: str, **kw: Any) -> Record:
    return _rec(
        rid, D0_DOC_CHUNKS, "guide.md", (1, 30), title=title, content=text, lang="markdown",
        kind="section", embed_text=f"guide.md\n{title}\n{text}", **kw,
    )  # fmt: skip


def test_section_pairs_are_lead_sentences_and_the_heading_each_with_the_rest() -> None:
    text = (
        "## Retry policy\n"
        "A failed request is retried three times with a growing delay. Then it fails.\n"
        "\n"
        "- a list item is not a paragraph\n"
        "\n"
        "```sh\n"
        "# a comment inside a fence is not a heading\n"
        "Nor is this long line of a shell session inside the code fence here.\n"
        "```\n"
        "\n"
        "Too short.\n"
        "\n"
        "The delay doubles after each attempt and never exceeds a minute.\n"
        "\n"
        "A fourth paragraph is past the three paragraphs read here."
    )
    sec = _section("g:0", "Guide > Retry policy", text)
    lines = sec.text_to_embed.splitlines()
    pairs = adapter.section_pairs([sec], sentences=3)
    lead = "A failed request is retried three times with a growing delay."
    doubles = "The delay doubles after each attempt and never exceeds a minute."
    # the third prose paragraph is "Too short.": under six words, passed over
    assert [s for s, _ in pairs] == [lead, doubles, "Retry policy"]
    assert pairs[0][1] == "\n".join(x for x in lines if not x.startswith("A failed"))
    assert pairs[1][1] == "\n".join(x for x in lines if not x.startswith("The delay"))
    heading_gone = [x for n, x in enumerate(lines) if n != 1 and x != "## Retry policy"]
    assert pairs[2][1] == "\n".join(heading_gone)  # the fenced `# a comment` stays
    # the path and the title path that lead the embedded text are never a paragraph
    assert all(not s.startswith("guide.md") for s, _ in pairs)
    # a one-word heading says too little; an untitled section has only its paragraphs
    assert [s for s, _ in adapter.section_pairs([_section("g:1", "Usage", text)])][-1] != "Usage"
    untitled = _rec("g:2", D0_DOC_CHUNKS, "notes.txt", (1, 3), content=doubles,
                    embed_text=f"notes.txt\n{doubles}")  # fmt: skip
    assert adapter.section_pairs([untitled]) == [(doubles, "notes.txt")]


def test_sections_are_a_stable_sample_outside_the_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adapter, "MAX_SECTIONS", 4)
    docs = [_section(f"g:{i}", f"Guide > Part {i}", f"Text {i}") for i in range(10)]
    tested = _section("t:0", "Test > Fixture notes", "Text", is_test=True)
    blank = _section("g:blank", "", "")
    chosen = adapter.sections([*docs, tested])
    assert len(chosen) == 4 and tested not in chosen
    assert chosen == adapter.sections([blank, *reversed(docs)])  # the order read is no matter
    assert adapter.sections([blank]) == [blank]  # a path-only text is still text


def test_fit_recovers_a_map_the_pairs_follow_and_ridge_pulls_to_identity() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 8)).astype(np.float32)
    true = rng.normal(size=(8, 8)).astype(np.float32)
    w = adapter.fit(x, x @ true, ridge=1e-6)
    assert np.allclose(w, true, atol=1e-3)
    assert np.allclose(adapter.fit(x, x @ true, ridge=1e9), np.eye(8), atol=1e-3)


def test_adapt_moves_the_given_share_of_the_way_at_unit_length() -> None:
    q = np.array([1.0, 0.0], dtype=np.float32)
    w = np.array([[0.0, 1.0], [1.0, 0.0]], dtype=np.float32)  # swaps the axes
    assert np.allclose(adapter.adapt(q, w, 0.0), q)
    assert np.allclose(adapter.adapt(q, w, 1.0), [0.0, 1.0])
    half = adapter.adapt(q, w, 0.5)
    assert np.allclose(half, [2**-0.5, 2**-0.5]) and half.dtype == np.float32
    rows = adapter.adapt(np.stack([q, q[::-1]]), w, 1.0)  # a matrix: each row moved
    assert np.allclose(rows, [[0.0, 1.0], [1.0, 0.0]])


# --- fitted at index time, used by the semantic list ------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[EmbedServer]:
    yield from serve()


def _project(root: Path, documented: int, sections: int = 0) -> Path:
    nouns = ["basket", "invoice", "parcel", "ledger", "voucher", "tariff", "cargo", "ticket"]
    lines = []
    for i in range(documented):
        noun = nouns[i % len(nouns)]
        lines += [
            f"def handle_{noun}_{i}(value):",
            f'    """Compute the {noun} total for region {i} with care."""',
            f"    return value * {i} + len('{noun}')",
            "",
        ]
    (root / "src").mkdir(parents=True)
    (root / "src" / "shop.py").write_text("\n".join(lines), encoding="utf-8")
    (root / "README.md").write_text(
        "# Shop\n\n## Totals\n\nThe basket total is computed per region.\n", encoding="utf-8"
    )
    guide = [
        f"## Shipping the {nouns[i % len(nouns)]} {i}\n\n"
        f"Every {nouns[i % len(nouns)]} of region {i} leaves the store within two days.\n\n"
        f"A late {nouns[i % len(nouns)]} number {i} is refunded to the buyer in full.\n"
        for i in range(sections)
    ]
    if guide:
        (root / "docs").mkdir()
        (root / "docs" / "guide.md").write_text("# Guide\n\n" + "\n".join(guide), "utf-8")
    return root


def _config(server: EmbedServer, weight: float) -> dict[str, Any]:
    return {
        "embed.provider": "ollama",
        "embed.base_url": server.url,
        "embed.model": "m1",
        "search.adapter": weight,
    }


def _indexed(tmp_path: Path, server: EmbedServer, weight: float) -> tuple[Path, Engine]:
    """A project of 30 documented functions, indexed (its adapter fitted)."""
    root = _project(tmp_path / "p", 30)
    eng = Engine.open(root, config=_config(server, weight))
    eng.index()
    return root, eng


@pytest.mark.usefixtures("both_stores")
def test_an_index_run_fits_the_adapter_on_the_documented_symbols(
    tmp_path: Path, server: EmbedServer
) -> None:
    root, eng = _indexed(tmp_path, server, 0.5)
    code, docs = np.load(root / ".strata" / FILE_NAME)
    assert code.shape == (eng.store.dim, eng.store.dim)
    assert not np.allclose(code, np.eye(eng.store.dim), atol=1e-3)
    assert not docs.any()  # one README section: too few pairs for a docs map
    locator = json.loads((root / ".strata" / "index.json").read_text())
    assert locator["adapter_pairs"] == 30 and locator["adapter_sections"] == 0
    assert eng.status().to_json()["embedder"]["adapter_pairs"] == 30
    env = {"STRATA_EMBED_BASE_URL": server.url, "STRATA_EMBED_PROVIDER": "ollama"}
    shown = CliRunner().invoke(
        app, ["status", "--index-dir", str(root / ".strata")], env=env, catch_exceptions=False
    )
    assert "fitted on 30 documented symbols" in shown.output
    asked = len(server.requests)
    eng.index()  # nothing changed: no refit, nothing embedded
    assert len(server.requests) == asked


@pytest.mark.usefixtures("both_stores")
def test_documentation_sections_get_a_map_of_their_own(tmp_path: Path, server: EmbedServer) -> None:
    root = _project(tmp_path / "p", 30, sections=12)
    eng = Engine.open(root, config=_config(server, 0.5))
    asked = len(server.requests)
    eng.index()
    sent = [t for r in server.requests[asked:] for t in r.body.get("input", [])]
    # a pair's section is the text its vector was embedded from: path and title path first
    head = "docs/guide.md\nGuide > Shipping the basket 8\n## Shipping the basket 8\n"
    assert head + "\n\nA late basket number 8 is refunded to the buyer in full." in sent
    assert "Every basket of region 8 leaves the store within two days." in sent
    code, docs = np.load(root / ".strata" / FILE_NAME)
    assert code.any() and docs.any() and not np.allclose(code, docs)
    # the guide's twelve sections and the README's one
    assert eng.status().to_json()["embedder"]["adapter_sections"] == 13
    env = {"STRATA_EMBED_BASE_URL": server.url, "STRATA_EMBED_PROVIDER": "ollama"}
    shown = CliRunner().invoke(
        app, ["status", "--index-dir", str(root / ".strata")], env=env, catch_exceptions=False
    )
    assert "fitted on 30 documented symbols and 13 doc sections" in shown.output


def test_documentation_alone_gets_a_docs_map_and_no_code_map(
    tmp_path: Path, server: EmbedServer
) -> None:
    only = _project(tmp_path / "q", 0, sections=12)
    Engine.open(only, config=_config(server, 0.5)).index()
    code, docs = np.load(only / ".strata" / FILE_NAME)
    assert not code.any() and docs.any()
    locator = json.loads((only / ".strata" / "index.json").read_text())
    assert (locator["adapter_pairs"], locator["adapter_sections"]) == (0, 13)


@pytest.mark.usefixtures("both_stores")
def test_too_few_documented_symbols_leave_no_adapter(tmp_path: Path, server: EmbedServer) -> None:
    root = _project(tmp_path / "p", adapter.MIN_PAIRS - 1)
    stale = root / ".strata" / FILE_NAME
    stale.parent.mkdir()
    np.save(stale, np.eye(4, dtype=np.float32))
    Engine.open(root, config=_config(server, 0.5)).index()
    assert not stale.exists()  # an adapter of another state of the project goes


def test_an_index_fitted_before_the_docs_map_gains_it_at_the_next_run(
    tmp_path: Path, server: EmbedServer
) -> None:
    root = _project(tmp_path / "p", 30, sections=12)
    an_hour_ago = time.time() - 3600  # files older than the index: a second run reads none
    for path in root.rglob("*"):
        os.utime(path, (an_hour_ago, an_hour_ago))
    eng = Engine.open(root, config=_config(server, 0.5))
    eng.index()
    code, _ = np.load(root / ".strata" / FILE_NAME)
    np.save(root / ".strata" / FILE_NAME, code)  # the one map an older Strata wrote
    locator = root / ".strata" / "index.json"
    older = {k: v for k, v in json.loads(locator.read_text()).items() if k != "adapter_sections"}
    locator.write_text(json.dumps(older))
    summary = eng.index()  # nothing changed on disk
    assert summary.indexed == 0
    assert np.load(root / ".strata" / FILE_NAME).shape == (2, *code.shape)
    assert json.loads(locator.read_text())["adapter_sections"] == 13


def test_the_weight_moves_code_rows_only_and_zero_turns_it_off(
    tmp_path: Path, server: EmbedServer
) -> None:
    root, _ = _indexed(tmp_path, server, 1.0)
    query = "the basket total of a region"

    def semantic(weight: float) -> dict[str, float]:
        eng = Engine.open(root, config=_config(server, weight))
        store = eng.store
        vec = eng.parts.query_embedder().embed_query(query)
        matrix = np.load(root / ".strata" / FILE_NAME)
        where = Filter(layers=(C0_SOURCE_CHUNKS, D0_DOC_CHUNKS))
        return {r.id: s for r, s in adapted.vector_search(store, vec, matrix, weight, 40, where)}

    plain, moved = semantic(0.0), semantic(1.0)
    docs = [rid for rid in plain if rid.startswith("README")]
    code = [rid for rid in plain if rid.startswith("src/")]
    assert docs and code
    assert all(moved[rid] == pytest.approx(plain[rid]) for rid in docs)
    assert any(abs(moved.get(rid, -9.0) - plain[rid]) > 1e-4 for rid in code)
    # the query's own vector says which places are docs; the adapted one, which code
    assert [r.startswith("README") for r in moved] == [r.startswith("README") for r in plain]

    def searched(weight: float) -> dict[str, float]:
        eng = Engine.open(root, config=_config(server, weight))
        hits = eng.search(query, k=40, mode="semantic", route=False)
        return {h.record.id: h.parts["semantic_raw"] for h in hits}

    assert searched(1.0) == pytest.approx(moved) and searched(0.0) == pytest.approx(plain)
    explained = Engine.open(root, config=_config(server, 1.0)).search(query, route=False)
    assert explained.plan["adapter"] == 1.0
    off = Engine.open(root, config=_config(server, 0.0)).search(query, route=False)
    assert "adapter" not in off.plan


def test_a_summary_shaped_statement_moves_at_most_half_way(
    tmp_path: Path, server: EmbedServer
) -> None:
    """A statement that reads as a doc comment's summary goes `DESCRIPTION_ADAPTER` of the
    way however far `search.adapter` says; another statement goes all of it."""
    root, eng = _indexed(tmp_path, server, 1.0)
    matrix = np.load(root / ".strata" / FILE_NAME)
    where = Filter(layers=(C0_SOURCE_CHUNKS, D0_DOC_CHUNKS))

    def vectors(query: str, weight: float) -> dict[str, float]:
        vec = eng.parts.query_embedder().embed_query(query)
        return {
            r.id: s for r, s in adapted.vector_search(eng.store, vec, matrix, weight, 40, where)
        }

    for query, moved in (
        ("Returns the basket total of a region.", ranking.DESCRIPTION_ADAPTER),
        ("The basket total of a region is kept in cents.", 1.0),
    ):
        found = eng.search(query, k=40, mode="semantic", route=False)
        assert found.plan["adapter"] == moved
        raw = {h.record.id: h.parts["semantic_raw"] for h in found}
        assert raw == pytest.approx(vectors(query, moved))
        assert raw != pytest.approx(vectors(query, 1.5 - moved))


def test_a_docs_map_moves_the_docs_in_their_places_and_an_older_adapter_the_code_alone(
    tmp_path: Path, server: EmbedServer
) -> None:
    root = _project(tmp_path / "p", 30, sections=12)
    eng = Engine.open(root, config=_config(server, 1.0))
    eng.index()
    store, maps = eng.store, np.load(root / ".strata" / FILE_NAME)
    vec = eng.parts.query_embedder().embed_query("a late parcel refunded to the buyer")
    both = Filter(layers=(C0_SOURCE_CHUNKS, D0_DOC_CHUNKS))

    def found(matrix: np.ndarray | None, where: Filter = both) -> dict[str, float]:
        return {r.id: s for r, s in adapted.vector_search(store, vec, matrix, 1.0, 40, where)}

    plain, moved, older = found(None), found(maps), found(maps[0])
    docs = [rid for rid in plain if not rid.startswith("src/")]
    assert docs and any(abs(moved.get(rid, -9.0) - plain[rid]) > 1e-4 for rid in docs)
    assert [r.startswith("src/") for r in moved] == [r.startswith("src/") for r in plain]
    # a matrix of one map (an index fitted before the docs had one) moves the code alone
    assert all(older[rid] == pytest.approx(plain[rid]) for rid in docs)
    # the docs searched alone are found with their map
    alone = found(maps, Filter(layers=(D0_DOC_CHUNKS,)))
    assert alone == pytest.approx({rid: s for rid, s in moved.items() if rid in alone})
    assert alone != pytest.approx(found(None, Filter(layers=(D0_DOC_CHUNKS,))))


def test_a_question_is_searched_with_its_own_vector(tmp_path: Path, server: EmbedServer) -> None:
    root = _project(tmp_path / "p", 30, sections=12)
    Engine.open(root, config=_config(server, 1.0)).index()

    def found(query: str, weight: float) -> tuple[dict[str, float], dict[str, float]]:
        eng = Engine.open(root, config=_config(server, weight))
        hits = eng.search(query, k=40, mode="semantic", route=False)
        raw = {h.record.id: h.parts["semantic_raw"] for h in hits}
        docs = {rid: v for rid, v in raw.items() if rid.endswith(".md") or ".md:" in rid}
        return {rid: v for rid, v in raw.items() if rid not in docs}, docs

    statement = "A late parcel is refunded to the buyer in full."
    question = "How is a late parcel refunded to the buyer?"
    (code, docs), (plain_code, plain_docs) = found(statement, 1.0), found(statement, 0.0)
    assert code != pytest.approx(plain_code) and docs != pytest.approx(plain_docs)
    asked, plain = found(question, 1.0), found(question, 0.0)
    assert all(asked) and asked == (pytest.approx(plain[0]), pytest.approx(plain[1]))
    shown = Engine.open(root, config=_config(server, 1.0)).search(question, route=False)
    assert "adapter" not in shown.plan


def test_without_a_usable_matrix_the_search_is_the_plain_one(
    tmp_path: Path, server: EmbedServer
) -> None:
    root, eng = _indexed(tmp_path, server, 1.0)
    store, vec = eng.store, np.ones(eng.store.dim, dtype=np.float32)
    vec /= np.linalg.norm(vec)
    where = Filter(layers=(C0_SOURCE_CHUNKS, D0_DOC_CHUNKS))
    plain = store.vector_search(vec, 10, Filter(layers=where.layers, has_vector=True))
    wrong = np.eye(3, dtype=np.float32)  # another model's width
    for matrix in (None, wrong):
        hits = adapted.vector_search(store, vec, matrix, 1.0, 10, where)
        assert [r.id for r, _ in hits] == [r.id for r, _ in plain]
    (root / ".strata" / FILE_NAME).write_bytes(b"not an array")
    result = Engine.open(root, config=_config(server, 1.0)).search("basket total", k=3)
    assert result.hits and result.mode == "hybrid"


def test_an_adapter_that_cannot_be_written_leaves_the_index_run_whole(
    tmp_path: Path, server: EmbedServer
) -> None:
    root = _project(tmp_path / "p", 30)
    blocked = root / ".strata" / "query_adapter.tmp.npy"
    blocked.mkdir(parents=True)  # the file the map is written to first cannot be a file
    eng = Engine.open(root, config=_config(server, 0.5))
    summary = eng.index()
    assert summary.indexed == 2 and not (root / ".strata" / FILE_NAME).exists()
    assert "adapter_pairs" not in json.loads((root / ".strata" / "index.json").read_text())
    assert eng.search("basket total", k=3).hits


def test_the_watcher_refits_once_its_edits_have_settled(
    tmp_path: Path, server: EmbedServer
) -> None:
    root, eng = _indexed(tmp_path, server, 0.5)
    watcher = Watcher(eng, optimize_idle=0.1)
    stop = threading.Event()
    thread = threading.Thread(target=watcher.run, args=(stop,), daemon=True)
    thread.start()
    locator = root / ".strata" / "index.json"
    try:
        assert watcher.wait_ready(60)
        doc = '    """Send the parcel number {} to its buyer."""'
        more = [f"def ship_{i}(box):\n{doc.format(i)}\n    return box\n" for i in range(5)]
        (root / "src" / "post.py").write_text("\n".join(more), encoding="utf-8")
        deadline = time.monotonic() + 60
        while json.loads(locator.read_text()).get("adapter_pairs") != 35:
            assert time.monotonic() < deadline, "the adapter was not refitted"
            time.sleep(0.1)
    finally:
        stop.set()
        thread.join(60)
