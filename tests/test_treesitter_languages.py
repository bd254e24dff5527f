"""Tag queries of the languages whose grammars come from semble-grammars, on real-looking samples.

Each sample in `tests/corpora/langs/` is written the way real code of its language is (the
queries were checked on Debian, npm and PyPI packages: docs/benchmarks.md, "More languages");
the tests pin its symbols, chunks, doc summaries, calls and imports.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from strata.config import ChunkConfig
from strata.engine import Engine
from strata.index.code.treesitter import grammars, tagquery, tags
from strata.index.code.treesitter.chunker import CONTAINER_KINDS, chunk
from strata.index.code.treesitter.symbols import extract
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG, C2_DEPENDENCY_GRAPH
from strata.store import Filter
from strata.text.langs import language_of, module_from_path
from strata.text.testcode import is_test_path, is_test_unit
from tests.test_treesitter import DEFAULT, TIGHT, assert_chunk_invariants

CORPUS = Path(__file__).parent / "corpora" / "langs"

# (qname without the module, kind, first line including doc comments and attributes)
EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "queue.lua": {
        ("Queue.new", "function", 10),
        ("Queue.push", "method", 19),
        ("Queue.full", "method", 27),
        ("encode", "function", 31),
        ("Queue.dump", "function", 35),
    },
    "stack.ex": {
        ("Jobs.Stack", "module", 1),
        ("Jobs.Stack.push", "function", 10),
        ("Jobs.Stack.pop", "function", 19),
        ("Jobs.Stack.size", "function", 23),
        ("Jobs.Stack.empty?", "function", 25),
        ("Jobs.Runnable", "interface", 30),
        ("Jobs.Runnable.run", "method", 31),
    },
    "Parser.hs": {
        ("Parser", "struct", 10),
        ("char", "function", 13),
        ("many1", "function", 21),
        ("Token", "struct", 25),
        ("Pretty", "class", 28),
        ("Pretty.pretty", "method", 29),
        ("Pretty.prettyList", "method", 30),
        ("Pretty.pretty", "method", 34),
        ("digits", "function", 37),
        ("<|>", "function", 40),  # an operator, its doc on the line above
    },
    "cart.dart": {
        ("Cart", "class", 7),
        ("Cart.Cart", "method", 11),
        ("Cart.withItems", "method", 13),
        ("Cart.add", "method", 17),
        ("Cart.count", "method", 23),
        ("Cart.total", "method", 25),
        ("Status", "enum", 28),
        ("roundCents", "function", 30),
    },
    "geometry.jl": {
        ("Geometry", "module", 1),
        ("Geometry.Point", "struct", 8),
        ("Geometry.Shape", "type", 18),
        ("Geometry.ORIGIN", "constant", 20),
        ("Geometry.distance", "function", 22),
        ("Geometry.area", "function", 31),
        ("Geometry.show", "function", 33),
        ("Geometry.midpoint", "function", 35),
    },
    "buffer.zig": {
        ("default_capacity", "constant", 4),
        ("Buffer", "struct", 6),
        ("Buffer.init", "method", 11),
        ("Buffer.append", "method", 17),
        ("Mode", "enum", 23),
        ("Ring", "struct", 25),
        ("Ring.get", "method", 30),
        ("append grows the length", "function", 36),
    },
    "counter.ml": {
        ("SMap", "module", 4),
        ("t", "struct", 6),
        ("mode", "type", 8),
        ("Empty", "type", 10),
        ("empty", "constant", 12),
        ("add", "function", 14),
        ("add_all", "function", 19),
        ("Report", "module", 24),
        ("Report.print", "function", 25),
        ("fold_case", "function", 29),
    },
    "Token.sol": {
        ("Token", "class", 7),
        ("Token.MAX_SUPPLY", "constant", 11),
        ("Token.Minted", "type", 15),
        ("Token.SupplyExceeded", "type", 17),
        ("Token.Grant", "struct", 19),
        ("Token.constructor", "method", 24),
        ("Token.transfer", "method", 26),
        ("Token._move", "method", 34),
        ("Token.onlyMinter", "method", 40),
        ("SafeAdd", "class", 46),
        ("SafeAdd.add", "method", 47),
    },
    "kv_store.erl": {
        ("SERVER", "constant", 10),
        ("state", "struct", 12),
        ("key", "type", 14),
        ("start_link", "function", 16),
        ("put", "function", 22),
        ("get", "function", 27),
        ("init", "function", 30),
        ("handle_call", "function", 33),
        ("lookup", "function", 39),
    },
    "stats.R": {
        ("trimmed_mean", "function", 4),
        ("rescale", "function", 14),
        ("clean", "function", 20),
        ("Summary", "class", 22),
        ("describe", "function", 24),
    },
    "Inventory.pm": {
        ("Shop::Inventory", "package", 1),
        ("LIMIT", "constant", 8),
        ("new", "function", 10),
        ("add", "function", 17),
        ("total", "function", 24),
    },
    "Store.m": {
        ("Store", "interface", 6),
        ("Store.put", "method", 8),
        ("Store.shared", "method", 9),
        ("Store", "class", 12),
        ("Store.put", "method", 14),
        ("Store.shared", "method", 20),
        ("StoreLog", "function", 30),
    },
    "shapes.clj": {
        ("geometry.shapes", "package", 1),
        ("pi-approx", "constant", 5),
        ("Shape", "interface", 7),
        ("Circle", "class", 10),
        ("describe", "function", 14),
        ("round2", "function", 19),
        ("with-shape", "function", 22),
    },
    "History.groovy": {
        ("History", "class", 6),
        ("History.MAX_ITEMS", "constant", 11),
        ("History.History", "method", 15),
        ("History.add", "method", 19),
        ("History.last", "method", 30),
        ("History.trim", "method", 34),
        ("History.empty", "method", 40),
        ("Recorder", "interface", 45),
        ("Recorder.record", "method", 46),
        ("Direction", "enum", 49),
        ("replay", "function", 51),
        ("Named", "trait", 55),
        ("Named.name", "method", 56),
    },
    # `implements A, B` read as spaces; a class whose body the grammar cannot read (`String[]`
    # parameters, `throws`, `for (T x : xs)`) is still found by its head, its method too
    "SimpleCompleter.groovy": {
        ("SimpleCompleter", "class", 3),
        ("complete", "function", 14),
    },
    # single-file components: the symbols of the <script> element, at the file's lines
    "TodoList.vue": {
        ("pending", "function", 12),
        ("visible", "method", 25),
        ("toggle", "method", 30),
    },
    "Counter.svelte": {
        ("max", "constant", 4),
        ("count", "constant", 5),
        ("increment", "function", 7),
        ("reset", "function", 12),
        ("Step", "interface", 16),  # lang="ts": read as TypeScript
    },
    "shop.sql": {  # what a schema defines; `"orders"` without its quotes and schema
        ("users", "struct", 3),
        ("users_seen_idx", "constant", 10),
        ("orders", "struct", 14),
        ("active_users", "struct", 19),
        ("mood", "type", 22),
        ("touch_user", "function", 24),
        ("orders_touch", "function", 30),
    },
    "orders.proto": {
        ("Order", "struct", 5),
        ("Order.Item", "struct", 9),
        ("Order.State", "enum", 12),
        ("Currency", "enum", 15),
        ("Orders", "interface", 17),
        ("Orders.Place", "method", 19),
        ("Orders.Get", "method", 20),
    },
    "shop.graphql": {
        ("Order", "class", 1),
        ("Node", "interface", 9),
        ("State", "enum", 11),
        ("PlaceOrder", "struct", 13),
        ("Money", "type", 15),
        ("Result", "type", 17),
        ("Query", "class", 19),
        ("Query.order", "method", 20),  # a root type's field: an operation of the API
        ("auth", "function", 26),
        ("GetOrder", "function", 28),
        ("OrderParts", "function", 30),
    },
    "storage.tf": {  # named as Terraform refers to them
        ("aws_s3_bucket.logs", "struct", 1),  # the comment right above it
        ("region", "constant", 9),
        ("bucket_arn", "constant", 14),
        ("vpc", "module", 18),
        ("aws_ami.ubuntu", "struct", 22),
    },
    "Shop.ps1": {
        ("Get-Order", "function", 1),  # its comment-based help (`<# .SYNOPSIS #>`) above it
        ("New-Order", "function", 10),  # `function global:New-Order`: its scope is no name
        ("Cart", "class", 15),
        ("Cart.Cart", "method", 17),
        ("Cart.Add", "method", 18),
        ("State", "enum", 21),
        ("Only-Paid", "function", 23),
    },
    "vectors.f90": {
        ("vectors", "module", 1),
        ("vectors.vec3", "struct", 4),
        ("vectors.norm", "function", 8),
        ("vectors.scale", "function", 15),
        ("main", "module", 23),
    },
    "BUILD.bazel": {  # a target by its `name`
        ("core", "struct", 3),
        ("shop_binary", "function", 10),
        ("SHOP_COPTS", "constant", 14),
    },
    "Makefile": {  # rules by their first target, not `.PHONY` or `%.o`
        ("CC", "constant", 1),
        ("CFLAGS", "constant", 3),
        ("all", "function", 7),
        ("shop", "function", 10),
        ("test", "function", 16),
        ("HELP", "constant", 19),
        ("clean", "function", 23),
    },
    "queue.scm": {
        ("make-queue", "function", 1),
        ("queue-push!", "function", 4),
        ("max-size", "constant", 8),
        ("swap!", "function", 10),  # a macro
        ("point", "struct", 13),
    },
    "geometry.rkt": {  # Racket's query inherits Scheme's
        ("area", "function", 3),
        ("tau", "constant", 5),
        ("point", "struct", 6),
    },
    "Card.astro": {  # the front matter (TypeScript) and the <script> element
        ("Props", "interface", 4),
        ("shorten", "function", 9),
        ("highlight", "function", 22),
    },
}


def _read(name: str) -> tuple[str, str]:
    return (CORPUS / name).read_text(encoding="utf-8"), language_of(name) or ""


def test_twenty_seven_new_languages_have_a_sample_and_a_query() -> None:
    langs = {language_of(name) for name in EXPECTED}
    assert len(langs) == 27
    assert all(lang and tagquery.has_query(lang) for lang in langs)
    assert not tagquery.has_query("json") and not tagquery.has_query("cobol")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_symbols_are_exactly_the_definitions_of_each_sample(name: str) -> None:
    text, lang = _read(name)
    symbols, _ = extract(text, lang, name)
    module = name.rsplit(".", 1)[0]
    got = {(s.qname.removeprefix(module + "."), s.kind, s.start_line) for s in symbols}
    assert got == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("cfg", [DEFAULT, TIGHT], ids=["default", "tight"])
def test_chunks_of_each_sample_keep_the_invariants(name: str, cfg: ChunkConfig) -> None:
    text, lang = _read(name)
    assert_chunk_invariants(text, chunk(text, lang, cfg), cfg)


# Schemas and configurations: no functions with a body, their definitions are containers.
SCHEMAS = ("orders.proto", "shop.graphql", "storage.tf")


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - set(SCHEMAS)))
def test_every_function_with_a_body_starts_a_chunk_of_its_name(name: str) -> None:
    text, lang = _read(name)
    found = tags.outline(text, lang)
    defs = found.definitions
    starts = {(c.start_line, c.title, c.kind) for c in chunk(text, lang, DEFAULT)}
    units = [
        d
        for d in defs
        if d.kind in ("function", "method")
        and d.has_body
        and d.starts_line
        and (d.parent is None or defs[d.parent].kind in CONTAINER_KINDS)
    ]
    assert units or found.has_errors  # a sample the grammar cannot read has no bodies
    for d in units:
        assert (d.start_line, ".".join(d.path), d.kind) in starts, d


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_top_level_definition_of_a_schema_starts_a_chunk_of_its_name(name: str) -> None:
    text, lang = _read(name)
    defs = tags.outline(text, lang).definitions
    starts = {(c.start_line, c.title) for c in chunk(text, lang, DEFAULT)}
    top = [d for d in defs if d.parent is None and d.kind in CONTAINER_KINDS]
    assert top
    for d in top:
        assert (d.start_line, ".".join(d.path)) in starts, d


@pytest.mark.parametrize(
    ("name", "qname", "first_sentence"),
    [
        ("queue.lua", "Queue.new", "Create an empty queue."),
        ("stack.ex", "Jobs.Stack.push", "Pushes a job on top of the stack."),
        ("stack.ex", "Jobs.Stack.pop", "Takes the newest job off the stack."),
        ("Parser.hs", "Parser", "A parser of strings."),
        ("Parser.hs", "char", "Parse one given character."),
        ("cart.dart", "Cart.add", "Adds an item, merging it with an equal one."),
        ("buffer.zig", "Buffer.init", "Makes an empty buffer."),
        ("counter.ml", "add", "[add word t] counts one more [word]."),
        ("Token.sol", "Token.transfer", "Moves `amount` tokens from the caller to `to`."),
        ("kv_store.erl", "start_link", "Starts the store."),
        ("stats.R", "trimmed_mean", "Trimmed mean of a numeric vector"),
        ("stats.R", "rescale", "Scale a vector to the unit interval"),
        ("Inventory.pm", "new", "Create an empty inventory."),
        ("Store.m", "Store.put", "Stores an item under a key."),
        ("shapes.clj", "describe", "A line of text about a shape."),
        ("History.groovy", "History", "Keeps the lines a shell user typed, newest last."),
        ("History.groovy", "History.add", "Adds a line unless it repeats the last one."),
        ("TodoList.vue", "pending", "Items not yet done, oldest first."),
        ("Counter.svelte", "increment", "Adds one, up to `max`."),
        ("Card.astro", "shorten", "The link's text, shortened to fit the card."),
        ("shop.sql", "users", "People who can log in."),
        ("orders.proto", "Order", "An order placed by a customer."),
        ("shop.graphql", "Order", "A customer's order."),
        ("shop.graphql", "Query.order", "One order by its id."),
        ("Shop.ps1", "New-Order", "Places an order."),
        ("Shop.ps1", "Get-Order", ".SYNOPSIS Gets the shop's orders."),
        ("vectors.f90", "vectors.norm", "The Euclidean norm of v."),
        ("BUILD.bazel", "core", "The core library."),
        ("BUILD.bazel", "shop_binary", "A binary with the shop's defaults."),
        ("Makefile", "all", "Build everything."),
        ("queue.scm", "queue-push!", "Push an item at the back."),
        ("geometry.rkt", "area", "The area of a circle."),
    ],
)
def test_doc_comments_become_summaries(name: str, qname: str, first_sentence: str) -> None:
    text, lang = _read(name)
    symbols, _ = extract(text, lang, name)
    module = name.rsplit(".", 1)[0]
    found = [s for s in symbols if s.qname == f"{module}.{qname}"]
    assert found[-1].summary == first_sentence


@pytest.mark.parametrize(
    ("name", "caller", "callee", "target"),
    [
        ("queue.lua", "Queue.dump", "encode", "encode"),
        ("queue.lua", "Queue.push", "full", "Queue.full"),
        ("stack.ex", "Jobs.Stack.push", "debug", None),
        ("Parser.hs", "Pretty.prettyList", "concatMap", None),
        ("cart.dart", "Cart.add", "log", None),
        ("geometry.jl", "Geometry.distance", "norm", None),
        ("buffer.zig", "Buffer.init", "alloc", None),
        ("counter.ml", "add_all", "add", "add"),
        ("Token.sol", "Token.transfer", "_move", "Token._move"),
        ("kv_store.erl", "handle_call", "lookup", "lookup"),
        ("stats.R", "trimmed_mean", "clean", "clean"),
        ("Inventory.pm", "add", "total", "total"),
        ("Store.m", "Store.put", "StoreLog", "StoreLog"),
        ("shapes.clj", "describe", "area", None),
        ("History.groovy", "History.add", "trim", "History.trim"),
        ("History.groovy", "replay", "last", None),
        ("TodoList.vue", "visible", "pending", "pending"),
        ("Counter.svelte", "increment", "clamp", None),
        ("shop.sql", "orders_touch", "touch_user", "touch_user"),  # a trigger's function
        ("Shop.ps1", "New-Order", "Get-Order", "Get-Order"),
        ("vectors.f90", "main", "norm", "vectors.norm"),
        ("vectors.f90", "vectors.scale", "log_it", None),
        ("Makefile", "all", "shop", "shop"),  # a prerequisite is a call of its rule
        ("queue.scm", "queue-push!", "set-cdr!", None),
    ],
)
def test_calls_are_edges_from_their_definition(
    name: str, caller: str, callee: str, target: str | None
) -> None:
    text, lang = _read(name)
    _, edges = extract(text, lang, name)
    module = name.rsplit(".", 1)[0]
    calls = [e for e in edges if e.edge_type == "calls" and e.src_qname == f"{module}.{caller}"]
    call = next(e for e in calls if e.dst_ref.endswith(callee))
    if target is not None:
        assert call.dst_qname == f"{module}.{target}"


@pytest.mark.parametrize(
    ("name", "imported"),
    [
        ("queue.lua", "cjson"),
        ("stack.ex", "Jobs.Job"),
        ("Parser.hs", "Data.Char"),
        ("cart.dart", "package:shop/item.dart"),
        ("geometry.jl", "LinearAlgebra"),
        ("buffer.zig", "std"),
        ("counter.ml", "Printf"),
        ("Token.sol", "./IERC20.sol"),
        ("kv_store.erl", "kv_store.hrl"),
        ("stats.R", "stats"),
        ("Inventory.pm", "List::Util"),
        ("Store.m", "Foundation/Foundation.h"),
        ("shapes.clj", "clojure.string"),
        ("History.groovy", "java.util.prefs.Preferences"),
        ("TodoList.vue", "./util.js"),
        ("Counter.svelte", "./math.js"),
        ("Card.astro", "../layouts/Layout.astro"),
        ("orders.proto", "google/protobuf/timestamp.proto"),
        ("vectors.f90", "vectors"),
        ("BUILD.bazel", "@rules_cc//cc:defs.bzl"),
        ("geometry.rkt", "racket/list"),
    ],
)
def test_imports_are_edges(name: str, imported: str) -> None:
    text, lang = _read(name)
    _, edges = extract(text, lang, name)
    assert imported in {e.dst_ref for e in edges if e.edge_type == "imports"}


def test_clauses_of_one_function_are_one_definition() -> None:
    for name, qname, span in [
        ("stack.ex", "stack.Jobs.Stack.pop", (19, 21)),  # two `def pop` clauses, its @doc
        ("Parser.hs", "Parser.char", (13, 19)),  # signature, equation, where, INLINE pragma
        ("kv_store.erl", "kv_store.handle_call", (33, 37)),  # `;`-separated clauses
        ("kv_store.erl", "kv_store.start_link", (16, 20)),  # `-spec` across a blank line
    ]:
        text, lang = _read(name)
        symbols, _ = extract(text, lang, name)
        found = [s for s in symbols if s.qname == qname]
        assert [(s.start_line, s.end_line) for s in found] == [span], qname


def test_a_module_named_in_its_namespaces_is_named_by_its_last_part() -> None:
    # `defmodule Jobs.Stack` defines `Stack` in `Jobs`, as `class Rack::Lint` defines `Lint`
    # ("where is Stack defined" must find it); a function's dots stay (R's `print.glue`)
    text, lang = _read("stack.ex")
    symbols, _ = extract(text, lang, "stack.ex")
    names = {s.qname: s.name for s in symbols}
    assert names["stack.Jobs.Stack"] == "Stack"
    assert names["stack.Jobs.Runnable"] == "Runnable"
    ruby, _ = extract("class Rack::Lint\n  def call(env)\n  end\nend\n", "ruby", "lint.rb")
    assert {(s.qname, s.name) for s in ruby} >= {("lint.Rack.Lint", "Lint")}
    r, _ = extract("print.glue <- function(x, ...) {\n  cat(x)\n}\n", "r", "glue.R")
    assert [s.name for s in r] == ["print.glue"]


def test_attributes_belong_to_their_definition_and_their_uses_are_not_calls() -> None:
    text, lang = _read("stack.ex")
    symbols, edges = extract(text, lang, "stack.ex")
    push = next(s for s in symbols if s.name == "push")
    assert push.decorators == ("@spec push(t(), Job.t()) :: t()",)  # @doc is its summary
    callees = {e.dst_ref for e in edges if e.edge_type == "calls"}
    assert "t" not in callees and "Job.t" not in callees  # the @spec's types
    assert "push" not in callees  # the definition's own head


def test_dart_body_beside_its_signature_belongs_to_the_method() -> None:
    text, lang = _read("cart.dart")
    symbols, _ = extract(text, lang, "cart.dart")
    add = next(s for s in symbols if s.qname == "cart.Cart.add")
    assert (add.start_line, add.end_line, add.signature) == (17, 21, "void add(Item item)")
    bases = next(s for s in symbols if s.name == "Cart" and s.kind == "class").bases
    assert bases == ("Base", "Logging", "Countable")


def test_a_clojure_namespace_with_metadata_is_named_by_its_name() -> None:
    text = '(ns ^{:author "S" :doc "JSON."}\n  app.json\n  (:require [x]))\n(defn f [x] x)\n'
    symbols, _ = extract(text, "clojure", "src/app/json.clj")
    assert [(s.name, s.kind) for s in symbols] == [("app.json", "package"), ("f", "function")]


def test_lua_and_julia_qualify_a_function_by_the_table_or_module_written_before_it() -> None:
    text, lang = _read("queue.lua")
    symbols, _ = extract(text, lang, "lib/queue.lua")
    kinds = {s.qname: s.kind for s in symbols}
    assert kinds["queue.Queue.new"] == "function"  # `function Queue.new`: no method
    assert kinds["queue.Queue.push"] == "method"  # `function Queue:push`: a method


def test_zig_generic_type_holds_its_methods() -> None:
    text, lang = _read("buffer.zig")
    chunks = {c.title: c for c in chunk(text, lang, DEFAULT)}
    assert chunks["Ring"].kind == "class" and chunks["Ring"].end_line == 28
    assert chunks["Ring.get"].kind == "method"


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("src/buf.zig", "zig"),
        ("contracts/Token.sol", "solidity"),
        ("flake.nix", "nix"),
        ("include/kv.hrl", "erlang"),
        ("src/app.cljs", "clojure"),
        ("lib/m.f90", "fortran"),
        ("Mod.psm1", "powershell"),
        ("defs.bzl", "starlark"),
        ("justfile", "just"),
        ("R/stats.R", "r"),
        ("src/lib_json/json_valueiterator.inl", "cpp"),
        ("include/boost/detail/impl.ipp", "cpp"),
        ("kernels/reduce.cu", "cpp"),
        ("ios/Podfile", "ruby"),
        ("workflow/Snakefile", "python"),
        ("SConstruct", "python"),
        ("BUCK", "starlark"),
    ],
)
def test_new_extensions_name_their_language(path: str, lang: str) -> None:
    assert language_of(path) == lang
    assert grammars.is_supported(lang)


def test_test_files_and_lua_packages_by_their_conventions() -> None:
    assert is_test_path("spec/queue_spec.lua") and is_test_path("kv_store_SUITE.erl")
    assert is_test_path("Src/Newtonsoft.Json.Tests/TestObjects/Account.cs")
    assert is_test_path("src/App.UnitTests/Cart.cs") and is_test_path("Tests/CoreTests/Queue.swift")
    assert not is_test_path("Src/Newtonsoft.Json/Linq/JToken.cs")
    assert not is_test_path("src/Latests/feed.go") and not is_test_path("lib/contests/a.rb")
    assert module_from_path("lib/pl/init.lua") == "pl"


def _indexed(root: Path, *names: str) -> Engine:
    """A lexical index of copies of the samples `names` under `root`."""
    for name in names:
        (root / name).write_text((CORPUS / name).read_text(encoding="utf-8"), encoding="utf-8")
    eng = Engine.open(root, config={"embed.provider": "none"})
    eng.index()
    return eng


def test_an_index_finds_definitions_in_new_languages(tmp_path: Path) -> None:
    eng = _indexed(tmp_path, "queue.lua", "buffer.zig", "Token.sol")
    assert [s.qname for s in eng.symbols("push")] == ["queue.Queue.push"]
    assert [s.record.path for s in eng.symbols("transfer")] == ["Token.sol"]
    hits = eng.search("where is Buffer defined", k=3)
    assert hits[0].record.path == "buffer.zig"
    assert hits[0].record.span_start == 6
    eng.close()


def test_a_components_script_is_code_and_its_markup_is_not(tmp_path: Path) -> None:
    eng = _indexed(tmp_path, "TodoList.vue")
    hits = eng.search("where is toggle defined", k=3)
    assert (hits[0].record.title, hits[0].record.span_start) == ("toggle", 30)
    # the template's `@click="toggle(item)"` is no second definition
    assert [s.qname for s in eng.symbols("toggle")] == ["TodoList.toggle"]
    eng.close()


_OFFLINE = """
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("no network in this test")
socket.socket = refuse
socket.create_connection = refuse
from strata.index.code.treesitter import grammars, tagquery
for lang in sorted(grammars.BUNDLED):
    tree = tagquery.parse("x", lang)
    assert tree.root_node is not None, lang
