"""Bare calls of another file's function, where the language says what they mean: Go's
package (its directory), C's one namespace, and the files a JavaScript or TypeScript module
imports by a relative path (code/crossfile.py), with the real grammars and a real index:
`callers` lists them by default."""

from __future__ import annotations

from pathlib import Path

from strata.index.code.crossfile import resolve_across_files
from strata.index.code.model import Edge
from strata.index.code.treesitter import symbols
from tests.sources import indexed_tree

GO = {
    "cli/context.go": (
        "package cli\n\nfunc checkRequired(names []string) error {\n\treturn nil\n}\n"
    ),
    "cli/app.go": (
        "package cli\n\nfunc (a *App) Run() error {\n\treturn checkRequired(a.names)\n}\n\n"
        "type App struct {\n\tnames []string\n}\n"
    ),
    "cli/app_test.go": (
        "package cli\n\nfunc expect(t *testing.T, a, b any) {}\n\n"
        "func TestRun(t *testing.T) {\n\texpect(t, checkRequired(nil), nil)\n}\n"
    ),
    # another package's function of the same name is not what `cli` calls
    "other/check.go": "package other\n\nfunc checkRequired() {}\n\nfunc use() {\n\texpect()\n}\n",
}
C = {
    "src/api.c": "int lua_gettop (lua_State *L) {\n  return 0;\n}\n",
    "src/api.h": "int lua_gettop (lua_State *L);\n",
    "src/lib.c": "static int count (lua_State *L) {\n  return lua_gettop(L) + usage();\n}\n",
    # two programs' `usage`: which one a call means is not known
    "tools/a.c": "static void usage2(void) {}\nvoid usage(void) {}\n",
    "tools/b.c": "void usage(void) {}\n",
}


TS = {
    "src/client.ts": (
        "import { parseHeader } from './headers.js';\nimport { Client } from './client';\n"
        "import { first } from 'lodash';\n"
        "export function send(r) {\n  return parseHeader(r) + first(r) + new Client();\n}\n"
    ),
    "src/headers.ts": "export function parseHeader(s) {\n  return s;\n}\n",
    "src/client/index.ts": "export class Client {}\n",
    "src/other.ts": "export function first(x) {\n  return x;\n}\n",  # not imported by client.ts
    "lib/legacy.js": "const { parseHeader } = require('../src/headers');\nparseHeader('x');\n",
}
LANG = {".go": "go", ".ts": "typescript", ".js": "javascript", ".rs": "rust", ".java": "java"}
LANG |= {".lua": "lua", ".pm": "perl", ".php": "php", ".kt": "kotlin", ".swift": "swift"}


def _calls(files: dict[str, str]) -> dict[tuple[str, str], Edge]:
    """Each file extracted on its own (its language by its suffix, else C), then every
    call edge resolved across them, by (path, call as written)."""
    syms, edges = [], []
    for rel, text in files.items():
        s, e = symbols.extract(text, LANG.get(rel[rel.rfind(".") :], "c"), rel)
        syms += s
        edges += e
    out = resolve_across_files(edges, syms)
    return {(e.path, e.dst_ref): e for e in out if e.edge_type == "calls"}


def _edges(files: dict[str, str]) -> dict[tuple[str, str], tuple[str, str | None]]:
    return {k: (e.resolution, e.dst_qname) for k, e in _calls(files).items()}


def test_go_calls_within_a_package() -> None:
    edges = _edges(GO)
    assert edges[("cli/app.go", "checkRequired")] == ("resolved", "cli.context.checkRequired")
    # a test file calls its package's functions and its fellow test files'
    assert edges[("cli/app_test.go", "checkRequired")][0] == "resolved"
    assert edges[("cli/app_test.go", "expect")][0] == "resolved"  # same file
    # `other` has no `expect`, and `cli`'s is in a test file of another package
    assert edges[("other/check.go", "expect")] == ("unresolved", None)


def test_c_calls_to_the_one_definition() -> None:
    edges = _edges(C)
    assert edges[("src/lib.c", "lua_gettop")] == ("resolved", "api.lua_gettop")  # not the .h
    assert edges[("src/lib.c", "usage")] == ("unresolved", None)


