"""A sentence's misspelt words, read as the code words they misspell (real files, real index)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from textwrap import dedent

import pytest

from strata import Engine
from strata.query.respelt import respelt

pytestmark = pytest.mark.usefixtures("both_stores")

CODE = {
    "tmpl/cache.py": '''
        """Compiled templates, kept."""


        class LRUCache:
            """The templates compiled last, at most `capacity` of them."""

            def clear_cache(self) -> None:
                """Forget every compiled template."""
                self.items = {}


        def render_template(name: str) -> str:
            """Render one template by name."""
            return name


        def next_template(names: list[str]) -> str:
            """The template to compile next."""
            return names[0]


        def common_prefix(a: str, b: str) -> str:
            """What both start with."""
            return a[: len(a) - len(b)]


        def reader_for(path: str) -> str:
            """A reader of the file at `path`."""
            return path
    ''',
    "README.md": """
        # tmpl

        Templates are compiled once and kept; the colour of the output is configurable.
    """,
}


@pytest.fixture
def eng(tmp_path: Path) -> Iterator[Engine]:
    for rel, text in CODE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(dedent(text).lstrip(), encoding="utf-8")
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as engine:
        engine.index()
        yield engine


def test_a_misspelt_word_is_read_as_the_one_code_word_it_misspells(eng: Engine) -> None:
    assert respelt(eng.store, "how is a templtae's cache cleared") == {"templtae": "template"}
    assert respelt(eng.store, "how are templates rendreed") == {"rendreed": "render"}  # by stem
    # right as written: a part of a name, a word BM25 finds by its stem, a word of the docs
    assert respelt(eng.store, "how is the template cache cleared") == {}
    assert respelt(eng.store, "where are caches cleared") == {}
    assert respelt(eng.store, "what sets the colour") == {}
    assert respelt(eng.store, "keeps nested templates") == {}  # `nest` is one from `next`: short
    assert respelt(eng.store, "the scientific component") == {}  # `compon`: `common`, one changed
    # two code words as near (`reader`, `render`): no guess; a short word, a quoted name
    assert respelt(eng.store, "who calls the reder") == {}
    assert respelt(eng.store, "the template cahce") == {}  # five letters: too many near
    assert respelt(eng.store, "what does `templtae` hold") == {}
    assert respelt(eng.store, "what does obj.templtae hold") == {}


def test_the_search_reads_the_word_and_says_so(eng: Engine) -> None:
    result = eng.search("how is a compiled templtae rendered", k=3)
    assert "read 'templtae' as 'template': the index has no such word" in result.notes
    assert "template" in result.plan["terms"] and "templtae" not in result.plan["terms"]
    assert result.hits[0].record.title == "render_template"
    clean = eng.search("how is a compiled template rendered", k=3)
    assert [h.record.id for h in clean.hits] == [h.record.id for h in result.hits]
    assert not any(n.startswith("read ") for n in clean.notes)