print(len(grammars.BUNDLED))
"""


def test_every_bundled_grammar_loads_offline_into_a_fresh_cache(tmp_path: Path) -> None:
    env = {**os.environ, "SEMBLE_GRAMMARS_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", _OFFLINE], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(grammars.BUNDLED) >= 40
    assert len(list((tmp_path / "cache").rglob("*.so"))) >= 40


def test_an_unwritable_grammar_cache_is_a_clear_error_and_its_files_get_windows(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("", encoding="utf-8")
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "queue.lua").write_text(_read("queue.lua")[0], encoding="utf-8")
    probe = (
        "import sys\n"
        "from strata.engine import Engine\n"
        "from strata.errors import EngineError\n"
        "from strata.index.code.treesitter import grammars\n"
        "try:\n"
        "    grammars.language('lua')\n"
        "except EngineError as exc:\n"
        "    print(exc)\n"
        "eng = Engine.open(sys.argv[1], config={'embed.provider': 'none'})\n"
        "eng.index()\n"
        "print([r.kind for r in eng.records(['C0_SOURCE_CHUNKS'])], len(eng.symbols('push')))\n"
    )
    env = {**os.environ, "SEMBLE_GRAMMARS_CACHE_DIR": str(blocker / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "repo")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "the lua grammar cannot be loaded" in done.stdout
    assert "SEMBLE_GRAMMARS_CACHE_DIR" in done.stdout
    assert done.stdout.strip().endswith("['text'] 0")  # line windows, no symbols
    assert "lua files get line windows" in done.stderr


def test_a_schemas_tables_are_found_by_name_and_kind(tmp_path: Path) -> None:
    eng = _indexed(tmp_path, "shop.sql")
    # `users` is in most statements; the table is the one that defines it
    for query, title, line in [
        ("where is the users table defined", "users", 3),
        ("where is the table orders created", "orders", 14),
        ("where is touch_user defined", "touch_user", 24),
    ]:
        top = eng.search(query, k=3)[0].record
        assert (top.title, top.span_start) == (title, line), query
    eng.close()


def test_objective_c_shows_the_implementation_before_the_interface(tmp_path: Path) -> None:
    eng = _indexed(tmp_path, "Store.m")
    for query, line in [("where is Store defined", 12), ("where is Store.shared defined", 20)]:
        hits = eng.search(query, k=1).hits
        assert (hits[0].record.path, hits[0].record.span_start) == ("Store.m", line), query
    eng.close()


_RUST_WITH_TESTS = """\
pub fn parse(s: &str) -> usize {
    s.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ab() -> &'static str {
        "ab"
    }

    #[test]
    fn parse_counts_bytes() {
        assert_eq!(parse(ab()), 2);
    }
}
"""

_ZIG_WITH_TESTS = """\
pub fn parse(s: []const u8) usize {
    return s.len;
}