def test_javascript_and_typescript_calls_into_relative_imports() -> None:
    edges = _edges(TS)
    # `./headers.js` written for `headers.ts`, as TypeScript's ES modules do
    assert edges[("src/client.ts", "parseHeader")] == ("resolved", "headers.parseHeader")
    # `first` comes from a package: `other.ts` defines one, but `client.ts` imports none of it
    assert edges[("src/client.ts", "first")] == ("unresolved", None)
    assert edges[("lib/legacy.js", "parseHeader")] == ("resolved", "headers.parseHeader")


def test_a_type_named_as_the_receiver_in_any_language() -> None:
    files = {
        "src/builder/arg.rs": "pub struct Arg {}\nimpl Arg {\n    pub fn new(id: &str) -> Self {\n"
        "        Arg {}\n    }\n}\n",
        "src/builder/command.rs": 'fn build() {\n    let a = Arg::new("x");\n'
        "    let v = Vec::new();\n}\n",
        "src/a/Util.java": "class Util {\n  static String join(String s) { return s; }\n}\n",
        "src/b/Util.java": "class Util {\n  static String join(String s) { return s; }\n}\n",
        "src/a/Main.java": 'class Main {\n  void run() {\n    Util.join("x");\n'
        "    Math.max(1, 2);\n    new Main2();\n  }\n}\n",
        "src/a/Main2.java": "class Main2 {\n}\n",
        "src/c/Other.java": 'class Other {\n  void run() {\n    Util.join("x");\n  }\n}\n',
    }
    out = _calls(files)
    assert out[("src/builder/command.rs", "Arg::new")].dst_qname == "builder.arg.Arg.new"
    assert out[("src/builder/command.rs", "Vec::new")].resolution == "unresolved"  # not here
    # two types `Util`: the one of Main's own package (its directory)
    assert out[("src/a/Main.java", "Util.join")].dst_qname == "a.Util.Util.join"
    assert out[("src/c/Other.java", "Util.join")].resolution == "unresolved"  # neither's
    assert out[("src/a/Main.java", "Math.max")].resolution == "unresolved"
    assert out[("src/a/Main.java", "new Main2")].dst_qname == "a.Main2.Main2"


def test_a_call_of_a_types_name_constructs_it_in_kotlin_and_swift() -> None:
    files = {
        "exception/CodedException.kt": "package x\n\nclass UnexpectedException(val e: Any)"
        " : Exception()\n",
        "types/DateConverter.kt": "package y\n\nfun convert(value: Any): Int {\n"
        "    throw UnexpectedException(value)\n}\n\nfun helper() {\n    Helper(1)\n}\n",
        "types/Helper.kt": "package y\n\nfun Helper(n: Int) = n\n",
        "Capacitor/KeyPath.swift": "struct KeyPath {\n    let path: String\n}\n",
        "Capacitor/Config.swift": 'func config() {\n    let k = KeyPath(path: "a")\n'
        "    let d = Date()\n}\n",
    }
    out = _calls(files)
    throw = out[("types/DateConverter.kt", "UnexpectedException")]
    assert (throw.resolution, throw.dst_qname) == (
        "resolved",
        "exception.CodedException.UnexpectedException",
    )
    # a function of the package so named is called, not constructed
    assert out[("types/DateConverter.kt", "Helper")].dst_qname == "types.Helper.Helper"
    assert out[("Capacitor/Config.swift", "KeyPath")].dst_qname == "Capacitor.KeyPath.KeyPath"
    assert out[("Capacitor/Config.swift", "Date")].resolution == "unresolved"  # Foundation's


def test_perl_packages_and_lua_modules() -> None:
    files = {
        "lib/Pod/Simple.pm": "package Pod::Simple;\nsub new { return bless {}, shift }\n1;\n",
        "lib/Pod/Text.pm": (
            "package Pod::Text;\nsub new {\n  my $self = Pod::Simple::new(@_);\n"
            "  Pod::Missing->new();\n  return $self;\n}\n1;\n"
        ),
        "pl/utils.lua": "local utils = {}\nfunction utils.assert_arg(n, v)\n  return v\nend\n"
        "return utils\n",
        "pl/path.lua": (
            'local utils = require "pl.utils"\nlocal M = {}\n'
            "function M.join(a)\n  return utils.assert_arg(1, a) + other.f(a)\nend\nreturn M\n"
        ),
    }
    out = _calls(files)
    assert out[("lib/Pod/Text.pm", "Pod::Simple::new")].dst_qname == "Pod.Simple.new"
    assert out[("lib/Pod/Text.pm", "Pod::Missing->new")].resolution == "unresolved"
    assert out[("pl/path.lua", "utils.assert_arg")].dst_qname == "pl.utils.utils.assert_arg"
    assert out[("pl/path.lua", "other.f")].resolution == "unresolved"


