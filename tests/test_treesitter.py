"""Tree-sitter chunking and symbol extraction over sixteen languages, on real sample files."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strata.config import ChunkConfig
from strata.errors import EngineError, UserError
from strata.index.code.model import Symbol, callables
from strata.index.code.treesitter import grammars
from strata.index.code.treesitter.chunker import chunk
from strata.index.code.treesitter.symbols import extract, summary
from strata.text.langs import language_of, language_of_text
from strata.types import Chunk

CORPUS = Path(__file__).parent / "corpora" / "code"
DEFAULT = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=5)
TIGHT = ChunkConfig(max_lines=6, max_chars=160, window_lines=40, overlap_lines=5)

# (qname without the module, kind, first line including doc comments and decorators)
EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "Billing.cs": {
        ("Shop.Billing.Money.Amount", "field", 16),
        ("Shop.Billing.Money.Currency", "field", 17),
        ("Shop.Billing", "module", 4),
        ("Shop.Billing.ICalculator", "interface", 6),
        ("Shop.Billing.ICalculator.Total", "method", 9),
        ("Shop.Billing.Currency", "enum", 12),
        ("Shop.Billing.Money", "struct", 14),
        ("Shop.Billing.Calculator", "class", 20),
        ("Shop.Billing.Calculator.TaxRate", "constant", 23),
        ("Shop.Billing.Calculator.Total", "method", 25),
        ("Shop.Billing.Calculator.WithTax", "method", 32),
        ("Shop.Billing.Calculator.Unit", "property", 37),
    },
    "Cart.php": {
        ("MAX_ITEMS", "constant", 8),
        ("Cart", "class", 10),
        ("Cart.__construct", "method", 17),
        ("Cart.add", "method", 21),
        ("Cart.count", "method", 28),
        ("Discount", "interface", 34),
        ("Discount.apply", "method", 36),
        ("Loggable", "trait", 39),
        ("Loggable.logName", "method", 41),
        ("describe", "function", 47),
    },
    "Inventory.java": {
        ("Inventory.stock", "field", 12),
        ("Inventory", "class", 6),
        ("Inventory.LIMIT", "constant", 10),
        ("Inventory.add", "method", 14),
        ("Inventory.count", "method", 19),
        ("Inventory.check", "method", 24),
        ("Inventory.Level", "enum", 31),
        ("Countable", "interface", 34),
        ("Countable.count", "method", 35),
    },
    "Parser.scala": {
        ("SimpleLexer.parts", "field", 15),
        ("Token", "class", 6),
        ("Lexer", "trait", 9),
        ("Lexer.next", "method", 10),
        ("SimpleLexer", "class", 13),
        ("SimpleLexer.next", "method", 17),
        ("Parser", "class", 21),
        ("Parser.MaxTokens", "constant", 22),
        ("Parser.parse", "method", 24),
        ("classify", "function", 30),
    },
    "Repository.kt": {
        ("MemoryRepository.users", "field", 19),
        ("PAGE_SIZE", "constant", 6),
        ("User", "class", 8),
        ("Repository", "interface", 11),
        ("Repository.find", "method", 12),
        ("MemoryRepository", "class", 15),
        ("MemoryRepository.find", "method", 21),
        ("MemoryRepository.save", "method", 23),
        ("Registry", "class", 28),
        ("Registry.default", "method", 29),
        ("normalize", "function", 32),
    },
    "Store.swift": {
        ("Storable.key", "field", 8),
        ("Note.key", "field", 13),
        ("Note.title", "field", 14),
        ("Store.notes", "field", 24),
        ("maxItems", "constant", 4),
        ("Storable", "interface", 6),
        ("Note", "struct", 11),
        ("Mode", "enum", 17),
        ("Store", "class", 22),
        ("Store.init", "method", 26),
        ("Store.put", "method", 30),
        ("Store.trim", "method", 35),
        ("makeStore", "function", 42),
    },
    "buffer.c": {
        ("INITIAL_CAP", "constant", 6),
        ("buffer_t", "struct", 8),
        ("grow_policy", "enum", 14),
        ("reserve", "function", 16),
        ("buffer_append", "function", 32),
    },
    "client.ts": {
        ("Client.retries", "field", 21),
        ("API_VERSION", "constant", 4),
        ("Response", "interface", 6),
        ("Handler", "type", 12),
        ("Method", "enum", 14),
        ("Client", "class", 19),
        ("Client.constructor", "method", 23),
        ("Client.send", "method", 28),
        ("fetchOnce", "function", 36),
    },
    "deploy.sh": {
        ("TARGET", "constant", 8),
        ("log", "function", 10),
        ("build", "function", 15),
        ("deploy", "function", 20),
    },
    "lib.rs": {
        ("CAPACITY", "constant", 5),
        ("Entry", "struct", 7),
        ("Entry.key", "field", 10),
        ("Entry.value", "field", 11),
        ("Evict", "trait", 14),
        ("Evict.evict", "method", 16),
        ("Policy", "enum", 19),
        ("Map", "type", 24),
        ("Cache", "struct", 26),
        ("Cache.map", "field", 27),
        ("Cache.policy", "field", 28),
        ("Cache.new", "method", 32),
        ("Cache.get", "method", 37),
        ("Cache.fmt", "method", 43),
        ("normalize", "function", 48),
    },
    "queue.rb": {
        ("Jobs", "module", 5),
        ("Jobs.MAX_SIZE", "constant", 6),
        ("Jobs.Queue", "class", 8),
        ("Jobs.Queue.initialize", "method", 10),
        ("Jobs.Queue.push", "method", 14),
        ("Jobs.Queue.full?", "method", 20),
        ("Jobs.Queue.create", "method", 24),
        ("Jobs.Queue.serialize", "method", 30),
        ("run_all", "function", 36),
    },
    "server.go": {
        ("Server.routes", "field", 19),
        ("Server.name", "field", 20),
        ("MaxConns", "constant", 9),
        ("Handler", "interface", 12),
        ("Handler.Serve", "method", 14),
        ("Server", "struct", 17),
        ("NewServer", "function", 23),
        ("Server.Handle", "method", 28),
        ("Server.String", "method", 33),
        ("normalize", "function", 37),
    },
    "server.js": {
        ("DEFAULT_PORT", "constant", 5),
        ("Router", "class", 7),
        ("Router.constructor", "method", 11),
        ("Router.add", "method", 16),
        ("Router.dispatch", "method", 21),
        ("normalize", "function", 27),
        ("notFound", "function", 32),
        ("loadConfig", "function", 36),
    },
    "server.py": {
        ("MAX_RETRIES", "constant", 6),
        ("Request", "class", 10),
        ("Server", "class", 18),
        ("Server.__init__", "method", 21),
        ("Server.handle", "method", 25),
        ("Server.version", "method", 32),
        ("not_found", "function", 37),
        ("main", "function", 43),
    },
    "shapes.cpp": {
        ("geo", "module", 5),
        ("geo.PI", "constant", 7),
        ("geo.Shape", "class", 9),
        ("geo.Shape.~Shape", "method", 12),
        ("geo.Shape.area", "method", 13),
        ("geo.Point", "struct", 16),
        ("geo.Circle", "class", 21),
        ("geo.Circle.Circle", "method", 23),
        ("geo.Circle.area", "method", 25),
        ("geo.square", "function", 34),
        ("geo.Describe", "function", 38),
    },
    "widget.tsx": {
        ("WidgetProps", "interface", 3),
        ("Widget", "function", 7),
        ("format", "function", 13),
        ("Panel", "class", 17),
        ("Panel.render", "method", 18),
    },
}


def _read(name: str) -> tuple[str, str]:
    return (CORPUS / name).read_text(encoding="utf-8"), language_of(name) or ""


def assert_chunk_invariants(text: str, chunks: list[Chunk], cfg: ChunkConfig) -> None:
    """Exact spans, file order without overlap, every non-blank character covered, budget kept."""
    lines = text.split("\n")
    covered: dict[int, list[tuple[int, int]]] = {}
    last = (0, 0)
    for c in chunks:
        assert 1 <= c.start_line <= c.end_line <= len(lines)
        assert len(c.text) <= cfg.max_chars, (c.title, len(c.text))
        assert c.end_line - c.start_line + 1 <= cfg.max_lines
        if "col_start" in c.metadata:
            a, b = c.metadata["col_start"], c.metadata["col_end"]
            assert c.start_line == c.end_line
            assert c.text == lines[c.start_line - 1][a:b]
            begin, end = (c.start_line, a), (c.start_line, b)
            covered.setdefault(c.start_line, []).append((a, b))
        else:
            assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])
            begin, end = (c.start_line, 0), (c.end_line, 1 << 62)
            for k in range(c.start_line, c.end_line + 1):
                covered.setdefault(k, []).append((0, len(lines[k - 1])))
        assert begin >= last, f"overlap at {c.title} {c.start_line}"
        last = end
        assert c.text.strip(), "blank chunk"
    for k, line in enumerate(lines, 1):
        for col, ch in enumerate(line):
            if not ch.isspace():
                assert any(a <= col < b for a, b in covered.get(k, [])), f"line {k} col {col}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_symbols_are_exactly_the_definitions_of_each_sample(name: str) -> None:
    text, lang = _read(name)
    symbols, _ = extract(text, lang, name)
    module = name.rsplit(".", 1)[0]
    got = {(s.qname.removeprefix(module + "."), s.kind, s.start_line) for s in symbols}
    assert got == EXPECTED[name]
    assert all(s.symbol_id == f"{name}::{s.qname}" for s in symbols)


def test_sixteen_languages_are_covered() -> None:
    langs = {language_of(name) for name in EXPECTED}
    assert len(langs) >= 16
    assert langs <= set(grammars.supported())


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("cfg", [DEFAULT, TIGHT], ids=["default", "tight"])
def test_chunks_of_each_sample_keep_the_invariants(name: str, cfg: ChunkConfig) -> None:
    text, lang = _read(name)
    chunks = chunk(text, lang, cfg)
    assert_chunk_invariants(text, chunks, cfg)
    assert any(c.kind in ("function", "method") for c in chunks)


@pytest.mark.parametrize("name", ["app.js", "app.ts", "app.tsx"])
def test_var_let_and_const_functions_are_functions_in_every_ecmascript_dialect(name: str) -> None:
    text = "var f = function () { return 1 }\nlet g = () => 2\nconst h = () => 3\nvar n = 4\n"
    symbols, _ = extract(text, language_of(name), name)
    assert {(s.qname.rsplit(".", 1)[-1], s.kind) for s in symbols} == {
        ("f", "function"),
        ("g", "function"),
        ("h", "function"),
    }


def test_class_is_a_header_with_an_outline_and_members_are_chunks() -> None:
    text, lang = _read("server.go")
    chunks = {c.title: c for c in chunk(text, lang, DEFAULT)}
    assert chunks["Server.Handle"].kind == "method"
    assert chunks["Server.Handle"].text.startswith("// Handle registers a route.")
    text, lang = _read("server.js")
    by_title = {c.title: c for c in chunk(text, lang, DEFAULT)}
    router = by_title["Router"]
    assert router.kind == "class"
    assert router.text.startswith("/**") and "export class Router {" in router.text
    assert "add(route, handler)" in router.metadata["outline"]
    assert "this.routes.set" not in router.text
    assert by_title["Router.add"].text.startswith("  /** Register a handler for a path. */")
    # a C# property is a member chunk of its own, with its doc, as a method is
    text, lang = _read("Billing.cs")
    by_title = {c.title: c for c in chunk(text, lang, DEFAULT)}
    unit = by_title["Shop.Billing.Calculator.Unit"]
    # the class's and the namespace's closing braces join the last member
    assert (unit.kind, unit.start_line, unit.end_line) == ("method", 37, 40)
    assert unit.text.lstrip().startswith("/// <summary>The currency totals are in.")


def test_decorators_and_attributes_stay_with_their_definition() -> None:
    text, lang = _read("server.py")
    by_title = {c.title: c for c in chunk(text, lang, DEFAULT)}
    assert by_title["Server.version"].text.lstrip().startswith("@staticmethod")
    assert by_title["Request"].text.startswith("@dataclass")
    text, lang = _read("lib.rs")
    entry = next(c for c in chunk(text, lang, DEFAULT) if c.title == "Entry")
    assert entry.text.splitlines()[:2] == ["/// A cached entry.", "#[derive(Debug, Clone)]"]


GO_TYPES = """package mux

