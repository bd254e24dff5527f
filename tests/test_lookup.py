"""Lookups over real indexes: symbols, callers/callees, entry points, docs and relations."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path
from textwrap import dedent

import pytest

from strata import Engine
from strata.query.lookup import (
    callees,
    callers,
    closest,
    defined_kinds,
    find_symbols,
    list_docs,
    list_entrypoints,
    meant,
    misspelt_word,
    related,
)
from strata.query.lookup.rows import meta_str
from strata.query.lookup.symbols import symbol_index
from strata.store import Store

pytestmark = pytest.mark.usefixtures("both_stores")

CORPORA = Path(__file__).parent / "corpora"
LEXICAL = {"embed.provider": "none"}

SHOP = {
    "shop/__init__.py": '''
        """The shop package."""

        from shop.payments import charge_card

        __all__ = ["charge_card"]
    ''',
    "shop/payments.py": '''
        """Payments: charge a card through a gateway."""

        from shop.gateway import Gateway


        class PaymentError(Exception):
            """A charge that failed."""


        def validate(amount: int) -> int:
            """Reject non-positive amounts."""
            if amount <= 0:
                raise PaymentError("amount must be positive")
            return amount


        def charge_card(card: str, amount: int) -> str:
            """Charge `amount` to `card` and return the receipt id."""
            validate(amount)
            gateway = Gateway()
            return gateway.submit(card, amount)
    ''',
    "shop/gateway.py": '''
        """Gateways that talk to the card network."""


        class Gateway:
            """The base gateway."""

            def submit(self, card: str, amount: int) -> str:
                """Send one charge."""
                return self.sign(f"{card}:{amount}")

            def sign(self, payload: str) -> str:
                """Sign a payload."""
                return payload[::-1]


        class SandboxGateway(Gateway):
            """A gateway that never charges."""

            def submit(self, card: str, amount: int) -> str:
                """Pretend to send one charge."""
                return "sandbox-" + self.sign(card)
    ''',
    "shop/api.py": '''
        """The HTTP API."""

        from fastapi import FastAPI

        from shop.payments import charge_card

        app = FastAPI()


        @app.post("/charges")
        def create_charge(card: str, amount: int) -> dict[str, str]:
            """Create a charge."""
            return {"receipt": charge_card(card, amount)}


        @app.get("/health")
        def health() -> dict[str, str]:
            """Liveness probe."""
            return {"ok": "yes"}
    ''',
    "shop/cli.py": '''
        """The shop command line."""

        import click

        from shop import charge_card


        @click.group()
        def main() -> None:
            """Shop tools."""


        @main.command()
        @click.argument("card")
        def charge(card: str) -> None:
            """Charge a card from the shell."""
            click.echo(charge_card(card, 100))
    ''',
    "shop/loops.py": '''
        """Mutual recursion, and names that differ by a letter."""


        def ping(n: int) -> int:
            return pong(n - 1) if n else 0


        def pong(n: int) -> int:
            return ping(n)


        def load() -> None:
            pass


        def load_all() -> None:
            load()


        def lead() -> None:
            pass
    ''',
}


def write_shop(root: Path) -> Path:
    """Write the sample package (calls across modules, a class hierarchy, FastAPI, Click)."""
    for rel, text in SHOP.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text).lstrip(), encoding="utf-8")
    return root


def build(root: Path) -> Engine:
    """A lexical-only index of `root`, built now."""
    eng = Engine.open(root, config=LEXICAL)
    eng.index()
    return eng


@pytest.fixture(scope="module")
def clean_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The isolation of conftest's `_isolated_env`, for indexes built once per module."""
    with pytest.MonkeyPatch.context() as mp:
        import os

        for name in [n for n in os.environ if n.startswith("STRATA_")]:
            mp.delenv(name)
        mp.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg")))
        yield


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory, clean_env: None) -> Store:
    root = tmp_path_factory.mktemp("mini") / "minirepo"
    shutil.copytree(CORPORA / "minirepo", root)
    return build(root).store


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory, clean_env: None) -> Store:
    return build(write_shop(tmp_path_factory.mktemp("shop"))).store


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory, clean_env: None) -> Store:
    root = tmp_path_factory.mktemp("docs") / "docs"
    shutil.copytree(CORPORA / "docs", root)
    return build(root).store


