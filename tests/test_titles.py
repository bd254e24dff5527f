"""A sentence's words in a candidate's name or heading: the `title` part of hybrid search."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from strata import Engine
from strata.index.records import make_record
from strata.query import ranking, titles
from strata.types import Record
from tests import embed_server


def _rec(title: str, kind: str = "function", layer: str = "C0_SOURCE_CHUNKS") -> Record:
    return make_record(
        id=f"lib/utils.js:{title}",
        path="lib/utils.js",
        layer=layer,
        title=title,
        content="x",
        lang="javascript",
        file_hash="h",
        span=(1, 2),
        kind=kind,
    )


def test_a_name_and_a_heading_are_read_as_their_content_words() -> None:
    assert titles.title_words(_rec("isPlainObject")) == ("plain", "object")
    assert titles.title_words(_rec("AxiosHeaders.get_header_value", "method")) == (
        "get",
        "header",
        "value",
    )
    heading = _rec("AxiosHeaders#has(header, matcher?)", "section", "D0_DOC_CHUNKS")
    assert titles.title_words(heading) == ("axios", "headers", "header", "matcher")
    assert titles.title_words(_rec("", "module")) == ()  # a module chunk names nothing
    assert titles.title_words(_rec("Context", "block")) == ()  # nor does part of a class


def test_words_match_as_written_or_with_a_short_ending() -> None:
    assert titles.same_word("value", "values") and titles.same_word("parsed", "parse")
    assert not titles.same_word("set", "settings")  # too short a stem
    assert not titles.same_word("option", "optional_values")  # too long an ending


def test_the_share_weighs_each_name_word_by_how_few_names_hold_it() -> None:
    q = ranking.shape("Determine if a value is a plain Object", [])
    plain, obj, buf = _rec("isPlainObject"), _rec("isObject"), _rec("isBuffer")
    records = {r.id: r for r in (plain, obj, buf)}
    parts = titles.title_parts(records, q.words, unit=1.0)
    # `object` is in two names of three (weight 1/3), `plain` in one (2/3): isPlainObject
    # holds (2/3 + 1/3) / 2 = 1/2 of its name, isObject 1/3 (under the half asked for)
    assert parts == {plain.id: pytest.approx(titles.TITLE_BOOST * 0.25)}
    assert titles.title_parts(records, frozenset(), unit=1.0) == {}


def test_no_title_part_for_the_definition_of_a_name_the_statement_uses() -> None:
    used = _rec("Map.deepcompare")
    named = _rec("compareTables")
    records = {r.id: r for r in (used, named, _rec("zip"), _rec("clear"))}
    words = frozenset({"compare", "tables", "deepcompare", "plain"})
    unit = 1 / 61
    assert titles.title_parts(records, words, unit=unit).keys() == {used.id, named.id}
    away = frozenset({"deepcompare"})
    parts = titles.title_parts(records, words, unit=unit, elsewhere=away)
    assert parts.keys() == {named.id}


@pytest.fixture(scope="module")
def embedder() -> Iterator[embed_server.EmbedServer]:
    yield from embed_server.serve()


def test_hybrid_search_lifts_the_definition_a_sentence_names(
    tmp_path: Path, embedder: embed_server.EmbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "utils.js").write_text(
        "function isPlainObject(val) {\n  return kindOf(val) === 'object';\n}\n\n"
        "function isBuffer(val) {\n  return val !== null && val.constructor.isBuffer(val);\n}\n\n"
        "function kindOf(thing) {\n  const str = toString.call(thing);\n"
        "  return str.slice(8, -1).toLowerCase();\n}\n",
        encoding="utf-8",
    )
    cfg = {"embed.provider": "ollama", "embed.base_url": embedder.url, "embed.model": "m"}
    eng = Engine.open(tmp_path, index_dir=tmp_path / "idx", config=cfg)
    eng.index()
    query = "Determine if a value is a plain object"
    hits = eng.search(query, k=3, mode="hybrid", route=False)
    assert hits[0].record.title == "isPlainObject" and hits[0].parts["title"] > 0
    assert not any("title" in h.parts for h in eng.search(query, k=3, mode="lexical"))
    monkeypatch.setattr(titles, "TITLE_BOOST", 0.0)
    plain = eng.search(query, k=3, mode="hybrid", route=False)
    assert not any("title" in h.parts for h in plain)
    eng.close()


def test_a_statement_that_says_its_code_uses_a_name_lifts_no_definition_of_it(
    tmp_path: Path, embedder: embed_server.EmbedServer
) -> None:
    (tmp_path / "tablex.py").write_text(
        "def deepcompare(t1, t2, ignore_mt=False):\n"
        "    if type(t1) != type(t2):\n        return False\n    return t1 == t2\n",
        encoding="utf-8",
    )
    (tmp_path / "map.py").write_text(
        "from tablex import deepcompare\n\n\nclass Map:\n"
        "    def __eq__(self, other):\n        return deepcompare(self.items, other.items)\n",
        encoding="utf-8",
    )
    cfg = {"embed.provider": "ollama", "embed.base_url": embedder.url, "embed.model": "m"}
    with Engine.open(tmp_path, index_dir=tmp_path / "idx", config=cfg) as eng:
        eng.index()

        def parts(query: str) -> dict[str, float]:
            hits = eng.search(query, k=5, mode="hybrid", route=False)
            return next(h.parts for h in hits if h.record.title == "deepcompare")

        used = parts("If they are plain tables, it will use tablex.deepcompare.")
        assert "definition" not in used and "title" not in used, used
        assert used["elsewhere_x"] == ranking.ELSEWHERE_FACTOR
        hits = eng.search("If they are plain tables, it will use tablex.deepcompare.", k=5)
        titles = [h.record.title for h in hits]
        assert titles.index("Map.__eq__") < titles.index("deepcompare"), titles  # the user first
        asked = parts("Compare tables with tablex.deepcompare.")  # named, not said to be used
        assert asked["definition"] > 0, asked