func Use() {}

// BuildVarsFunc --------------------------------------------------------------

// BuildVarsFunc is the signature of functions that modify route variables.
type BuildVarsFunc func(map[string]string) map[string]string

func Build() {}

var SkipRouter = 1

// WalkFunc is called for each route.
type WalkFunc func(route string) error
"""


def test_package_level_go_vars_are_named_values_with_their_docs() -> None:
    text = (
        "package mux\n\nvar (\n\t// ErrNotFound is returned when no route matches.\n"
        '\tErrNotFound = errors.New("no match")\n\tretries = 3\n)\n\n'
        '// SkipRouter skips a router.\nvar SkipRouter = errors.New("skip")\n\n'
        "func f() {\n\tvar local = 1\n\t_ = local\n}\n"
    )
    syms, _ = extract(text, "go", "mux.go")
    values = {s.name: (s.kind, s.start_line, s.summary) for s in syms if s.kind == "constant"}
    assert values == {
        "ErrNotFound": ("constant", 4, "ErrNotFound is returned when no route matches."),
        "retries": ("constant", 6, ""),
        "SkipRouter": ("constant", 9, "SkipRouter skips a router."),
    }  # a function's `var` is not the package's


def test_an_object_types_alias_is_an_interface_and_a_plain_alias_a_type() -> None:
    text = (
        "export type Input = string | URL;\n"
        "export type KyOptions = {\n"
        + "".join(f"  /** Option {i}. */\n  option{i}?: number;\n" for i in range(60))
        + "};\n"
    )
    syms, _ = extract(text, "typescript", "options.d.ts")
    assert {s.name: s.kind for s in syms if s.parent_symbol_id is None} == {
        "Input": "type",
        "KyOptions": "interface",
    }
    chunks = chunk(text, "typescript", DEFAULT)
    assert {c.title for c in chunks if "option59" in c.text or "option0" in c.text} == {"KyOptions"}
    assert_chunk_invariants(text, chunks, DEFAULT)


def test_a_ruby_singleton_class_s_methods_are_the_class_s_own() -> None:
    text = (
        "class Thor\n  class << self\n    # Registers a subcommand.\n"
        "    def subcommand(name)\n      name\n    end\n  end\n\n"
        "  def self.desc(usage)\n    usage\n  end\n\n  def invoke\n    run\n  end\nend\n"
    )
    syms, _ = extract(text, "ruby", "lib/thor.rb")
    assert [(s.qname, s.kind) for s in syms] == [
        ("thor.Thor", "class"),
        ("thor.Thor.subcommand", "method"),
        ("thor.Thor.desc", "method"),
        ("thor.Thor.invoke", "method"),
    ]
    titles = {c.title for c in chunk(text, "ruby", DEFAULT)}
    assert {"Thor.subcommand", "Thor.desc", "Thor.invoke"} <= titles
    assert not any("self" in t for t in titles)


BASH_COMPLETION = """# bash completion for service

