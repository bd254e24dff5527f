"""Executor: routed plans run on real indexes give the answers a user expects."""

from __future__ import annotations

import pytest

from strata import Engine
from strata import layers as L
from strata.query.executor import execute
from strata.query.router import route
from tests.test_router import ask, build_corpus, build_shop, facts


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return build_shop(tmp_path_factory)


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return build_corpus(tmp_path_factory, "docs")


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return build_corpus(tmp_path_factory, "minirepo")


def test_who_calls_returns_the_caller_chunks_first(shop: Engine) -> None:
    plan, hits = ask(shop, "who calls charge_card")
    assert plan.intent == "callers"
    titles = [h.split(":", 2)[2] for h in hits]
    assert set(titles[:3]) == {"checkout", "reorder", "test_charge_card"}
    assert all(h.startswith(L.C0_SOURCE_CHUNKS) for h in hits)
    result = execute(shop.parts.context(), plan, mode="lexical")
    assert any("calls shop.payments.charge_card" in w for w in result.hits[0].why)


def test_callers_in_tests_only(shop: Engine) -> None:
    _, hits = ask(shop, "who calls charge_card in tests", routed_only=True)
    assert hits == [f"{L.C0_SOURCE_CHUNKS}:tests/test_payments.py:test_charge_card"]


def test_callees_show_the_callee_definitions(shop: Engine) -> None:
    _, hits = ask(shop, "what does checkout call")
    assert hits[0] == f"{L.C0_SOURCE_CHUNKS}:shop/payments.py:charge_card"


def test_http_endpoints_are_c3_routes(shop: Engine) -> None:
    plan, hits = ask(shop, "which HTTP endpoints does the shop api expose", routed_only=True)
    assert plan.intent == "entrypoints"
    assert hits and all(h.startswith(L.C3_ENTRYPOINTS) for h in hits)
    assert len(hits) == 3 and not any("refund" in h for h in hits)


def test_cli_commands_are_c3_commands(shop: Engine) -> None:
    _, hits = ask(shop, "what CLI commands are there", routed_only=True)
    assert hits and all(h.startswith(L.C3_ENTRYPOINTS) for h in hits)
    assert any("refund" in h for h in hits) and not any("/api" in h for h in hits)


def test_a_route_string_finds_its_handler(shop: Engine) -> None:
    plan = route("what handles /api/v1/items", facts(shop))
    result = execute(shop.parts.context(), plan, mode="lexical")
    routed = result.hits[: result.plan["route"]["routed_hits"]]
    handlers = {h.record.metadata.get("handler_symbol", h.record.title) for h in routed}
    assert any("list_items" in str(x) for x in handlers)
    assert not any("create_order" in str(x) for x in handlers)


def test_symbol_lookup_puts_the_definition_first(mini: Engine) -> None:
    plan, hits = ask(mini, "where is RetryPolicy defined")
    # shown at its header chunk, which the C0 step found too: one hit, not two
    assert hits[0] == f"{L.C0_SOURCE_CHUNKS}:src/minihttp/client.py:RetryPolicy"
    assert hits.count(hits[0]) == 1
    top = execute(mini.parts.context(), plan, mode="lexical").hits[0]
    assert top.record.metadata["qname"] == "minihttp.client.RetryPolicy"
    assert top.record.metadata["definition_start"] == top.record.span_start
    assert "exact name minihttp.client.RetryPolicy" in top.why[0]


def test_the_kind_of_a_definition_may_be_named(mini: Engine) -> None:
    for query in (
        "where is the class RetryPolicy defined",
        "where is the method Client.send defined",
    ):
        plan, hits = ask(mini, query)
        assert plan.intent == "symbol", query
        assert hits[0].startswith(f"{L.C0_SOURCE_CHUNKS}:src/minihttp/client.py:"), hits
    _, hits = ask(mini, "where is the method Client.send defined")
    assert hits[0].endswith(":Client.send")


def test_refund_workflow_comes_first(docs: Engine) -> None:
    for query in ("how does a refund work", "как работает возврат"):
        plan, hits = ask(docs, query)
        assert plan.intent == "workflow"
        assert hits[0].startswith(L.D4_WORKFLOW_INDEX), (query, hits[:3])
    _, hits = ask(docs, "как работает возврат")
    assert hits[0] == f"{L.D4_WORKFLOW_INDEX}:services/refunds.md:Возврат платежа"


@pytest.mark.parametrize(
    "query", ["what does payments integrate with", "с чем интегрируется payments"]
)
def test_integrations_of_payments(docs: Engine, query: str) -> None:
    _, hits = ask(docs, query)
    top = [h for h in hits if h.startswith(L.D6_INTEGRATION_INDEX)]
    assert hits[:3] == top[:3]
    assert {h.rsplit(":", 1)[1] for h in top[:3]} == {
        "payments-service -> ledger-service",
        "payments-service -> Stripe",
        "payments-service -> payments-events",
    }


def test_documents_that_depend_on_the_ledger(docs: Engine) -> None:
    plan, hits = ask(docs, "which documents depend on the ledger")
    assert plan.intent == "relations"
    assert set(hits[:2]) == {
        f"{L.D1_DOCUMENT_CATALOG}:services/gateway.md:API gateway",
        f"{L.D1_DOCUMENT_CATALOG}:services/refunds.md:Сервис возвратов",
    }


@pytest.mark.parametrize(
    "query", ["retry backoff", "how headers are parsed", "send a request with a body"]
)
def test_free_text_is_exactly_the_plain_search(mini: Engine, query: str) -> None:
    plan = route(query, facts(mini))
    assert plan.is_free_text
    routed = execute(mini.parts.context(), plan, 10, mode="lexical")
    plain = mini.search(query, 10, mode="lexical")
    assert [(h.record.id, h.score) for h in routed] == [(h.record.id, h.score) for h in plain]
    assert routed.plan["route"]["intent"] == "free_text"
