"""Router: questions classified and planned as in shared/spec/layers.md, on real indexes."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from strata import Engine
from strata import layers as L
from strata.errors import QueryError
from strata.query import lookup
from strata.query.executor import execute
from strata.query.plain_names import said_in_words
from strata.query.router import Classification, IndexFacts, RetrievalPlan, route

pytestmark = pytest.mark.usefixtures("both_stores")

CORPORA = Path(__file__).parent / "corpora"

SHOP = {
    "shop/__init__.py": '"""A tiny shop."""\n',
    "shop/payments.py": '''
        """Card payments."""


        class Gateway:
            """Talks to the acquirer."""

            def authorise(self, amount: int) -> str:
                return f"auth-{amount}"


        def charge_card(card: str, amount: int) -> str:
            """Charge a card through the gateway."""
            return Gateway().authorise(amount)


        def refund(payment_id: str) -> bool:
            """Give the money back."""
            return bool(payment_id)
    ''',
    "shop/checkout.py": '''
        """Checkout: turns a cart into a paid order."""
        from shop.payments import charge_card


        def checkout(cart: list[int], card: str) -> str:
            """Pay for every item of the cart at once."""
            total = sum(cart)
            return charge_card(card, total)


        def reorder(order_id: str, card: str) -> str:
            """Charge again for a previous order."""
            return charge_card(card, 10)
    ''',
    "shop/api.py": '''
        """The HTTP API."""
        from fastapi import FastAPI

        from shop.checkout import checkout

        app = FastAPI()


        @app.get("/api/v1/items")
        def list_items() -> list[str]:
            """List the items for sale."""
            return ["apple"]


        @app.post("/api/v1/orders")
        def create_order(cart: list[int]) -> str:
            """Create and pay an order."""
            return checkout(cart, "4242")


        @app.get("/api/v1/items/{item_id}")
        def get_item(item_id: int) -> str:
            """One item."""
            return str(item_id)
    ''',
    "shop/cli.py": '''
        """The command line."""
        import click

        from shop.payments import refund


        @click.group()
        def cli() -> None:
            """Shop administration."""


        @cli.command()
        @click.argument("payment_id")
        def refund_payment(payment_id: str) -> None:
            """Refund one payment."""
            refund(payment_id)


        @cli.command()
        def stats() -> None:
            """Print sales statistics."""
            click.echo("0")
    ''',
    "tests/test_payments.py": """
        from shop.payments import charge_card


        def test_charge_card() -> None:
            assert charge_card("4242", 5).startswith("auth")
    """,
}


def _index(root: Path) -> Engine:
    eng = Engine.open(root, config={"embed.provider": "none"})
    eng.index()
    return eng


def build_shop(factory: pytest.TempPathFactory) -> Engine:
    """A small Python package with calls, a FastAPI app, a Click CLI and a test, indexed."""
    root = factory.mktemp("shop")
    for rel, text in SHOP.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return _index(root)


def build_corpus(factory: pytest.TempPathFactory, name: str) -> Engine:
    """A committed corpus (`docs`, `minirepo`) copied and indexed."""
    root = factory.mktemp(name) / name
    shutil.copytree(CORPORA / name, root)
    return _index(root)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return build_shop(tmp_path_factory)


def facts(eng: Engine) -> IndexFacts:
    return IndexFacts.from_counts(eng.store.counts(), repos=[eng.root.name])


def ask(
    eng: Engine, query: str, k: int = 10, *, routed_only: bool = False
) -> tuple[RetrievalPlan, list[str]]:
    """The plan and its hits; `routed_only`: only those the plan's steps found (not the
    plain search's that top a short answer up)."""
    plan = route(query, facts(eng), k=k)
    result = execute(eng.parts.context(), plan, k, mode="lexical")
    hits = result.hits[: result.plan["route"]["routed_hits"]] if routed_only else result.hits
    return plan, [f"{h.record.layer}:{h.record.path}:{h.record.title}" for h in hits]