# This completes on a list of all available service scripts
#
_service()
{
    local cur prev words cword
    _init_completion || return
} &&
    complete -F _service service

_other() {
    echo other
}
"""


def test_a_bash_function_that_opens_a_command_list_keeps_its_comments_as_its_doc() -> None:
    syms, _ = extract(BASH_COMPLETION, "bash", "completions/service")
    found = {s.name: (s.start_line, s.summary) for s in syms}
    assert found["_service"][0] == 3  # from its comments, above the `... &&` list it opens
    assert found["_service"][1].startswith("This completes on a list of all available")
    assert found["_other"] == (12, "")
    assert_chunk_invariants(BASH_COMPLETION, chunk(BASH_COMPLETION, "bash", DEFAULT), DEFAULT)


TS_OVERLOADS = """import { Observable } from './Observable';

export function firstValueFrom<T, D>(source: Observable<T>, config: Config<D>): Promise<T | D>;
export function firstValueFrom<T>(source: Observable<T>): Promise<T>;

/**
 * Converts an observable to a promise.
 */
export function firstValueFrom<T, D>(source: Observable<T>, config?: Config<D>): Promise<T | D> {
  return new Promise((resolve) => resolve(source));
}

export function other(): void;
const x = 1;
export function other(): void {
  return;
}
"""


def test_typescript_overloads_are_the_chunk_of_the_function_they_declare() -> None:
    chunks = chunk(TS_OVERLOADS, "typescript", DEFAULT)
    first = next(c for c in chunks if c.title == "firstValueFrom")
    assert (first.kind, first.start_line, first.end_line) == ("function", 3, 11)
    # code between a signature and its body: the signature stays where it is
    other = next(c for c in chunks if c.title == "other")
    assert other.start_line == 15
    assert_chunk_invariants(TS_OVERLOADS, chunks, DEFAULT)


def test_a_lone_type_declaration_is_a_titled_chunk_and_glue_stays_glue() -> None:
    chunks = chunk(GO_TYPES, "go", DEFAULT)
    alone = next(c for c in chunks if "type BuildVarsFunc" in c.text)
    assert (alone.title, alone.kind, alone.start_line, alone.end_line) == (
        "BuildVarsFunc",
        "class",
        5,
        8,
    )
    assert alone.metadata["symbol_kind"] == "type"
    assert alone.metadata["signature"].startswith("type BuildVarsFunc func(")
    # beside other code (a `var`), the type stays in the untitled module chunk
    glue = next(c for c in chunks if "type WalkFunc" in c.text)
    assert (glue.title, glue.kind) == ("", "module")
    assert "var SkipRouter" in glue.text
    assert_chunk_invariants(GO_TYPES, chunks, DEFAULT)


RUST_MACROS = """use std::fmt;