def found(store: Store, name: str, **kw: object) -> list[tuple[str, str]]:
    return [(m.qname, m.match) for m in find_symbols(store, name, **kw)]  # type: ignore[arg-type]


# ---- symbols ---------------------------------------------------------------------------------
def test_exact_bare_name(mini: Store) -> None:
    [m] = find_symbols(mini, "send")
    assert (m.qname, m.match, m.score, m.kind) == (
        "minihttp.client.Client.send",
        "exact",
        1.0,
        "method",
    )
    assert (m.record.path, m.record.span_start, m.record.span_end) == (
        "src/minihttp/client.py",
        31,
        38,
    )


@pytest.mark.parametrize(
    "name",
    [
        *("Client.send", "client.Client.send", "minihttp.client.Client.send"),
        *("Client:send", "Client#send"),  # Lua's method call, Ruby's documented method
    ],
)
def test_qualified_names_and_dotted_suffixes(mini: Store, name: str) -> None:
    assert found(mini, name) == [("minihttp.client.Client.send", "qualified")]


def test_full_qname_outranks_a_suffix(mini: Store) -> None:
    assert find_symbols(mini, "minihttp.client.Client.send")[0].score == 1.0
    assert find_symbols(mini, "Client.send")[0].score < 1.0


def test_prefix(mini: Store) -> None:
    assert found(mini, "Cli") == [("minihttp.client.Client", "prefix")]
    assert found(mini, "parse") == [("minihttp.headers.parse_header", "prefix")]


@pytest.mark.parametrize(
    ("typo", "qname"),
    [
        ("RetryPolcy", "minihttp.client.RetryPolicy"),  # a missing letter
        ("sned", "minihttp.client.Client.send"),  # a transposition
        ("Client.snd", "minihttp.client.Client.send"),  # qualified, misspelt
        ("polcy", "minihttp.client.RetryPolicy"),  # one identifier part, misspelt
        ("parse_haeder", "minihttp.headers.parse_header"),
    ],
)
def test_typos_find_the_symbol(mini: Store, typo: str, qname: str) -> None:
    assert found(mini, typo)[0] == (qname, "fuzzy")


@pytest.mark.parametrize(
    ("asked", "name"),
    [
        ("RetryPolcy", "RetryPolicy"),  # a letter dropped
        ("parse_haeder", "parse_header"),  # two swapped
        ("Client.sendd", "Client.send"),  # qualified: the qualifier kept
        ("Clinet.send", "Client.send"),  # `send` is defined: the qualifier is misspelt
        ("Clientt.__init__", "Client.__init__"),  # a short name, qualified: its class read
        ("Clinet.delay", None),  # no `delay` of a class that close
        ("Xyzzyq.send", None),  # no class near
        ("Clinet.sendd", "Client.send"),  # both parts misspelt, each by the rules
        ("Xyzzyq.sendd", None),
        ("parse_headr", "parse_header"),  # the last letter cut
        ("parse_hdr", None),  # three letters short: too far
        ("RetryPolicy", None),  # defined as written: nothing to correct
        ("retry_policy", None),  # the same name written loosely: the exact tier's
        ("sned", None),  # four letters: a typo of too many names to guess
        ("zzzzzzzz", None),  # nothing near
    ],
)
def test_a_name_defined_nowhere_is_read_as_the_one_name_it_misspells(
    mini: Store, asked: str, name: str | None
) -> None:
    assert meant(mini, asked) == name