# ---- classification ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "intent", "names"),
    [
        ("where is RetryPolicy defined", "symbol", ("RetryPolicy",)),
        ("Where is `parse_header` defined?", "symbol", ("parse_header",)),
        ("RetryPolicy", "symbol", ("RetryPolicy",)),
        ("Client.send", "symbol", ("Client.send",)),
        ("find the class Gateway", "symbol", ("Gateway",)),
        ("where is read-array* defined", "symbol", ("read-array*",)),  # Clojure
        ("where is magit--display-buffer defined", "symbol", ("magit--display-buffer",)),  # Lisp
        ("where is decode! defined", "symbol", ("decode!",)),  # Elixir, Ruby
        ("where is session_exists? defined", "symbol", ("session_exists?",)),  # a predicate
        ("who calls empty? here", "callers", ("empty?",)),
        ("where is .onLoad defined", "symbol", (".onLoad",)),  # R
        ("where is XMLNode::ParseDeep defined", "symbol", ("XMLNode::ParseDeep",)),
        ("where is XMLNode::~XMLNode defined", "symbol", ("XMLNode::~XMLNode",)),
        ("where is ~XMLNode defined", "symbol", ("~XMLNode",)),
        ("where is (<?>) defined", "symbol", ("<?>",)),  # a Haskell operator
        ("where is foldl' defined", "symbol", ("foldl'",)),  # a Haskell name with a prime
        ("where is 'foldl' defined", "symbol", ("foldl",)),  # quoted
        ("where is has defined", "free_text", ()),  # a stop word: the index decides
        # who calls a name, in other words
        ("what uses parse_header", "callers", ("parse_header",)),
        ("which functions call Client.send", "callers", ("Client.send",)),
        ("what code calls parse_header", "callers", ("parse_header",)),
        ("where do we call parse_header", "callers", ("parse_header",)),
        ("what is parse_header called by", "callers", ("parse_header",)),
        ("where is RetryPolicy instantiated", "callers", ("RetryPolicy",)),
        ("find usages of parse_header", "callers", ("parse_header",)),
        ("call sites of parse_header", "callers", ("parse_header",)),
        ("which methods does Client.send use", "callees", ("Client.send",)),
        ("who creates a RetryPolicy", "callers", ("RetryPolicy",)),
        ("where is the users table created", "symbol", ("users",)),  # SQL: its definition
        ("where is the retry decorator defined", "symbol", ("retry",)),
        ("where is the settings variable defined", "symbol", ("settings",)),
        ("how is `retry` used", "callers", ("retry",)),
        ("where is parse_header referenced", "callers", ("parse_header",)),
        ("how is caching used", "free_text", ()),  # a plain word: a topic, unless defined
        ("which functions does Client.send call", "callees", ("Client.send",)),
        ("which functions are called by parse_header", "callees", ("parse_header",)),
        ("what gets called from parse_header", "callees", ("parse_header",)),
        ("what does Client.send invoke", "callees", ("Client.send",)),
        ("what does parse_header depend on", "callees", ("parse_header",)),
        ("dependencies of parse_header", "callees", ("parse_header",)),
        ("what does payments depend on", "relations", ()),  # a plain word: docs relations
        # where a name is tested
        ("where is parse_header tested", "tests", ("parse_header",)),
        ("tests for Client.send", "tests", ("Client.send",)),
        ("which tests cover the class RetryPolicy", "tests", ("RetryPolicy",)),
        ("how is charge_card tested", "tests", ("charge_card",)),
        ("unit tests for parse_header", "tests", ("parse_header",)),
        # the same, in Russian
        ("где используется parse_header", "callers", ("parse_header",)),
        ("кто использует Client.send", "callers", ("Client.send",)),
        ("где тестируется parse_header", "tests", ("parse_header",)),
        ("тесты для Client.send", "tests", ("Client.send",)),
        ("наследники RetryPolicy", "subclasses", ("RetryPolicy",)),
        ("от чего наследуется RetryPolicy", "bases", ("RetryPolicy",)),
        ("кто импортирует shop.payments", "importers", ("shop.payments",)),
        ("how is (<|>) implemented", "symbol", ("<|>",)),
        ("who calls read-json?", "callers", ("read-json",)),  # the sentence's "?" is not the name's
        ("where is the read-only flag defined", "free_text", ()),
        ("where is the table users defined", "symbol", ("users",)),  # SQL
        ("where is the users table created", "symbol", ("users",)),
        ("where is the field retries defined", "symbol", ("retries",)),  # a class's field
        ("where is the property isActive declared", "symbol", ("isActive",)),
        ("where is the trigger orders_touch defined", "symbol", ("orders_touch",)),
        ("где определён RetryPolicy", "symbol", ("RetryPolicy",)),
        ("где определена функция evolve", "symbol", ("evolve",)),  # the kind before the name
        ("where is Parser:parse defined", "symbol", ("Parser:parse",)),  # Lua's method
        ("где объявлен метод Context.invoke", "symbol", ("Context.invoke",)),
        ("покажи класс Factory", "symbol", ("Factory",)),
        # what a code-shaped name is or does: its definition first
        ("what does genBashComp do", "symbol", ("genBashComp",)),
        ("how does Context.invoke work?", "symbol", ("Context.invoke",)),
        ("how is `retry` implemented", "symbol", ("retry",)),
        ("where can I find parse_header", "symbol", ("parse_header",)),
        ("what is RetryPolicy?", "symbol", ("RetryPolicy",)),
        ("what does parse() return", "symbol", ("parse",)),
        ("explain charge_card", "symbol", ("charge_card",)),
        ("where is parseArgs?", "symbol", ("parseArgs",)),
        ("which file defines parseArgs", "symbol", ("parseArgs",)),
        ("where does parse_header live", "symbol", ("parse_header",)),
        ("what arguments does Client.send take", "symbol", ("Client.send",)),
        ("what is the return type of parse_header", "symbol", ("parse_header",)),
        ("what type does parse_header return", "symbol", ("parse_header",)),
        ("what exceptions does Client.send raise", "symbol", ("Client.send",)),
        ("which errors can get_template throw", "symbol", ("get_template",)),
        ("what errors can Route.URL return", "symbol", ("Route.URL",)),  # Go returns them
        ("which errors are returned by Route.URL", "symbol", ("Route.URL",)),
        ("what exceptions are raised by Session.send?", "symbol", ("Session.send",)),
        ("where is the class Context?", "symbol", ("Context",)),  # its kind says it is a name
        ("show me the Context class", "symbol", ("Context",)),
        ("what does the cache do", "free_text", ()),  # a plain word is a topic
        ("where is the index", "free_text", ()),
        ("how does routing work", "workflow", ()),
        ("who calls charge_card", "callers", ("charge_card",)),
        ("Who calls charge_card()?", "callers", ("charge_card",)),
        ("where is parse_header used", "callers", ("parse_header",)),
        ("callers of Client.send", "callers", ("Client.send",)),
        ("кто вызывает charge_card", "callers", ("charge_card",)),
        ("when is Response.close called", "callers", ("Response.close",)),  # its callers say
        ("which exceptions inherit from RequestException", "subclasses", ("RequestException",)),
        ("which errors derive from RequestException", "subclasses", ("RequestException",)),
        ("what is merge_cookies used for", "symbol", ("merge_cookies",)),  # its doc says
        ("what is the purpose of merge_cookies", "symbol", ("merge_cookies",)),
        ("what type is Session.headers", "symbol", ("Session.headers",)),
        ("what is caching used for", "definition", ()),  # a plain word: a term
        ("what does checkout call", "callees", ("checkout",)),
        ("what functions does Client.send call?", "callees", ("Client.send",)),
        ("which HTTP endpoints does the billing service expose", "entrypoints", ()),
        ("what CLI commands are there", "entrypoints", ()),
        ("list all REST routes", "entrypoints", ()),
        ("what handles /api/v1/items", "entrypoints", ()),
        ("how does a refund work", "workflow", ()),
        ("What happens when a capture times out?", "workflow", ()),
        ("как работает возврат", "workflow", ()),
        ("what does payments integrate with", "integrations", ()),
        ("с чем интегрируется payments", "integrations", ()),
        ("which external systems do we call", "integrations", ()),
        ("which documents depend on the ledger", "relations", ()),
        ("от чего зависит payments", "relations", ()),
        ("which pages reference payments", "relations", ()),
        # a topic that has the word is no question about links
        ("signal handling integration with event loop", "free_text", ()),
        ("handle reference counting and close", "free_text", ()),
        ("what is a ledger entry", "definition", ()),
        ("что такое проводка", "definition", ()),
        ("retry backoff with jitter", "free_text", ()),
        ("connection pooling and timeouts", "free_text", ()),
    ],
)
def test_intent_of_realistic_phrasings(query: str, intent: str, names: tuple[str, ...]) -> None:
    plan = route(query)
    assert plan.intent == intent, plan.reasons
    assert plan.names[: len(names)] == names
    assert plan.reasons  # always says why


