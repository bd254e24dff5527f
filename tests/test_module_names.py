"""A file named as code names it: a module as its language imports it, a path copied from
an import or an error (not from the root), and a name qualified by its package."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata import Engine
from strata.query.module_names import exports_asked, module_asked, module_dir, module_file
from strata.query.router import IndexFacts, route
from tests.sources import indexed_tree

PATHS = (
    "src/jinja2/sandbox.py",
    "src/jinja2/__init__.py",
    "lib/router/index.js",
    "lib/request.js",
    "regex-syntax-0.6.27/src/hir/mod.rs",
    "regex-syntax-0.6.27/src/ast/parse.rs",
    "core/common/src/Builders.common.kt",
    "perl/5.36/Pod/Text.pm",
    "a/util.py",
    "b/util.py",
)


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("jinja2.sandbox", "jinja2.sandbox"),
        ("`regex_syntax::ast::parse`", "regex_syntax::ast::parse"),
        ("what does the jinja2.sandbox module do", "jinja2.sandbox"),
        ("explain the package lib/router", "lib/router"),
        ("what is Text.Megaparsec.Char for", "Text.Megaparsec.Char"),
        ("что делает модуль pl.tablex", "pl.tablex"),
        ("what does the Cart.size method do", "Cart.size"),  # a dotted name, with its kind
        ("sandbox", ""),  # one word is a word, not a module
        ("what does the sandbox module do", "sandbox"),  # unless the question says it is
        ("what is the purpose of the hooks module", "hooks"),
        ("what is the hooks module for?", "hooks"),
        ("how does the sandbox decide what is safe", ""),
        ("who calls jinja2.sandbox.is_safe", ""),
    ],
)
def test_the_module_a_query_names(query: str, name: str) -> None:
    assert module_asked(query) == name


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("jinja2.sandbox", "src/jinja2/sandbox.py"),
        ("jinja2", "src/jinja2/__init__.py"),  # a package: its own file
        ("src.jinja2", "src/jinja2/__init__.py"),
        ("lib/router", "lib/router/index.js"),
        ("express/lib/request", "lib/request.js"),  # the package's own name leads
        ("regex_syntax::hir", "regex-syntax-0.6.27/src/hir/mod.rs"),  # the crate's name
        ("crate::ast::parse", "regex-syntax-0.6.27/src/ast/parse.rs"),
        ("src.Builders", "core/common/src/Builders.common.kt"),  # Kotlin's platform files
        ("Pod::Text", "perl/5.36/Pod/Text.pm"),
        ("POD::TEXT", "perl/5.36/Pod/Text.pm"),  # case does not count
        ("sandbox.py", ""),  # a file name is no module
        ("util", ""),
        ("jinja2.loaders", ""),
    ],
)
def test_the_file_a_module_name_stands_for(name: str, path: str) -> None:
    assert module_file(name, PATHS) == path


@pytest.mark.parametrize(
    ("name", "folder"),
    [
        ("github.com/spf13/cobra/doc", "gocode/src/github.com/spf13/cobra/doc"),  # Go's host
        ("cobra/doc", "gocode/src/github.com/spf13/cobra/doc"),
        ("org.apache.cordova.engine", "framework/src/org/apache/cordova/engine"),
        ("cordova.ENGINE", "framework/src/org/apache/cordova/engine"),  # in any case
        ("apache.nowhere", ""),
        ("src.doc", ""),  # two directories end so
    ],
)
def test_the_directory_a_package_name_stands_for(name: str, folder: str) -> None:
    paths = [
        "gocode/src/github.com/spf13/cobra/doc/md_docs.go",
        "gocode/src/github.com/spf13/cobra/command.go",
        "framework/src/org/apache/cordova/engine/SystemWebView.java",
        "other/src/doc/a.go",
        "more/src/doc/b.go",
    ]
    assert module_dir(name, paths) == folder


def test_a_package_written_as_it_is_before_a_file_in_another_case() -> None:
    paths = [
        "java/com/getcapacitor/Plugin.java",
        "java/com/getcapacitor/plugin/WebView.java",
        "java/com/getcapacitor/plugin/util/MimeType.java",
    ]
    facts = IndexFacts(paths=lambda: paths)
    # Java's lower-case package is the directory `plugin/`, not the class file `Plugin.java`
    plan = route("getcapacitor.plugin", facts)
    assert (plan.intent, plan.names) == ("file", ("java/com/getcapacitor/plugin/*",))
    plan = route("getcapacitor.Plugin", facts)
    assert (plan.intent, plan.names) == ("file", ("java/com/getcapacitor/Plugin.java",))
    # with no directory so written, a file in another case still stands for the name
    plan = route("getcapacitor.PLUGIN", IndexFacts(paths=lambda: paths[:1]))
    assert (plan.intent, plan.names) == ("file", ("java/com/getcapacitor/Plugin.java",))
    assert module_file("getcapacitor.plugin", paths, cased=True) == ""
    assert module_dir("getcapacitor.plugin", paths, cased=True) == "java/com/getcapacitor/plugin"


def test_a_required_path_is_its_file_beside_a_directory_so_named(tmp_path: Path) -> None:
    files = {
        "lib/addressable.rb": "require 'addressable/idna'\n",
        "lib/addressable/idna.rb": "module Addressable\n  module IDNA\n  end\nend\n",
        "lib/addressable/idna/pure.rb": (
            "module Addressable\n  module IDNA\n    def self.to_ascii(input)\n"
            "      input\n    end\n  end\nend\n"
        ),
    }
    eng = indexed_tree(tmp_path, files)
    for query, path in (
        ("addressable/idna", "lib/addressable/idna.rb"),  # not `idna/pure.rb`'s module
        ("lib/addressable", "lib/addressable.rb"),  # a path: not the type `Addressable`
    ):
        plan = eng.plan(query)
        assert (plan.intent, plan.names) == ("file", (path,)), plan.reasons
        assert eng.search(query, k=3).hits[0].record.path == path, query


def test_a_module_two_files_could_be_is_none_of_them() -> None:
    assert module_file("x.util", ["a/x/util.py", "b/x/util.py"]) == ""
    assert module_file("x.util", ["a/x/util.py", "b/y/util.py"]) == "a/x/util.py"


def test_a_path_from_anywhere_in_the_tree_filters() -> None:
    facts = IndexFacts(paths=lambda: ["src/minihttp/client.py", "docs/guide.md"])
    plan = route("where is the retry in minihttp/client.py", facts)
    assert plan.filters.to_json()["path"] == ["**/minihttp/client.py"]
    plan = route("where is the retry in src/minihttp/client.py", facts)  # from the root
    assert plan.filters.to_json()["path"] == ["src/minihttp/client.py"]


def test_a_php_name_is_qualified_by_its_namespace() -> None:
    plan = route("where is Monolog\\Handler\\StreamHandler defined")
    assert (plan.intent, plan.names) == ("symbol", ("Monolog\\Handler\\StreamHandler",))
    plan = route("who calls \\Monolog\\Logger::addRecord")
    assert (plan.intent, plan.names) == ("callers", ("\\Monolog\\Logger::addRecord",))


def test_a_module_is_a_file_only_where_no_symbol_has_its_name() -> None:
    facts = IndexFacts(paths=lambda: PATHS, defines=lambda n: {"class"} if n == "Pod::Text" else ())
    plan = route("jinja2.sandbox", facts)
    assert (plan.intent, plan.names) == ("file", ("src/jinja2/sandbox.py",)), plan.reasons
    plan = route("what does the Pod::Text module do", facts)
    assert (plan.intent, plan.names) == ("symbol", ("Pod::Text",)), plan.reasons
    assert route("jinja2.loaders", facts).intent != "file"
    member = IndexFacts(paths=lambda: PATHS, defines=lambda n: {"field"})  # `Order.sandbox`
    assert route("jinja2.sandbox", member).intent == "file"
    assert route("jinja2.loaders", member).intent == "symbol"  # no file: the member
    plan = route("what does the sandbox module do", IndexFacts(paths=lambda: PATHS))
    assert (plan.intent, plan.names) == ("file", ("src/jinja2/sandbox.py",)), plan.reasons
    assert route("what does the util module do", IndexFacts(paths=lambda: PATHS)).intent != "file"


SOURCES = {
    "src/shop/cart.py": '''
        """The shopping cart: items, totals and the checkout hand-off."""

        def total(items):
            return sum(items)
    ''',
    "src/shop/__init__.py": '''
        """The shop: carts, tax and pricing."""

        from shop.cart import total

        __all__ = ["total"]
    ''',
    "src/shop/tax.py": '''
        """Sales tax by region."""

        def rate(region):
            return 0.2


        class Order:
            cart = None  # a member named as a module is: `shop.cart` is still the module
    ''',
    "app/src/main/java/org/example/shop/Cart.java": """
        package org.example.shop;

        /** A cart of items. */
        public class Cart {
            public int size() { return 0; }
        }
    """,
    "crates/shop/src/pricing/rules.rs": """
        //! Pricing rules: discounts and bundles.

        pub fn discount(total: u64) -> u64 {
            total / 10
        }
    """,
    "lib/Shop/Cart.pm": """
        package Shop::Cart;
        # A cart in Perl.

        sub new { my ($class) = @_; return bless {}, $class; }

        1;
    """,
    "csrc/lstore.c": """
        /*
        ** Store of items
        ** See Copyright Notice in store.h
        */

        #define lstore_c
        #include "store.h"

        static int count_items (int n) {
          return n;
        }
    """,
}


CART = "app/src/main/java/org/example/shop/Cart.java"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return indexed_tree(tmp_path_factory.mktemp("modules"), SOURCES)


@pytest.mark.parametrize(
    ("query", "path", "says"),
    [
        ("shop.cart", "src/shop/cart.py", "The shopping cart"),
        ("what does the shop.tax module do", "src/shop/tax.py", "Sales tax"),
        ("shop::pricing::rules", "crates/shop/src/pricing/rules.rs", "Pricing rules"),
        ("crate::pricing::rules", "crates/shop/src/pricing/rules.rs", "Pricing rules"),
        ("shop/cart.py", "src/shop/cart.py", "The shopping cart"),  # a path, not from the root
        ("example/shop/Cart.java", CART, "package"),
        ("csrc/lstore.c", "csrc/lstore.c", "#include"),  # a header comment, then code
        (
            "what does the example.shop package do",
            "app/src/main/java/org/example/shop/Cart.java",
            "package",
        ),
    ],
)
def test_a_file_named_as_code_names_it_answers_with_its_head(
    shop: Engine, query: str, path: str, says: str
) -> None:
    top = shop.search(query, k=3, mode="lexical")[0].record
    assert top.path == path and top.span_start == 1 and says in top.content, top


@pytest.mark.parametrize(
    ("query", "path", "line"),
    [
        # Java's package is in the path, not in the qname
        ("org.example.shop.Cart", "app/src/main/java/org/example/shop/Cart.java", 3),
        ("org.example.shop.Cart.size", "app/src/main/java/org/example/shop/Cart.java", 5),
        (
            "what does the org.example.shop.Cart class do",
            "app/src/main/java/org/example/shop/Cart.java",
            3,
        ),
        ("Shop::Cart", "lib/Shop/Cart.pm", 1),  # Perl's package name is one name
        ("what does the Shop::Cart module do", "lib/Shop/Cart.pm", 1),
    ],
)
def test_a_name_qualified_by_its_package_is_found(
    shop: Engine, query: str, path: str, line: int
) -> None:
    result = shop.search(query, k=3, mode="lexical")
    assert not any("no symbol named" in n for n in result.notes), result.notes
    assert result.plan["route"]["intent"] in ("symbol", "definition"), result.plan
    top = result[0].record
    assert (top.path, top.metadata.get("definition_start")) == (path, line), top


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("what does structlog export", "structlog"),
        ("what is the public API of jinja2", "jinja2"),
        ("what is exported from the commander package", "commander"),
        ("structlog public API", "structlog"),
        ("what is the public API", ""),
        ("how do I export data", ""),
    ],
)
def test_the_package_a_question_asks_the_exports_of(query: str, name: str) -> None:
    assert exports_asked(query) == name


@pytest.mark.parametrize("query", ["what does shop export", "what is the public API of shop"])
def test_a_packages_exports_are_its_head(shop: Engine, query: str) -> None:
    result = shop.search(query, k=3, mode="lexical")
    assert result.plan["route"]["intent"] == "file"
    top = result[0].record
    assert top.path == "src/shop/__init__.py" and "__all__" in top.content
