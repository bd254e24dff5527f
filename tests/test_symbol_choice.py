"""Which definition a name means: a word alone that the index defines, the name spelt as
asked, the one in the file named after it, and a name followed by a topic."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from strata import Engine
from strata.query.focus import window_lines
from strata.query.intent_steps import symbol_text
from strata.query.lookup import find_symbols
from strata.text.langs import is_stub, language_of
from tests.sources import indexed_tree

FILES = {
    "docs/permits.md": """
        # Permits

        ## Semaphore

        A semaphore hands out permits to tasks; give each permit back when done.
    """,
    "pool/chan.py": '''
        """Channels."""


        class Semaphore:
            """The channel's own permit counter."""

            def acquire(self) -> None:
                pass
    ''',
    "pool/semaphore.py": '''
        """Permits shared between tasks."""


        class Semaphore:
            """A counting semaphore: tasks wait for a permit and give it back."""

            def __init__(self, permits: int) -> None:
                self.permits = permits
    ''',
    "pool/helpers.py": '''
        """Helpers."""


        def semaphore(permits: int) -> object:
            """Build a semaphore with this many permits."""
            from pool.semaphore import Semaphore

            return Semaphore(permits)


        class Limits:
            """How many permits a pool hands out."""

            burst: int = 3


        def drain(queue: list[int]) -> list[int]:
            """Empty the queue; billing is settled elsewhere."""
            return [queue.pop() for _ in list(queue)]
    ''',
}


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("pool")
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text).lstrip(), encoding="utf-8")
    idx = tmp_path_factory.mktemp("idx")
    eng = Engine.open(root, index_dir=idx, config={"embed.provider": "none"})
    eng.index()
    return eng


def test_of_equal_definitions_the_one_in_its_own_file_comes_first(pool: Engine) -> None:
    found = find_symbols(pool.store, "Semaphore", exact=True)
    # `pool.chan.Semaphore` has the shorter qname; `semaphore.py` is named after the class
    assert [m.record.path for m in found[:2]] == ["pool/semaphore.py", "pool/chan.py"]


def test_a_stubs_signature_comes_after_the_body_it_declares(tmp_path: Path) -> None:
    files = {
        # the package's stub has the shorter qname (`pkg.chunked`, as attrs' `evolve`)
        "pkg/__init__.pyi": "def chunked(iterable, n: int) -> list: ...\n",
        "pkg/_more.py": 'def chunked(iterable, n):\n    """Break iterable into lists."""\n'
        "    return [iterable[i : i + n] for i in range(0, len(iterable), n)]\n",
        "web/index.d.ts": "export declare function slugify(text: string): string;\n",
        "web/lib/slug.js": "export function slugify(text) {\n  return text.toLowerCase();\n}\n",
    }
    eng = indexed_tree(tmp_path, files)
    for name, body in (("chunked", "pkg/_more.py"), ("slugify", "web/lib/slug.js")):
        found = find_symbols(eng.store, name, exact=True)
        assert found[0].record.path == body, [m.record.path for m in found]
        hit = eng.search(f"what does {name} do", k=2, mode="lexical").hits[0]
        assert hit.record.path == body


def test_a_word_alone_that_the_index_defines_is_looked_up(pool: Engine) -> None:
    plan = pool.plan("Semaphore")
    assert (plan.intent, plan.names) == ("symbol", ("Semaphore",)), plan.reasons
    hits = pool.search("Semaphore", mode="lexical")
    assert (hits[0].record.path, hits[0].record.title) == ("pool/semaphore.py", "Semaphore")
    routed = hits[: hits.plan["route"]["routed_hits"]]
    # the `semaphore` function is another name: the catalogue step leaves it out
    assert not any("1.symbol.C1" in h.parts and h.record.title == "semaphore" for h in routed)
    # a plain word is a topic of the docs too: the docs' section after the definitions
    assert pool.plan("Semaphore").steps[1].args["layers"] is None  # code and docs
    assert pool.plan("PermitPool").steps[1].args["layers"] == ["C0_SOURCE_CHUNKS"]
    few = pool.search("Semaphore", k=4, mode="lexical")  # no top-up: the routed steps fill it
    assert any(h.record.layer == "D0_DOC_CHUNKS" for h in few), [h.record.path for h in few]
    assert pool.plan("semaphore").names == ("semaphore",)  # spelt so, it is the function
    assert pool.plan("what does burst do").names == ("burst",)  # asked about: the field


# `burst`: only a class's field is so named; a word alone is more often the topic
@pytest.mark.parametrize("query", ["billing", "permits", "SEMAPHORE", "burst"])
def test_a_word_the_index_does_not_define_as_written_stays_a_topic(
    pool: Engine, query: str
) -> None:
    assert pool.plan(query).intent == "free_text"


def test_a_name_followed_by_a_topic_searches_the_topic_too(pool: Engine) -> None:
    plan = pool.plan("PermitPool permit handling")  # a code-shaped name, then a topic
    assert (plan.intent, plan.names) == ("symbol", ("PermitPool",))
    assert plan.steps[1].args["query"] == "PermitPool permit handling"
    for query in ("where is Semaphore defined", "Semaphore class", "Semaphore implementation"):
        assert symbol_text(query, "Semaphore") == "Semaphore", query
    assert symbol_text("(<|>)", "<|>") == "(<|>)"  # an operator has no words of its own


def test_a_list_holding_a_key_twice_counts_it_once_at_its_first_place() -> None:
    from strata.query.ranking import rrf

    parts = rrf({"symbol": ["trait", "fn", "trait", "other"]}, k=0)
    assert parts["trait"] == {"symbol": 1.0}
    assert parts["fn"] == {"symbol": 1 / 2}
    assert parts["other"] == {"symbol": 1 / 3}  # the repeat does not push it down


def test_a_macro_written_with_its_bang_is_the_macro_and_a_bang_name_is_itself(
    tmp_path: Path,
) -> None:
    eng = indexed_tree(
        tmp_path,
        {
            "src/macros.rs": "macro_rules! bail {\n    ($e:expr) => { $e };\n}\n",
            "lib/model.rb": "class Model\n  def save\n  end\n\n  def save!\n  end\nend\n",
        },
    )
    assert [m.name for m in find_symbols(eng.store, "bail!", exact=True)] == ["bail"]
    assert [m.name for m in find_symbols(eng.store, "save!", exact=True)] == ["save!"]
    assert find_symbols(eng.store, "!!", exact=True) == []
    hits = eng.search("where is bail! defined", mode="lexical")
    assert hits.plan["route"]["notes"] == []  # found as asked, no "no symbol named"
    assert (hits[0].record.path, hits[0].record.title) == ("src/macros.rs", "bail")


def test_a_definition_inside_a_chunk_is_shown_from_its_own_lines(tmp_path: Path) -> None:
    imports = "".join(f'\t"pkg{i}"\n' for i in range(12))
    go = (
        f"package mux\n\nimport (\n{imports})\n\nvar (\n"
        "\t// ErrNotFound is returned when no route matches.\n"
        '\tErrNotFound = errors.New("no match")\n)\n\nfunc Use() {\n\treturn\n}\n'
    )
    eng = indexed_tree(tmp_path, {"mux.go": go})
    hit = eng.search("where is ErrNotFound defined", mode="lexical")[0]
    assert (hit.record.path, hit.record.span_start) == ("mux.go", 1)  # the chunk, whole
    start, text = window_lines(hit.record)  # what the CLI, MCP and the web page show first
    assert (start, text.split("\n")[1].strip()) == (19, 'ErrNotFound = errors.New("no match")')


def test_a_re_exported_name_leads_to_its_body_past_the_stubs(tmp_path: Path) -> None:
    # attrs: `attrs/__init__.py` re-exports from `attr`, `attrs/__init__.pyi` declares
    files = {
        "src/attr/_next.py": "def field(default=None):\n    return default\n",
        "src/attr/_funcs.py": "def evolve(inst, **changes):\n    return inst\n",
        "src/attr/__init__.py": "from ._next import field\nfrom ._funcs import evolve\n",
        "src/attrs/__init__.py": "from attr import evolve, field\n",
        "src/attrs/__init__.pyi": "def field(default: int = ...) -> int: ...\n",
    }
    eng = indexed_tree(tmp_path, files)
    for name in ("attrs.field", "attrs.evolve"):  # a stub defines it, or no module does
        hits = eng.search(f"where is {name} defined", mode="lexical")
        first = hits[0].record
        assert first.path.startswith(("src/attr/_next.py", "src/attr/_funcs.py")), name
        assert first.title == name.rsplit(".", 1)[1]
    # a stub that is all there is stays the answer
    alone = indexed_tree(tmp_path / "alone", {"pkg/__init__.pyi": "def ping() -> int: ...\n"})
    assert alone.search("where is pkg.ping defined", mode="lexical")[0].record.path.endswith(".pyi")


FLOW = """\
// @flow
export interface Patch {
  op: "replace" | "remove" | "add";
}
declare export function produce<S>(base: S, recipe: (draft: S) => void): S
"""


def test_flow_declarations_are_typescript_stubs(tmp_path: Path) -> None:
    assert language_of("src/types/index.js.flow") == "typescript"
    assert is_stub("src/types/index.js.flow")
    eng = indexed_tree(
        tmp_path,
        {
            "src/types/index.js.flow": FLOW,
            "src/immer.ts": "export function produce(base: any, recipe: any) {\n  return base\n}\n",
        },
    )
    found = [h.record.path for h in eng.search("where is produce defined", k=3).hits]
    assert found[:2] == ["src/immer.ts", "src/types/index.js.flow"]  # the body first


def test_a_body_comes_before_a_go_interface_method_and_a_c_alias(tmp_path: Path) -> None:
    files = {
        # the interface's method has the shorter qname; the type with the body defines it
        "viper/flags.go": "package viper\n\ntype FlagValueSet interface {\n"
        "\tVisitAll(fn func(FlagValue))\n}\n",
        "viper/pflag_values.go": "package viper\n\ntype pflagValueSet struct{ flags int }\n\n"
        "func (p pflagValueSet) VisitAll(fn func(FlagValue)) {\n\tfn(nil)\n}\n",
        # zlib.h: `#define gztell gztell64` is another name for the function, not its body
        # (and has the shorter qname)
        "zlib/zlib.h": "#ifdef LARGE\n#  define gztell gztell64\n#endif\n",
        "zlib/gzlibrary.c": "long gztell(void *file)\n{\n    return 0;\n}\n",
    }
    eng = indexed_tree(tmp_path, files)
    found = find_symbols(eng.store, "VisitAll", exact=True)
    assert [(m.record.path, m.record.metadata.get("declaration")) for m in found] == [
        ("viper/pflag_values.go", None),
        ("viper/flags.go", True),
    ]
    found = find_symbols(eng.store, "gztell", exact=True)
    assert [(m.record.path, m.record.kind) for m in found] == [
        ("zlib/gzlibrary.c", "function"),
        ("zlib/zlib.h", "constant"),
    ]
    hit = eng.search("where is VisitAll defined", k=1).hits[0]
    assert hit.record.path == "viper/pflag_values.go"


def test_a_php_namespaced_name_is_its_class_not_the_lines_that_import_it(
    tmp_path: Path,
) -> None:
    event = """<?php

namespace League\\CommonMark\\Event;

final class DocumentPreRenderEvent
{
    public function getDocument()
    {
        return null;
    }
}
"""
    renderer = """<?php

namespace League\\CommonMark\\Renderer;

use League\\CommonMark\\Event\\DocumentPreRenderEvent;

final class HtmlRenderer
{
    public function renderDocument($document)
    {
        return new DocumentPreRenderEvent($document);
    }
}
"""
    files = {
        "League/CommonMark/Event/DocumentPreRenderEvent.php": event,
        "League/CommonMark/Renderer/HtmlRenderer.php": renderer,
    }
    eng = indexed_tree(tmp_path, files)
    for query in (
        "League\\CommonMark\\Event\\DocumentPreRenderEvent",
        "where is League\\CommonMark\\Event\\DocumentPreRenderEvent defined",
    ):
        hit = eng.search(query, k=3).hits[0]
        assert (hit.record.path, hit.record.title) == (
            "League/CommonMark/Event/DocumentPreRenderEvent.php",
            "DocumentPreRenderEvent",
        ), query