def test_plans_follow_the_layers_table() -> None:
    def shape(q: str) -> list[tuple[str, str]]:
        return [(s.method, s.layer) for s in route(q).steps]

    assert shape("where is RetryPolicy defined") == [
        ("symbol", L.C1_SYMBOL_CATALOG),
        ("search", L.C0_SOURCE_CHUNKS),
    ]
    assert shape("who calls charge_card") == [("callers", L.C2_DEPENDENCY_GRAPH)]
    entry = route("which HTTP endpoints does the billing service expose").steps
    assert [(s.method, s.layer) for s in entry] == [("entrypoints", L.C3_ENTRYPOINTS)]
    assert entry[0].args == {"type": "http", "subject": "billing"}
    assert [s.layer for s in route("how does a refund work").steps] == [
        L.D4_WORKFLOW_INDEX,
        L.D0_DOC_CHUNKS,
        L.C0_SOURCE_CHUNKS,
    ]
    integ = route("what does payments integrate with").steps
    assert [(s.layer, dict(s.args)) for s in integ[:2]] == [
        (L.D6_INTEGRATION_INDEX, {"source": "payments"}),
        (L.D5_RELATION_GRAPH, {"document": "payments", "direction": "out"}),
    ]
    free = route("retry backoff with jitter")
    assert [(s.method, s.layer) for s in free.steps] == [
        ("search", "C0_SOURCE_CHUNKS+D0_DOC_CHUNKS")
    ]