/// Return early with an error.
#[macro_export]
macro_rules! bail {
    ($msg:literal $(,)?) => {
        return Err($msg.into())
    };
    ($err:expr $(,)?) => {
        return Err($err)
    };
}

pub fn f() {}
"""


def test_a_rust_macro_is_a_chunk_of_its_own_with_its_doc() -> None:
    chunks = chunk(RUST_MACROS, "rust", DEFAULT)
    bail = next(c for c in chunks if c.title == "bail")
    assert (bail.kind, bail.start_line, bail.end_line) == ("function", 3, 12)
    assert bail.metadata["signature"] == "macro_rules! bail"
    symbols, _ = extract(RUST_MACROS, "rust", "m.rs")
    assert [(s.name, s.kind) for s in symbols if s.name == "bail"] == [("bail", "function")]


def test_oversized_function_is_split_by_lines_keeping_its_title() -> None:
    body = "\n".join(f"    total += {i};" for i in range(200))
    text = f"function big() {{\n  let total = 0;\n{body}\n  return total;\n}}\n"
    chunks = chunk(text, "javascript", ChunkConfig(20, 3000, 40, 5))
    assert len(chunks) >= 10
    assert {c.title for c in chunks} == {"big"}
    assert_chunk_invariants(text, chunks, ChunkConfig(20, 3000, 40, 5))


def test_tree_sitter_python_matches_the_stdlib_ast() -> None:
    text, _ = _read("server.py")
    expected = set()
    stack: list[tuple[str, ast.AST]] = [("", ast.parse(text))]
    while stack:
        prefix, node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                expected.add((prefix + child.name, child.lineno))
                stack.append((prefix + child.name + ".", child))
    symbols, _ = extract(text, "python", "server.py")
    got = {(s.qname.removeprefix("server."), s.start_line) for s in symbols if s.kind != "constant"}
    # ast's lineno is the `def` line; tree-sitter spans start at the decorator
    decorated = {"Request": 11, "Server.version": 33}
    assert {(q, decorated.get(q, line)) for q, line in got} == expected


def test_calls_resolve_against_same_file_symbols() -> None:
    text, lang = _read("server.go")
    symbols, edges = extract(text, lang, "pkg/server.go")
    calls = {(e.src_qname, e.dst_ref): e for e in edges if e.edge_type == "calls"}
    norm = calls[("pkg.server.Server.Handle", "normalize")]
    assert norm.resolution == "resolved"
    assert norm.dst_symbol_id == "pkg/server.go::pkg.server.normalize"
    assert calls[("pkg.server.Server.String", "fmt.Sprintf")].resolution == "unresolved"
    handle = next(s for s in symbols if s.name == "Handle")
    assert handle.parent_symbol_id == "pkg/server.go::pkg.server.Server"
    assert handle.signature == "func (s *Server) Handle(path string, h Handler)"
    assert handle.summary == "Handle registers a route."


def test_ambiguous_call_lists_every_candidate() -> None:
    text, lang = _read("Inventory.java")
    _, edges = extract(text, lang, "Inventory.java")
    assert not any(e.dst_ref == "count" for e in edges)  # nothing calls count
    code = (
        "class A { int size() { return 1; } }\n"
        "class B { int size() { return 2; } int f() { return size(); } }\n"
    )
    _, edges = extract(code, "java", "AB.java")
    call = next(e for e in edges if e.dst_ref == "size")
    assert call.resolution == "ambiguous"
    assert set(call.candidates) == {"AB.java::AB.A.size", "AB.java::AB.B.size"}


@pytest.mark.parametrize(
    ("lang", "code", "resolved", "unresolved"),
    [
        (
            "typescript",
            "class ZodType { parse(x) { return x; } static create() { return new ZodType(); } }\n"
            "function f(s) { JSON.parse(s); ZodType.create(); z.parse(1); Math.max(1, 2); }\n",
            {"ZodType.create": "ZodType.create", "z.parse": "ZodType.parse"},
            {"JSON.parse", "Math.max"},  # a global's methods, not the file's
        ),
        (
            "rust",
            "struct Span;\nimpl Span { fn new() -> Span { Span } }\nstruct Parser;\n"
            "impl Parser { fn new() -> Parser { Parser } fn go(&self) { Span::new(); Box::new(1);"
            " Self::new(); } }\n",
            {"Span::new": "Span.new", "Self::new": None},
            {"Box::new"},
        ),
        (
            "csharp",
            "class JValue { double ToDouble() { return Convert.ToDouble(1); } }\n",
            {},
            {"Convert.ToDouble"},
        ),
    ],
)
def test_a_calls_capitalised_receiver_names_the_type_it_calls_into(
    lang: str, code: str, resolved: dict[str, str | None], unresolved: set[str]
) -> None:
    _, edges = extract(code, lang, "m.x")
    calls = {e.dst_ref: e for e in edges if e.edge_type == "calls"}
    for ref, target in resolved.items():
        assert calls[ref].resolution in ("resolved", "ambiguous"), ref
        if target:
            assert calls[ref].resolution == "resolved" and calls[ref].dst_qname == f"m.{target}"
    for ref in unresolved:
        assert calls[ref].resolution == "unresolved", (ref, calls[ref].dst_qname)


@pytest.mark.parametrize(
    ("name", "local", "external"),
    [
        ("client.ts", "./options", "events"),
        ("buffer.c", "buffer.h", "stdlib.h"),
        ("queue.rb", "job", "json"),
        ("deploy.sh", "./lib/common.sh", None),
        ("lib.rs", None, "std::collections::HashMap"),
        ("Billing.cs", None, "System.Collections.Generic"),
    ],
)
def test_imports_are_external_unless_they_name_a_project_file(
    name: str, local: str | None, external: str | None
) -> None:
    text, lang = _read(name)
    _, edges = extract(text, lang, name)
    imports = {e.dst_ref: e.resolution for e in edges if e.edge_type == "imports"}
    if local:
        assert imports[local] == "unresolved"
    if external:
        assert imports[external] == "external"


def test_a_php_file_required_by_its_path_is_a_project_file() -> None:
    text = (
        "<?php\nrequire_once 'lib/cart.php';\ninclude \"views/list.php\";\n"
        "require __DIR__ . '/boot.php';\ninclude_once \"theme-$name.php\";\n"
    )
    _, edges = extract(text, "php", "index.php")
    # a path built at run time (a constant joined, a variable inside) is not read
    assert [(e.dst_ref, e.resolution) for e in edges if e.edge_type == "imports"] == [
        ("lib/cart.php", "unresolved"),
        ("views/list.php", "unresolved"),
    ]


def test_bases_become_inherits_edges() -> None:
    text, lang = _read("Billing.cs")
    symbols, edges = extract(text, lang, "Billing.cs")
    calc = next(s for s in symbols if s.name == "Calculator")
    assert calc.bases == ("ICalculator",)
    inherit = next(e for e in edges if e.edge_type == "inherits")
    assert inherit.dst_qname == "Billing.Shop.Billing.ICalculator"
    text, lang = _read("lib.rs")
    _, edges = extract(text, lang, "lib.rs")
    assert any(e.src_qname == "lib.Cache" and e.dst_ref == "Display" for e in edges)


def test_summary_is_the_first_sentence_of_the_doc() -> None:
    assert summary("/**\n * Keeps stock counts per item. Not thread-safe.\n */") == (
        "Keeps stock counts per item."
    )
    assert summary("/// <summary>Computes invoice totals.</summary>") == "Computes invoice totals."
    assert summary('"""Handle one request\n    and answer."""') == "Handle one request and answer."
    see = '/// <summary>Makes a <see cref="T:App.Ledger"/> of <paramref name="n"/> rows.</summary>'
    assert summary(see) == "Makes a Ledger of n rows."  # C#: the names referred to stay
    assert summary("(** Parse one token.\n    Raises on end of input. *)") == "Parse one token."
    assert summary("(* a float that prints as a float *)") == "a float that prints as a float"
    assert summary("// MARK: - Plugin access\n/// The plugin named `id`.") == (
        "The plugin named `id`."  # Swift's section marker is no doc
    )
    assert summary("// MARK: - Paths") == "" and summary("#pragma mark - Setup") == ""
    # a tag that only says prose follows: NatSpec's, Doxygen's (either marker), JSDoc's
    notice = "/// @notice Returns the pool's fee. In hundredths."
    assert summary(notice) == "Returns the pool's fee."
    assert summary("/** \\brief Read a Value from a JSON document.\n */") == (
        "Read a Value from a JSON document."
    )
    assert summary("/**\n * @description: Makes one plugin.\n */") == "Makes one plugin."


def test_file_with_parse_errors_still_chunks_its_good_parts() -> None:
    text = (
        "function good(a) {\n  return a + 1;\n}\n\n"
        "function broken( {\n  let x = ;\n  ))\n}\n\n"
        "class Fine {\n  ok() {\n    return 2;\n  }\n}\n"
    )
    chunks = chunk(text, "javascript", DEFAULT)
    assert_chunk_invariants(text, chunks, DEFAULT)
    titles = {c.title for c in chunks}
    assert "good" in titles
    assert any(t.endswith("ok") for t in titles)  # recovered after the broken function
    assert all(c.metadata.get("parse_errors") for c in chunks)
    symbols, _ = extract(text, "javascript", "bad.js")
    assert {"good", "ok"} <= {s.name for s in symbols}


def test_minified_javascript_becomes_sub_line_windows() -> None:
    unit = 'function f{n}(a){{return a*{n}+g{n}(a)}};var v{n}={{k:[1,2,3],s:"x{n}"}};'
    text = "".join(unit.format(n=i) for i in range(30000))
    assert len(text) > 2_000_000 and "\n" not in text
    chunks = chunk(text, "javascript", DEFAULT)
    assert len(chunks) > 600
    assert all(c.start_line == c.end_line == 1 for c in chunks)
    assert all(len(c.text) <= DEFAULT.max_chars for c in chunks)
    assert "".join(c.text for c in chunks) == text
    assert all(c.text == text[c.metadata["col_start"] : c.metadata["col_end"]] for c in chunks)


@pytest.mark.parametrize(
    ("lang", "open_", "close"),
    [
        ("javascript", "if (x) {", "}"),
        ("go", "{", "}"),
        ("python", "if x:", None),
    ],
)
def test_deep_nesting_does_not_hit_the_recursion_limit(
    lang: str, open_: str, close: str | None
) -> None:
    depth = 500
    head = {"javascript": "function deep() {", "go": "package p\nfunc deep() {"}.get(
        lang, "def deep():"
    )
    lines = [head]
    for i in range(depth):
        lines.append(" " * (i + 1) + open_)
    lines.append(" " * (depth + 1) + ("x = 1" if lang == "python" else "x()"))
    if close:
        lines += [" " * (i + 1) + close for i in reversed(range(depth))] + ["}"]
    text = "\n".join(lines) + "\n"
    chunks = chunk(text, lang, DEFAULT)
    assert_chunk_invariants(text, chunks, DEFAULT)
    deep = [c for c in chunks if c.title == "deep"]
    assert all(c.kind == "function" for c in deep)
    assert deep[-1].end_line - deep[0].start_line + 1 == len(lines)  # the unit, in windows


def test_deeply_nested_functions_are_qualified() -> None:
    depth = 500
    text = "".join(f"function f{i}() {{\n" for i in range(depth)) + "}\n" * depth
    chunks = chunk(text, "javascript", DEFAULT)
    assert_chunk_invariants(text, chunks, DEFAULT)
    symbols, _ = extract(text, "javascript", "deep.js")
    assert len(symbols) == depth
    assert symbols[-1].qname == "deep." + ".".join(f"f{i}" for i in range(depth))


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(UserError, match="no tree-sitter grammar for language 'brainfuck'") as info:
        chunk("+++[>+<-]", "brainfuck", DEFAULT)
    assert "javascript" in str(info.value)


def test_missing_grammar_names_the_package_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = grammars.Grammar("tree_sitter_not_installed", "language", "tree-sitter-nope>=1,<2")
    monkeypatch.setitem(grammars.GRAMMARS, "nope", missing)
    grammars.language.cache_clear()
    with pytest.raises(EngineError, match="pip install 'tree-sitter-nope>=1,<2'"):
        grammars.language("nope")


JS_PIECES = [
    "function {n}(a, b) {{\n  return a + b;\n}}",
    "/** Docs for {n}. */\nexport function {n}() {{\n  const x = 1;\n\n  return x;\n}}",
    "class {N} {{\n  constructor() {{\n    this.v = 1;\n  }}\n\n  {n}() {{ return this.v; }}\n}}",
    "const {n} = (x) => {{\n  return x * 2;\n}};",
    "const {N} = 42;",
    "// a comment about {n}",
    "{n}(1, 2);",
    "if ({n}) {{ {n}(); }} else {{\n  {n}(3);\n}}",
    "function {n}( {{ broken",
    "}}",
    "",
    "var {n} = '" + "z" * 90 + "';",
]
GO_PIECES = [
    "func {N}(a int) int {{\n\treturn a + 1\n}}",
    "// {N} does things.\nfunc (s *{N}) Run() {{\n\ts.x++\n\n\tfmt.Println(s)\n}}",
    "type {N} struct {{\n\tx int\n\ty string\n}}",
    "type {N} interface {{\n\tRun()\n}}",
    "const {N} = 3",
    'var {n} = map[string]int{{"a": 1}}',
    'import "fmt"',
    "func {N}( {{",
    "}}",
    "",
    "// " + "w" * 120,
]


def _program(pieces: list[str], picks: list[int], header: str) -> str:
    names = [f"n{i}" for i in range(len(picks))]
    parts = [header]
    for i, pick in enumerate(picks):
        parts.append(pieces[pick].format(n=names[i], N=names[i].upper()))
    return "\n".join(parts) + "\n"


def _budgets() -> st.SearchStrategy[ChunkConfig]:
    return st.builds(
        lambda lines, chars: ChunkConfig(lines, chars, 40, 5),
        st.integers(1, 30),
        st.integers(20, 400),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, len(JS_PIECES) - 1), max_size=25), _budgets())
def test_property_javascript_chunks_cover_without_overlap(
    picks: list[int], cfg: ChunkConfig
) -> None:
    text = _program(JS_PIECES, picks, "'use strict';")
    assert_chunk_invariants(text, chunk(text, "javascript", cfg), cfg)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, len(GO_PIECES) - 1), max_size=25), _budgets())
def test_property_go_chunks_cover_without_overlap(picks: list[int], cfg: ChunkConfig) -> None:
    text = _program(GO_PIECES, picks, "package p")
    assert_chunk_invariants(text, chunk(text, "go", cfg), cfg)


C_FILE = """\
/*
 * A small parser (opening comment: the file's, not a function's).
 */