/// The empty string.
test "parse counts bytes" {
    try std.testing.expect(parse("ab") == 2);
}

test parse {
    _ = parse("");
}
"""


def test_a_test_written_beside_the_code_is_a_test(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text(_RUST_WITH_TESTS, encoding="utf-8")
    (tmp_path / "src" / "parse.zig").write_text(_ZIG_WITH_TESTS, encoding="utf-8")
    assert is_test_unit("rust", "    #[test]\n    fn f() {")
    assert is_test_unit("rust", "/// doc\n#[tokio::test]\nasync fn check() {")
    assert is_test_unit("rust", "#[cfg(test)]\nmod tests {\n    use super::*;")
    assert not is_test_unit("rust", "pub fn parse(s: &str) -> usize {")
    assert not is_test_unit("rust", "#[inline]\nfn parse() {\n    #[test]")  # not its own
    assert is_test_unit("zig", "/// doc\ntest parse {")
    assert not is_test_unit("zig", "pub fn testing() void {")
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        chunks = eng.store.fetch(Filter(layers=(C0_SOURCE_CHUNKS,)))
        tests = {(r.path, r.title) for r in chunks if r.is_test}
        code = {(r.path, r.title) for r in chunks if not r.is_test}
        assert ("src/lib.rs", "tests.parse_counts_bytes") in tests
        assert ("src/parse.zig", "parse counts bytes") in tests
        assert ("src/lib.rs", "parse") in code and ("src/parse.zig", "parse") in code
        assert ("src/lib.rs", "tests.ab") in code  # a helper of the tests, as any function
        symbols = eng.store.fetch(Filter(layers=(C1_SYMBOL_CATALOG,)))
        assert {r.title.rsplit(".", 1)[-1] for r in symbols if r.is_test} >= {
            "parse_counts_bytes",
            "parse counts bytes",
        }
        calls = eng.store.fetch(Filter(layers=(C2_DEPENDENCY_GRAPH,)))
        from_tests = [r for r in calls if "parse_counts_bytes" in r.title]
        assert from_tests and all(r.is_test for r in from_tests)
        # a lookup leads to the code, not to the test that shares its name
        hits = eng.search("where is parse defined", k=3)
        assert not hits[0].record.is_test, [(h.record.path, h.record.title) for h in hits]
        # and a search leaves them out when asked to
        assert all(
            not h.record.is_test
            for h in eng.search("parse counts bytes", k=5, filters={"no_tests": True})
        )