def test_identifier_is_an_exact_match_and_required() -> None:
    step = route("where is RetryPolicy defined").steps[0]
    assert step.args == {"name": "RetryPolicy", "exact": True}
    assert step.required


@pytest.mark.parametrize(
    ("query", "filters"),
    [
        ("where is parse_header called in tests", {"is_test": True}),
        ("who calls charge_card, excluding tests", {"is_test": False}),
        ("find the class Client in src/minihttp/client.py", {"path": ["src/minihttp/client.py"]}),
        ("retry logic under src/minihttp/", {"path": ["src/minihttp/**"]}),
        ("which python functions handle retries", {"lang": "python"}),
        ("Find the retry logic in Python.", {"lang": "python"}),
        ("(This is called 'remove' in Python; renamed to avoid a clash.)", {}),
        ("Converts Java classes to records.", {}),
        # a statement that names tests or a path (a pasted doc comment) asks for no filter
        ("This is an interface so that it can be easily mocked in tests.", {}),
        ("The retry loop is in src/minihttp/client.py.", {}),
        ("Find the retry logic in the tests.", {"is_test": True}),
        ("Where is the retry in src/minihttp/client.py?", {"path": ["src/minihttp/client.py"]}),
        # a statement's clause, then the question: the path says where something is
        ("this is also in src/minihttp/client.py, but why look there?", {}),
        ("In src/minihttp/client.py, where is the retry?", {"path": ["src/minihttp/client.py"]}),
        ("how are refunds handled in the payments domain", {"domain": "payments"}),
        ("how is charge_card tested", {"is_test": True}),
        # how to do something in one's own tests: the library's helpers answer
        ("is there a way to mock transports in tests", {}),
        ("how do I freeze time in tests?", {}),
        ("how to use the client fixture in the tests", {"is_test": True}),
        # the whole project's tests: its commands and configuration answer, not test files
        ("how is the project tested", {}),
        ("what test framework does this project use", {}),
    ],
)
def test_filters_named_in_the_question(query: str, filters: dict[str, object]) -> None:
    facts = IndexFacts(domains=("payments",))
    assert route(query, facts).filters.to_json() == filters


def test_a_statement_says_why_it_narrows_nothing() -> None:
    plan = route("This is an interface so that it can be easily mocked in tests.")
    assert "no tests filter: tests are named in a statement, not asked for" in plan.reasons
    plan = route("The retry loop is in src/minihttp/client.py.")
    assert any(
        "no path filter src/minihttp/client.py: named in a statement" in r for r in plan.reasons
    )


def test_a_domain_filter_needs_a_domain_the_index_knows() -> None:
    facts = IndexFacts(domains=("payments",))
    query = "How do I write my own bound logger class with domain specific methods?"
    assert "domain" not in route(query, facts).filters.to_json()
    assert "domain" not in route("refunds in the ledger domain", facts).filters.to_json()


def test_route_string_is_not_a_path_filter() -> None:
    plan = route("what handles /api/v1/items")
    assert plan.steps[0].args["route"] == "/api/v1/items"
    assert "path" not in plan.filters.to_json()


def test_a_path_filter_needs_a_path_the_index_holds() -> None:
    facts = IndexFacts(paths=lambda: ["src/minihttp/client.py", "docs/guide.md"])
    plan = route("Compute LIMIT/OFFSET in terms of slice start/end", facts)
    assert "path" not in plan.filters.to_json()
    assert any("no path filter LIMIT/OFFSET/**, start/end/**" in r for r in plan.reasons)
    kept = route("retry logic under src/minihttp/ and/or docs/guide.md", facts)
    assert kept.filters.to_json()["path"] == ["src/minihttp/**", "docs/guide.md"]


def test_a_sentence_with_a_slash_still_finds_passages(shop: Engine) -> None:
    query = "how are refunds and/or charges handled"
    assert "path" not in shop.plan(query).filters.to_json()
    assert shop.search(query, k=5, mode="lexical").hits