#include "yaml.h"

static int
parse_node(int depth);

/*
 * Parse one node, at most `depth` levels deep.
 */

static int
parse_node(int depth)
{
    return depth > 0 ? parse_node(depth - 1) : 0;
}
"""


def test_a_c_prototype_beside_its_body_is_not_a_second_definition() -> None:
    symbols, edges = extract(C_FILE, "c", "src/parser.c")
    assert [(s.qname, s.start_line) for s in symbols] == [("parser.parse_node", 10)]
    calls = [e for e in edges if e.edge_type == "calls"]
    assert [(e.dst_symbol_id, e.resolution) for e in calls] == [
        ("src/parser.c::parser.parse_node", "resolved")
    ]
    header, _ = extract("int parse_node(int depth);\n", "c", "include/parser.h")
    assert [s.name for s in header] == ["parse_node"]  # a header only declares it
    overloads = "function f(): void;\nfunction f(a?: number): void {}\n"
    ts, _ = extract(overloads, "typescript", "src/f.ts")
    assert [(s.qname, s.start_line) for s in ts] == [("f.f", 1), ("f.f", 2)]  # overloads stay


def test_a_c_comment_one_blank_line_above_a_function_is_its_doc() -> None:
    chunks = chunk(C_FILE, "c", DEFAULT)
    function = next(c for c in chunks if c.title == "parse_node")
    assert function.start_line == 10 and "Parse one node" in function.text
    assert chunks[0].start_line == 1 and chunks[0].kind == "module"  # the opening comment
    symbols, _ = extract(C_FILE, "c", "src/parser.c")
    assert symbols[0].summary == "Parse one node, at most `depth` levels deep."
    go = "package p\n\n// A section of helpers.\n\nfunc helper() {}\n"
    helper = next(c for c in chunk(go, "go", DEFAULT) if c.title == "helper")
    assert helper.start_line == 5  # Go's doc comments touch their declaration


def test_a_doc_block_one_blank_line_above_a_definition_is_its_doc() -> None:
    # express writes a blank line under each JSDoc block; `/**` says it is a doc anyway
    js = (
        "'use strict';\n\n/**\n * Set the location header to `url`.\n */\n\n"
        "res.location = function location(url) {\n  return url;\n};\n\n"
        "// A section of helpers.\n\nfunction helper() {}\n"
    )
    chunks = chunk(js, "javascript", DEFAULT)
    location = next(c for c in chunks if c.title == "location")
    assert location.start_line == 3 and "Set the location header" in location.text
    helper = next(c for c in chunks if c.title == "helper")
    assert helper.start_line == 13  # a line comment across a blank line is no doc
    symbols, _ = extract(js, "javascript", "lib/response.js")
    assert next(s for s in symbols if s.name == "location").summary.startswith("Set the location")


def test_the_first_member_of_a_ruby_body_keeps_the_comment_above_it() -> None:
    # tree-sitter-ruby parses the comment into `module`, the class into its body_statement
    ruby = (
        "module Shop\n  # A cart.\n  class Cart\n"
        "    # Adds.\n    def add(x)\n      x\n    end\n  end\nend\n"
    )
    symbols, _ = extract(ruby, "ruby", "shop.rb")
    found = {s.qname: (s.start_line, s.summary) for s in symbols}
    assert found["shop.Shop.Cart"] == (2, "A cart.")
    assert found["shop.Shop.Cart.add"] == (4, "Adds.")


def test_a_doc_parsed_into_the_body_above_belongs_to_the_next_definition() -> None:
    # Scala 3's indented body after `=` runs on over the next definition's `/** */`
    scala = (
        "object TreeSet {\n"
        "  override def newBuilder[A]: Builder[A] =\n"
        "    new SetBuilder(empty[A])\n\n"
        "  /** The empty set of this type\n   */\n"
        "  def empty[A] = new TreeSet[A]\n}\n"
    )
    symbols, _ = extract(scala, "scala", "t.scala")
    found = {s.name: (s.start_line, s.end_line, s.summary) for s in symbols}
    assert found["empty"] == (5, 7, "The empty set of this type")
    assert found["newBuilder"][:2] == (2, 3)  # its body ends where the doc starts


CPP_HEADER = """\
#pragma once
namespace shapes {

class SHAPES_API Circle : public Shape
{
public:
    Circle* Grow( double by ) { return Scale( by ); }
    const Circle& Self() const;
};

Circle* Circle::Scale( double by )
{
    return this;
}