def test_a_method_inherited_from_a_base_in_another_file() -> None:
    files = {
        "src/x/A.java": "package x;\npublic abstract class A {\n  protected void foo() {}\n"
        "  void bar() {}\n}\n",
        "src/x/M.java": "package x;\npublic class M extends A {\n  void bar() {}\n}\n",
        "src/x/B.java": "package x;\npublic class B extends M implements I {\n"
        "  void run() {\n    foo();\n    this.bar();\n    super.bar();\n    qux();\n  }\n}\n",
        "src/h.php": "<?php\nclass H extends Base {\n  function f() {\n"
        "    return $this->g() . parent::g();\n  }\n}\n",
        "src/base.php": "<?php\nclass Base {\n  function g() { return 1; }\n}\n",
    }
    out = _calls(files)
    assert out[("src/x/B.java", "foo")].dst_qname == "x.A.A.foo"  # two levels up
    assert out[("src/x/B.java", "this.bar")].dst_qname == "x.M.M.bar"  # the nearest base's
    assert out[("src/x/B.java", "qux")].resolution == "unresolved"
    assert out[("src/h.php", "$this->g")].dst_qname == "base.Base.g"
    assert out[("src/h.php", "parent::g")].dst_qname == "base.Base.g"


def test_callers_across_files_by_default(tmp_path: Path) -> None:
    eng = indexed_tree(tmp_path, GO)
    walk = eng.callers("checkRequired")
    callers = {link.symbol.qname for link in walk.links}
    assert {"cli.app.App.Run", "cli.app_test.TestRun"} <= callers
    assert not any(q.startswith("other.") for q in callers)


RUST = {
    "src/macros.rs": (
        "/// Return early with an error.\n#[macro_export]\nmacro_rules! bail {\n"
        "    ($e:expr) => { return Err($e) };\n}\n\n"
        '#[cfg(feature = "std")]\nmacro_rules! ensure {\n    ($c:expr) => { if !$c {} };\n}\n\n'
        '#[cfg(not(feature = "std"))]\nmacro_rules! ensure {\n    ($c:expr) => { if !$c {} };\n}\n'
    ),
    "src/lib.rs": "pub fn check(x: bool) -> Result<(), String> {\n"
    '    ensure!(x);\n    bail!("no".to_string())\n}\n',
}


def test_a_rust_macro_call_names_the_crates_macro(tmp_path: Path) -> None:
    edges = _edges(RUST)
    assert edges[("src/lib.rs", "bail")] == ("resolved", "macros.bail")
    # a definition per `cfg`: which one is not known, but the name is
    assert edges[("src/lib.rs", "ensure")] == ("ambiguous", "macros.ensure")
    eng = indexed_tree(tmp_path, RUST)
    for name in ("bail!", "ensure"):  # written as it is called, or bare
        walk = eng.callers(name)
        assert [(link.symbol.qname, link.resolved) for link in walk.links] == [("lib.check", True)]


def test_callers_list_the_projects_code_then_examples_then_tests(tmp_path: Path) -> None:
    eng = indexed_tree(
        tmp_path,
        {
            "src/app/core.py": "def register(plugin):\n    return plugin\n",
            "src/app/zloader.py": (
                "from app.core import register\n\n\ndef load_all(ps):\n"
                "    return [register(p) for p in ps]\n"
            ),
            "docs/examples/host.py": (
                "from app.core import register\n\n\ndef main():\n    register(object())\n"
            ),
            "aaa_tests/test_core.py": (
                "from app.core import register\n\n\ndef test_register():\n"
                "    assert register(1) == 1\n"
            ),
        },
    )
    walk = eng.callers("register")
    assert [link.edge.path for link in walk.links] == [
        "src/app/zloader.py",
        "docs/examples/host.py",
        "aaa_tests/test_core.py",
    ]