def test_repo_filter_only_among_several_repos() -> None:
    two = IndexFacts(repos=("shop", "ledger-svc"))
    assert (
        route("how are retries done in ledger-svc", two).filters.to_json()["repo"] == "ledger-svc"
    )
    assert (
        "repo"
        not in route("how are retries done in shop", IndexFacts(repos=("shop",))).filters.to_json()
    )


def test_missing_layers_fall_back_to_plain_search() -> None:
    code_only = IndexFacts(frozenset((*L.CODE_LAYERS, L.D0_DOC_CHUNKS)))
    plan = route("how does a refund work", code_only)
    assert plan.intent == "free_text"
    assert any("no D4 rows" in r for r in plan.reasons)


def test_a_classifier_replaces_the_rules() -> None:
    class Fixed:
        def classify(self, query: str, facts: IndexFacts) -> Classification | None:
            return Classification("callers", ("refund",), reason="llm said so")

    plan = route("money going back to customers", classifier=Fixed())
    assert plan.intent == "callers"
    assert plan.steps[0].args["name"] == "refund"
    assert "classifier: callers (llm said so)" in plan.reasons


# ---- bad input --------------------------------------------------------------------------------


def test_empty_query_plans_nothing_and_execution_refuses(shop: Engine) -> None:
    plan = route("   ")
    assert plan.intent == "empty" and plan.steps == ()
    with pytest.raises(QueryError):
        execute(shop.parts.context(), plan)


@pytest.mark.parametrize("query", ["the of and is", "?!... ---"])
def test_stop_words_or_punctuation_behave_like_plain_search(shop: Engine, query: str) -> None:
    plan = route(query, facts(shop))
    assert plan.intent == "free_text"
    try:
        plain = [h.record.id for h in shop.search(query, mode="lexical")]
    except QueryError:
        with pytest.raises(QueryError):
            execute(shop.parts.context(), plan, mode="lexical")
        return
    assert [h.record.id for h in execute(shop.parts.context(), plan, mode="lexical")] == plain


def test_ten_kilobyte_query(shop: Engine) -> None:
    query = "who calls charge_card " + "lorem ipsum dolor " * 600
    assert len(query) > 10_000
    plan = route(query, facts(shop))
    assert plan.intent == "callers"
    assert any("first 2000 characters" in r for r in plan.reasons)
    assert execute(shop.parts.context(), plan, mode="lexical").hits


def test_what_a_name_does_answers_with_its_definition_first(shop: Engine) -> None:
    for query in ("what does charge_card do?", "how does charge_card work"):
        plan = route(query, facts(shop))
        lookup = plan.steps[0]  # the catalogue's exact name, required, before any text search
        assert (lookup.layer, lookup.args["name"], lookup.required) == (
            L.C1_SYMBOL_CATALOG,
            "charge_card",
            True,
        )
        result = execute(shop.parts.context(), plan, mode="lexical")
        first = result.hits[0].record
        assert (first.path, first.title) == ("shop/payments.py", "charge_card"), query


@pytest.mark.parametrize(
    ("query", "intent", "names"),
    [
        ("what does refund do?", "symbol", ("refund",)),  # the index defines `refund`
        ("how does refund work", "symbol", ("refund",)),
        ("show me checkout", "symbol", ("checkout",)),
        ("checkout implementation", "symbol", ("checkout",)),
        ("how is refund used", "callers", ("refund",)),
        ("where is has defined", "free_text", ()),  # the shop defines no `has`
        ("what does the refund do?", "free_text", ()),  # an article: a topic
        ("how does billing work", "free_text", ()),  # no symbol of that name (nor D4 rows)
        ("what does Refund do?", "free_text", ()),  # the name as written only
    ],
)
def test_a_plain_word_is_a_name_when_the_index_defines_it(
    shop: Engine, query: str, intent: str, names: tuple[str, ...]
) -> None:
    assert route(query).intent != "symbol"  # the rules alone take it for a topic
    plan = shop.plan(query)
    assert (plan.intent, plan.names) == (intent, names), plan.reasons


def test_where_a_name_is_tested_lists_the_tests_that_call_it(shop: Engine) -> None:
    for query in (
        "where is charge_card tested",
        "tests for charge_card",
        "где тестируется charge_card",
    ):
        plan, hits = ask(shop, query, routed_only=True)
        assert plan.intent == "tests" and plan.filters.is_test is True, query
        assert hits and all(":tests/" in h for h in hits), (query, hits)
        assert hits[0].endswith("tests/test_payments.py:test_charge_card"), (query, hits)
    # a name no test calls or names: the plain search tops the answer up, tests or not
    plan, hits = ask(shop, "where is refund_payment tested")
    assert plan.intent == "tests" and hits