def test_two_names_as_near_or_a_word_the_text_uses_are_no_typo(shop: Store) -> None:
    assert meant(shop, "charge_cards") == "charge_card"
    assert meant(shop, "Gatewya") == "Gateway"
    assert meant(shop, "load_al") == "load_all"
    assert meant(shop, "charges") is None  # "/charges" is in the API's text, near `charge`
    assert meant(shop, "laad_all") == "load_all"  # `lead_all` is no name here
    assert meant(shop, "lxad") is None  # four letters
    assert meant(shop, "chrge_crd") == "charge_card"  # two edits: a compound name may carry two
    assert meant(shop, "Gatwey") is None  # two edits from `Gateway`: one word carries one


def test_the_router_reads_a_plain_word_as_a_name_only_when_bm25_finds_nothing(
    shop: Store,
) -> None:
    assert defined_kinds(shop, "Gateway") == {"class"}
    assert defined_kinds(shop, "Gatewya") == set()  # as spelt: no such name
    assert misspelt_word(shop, "Gatewya") == "Gateway"  # a typo BM25 finds nothing for
    assert meant(shop, "validates") == "validate"
    assert misspelt_word(shop, "validates") is None  # its stem is `validate`'s: a topic
    assert misspelt_word(shop, "zzzzzz") is None


def test_two_names_as_near_are_no_guess(tmp_path: Path, clean_env: None) -> None:
    (tmp_path / "grid.py").write_text(
        "def fetch_rows(n):\n    return n\n\n\ndef fetch_cols(n):\n    return n\n",
        encoding="utf-8",
    )
    store = build(tmp_path).store
    assert meant(store, "fetch_rols") is None  # a letter from each
    assert meant(store, "fetch_rowz") == "fetch_rows"
    assert set(closest(store, "fetch_rols")[:2]) == {"fetch_cols", "fetch_rows"}  # both named


def test_loosely_written_name_counts_as_exact(mini: Store) -> None:
    [m] = find_symbols(mini, "retry_policy")
    assert (m.qname, m.match) == ("minihttp.client.RetryPolicy", "exact")
    assert 0.9 <= m.score < 1.0


def test_tiers_rank_exact_then_prefix_then_fuzzy(shop: Store) -> None:
    assert found(shop, "load") == [
        ("shop.loops.load", "exact"),
        ("shop.loops.load_all", "prefix"),
        ("shop.loops.lead", "fuzzy"),
    ]
    scores = [m.score for m in find_symbols(shop, "load")]
    assert scores == sorted(scores, reverse=True)


def test_kind_and_limit(shop: Store) -> None:
    assert found(shop, "submit") == [
        ("shop.gateway.Gateway.submit", "exact"),
        ("shop.gateway.SandboxGateway.submit", "exact"),
    ]
    assert found(shop, "Gateway", kind="class") == [
        ("shop.gateway.Gateway", "exact"),
        ("shop.gateway.SandboxGateway", "fuzzy"),
    ]
    assert found(shop, "Gateway", kind="method") == []
    assert len(find_symbols(shop, "load", limit=1)) == 1


def test_unknown_name_is_empty_with_suggestions(mini: Store) -> None:
    assert find_symbols(mini, "frobnicate_header") == []
    assert "parse_header" in closest(mini, "frobnicate_header")
    assert closest(mini, "qqqqqq") == []


def test_symbol_index_is_rebuilt_when_the_index_changes(tmp_path: Path) -> None:
    root = write_shop(tmp_path / "repo")
    eng = build(root)
    first = symbol_index(eng.store)
    assert symbol_index(eng.store) is first
    assert find_symbols(eng.store, "refund") == []
    (root / "shop" / "refunds.py").write_text("def refund(receipt: str) -> None:\n    pass\n")
    eng.index()
    assert found(eng.store, "refund") == [("shop.refunds.refund", "exact")]