    SHAPES_FN double Circle::Area() const
    {
        return 3.14;
    }

    SHAPES_FN SHAPES_NOINLINE shape_kind Circle::kind() const
    {
        return round;
    }

    SHAPES_FN Circle::Circle(Circle&& other) SHAPES_NOEXCEPT
    {
    }

    SHAPES_FN void Circle::Swap(Circle& other)
    {
    }

    SHAPES_FN Circle::~Circle()
    {
    }
}
"""


def test_a_cpp_export_macro_and_pointer_returns_keep_classes_and_methods() -> None:
    symbols, _ = extract(CPP_HEADER, "cpp", "include/shapes.h")
    got = {(s.qname.removeprefix("include.shapes."), s.kind, s.start_line) for s in symbols}
    assert {
        ("shapes", "module", 2),
        ("shapes.Circle", "class", 4),
        ("shapes.Circle.Grow", "method", 7),
        ("shapes.Circle.Self", "method", 8),
        ("shapes.Circle.Scale", "method", 11),  # out of the class, inside the namespace
        ("shapes.Circle.Area", "method", 16),  # a macro opens the line: not the type
        ("shapes.Circle.kind", "method", 21),  # two macros, the return type not the owner
        ("shapes.Circle.Circle", "method", 26),  # a macro after the parameters
        ("shapes.Circle.Swap", "method", 30),  # and the next definition still parses
        ("shapes.Circle.~Circle", "method", 34),  # a macro before a destructor
    } <= got
    scale = next(c for c in chunk(CPP_HEADER, "cpp", DEFAULT) if c.start_line == 11)
    assert scale.title == "shapes.Circle.Scale" and "return this;" in scale.text


def test_a_header_is_cpp_when_its_text_is() -> None:
    assert language_of_text("include/shapes.h", CPP_HEADER) == "cpp"
    assert language_of_text("include/ring.h", "struct ring { int size; };\n") == "c"
    assert language_of_text("src/ring.c", CPP_HEADER) == "c"  # only a header is sniffed


def test_a_kotlin_extension_function_is_named_by_its_receiver_type() -> None:
    src = "fun CoroutineScope.launch(): Job = job\nfun <T> Flow<T>.first(): T = x\nfun plain() {}\n"
    symbols, _ = extract(src, "kotlin", "Builders.kt")
    assert [(s.qname, s.kind) for s in symbols] == [
        ("Builders.CoroutineScope.launch", "method"),
        ("Builders.Flow.first", "method"),
        ("Builders.plain", "function"),
    ]


def test_cpp_macros_around_declarations_leave_the_class_whole() -> None:
    text = """namespace Json {
class JSON_API Value {
public:
  template <typename T> T as() const JSONCPP_TEMPLATE_DELETE;
  JSONCPP_DEPRECATED("Use `key = name();` instead.")
  char const* memberName() const;
  bool empty() const;
};
String JSON_API writeString(Factory const& factory, Value const& root) {
  return root.str();
}
}
"""
    symbols, _ = extract(text, "cpp", "include/json/value.h")
    got = {(s.qname.removeprefix("include.json.value."), s.start_line) for s in symbols}
    assert {
        ("Json.Value", 2),
        ("Json.Value.memberName", 6),  # below a deprecation macro's own line
        ("Json.Value.empty", 7),  # the class goes on after both macros
        ("Json.writeString", 9),  # an export macro between the type and the name
    } <= got


def test_cpp_nested_owners_and_a_classs_own_constructors_are_methods() -> None:
    text = """namespace Json {
unsigned Value::CZString::length() const { return storage_.length_; }
const char* Value::CZString::data() const { return cstr_; }
Value::CZString::~CZString() {
  release();
}
}
class StyledWriter : public Writer {
public:
  StyledWriter();
  ~StyledWriter() override = default;
};
"""
    symbols, _ = extract(text, "cpp", "src/json_value.cpp")
    got = {(s.qname.removeprefix("json_value."), s.start_line) for s in symbols}
    assert {
        ("Json.CZString.length", 2),  # `Outer::Inner::f`: by the innermost owner
        ("Json.CZString.data", 3),
        ("Json.CZString.~CZString", 4),
        ("StyledWriter.StyledWriter", 10),  # declared in its class
        ("StyledWriter.~StyledWriter", 11),  # `= default` in its class
    } <= got


def test_a_call_reaches_the_method_not_the_field_of_its_name() -> None:
    text = (
        "pub struct Span {\n    len: usize,\n}\n\n"
        "impl Span {\n    pub fn len(&self) -> usize {\n        self.len\n    }\n\n"
        "    pub fn total(&self) -> usize {\n        self.len() + 1\n    }\n}\n"
    )
    symbols, edges = extract(text, "rust", "span.rs")
    assert [(s.symbol_id, s.kind) for s in symbols if s.name == "len"] == [
        ("span.rs::span.Span.len", "field"),  # a struct's named field is a symbol
        ("span.rs::span.Span.len#2", "method"),
    ]
    (call,) = [e for e in edges if e.edge_type == "calls"]
    # `self.len()`: the method, not the field of the same name
    assert (call.resolution, call.dst_symbol_id) == ("resolved", "span.rs::span.Span.len#2")


def test_a_prototype_inside_an_include_guard_is_a_declaration() -> None:
    text = (
        "#ifndef T_H\n#define T_H\n/* Parse a buffer. */\n"
        "int parse_buf(const char *buf, size_t n);\n"
        "#if defined(WIDE)\nchar *wide_name(int id);\n#else\nvoid reset_all(void);\n#endif\n"
        "#endif\n"
    )
    for lang in ("c", "cpp"):
        symbols, _ = extract(text, lang, "inc/t.h")
        got = {(s.name, s.kind, s.declaration) for s in symbols if s.kind == "function"}
        assert got == {
            ("parse_buf", "function", True),
            ("wide_name", "function", True),
            ("reset_all", "function", True),
        }, lang


def test_a_rust_enum_variant_holds_its_named_fields() -> None:
    text = (
        "pub struct Point { pub x: i32 }\n"
        "pub enum Shape { Circle { radius: f64 }, Square(f64) }\n"
        "pub union Bits { word: u32 }\n"
    )
    symbols, _ = extract(text, "rust", "shape.rs")
    assert [(s.qname, s.kind) for s in symbols] == [
        ("shape.Point", "struct"),
        ("shape.Point.x", "field"),
        ("shape.Shape", "enum"),
        ("shape.Shape.Circle", "variant"),  # `radius` is the variant's, not the enum's
        ("shape.Shape.Circle.radius", "field"),
        ("shape.Bits", "struct"),
        ("shape.Bits.word", "field"),
    ]


def test_a_call_of_a_name_only_fields_have_reaches_them() -> None:
    fields = [Symbol(f"a::T.f{i}", "T.f", "f", "field", "a.ts", "typescript", 1, 1) for i in (1, 2)]
    assert callables(fields) == fields  # a field holding a function: nothing else is called so
    method = Symbol("a::U.f", "U.f", "f", "method", "a.ts", "typescript", 3, 4)
    assert callables([*fields, method]) == [method]