@pytest.mark.parametrize(
    "query",
    [
        "what does payments.py do",
        "explain shop/payments.py",
        "what is in the file payments.py",
        "summarize `payments.py`",
        "what is the purpose of payments.py",
        "what is payments.py for",
        "что делает файл payments.py",
        "объясни payments.py",
    ],
)
def test_a_question_about_a_file_leads_with_its_head(shop: Engine, query: str) -> None:
    plan, hits = ask(shop, query, routed_only=True)
    assert plan.intent == "file" and plan.names[0].endswith("payments.py"), plan.reasons
    assert hits[0] == "C0_SOURCE_CHUNKS:shop/payments.py:"  # the module's docstring
    assert all(":shop/payments.py:" in h for h in hits)  # then the rest of it


def test_a_file_the_index_does_not_hold_is_no_file_question(shop: Engine) -> None:
    assert shop.plan("what does billing.py do").intent != "file"
    assert shop.plan("what does payments.py do").intent == "file"
    assert route("what does payments.py do").intent == "file"  # paths not known: taken as one


def test_a_files_head_passes_over_its_licence_and_a_partial_path_finds_it(
    tmp_path: Path,
) -> None:
    licence = "".join(f"# Copyright (c) 2013. Redistribution line {i}.\n" for i in range(40))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "util.py").write_text(
        licence
        + '\n"""Small helpers for dates and money.\n\n'
        + "".join(f"Detail {i} of what the helpers do.\n" for i in range(50))
        + '"""\n\nimport os\n\n\n'
        + "".join(f"def helper_{i}(x):\n    return x + {i}\n\n\n" for i in range(30)),
        encoding="utf-8",
    )
    (tmp_path / "lib" / "core").mkdir(parents=True)
    (tmp_path / "lib" / "core" / "README.md").write_text("# core\n\nThe request pipeline.\n")
    (tmp_path / "README.md").write_text("# shop\n\nA shop.\n\n## Install\n\npip install\n")
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        top = eng.search("what does util.py do", k=3)[0].record
        assert top.path == "pkg/util.py" and "Small helpers" in top.content
        assert "Copyright" not in top.content
        top = eng.search("what does core/README.md do", k=3)[0].record
        assert (top.path, top.span_start) == ("lib/core/README.md", 1)
        top = eng.search("what does README.md do", k=3)[0].record  # the one at that path
        assert (top.path, top.span_start) == ("README.md", 1)


@pytest.mark.parametrize(
    ("query", "intent"),
    [
        ("what does this project do", "overview"),
        ("give me an overview of the repository", "overview"),
        ("how is the codebase structured?", "overview"),
        ("where do I start", "overview"),
        ("обзор проекта", "overview"),
        ("What is the overall architecture of the library?", "overview"),
        ("how do the main components fit together", "overview"),
        ("what are the main modules?", "overview"),
        ("общая архитектура проекта", "overview"),
        ("what does the cache do", "free_text"),
        ("what is this function for", "definition"),
    ],
)
def test_a_question_about_the_whole_repository(query: str, intent: str) -> None:
    assert route(query).intent == intent


@pytest.mark.parametrize(
    "query",
    [
        "what is the architecture of the request pipeline",  # a part's, not the whole's
        "how do the interceptors fit together",
        "overall flow of a request",
        "main components of the router",
    ],
)
def test_a_question_about_a_part_is_no_overview(query: str) -> None:
    assert route(query).intent != "overview"


@pytest.mark.parametrize(
    ("query", "intent"),
    [
        # a doc comment's sentence pasted as a search describes code: no listing asked for
        ("Delete parent, subcommand and help command from c.", "free_text"),
        ("This macro is used to generate ExUnit test cases for doctests.", "free_text"),
        ("list all subcommands.", "entrypoints"),  # a request, full stop or not
        ("Find usages of parse_header in the tests.", "callers"),
    ],
)
def test_a_described_behaviour_is_no_listing(query: str, intent: str) -> None:
    assert route(query).intent == intent


@pytest.mark.parametrize(
    ("query", "intent", "names"),
    [
        ("explain Context.invoke and its callers", "symbol", ("Context.invoke",)),
        ("describe RetryPolicy in detail", "symbol", ("RetryPolicy",)),
        ("Explain parse_header.", "symbol", ("parse_header",)),
        # a topic whose first word is a name is no question about the name
        ("Explain XMLHttpRequest adapter for browsers", "free_text", ()),
        ("where can I find XMLHttpRequest adapter code", "free_text", ()),
    ],
)
def test_explain_asks_about_a_name_only_when_the_name_is_the_object(
    query: str, intent: str, names: tuple[str, ...]
) -> None:
    plan = route(query)
    assert (plan.intent, plan.names[: len(names)]) == (intent, names)