def test_every_symbol_id_finds_its_own_record(shop: Store) -> None:
    index = symbol_index(shop)
    ids = [meta_str(e.record, "symbol_id") for e in index.entries]
    assert len(ids) > 5 and len(set(ids)) == len(ids)
    assert [meta_str(index.record_of(i), "symbol_id") for i in ids] == ids  # type: ignore[arg-type]
    assert index.record_of(ids[0] + "x") is None
    assert index.record_of("") is None


def test_made_records_are_kept_up_to_a_bound(shop: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from strata.query.lookup import rows

    monkeypatch.setattr(rows, "MADE_RECORDS", 2)
    index = symbol_index(shop)
    index.rows._made.clear()  # the catalogue is shared with the tests before
    first = [e.record for e in index.entries[:3]]
    assert len(index.rows._made) == 2
    again = [e.record for e in index.entries[:3]]
    assert again == first  # remade from the packed rows, metadata and all
    assert all(meta_str(r, "symbol_id") for r in again)


# ---- callers / callees ------------------------------------------------------------------------
def links(walk: object) -> list[tuple[int, str, str]]:
    return [(x.depth, x.symbol.qname, x.match) for x in walk.links]  # type: ignore[attr-defined]


def test_callers_depth_1_with_the_callers_chunk(shop: Store) -> None:
    walk = callers(shop, "validate")
    assert [t.qname for t in walk.targets] == ["shop.payments.validate"]
    assert links(walk) == [(1, "shop.payments.charge_card", "resolved")]
    [link] = walk.links
    assert (link.edge.path, link.edge.span_start) == ("shop/payments.py", 19)
    chunk = link.chunk
    assert chunk is not None and chunk.title == "charge_card"
    assert chunk.span_start <= 19 <= chunk.span_end  # type: ignore[operator]
    assert "validate(amount)" in chunk.content


def test_callers_depth_2_follows_re_exports(shop: Store) -> None:
    walk = callers(shop, "shop.payments.validate", depth=2)
    assert links(walk) == [
        (1, "shop.payments.charge_card", "resolved"),
        (2, "shop.api.create_charge", "resolved"),
        (2, "shop.cli.charge", "resolved"),  # called as `shop.charge_card`, re-exported
    ]
    api, cli = walk.links[1:]
    assert api.via == cli.via == "shop.payments.charge_card"
    assert "charge_card(card, amount)" in api.chunk.content  # type: ignore[union-attr]
    assert "charge_card(card, 100)" in cli.chunk.content  # type: ignore[union-attr]


def test_callers_of_a_re_exported_name(shop: Store) -> None:
    walk = callers(shop, "shop.charge_card")
    assert [t.qname for t in walk.targets] == ["shop.payments.charge_card"]
    assert links(walk) == [
        (1, "shop.api.create_charge", "resolved"),
        (1, "shop.cli.charge", "resolved"),
    ]


def test_callers_through_the_class_hierarchy(shop: Store) -> None:
    walk = callers(shop, "Gateway.sign")
    assert links(walk) == [
        (1, "shop.gateway.Gateway.submit", "resolved"),
        (1, "shop.gateway.SandboxGateway.submit", "resolved"),  # self.sign, inherited
    ]


def test_calls_on_values_of_a_stated_class_are_resolved(mini: Store) -> None:
    # `self.retries = retries or RetryPolicy()` with `retries: RetryPolicy | None`, and
    # `policy = RetryPolicy(...)`: no bare-name guess (tests/test_py_receivers.py has those)
    walk = callers(mini, "RetryPolicy.delay")
    assert links(walk) == [
        (1, "minihttp.client.Client.send", "resolved"),  # self.retries.delay(...)
        (1, "tests.test_client.test_retry_delay_grows", "resolved"),  # policy.delay(...)
    ]
    assert walk.name_only_hidden == 0
    assert all(x.resolved for x in callers(mini, "Client.send").links)


def test_callers_of_an_external_name(mini: Store) -> None:
    walk = callers(mini, "time.sleep")
    assert walk.targets[0].record is None
    assert links(walk) == [(1, "minihttp.client.Client.send", "qname")]


def test_cycles_end(shop: Store) -> None:
    assert links(callers(shop, "ping", depth=6)) == [
        (1, "shop.loops.pong", "resolved"),
        (2, "shop.loops.ping", "resolved"),
    ]


def test_callees_with_the_callees_definition(shop: Store) -> None:
    walk = callees(shop, "create_charge", depth=2)
    assert links(walk) == [
        (1, "shop.api.app.post", "unresolved"),
        (1, "shop.payments.charge_card", "resolved"),
        (2, "shop.payments.validate", "resolved"),
        (2, "shop.gateway.Gateway", "resolved"),
        (2, "shop.gateway.Gateway.submit", "resolved"),  # `gateway = Gateway()`: a Gateway
    ]
    by_name = {x.symbol.qname: x for x in walk.links}
    assert by_name["shop.api.app.post"].chunk is None
    charge = by_name["shop.payments.charge_card"].chunk
    assert charge is not None and charge.content.startswith("def charge_card(")
    assert by_name["shop.gateway.Gateway"].chunk.title == "Gateway"  # type: ignore[union-attr]


def test_callees_resolve_stated_receivers_and_inherited(mini: Store, shop: Store) -> None:
    assert links(callees(mini, "Client.send")) == [
        (1, "minihttp.client.Client._transmit", "resolved"),
        (1, "minihttp.client.RetryPolicy.delay", "resolved"),  # self.retries: a RetryPolicy
        (1, "time.sleep", "unresolved"),
    ]  # callees guessed by a unique name: tests/test_py_receivers.py
    assert links(callees(shop, "SandboxGateway.submit")) == [
        (1, "shop.gateway.Gateway.sign", "resolved")
    ]


def test_the_call_graph_makes_records_only_for_the_edges_a_walk_returns(tmp_path: Path) -> None:
    from strata.layers import C2_DEPENDENCY_GRAPH
    from strata.query.lookup.graph import call_graph
    from strata.store import Filter
    from strata.types import Record

    eng = build(write_shop(tmp_path / "repo"))
    graph = call_graph(eng.store)
    assert len(graph.rows) > 10 and not graph.rows._made  # built without a record per edge
    edges = [e for found in graph.by_dst.values() for e in found]
    assert edges and not any(isinstance(e, Record) for e in edges)
    walk = callers(eng.store, "charge_card")
    assert walk.links
    assert all(meta_str(x.edge, "edge_type") == "calls" for x in walk.links)
    stored = {r.id: r for r in eng.store.fetch(Filter(layers=(C2_DEPENDENCY_GRAPH,)))}
    assert all(x.edge == dataclasses.replace(stored[x.edge.id], vector=None) for x in walk.links)


def test_a_walk_meets_each_name_only_call_once_whatever_its_targets(tmp_path: Path) -> None:
    from strata.query.lookup.graph import NAME, call_graph

    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    sends = "".join(
        f"class Sink{i}:\n    def send(self, x):\n        return x\n\n" for i in range(6)
    )
    (root / "pkg" / "sinks.py").write_text(sends, encoding="utf-8")
    calls = "".join(f"def push{i}(conn):\n    conn.send({i})\n\n" for i in range(8))
    (root / "pkg" / "use.py").write_text(calls, encoding="utf-8")
    eng = build(root)
    graph = call_graph(eng.store)
    targets = graph.targets("send")
    assert len(targets) == 6  # every Sink*.send: one bare name
    met: set[object] = set()
    first = [how for _, _, how in graph.incoming(targets[0], met)]
    assert first.count(NAME) == 8  # `conn.send(...)`: tied by the name alone
    assert all(how != NAME for t in targets[1:] for _, _, how in graph.incoming(t, met))
    walk = callers(eng.store, "send", name_matches=True)
    assert sorted(x.symbol.qname for x in walk.links) == [f"pkg.use.push{i}" for i in range(8)]
    assert callers(eng.store, "send").name_only_hidden == 8 and not callers(eng.store, "send").links


def test_walk_json_carries_edge_depth_and_chunk(mini: Store) -> None:
    [row] = [j for j in callers(mini, "parse_header", depth=2).to_json() if j["depth"] == 2]
    assert row["layer"] == "C2_DEPENDENCY_GRAPH" and row["edge_type"] == "calls"
    assert row["symbol"]["qname"] == "minihttp.client.Client.send"
    assert row["chunk"]["layer"] == "C0_SOURCE_CHUNKS"
    assert row["chunk"]["start_line"] == 31 and row["start_line"] == 35


# ---- entry points -----------------------------------------------------------------------------
def test_entrypoints_sorted_by_route(shop: Store) -> None:
    rows = list_entrypoints(shop)
    assert [r.title for r in rows] == ["POST /charges", "GET /health", "main", "main charge"]


def test_entrypoints_filters(shop: Store) -> None:
    assert [r.metadata["handler_symbol"] for r in list_entrypoints(shop, type="http")] == [
        "shop.api.create_charge",
        "shop.api.health",
    ]
    assert [r.title for r in list_entrypoints(shop, framework="Click")] == ["main", "main charge"]
    assert list_entrypoints(shop, type="other") == []
    assert list_entrypoints(shop, type="http", framework="click") == []


# ---- docs -------------------------------------------------------------------------------------
def test_list_docs_filters(docs: Store) -> None:
    assert [c.path for c in list_docs(docs, kind="adr")] == [
        "adr/0001-use-postgres.md",
        "adr/0002-kafka.md",
    ]
    assert [c.path for c in list_docs(docs, domain="platform")] == [
        "adr/0001-use-postgres.md",
        "adr/0002-kafka.md",
        "guides/onboarding.md",
        "services/gateway.md",
    ]
    assert [c.path for c in list_docs(docs, type="service", domain="customer")] == [
        "services/notifications.md"
    ]
    assert len(list_docs(docs)) == 22


def test_related_both_directions(docs: Store) -> None:
    got = {(r.document_id, r.relation_type, r.direction) for r in related(docs, "ledger-service")}
    assert got == {
        ("README.md", "links_to", "in"),
        ("adr-0001", "related", "in"),
        ("api-gateway", "depends_on", "in"),
        ("payments-service", "links_to", "in"),
        ("payments-service", "related", "in"),
        ("payments-service", "tags", "in"),  # a frontmatter tag naming this document
        ("paywell-core", "part_of", "out"),
        ("refunds-service", "links_to", "in"),
        ("refunds-service", "uses", "in"),
        ("runbook-restart-ledger", "related", "in"),
        ("transaction", "part_of", "in"),
    }
    cards = {r.document_id: r.card for r in related(docs, "ledger-service")}
    assert cards["paywell-core"] is None
    assert cards["transaction"].path == "entities/transaction.md"  # type: ignore[union-attr]


def test_related_depth_2_and_by_path(docs: Store) -> None:
    two = related(docs, "services/ledger.md", depth=2)
    assert {r.depth for r in two} == {1, 2}
    customer = [r for r in two if r.document_id == "customer"]
    assert [(r.depth, r.via, r.direction) for r in customer] == [(2, "transaction", "in")]
    assert len({r.document_id for r in two if r.depth == 1}) == 8
    assert related(docs, "no-such-doc") == []


@pytest.mark.parametrize("name", ["load", "send", "Client.send", "retry_policy", "sned", "zzz"])
def test_exact_only_is_the_exact_part_of_a_full_lookup(mini: Store, shop: Store, name: str) -> None:
    for store in (mini, shop):
        full = find_symbols(store, name, limit=50)
        only = find_symbols(store, name, limit=50, exact=True)
        assert only == [m for m in full if m.match in ("exact", "qualified")]