@pytest.mark.parametrize(
    ("query", "listing"),
    [
        # how something works, or a topic, that only mentions commands or routes
        ("how the root command traverses the tree to find the active subcommand", False),
        ("how does a command group invoke its subcommands", False),
        ("what happens when a subcommand is not found", False),
        ("route matching and parameter extraction", False),
        ("Can you show me the code responsible for command line argument parsing?", False),
        ("command-line flag parsing", False),
        ("how the list of subcommands is sorted", False),
        ("как работает маршрутизация", False),
        ("which struct holds the route variables", False),  # asks for a struct
        ("what functions handle the routes", True),  # the handlers are the entry points
        # the listing, asked for in so many words or as the bare phrase
        ("how do I list all subcommands", True),
        ("how many endpoints are there", True),
        ("show me the routes", True),
        ("billing api endpoints", True),
        ("cli commands", True),
        ("какие эндпоинты есть у сервиса", True),
    ],
)
def test_entry_points_are_listed_when_asked_for_not_when_mentioned(
    query: str, listing: bool
) -> None:
    assert (route(query).intent == "entrypoints") is listing


def test_the_overview_is_the_readme_then_the_docs_index_then_the_packages(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(
        "# shop\n\nA tiny shop.\n\n## Install\n\npip install shop\n", encoding="utf-8"
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Shop docs\n\nStart here.\n")
    (tmp_path / "docs" / "README.md").write_text("# Docs readme\n\nNot the root's.\n")
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text('"""The shop package."""\n')
    (tmp_path / "shop" / "cart.py").write_text('"""Carts."""\n\n\ndef add(x):\n    return x\n')
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        result = eng.search("what does this project do", k=5)
        routed = result.hits[: result.plan["route"]["routed_hits"]]
        assert [(h.record.path, h.record.span_start) for h in routed][:4] == [
            ("README.md", 1),
            ("README.md", 5),
            ("docs/index.md", 1),
            ("shop/__init__.py", 1),
        ]


def test_the_overview_ends_with_the_files_the_others_lean_on(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# shop\n\nA tiny shop.\n", encoding="utf-8")
    lib = tmp_path / "lib"
    (lib / "core").mkdir(parents=True)
    (lib / "core" / "money.js").write_text(  # the question's words in a core file too
        "// Money: the overall architecture of cents.\nexport function cents(x) { return x }\n"
    )
    (lib / "util.js").write_text("// Helpers.\nexport function id(x) { return x }\n")
    for name in ("cart", "order", "invoice"):
        (lib / f"{name}.js").write_text(
            f"// The {name}.\nimport {{ cents }} from './core/money.js'\n"
            f"import events from 'events'\n\nexport function {name}(x) {{ return cents(x) }}\n"
        )
    (lib / "events.js").write_text("// Not the `events` package.\nexport const e = 1\n")
    (lib / "order.test.js").write_text("import { id } from './util.js'\n")  # a test: no vote
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        assert lookup.central_files(eng.store, 3) == ["lib/core/money.js"]
        result = eng.search("what is the overall architecture of this project?", k=5)
        routed = result.hits[: result.plan["route"]["routed_hits"]]
        assert [h.record.path for h in routed] == ["README.md", "lib/core/money.js"]
        assert result.hits[0].record.path == "README.md"  # the front door stays first


def test_unknown_symbol_names_the_closest_and_falls_back_to_text(shop: Engine) -> None:
    plan = route("where is charge_cardholder defined", facts(shop))
    result = execute(shop.parts.context(), plan, mode="lexical")
    notes = result.notes
    assert any("no symbol named 'charge_cardholder'" in n and "charge_card" in n for n in notes)
    assert any("falling back to where 'charge_cardholder' occurs" in n for n in notes)
    assert result.plan["route"]["notes"] == list(result.notes)
    assert result.hits[0].record.title == "charge_card"  # the text of the question
    walk = execute(
        shop.parts.context(), route("who calls charge_cardholder", facts(shop)), mode="lexical"
    )
    assert any("closest: charge_card" in n for n in walk.notes) and walk.hits


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("where is the get template function defined", "get_template"),
        ("what does the file system loader class do", "FileSystemLoader"),
        ("where is the class file system loader defined?", "FileSystemLoader"),
        ("show me the parse args method", "parseArgs"),
        ("how does the class perl work", "class_perl"),  # a kind word that is a part
        ("where is the max retries constant defined", "MAX_RETRIES"),
        ("how does the template cache work", ""),  # no such name: a topic
        ("where is the get the template defined", ""),  # a stop word: no name
        ("where is the template defined", ""),  # one word: the plain-word rules' to say
        ("show me the version template method", "VersionTemplate"),  # the kind said
        ("where is the version template defined", "versionTemplate"),  # no kind: the first
    ],
)
def test_a_name_said_in_words_is_the_name_the_index_defines(query: str, name: str) -> None:
    defined = {
        **dict.fromkeys(["get_template", "parseArgs", "class_perl"], "function"),
        **{"FileSystemLoader": "class", "MAX_RETRIES": "constant"},
        **{"versionTemplate": "field", "VersionTemplate": "method"},
    }
    assert said_in_words(query, lambda n: {defined[n]} if n in defined else set()) == name


def test_a_name_said_in_words_is_looked_up(shop: Engine) -> None:
    result = shop.search("where is the charge card function defined", k=3)
    assert result.plan["route"]["intent"] == "symbol"
    assert result.plan["route"]["names"] == ["charge_card"]
    assert (result.hits[0].record.path, result.hits[0].record.title) == (
        "shop/payments.py",
        "charge_card",
    )
    topic = shop.search("how does the card network work", k=3)  # no `card_network`: a topic
    assert topic.plan["route"]["intent"] == "free_text"


def test_a_misspelt_name_is_shown_as_the_one_name_it_misspells(shop: Engine) -> None:
    ctx = shop.parts.context()
    result = execute(ctx, route("where is charge_cards defined", facts(shop)), mode="lexical")
    assert result.notes[0] == (
        "no symbol named 'charge_cards'; showing 'charge_card', the one defined name this close"
    )
    top = result.hits[0].record
    assert (top.path, top.title, top.metadata["qname"]) == (
        "shop/payments.py",
        "charge_card",
        "shop.payments.charge_card",
    )
    walk = execute(ctx, route("who calls chrage_card", facts(shop)), mode="lexical")
    assert any("showing 'charge_card'" in n for n in walk.notes)
    routed = walk.hits[: walk.plan["route"]["routed_hits"]]
    assert {"checkout", "reorder", "test_charge_card"} <= {h.record.title for h in routed}
    # a misspelt word alone is the name it misspells (the router asks the index)
    alone = shop.search("Gatewya", k=3)
    assert (alone.hits[0].record.title, alone.plan["route"]["intent"]) == ("Gateway", "symbol")
    assert any("showing 'Gateway'" in n for n in alone.notes)


def test_an_operator_is_found_where_it_is_defined(tmp_path: Path) -> None:
    (tmp_path / "Parser.hs").write_text(
        "module Parser where\n\n"
        "-- | The first parser, or the second when it fails.\n"
        "(<|>) :: Parser a -> Parser a -> Parser a\n"
        "p <|> q = p\n\n"
        "-- | Both, in order.\n"
        "both :: Parser a -> Parser a -> Parser a\n"
        "both p q = p <|> q\n",
        encoding="utf-8",
    )
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        hits = eng.search("where is (<|>) defined", k=3).hits  # no words of its own to search
        assert (hits[0].record.path, hits[0].record.title) == ("Parser.hs", "<|>")
        alone = eng.search("(<|>)", k=3).hits  # the operator alone, as an agent may ask
        assert (alone[0].record.path, alone[0].record.title) == ("Parser.hs", "<|>")
        missing = eng.search("`(<*>)`", k=3)  # no such operator: nothing, and no error
        assert not missing.hits and any("no symbol named '<*>'" in n for n in missing.notes)


@pytest.mark.parametrize(
    ("query", "intent", "names"),
    [
        ("classes that extend AbstractHandler", "subclasses", ("AbstractHandler",)),
        ("all classes implementing HandlerInterface", "subclasses", ("HandlerInterface",)),
        ("structs that implement Display", "subclasses", ("Display",)),
        ("who calls checkout in the tests", "callers", ("checkout",)),
        ("who imports the config module", "importers", ("config",)),
        # a plain word the phrase goes on after is a topic, not a name
        ("implementations of the retry logic", "free_text", ()),
        ("what extends the base handler", "free_text", ()),
        ("who calls the payment service", "free_text", ()),
    ],
)
def test_a_lineage_or_call_question_names_a_type_or_a_function_not_a_topic(
    query: str, intent: str, names: tuple[str, ...]
) -> None:
    plan = route(query)
    assert (plan.intent, plan.names[: len(names)]) == (intent, names)
