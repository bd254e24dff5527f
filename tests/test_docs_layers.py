"""Documentation layers D0-D6 on the committed Paywell corpus, checked record by record."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from strata.config import ChunkConfig
from strata.index.docs import DocResult, document_records, link_corpus, rows_by_path
from strata.layers import DOC_LAYERS
from strata.types import Record

CORPUS = Path(__file__).parent / "corpora" / "docs"
CFG = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=5)
LANGS = {".md": "markdown", ".rst": "rst"}

D0_KEYS = {
    "document_id",
    "type",
    "module",
    "domain",
    "subdomain",
    "tags",
    "section_path",
    "section_title",
    "order",
    "doc_kind",
    "source_path",
    "artifact_type",
}
D2_KEYS = {
    "fact_id",
    "subject_id",
    "predicate",
    "object",
    "object_ref",
    "anchor",
    "tags",
    "source_path",
}
D3_KEYS = {
    "entity_name",
    "document_id",
    "document_type",
    "module",
    "domain",
    "subdomain",
    "tags",
    "source_path",
}
D4_KEYS = {
    "workflow_id",
    "document_id",
    "workflow_name",
    "preconditions",
    "trigger",
    "main_flow",
    "alternative_flow",
    "error_handling",
    "postconditions",
    "source_path",
}
D5_KEYS = {
    "relation_id",
    "source_id",
    "relation_type",
    "target_id",
    "anchor",
    "source_path",
    "resolved",
}
D6_KEYS = {
    "integration_id",
    "source_id",
    "source_type",
    "target",
    "target_type",
    "direction",
    "interaction",
    "via",
    "purpose",
    "details",
    "domain",
    "subdomain",
    "source_path",
    "anchor",
}


def build(rel: str, text: str | None = None) -> DocResult:
    text = (CORPUS / rel).read_text(encoding="utf-8") if text is None else text
    lang = LANGS.get(Path(rel).suffix, "text")
    return document_records(rel, text, lang, "hash-" + rel, CFG)


@pytest.fixture(scope="module")
def corpus() -> list[DocResult]:
    rels = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*") if p.is_file())
    return [build(rel) for rel in rels]


@pytest.fixture(scope="module")
def linked(corpus: list[DocResult]) -> dict[str, list[Record]]:
    return rows_by_path(corpus, link_corpus(corpus))


def of(records: list[Record] | tuple[Record, ...], layer: str) -> list[Record]:
    return [r for r in records if r.layer == layer]


def meta(records: list[Record], *keys: str) -> list[tuple[Any, ...]]:
    return [tuple(r.metadata[k] for k in keys) for r in records]


def test_corpus_is_large_and_every_document_gets_a_card(corpus: list[DocResult]) -> None:
    assert len(corpus) >= 20
    for res in corpus:
        cards = of(res.records, "D1_DOCUMENT_CATALOG")
        assert len(cards) == 1, res.rel
        assert cards[0].content.strip(), res.rel
        assert {r.layer for r in res.records} <= set(DOC_LAYERS)


def test_d0_sections_of_the_payments_document() -> None:
    d0 = of(build("services/payments.md").records, "D0_DOC_CHUNKS")
    assert [r.id for r in d0] == [f"services/payments.md:{i}" for i in range(4)]
    assert [
        (r.metadata["section_path"], r.metadata["order"], r.span_start, r.span_end) for r in d0
    ] == [
        (["Payments service", "Summary"], 1, 13, 16),  # the bare title opens its first section
        (["Payments service", "Details"], 2, 18, 25),
        (["Payments service", "Details", "Scenario"], 3, 27, 36),
        (["Payments service", "Integrations"], 4, 38, 41),
    ]
    first = d0[2]
    assert set(first.metadata) == D0_KEYS
    assert {k: first.metadata[k] for k in D0_KEYS - {"section_path", "order"}} == {
        "document_id": "payments-service",
        "type": "service",
        "module": "billing",
        "domain": "payments",
        "subdomain": "card-payments",
        "tags": ["billing", "payments", "ledger-service"],
        "section_title": "Scenario",
        "doc_kind": "spec",
        "source_path": "services/payments.md",
        "artifact_type": "DOCS",
    }
    lines = (CORPUS / "services/payments.md").read_text(encoding="utf-8").split("\n")
    for r in d0:
        assert r.content == "\n".join(lines[r.span_start - 1 : r.span_end])


def test_d0_without_frontmatter_id_uses_the_path_and_headings_out_of_order_nest() -> None:
    readme = of(build("README.md").records, "D0_DOC_CHUNKS")
    assert {r.metadata["document_id"] for r in readme} == {"README.md"}
    assert readme[0].metadata["doc_kind"] == "readme"
    guide = of(build("guides/onboarding.md").records, "D0_DOC_CHUNKS")
    assert [r.metadata["section_path"] for r in guide] == [
        ["Онбординг разработчика"],
        ["Онбординг разработчика", "Установка"],
        ["Онбординг разработчика", "Запуск"],
        ["Онбординг разработчика", "Запуск", "Проверка"],
        ["Полезные ссылки"],
    ]


def test_d0_rst_and_text_documents() -> None:
    rst = of(build("reference/glossary.rst").records, "D0_DOC_CHUNKS")
    # `Payments` and `Ledger` hold only their subsections: their headings open those
    assert [(r.metadata["section_path"], r.span_start) for r in rst] == [
        (["Glossary"], 1),
        (["Glossary", "Payments", "Authorisation"], 7),
        (["Glossary", "Payments", "Capture"], 15),
        (["Glossary", "Ledger", "Entry"], 24),
    ]
    notes = of(build("broken/notes.md").records, "D0_DOC_CHUNKS")
    assert [(r.kind, r.metadata["section_path"], r.span_start) for r in notes] == [("text", [], 1)]


def test_d1_card_copies_frontmatter_as_written() -> None:
    card = of(build("services/payments.md").records, "D1_DOCUMENT_CATALOG")[0]
    assert card.id == "services/payments.md#D1:card"
    assert (
        card.content == "The payments service authorises and captures card payments for merchants."
    )
    assert dict(card.metadata) == {
        "id": "payments-service",
        "type": "service",
        "module": "billing",
        "domain": "payments",
        "subdomain": "card-payments",
        "tags": ["billing", "payments", "ledger-service"],
        "owner": "team-checkout",
        "related": ["ledger-service", "refunds-service"],
        "depends_on": ["fraud-service"],
        "see_also": "missing-doc",
        "document_id": "payments-service",
        "source_path": "services/payments.md",
        "summary_text": card.content,
        "doc_kind": "spec",
    }


def test_d1_without_id_or_summary_uses_the_first_paragraph() -> None:
    card = of(build("README.md").records, "D1_DOCUMENT_CATALOG")[0]
    assert dict(card.metadata) == {
        "source_path": "README.md",
        "doc_kind": "readme",
        "summary_text": "Paywell is a made-up payments platform used to test Strata's "
        "documentation layers.\nIt takes card payments, keeps a double-entry ledger and "
        "pays merchants out.",
    }
    assert card.title == "Paywell platform"


def test_broken_frontmatter_warns_and_still_indexes() -> None:
    listy = build("broken/not-mapping.md")
    assert listy.warnings == (
        "broken/not-mapping.md: frontmatter is a list, not a mapping; ignored",
    )
    assert listy.document_id == "broken/not-mapping.md"
    assert of(listy.records, "D0_DOC_CHUNKS")[0].span_start == 5
    bad = build("broken/malformed.md")
    assert bad.warnings and bad.warnings[0].startswith("broken/malformed.md: malformed frontmatter")
    card = of(bad.records, "D1_DOCUMENT_CATALOG")[0]
    assert "document_id" not in card.metadata
    assert card.content.startswith("Этот документ содержит некорректный YAML")


def test_d2_facts_of_the_payments_document(
    corpus: list[DocResult], linked: dict[str, list[Record]]
) -> None:
    facts = of(linked["services/payments.md"], "D2_FACT_INDEX")
    assert all(set(f.metadata) == D2_KEYS for f in facts)
    triples = meta(facts, "subject_id", "predicate", "object", "object_ref")
    assert triples == [
        ("payments-service", "type", "service", None),
        ("payments-service", "module", "billing", "billing"),
        ("payments-service", "domain", "payments", "payments"),
        ("payments-service", "subdomain", "card-payments", "card-payments"),
        ("payments-service", "tags", "billing", "billing"),
        ("payments-service", "tags", "payments", "payments"),
        ("payments-service", "tags", "ledger-service", "ledger-service"),
        ("payments-service", "owner", "team-checkout", None),
        ("payments-service", "related", "ledger-service", "ledger-service"),
        ("payments-service", "related", "refunds-service", "refunds-service"),
        ("payments-service", "depends_on", "fraud-service", "fraud-service"),
        ("payments-service", "see_also", "missing-doc", "missing-doc"),
        ("payments-service", "sla", "99.95%", None),
        ("payments-service", "uses", "PostgreSQL", None),
        ("payments-service", "uses", "Redis", None),
    ]
    sla = facts[12]
    assert sla.metadata["anchor"] == "Payments service > Details#L21"
    assert (sla.span_start, sla.metadata["tags"]) == (21, ["billing", "payments", "ledger-service"])
    again = of(build("services/payments.md").records, "D2_FACT_INDEX")
    assert [f.metadata["fact_id"] for f in again] == [f.metadata["fact_id"] for f in facts]


def test_d2_russian_tables_definitions_and_sentences() -> None:
    billing = of(build("services/billing.md").records, "D2_FACT_INDEX")
    body = [
        t
        for t in meta(billing, "subject_id", "predicate", "object", "anchor")
        if not t[3].startswith("frontmatter")
    ]
    assert body == [
        ("billing-service", "язык", "Python", "Биллинг > Details#L18"),
        ("billing-service", "период", "месяц", "Биллинг > Details#L19"),
        ("billing-service", "комиссия", "Процент от оборота мерчанта", "Биллинг > Details#L22"),
        (
            "billing-service",
            "счёт",
            "Документ с суммой комиссии за период",
            "Биллинг > Details#L25",
        ),
        ("billing-service", "владелец", "команда биллинга", "Биллинг > Details#L27"),
    ]
    refunds = of(build("services/refunds.md").records, "D2_FACT_INDEX")
    assert ("refunds-service", "depends_on", "payments-service") in meta(
        refunds, "subject_id", "predicate", "object"
    )
    customer = of(build("entities/customer.md").records, "D2_FACT_INDEX")
    assert ("customer", "part_of", "домена customer") in meta(
        customer, "subject_id", "predicate", "object"
    )


def test_d4_english_bold_labels() -> None:
    (wf,) = of(build("services/payments.md").records, "D4_WORKFLOW_INDEX")
    assert set(wf.metadata) == D4_KEYS
    assert (wf.span_start, wf.span_end, wf.title) == (27, 36, "Capture a card payment")
    assert {k: wf.metadata[k] for k in D4_KEYS - {"workflow_id"}} == {
        "document_id": "payments-service",
        "workflow_name": "Capture a card payment",
        "preconditions": "The payment was authorised.",
        "trigger": "The merchant calls POST /payments/{id}/capture.",
        "main_flow": [
            "Validate the payment state",
            "Capture at the acquirer",
            "Post ledger entries",
        ],
        "alternative_flow": [
            "Partial capture when the amount is lower than authorised",
            "Capture retried after an acquirer timeout",
        ],
        "error_handling": "Declined captures are stored with the acquirer code.",
        "postconditions": "The payment is captured and the ledger is balanced.",
        "source_path": "services/payments.md",
    }
    assert wf.content.startswith("Scenario: Capture a card payment\nPreconditions: The payment")


def test_d4_russian_labels_and_sub_heading_labels() -> None:
    (ru,) = of(build("services/refunds.md").records, "D4_WORKFLOW_INDEX")
    assert {k: ru.metadata[k] for k in D4_KEYS - {"workflow_id", "document_id", "source_path"}} == {
        "workflow_name": "Возврат платежа",
        "preconditions": "Платёж находится в статусе captured.",
        "trigger": "Оператор нажимает «Вернуть» в панели.",
        "main_flow": [
            "Проверить сумму возврата",
            "Отправить возврат эквайеру",
            "Записать проводки в леджер",
        ],
        "alternative_flow": "Частичный возврат меньшей суммы.",
        "error_handling": "При отказе эквайера возврат помечается failed.",
        "postconditions": "Покупатель получает деньги, леджер сбалансирован.",
    }
    (sub,) = of(build("services/ledger.md").records, "D4_WORKFLOW_INDEX")
    assert sub.metadata["workflow_name"] == "Post entries"
    assert sub.metadata["preconditions"] == "The request carries a balanced set of entries."
    assert sub.metadata["main_flow"] == [
        "Check that debits equal credits",
        "Write entries in one transaction",
        "Publish ledger.posted",
    ]
    assert (sub.metadata["trigger"], sub.metadata["postconditions"]) == (
        "",
        "Balances are updated.",
    )


def test_d4_two_scenarios_and_missing_labels() -> None:
    two = of(build("services/notifications.md").records, "D4_WORKFLOW_INDEX")
    assert meta(two, "workflow_name", "trigger", "main_flow") == [
        (
            "Письмо об успешной оплате",
            "Событие payment.captured.",
            ["Получить событие", "Собрать письмо", "Отправить письмо"],
        ),
        (
            "Пуш о возврате",
            "Событие refund.completed.",
            ["Найти устройство покупателя", "Отправить пуш"],
        ),
    ]
    assert len({r.metadata["workflow_id"] for r in two}) == 2
    (sparse,) = of(build("services/payouts.md").records, "D4_WORKFLOW_INDEX")
    assert meta(
        [sparse], "workflow_name", "preconditions", "trigger", "main_flow", "postconditions"
    ) == [
        (
            "",
            "",
            "The daily payout job starts at 02:00 UTC.",
            "Compute balances and send bank transfers.",
            "",
        ),
    ]


def test_d5_edges_resolved_across_the_corpus(linked: dict[str, list[Record]]) -> None:
    edges = of(linked["services/payments.md"], "D5_RELATION_GRAPH")
    assert all(set(e.metadata) == D5_KEYS for e in edges)
    assert meta(edges, "relation_type", "target_id", "resolved", "anchor") == [
        ("related", "ledger-service", True, "frontmatter:related"),
        ("related", "refunds-service", True, "frontmatter:related"),
        ("depends_on", "fraud-service", True, "frontmatter:depends_on"),
        ("see_also", "missing-doc", False, "frontmatter:see_also"),
        ("links_to", "ledger-service", True, "Payments service > Details#L24"),
        ("links_to", "pricing.md#fees", False, "Payments service > Details#L25"),
        ("tags", "ledger-service", True, "frontmatter:tags"),
    ]
    guide = of(linked["guides/onboarding.md"], "D5_RELATION_GRAPH")
    assert meta(guide, "source_id", "target_id", "resolved") == [
        ("onboarding", "payments-service", True),
        ("onboarding", "../services/legacy.md", False),
    ]


def test_d5_per_file_records_are_replaced_by_the_corpus_pass(
    corpus: list[DocResult], linked: dict[str, list[Record]]
) -> None:
    res = next(r for r in corpus if r.rel == "services/refunds.md")
    local = {r.id: r for r in of(res.records, "D5_RELATION_GRAPH")}
    final = {r.id: r for r in of(linked["services/refunds.md"], "D5_RELATION_GRAPH")}
    assert set(local) == set(final)
    link = next(r for r in local.values() if r.metadata["relation_type"] == "links_to")
    assert (link.metadata["target_id"], link.metadata["resolved"]) == ("ledger.md", False)
    assert (final[link.id].metadata["target_id"], final[link.id].metadata["resolved"]) == (
        "ledger-service",
        True,
    )


def test_d3_entities_merged_by_normalised_name(linked: dict[str, list[Record]]) -> None:
    entities = [r for rows in linked.values() for r in of(rows, "D3_ENTITY_CATALOG")]
    by_name = {r.metadata["entity_name"]: r for r in entities}
    assert len(by_name) == len(entities), "one record per entity"
    ledger = by_name["ledger-service"]
    assert set(ledger.metadata) == D3_KEYS
    assert dict(ledger.metadata) == {
        "entity_name": "ledger-service",
        "document_id": "ledger-service",
        "document_type": "service",
        "module": "accounting",
        "domain": "payments",
        "subdomain": "ledger",
        "tags": ["accounting"],
        "source_path": "services/ledger.md",
    }
    assert "payments-service (related)" in ledger.content
    assert "refunds-service (uses)" in ledger.content
    billing = by_name["billing"]
    assert billing.metadata["document_id"] == "payments-api"  # first document naming it, by path
    assert "accounting" in by_name and "risk" in by_name
    assert "entity" not in by_name and "ops" not in by_name, "tags that name nothing are dropped"


def test_duplicate_ids_are_reported(
    corpus: list[DocResult], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="strata.index.docs.build"):
        link_corpus(corpus)
    assert any("duplicate document id 'payments-service'" in m for m in caplog.messages)


def test_d6_list_items_with_details() -> None:
    items = of(build("services/payments.md").records, "D6_INTEGRATION_INDEX")
    assert all(set(i.metadata) == D6_KEYS for i in items)
    assert meta(
        items, "target", "target_type", "direction", "interaction", "via", "purpose", "details"
    ) == [
        ("ledger-service", "service", "outbound", "sync", "REST", "post capture entries", {}),
        (
            "Stripe",
            "external_system",
            "outbound",
            "sync",
            "HTTPS",
            "card acquiring",
            {"timeout": "5s"},
        ),
        ("payments-events", "api", "outbound", "async", "Kafka", "publish payment events", {}),
    ]
    first = items[0]
    assert meta([first], "source_id", "source_type", "domain", "subdomain", "anchor") == [
        (
            "payments-service",
            "service",
            "payments",
            "card-payments",
            "Payments service > Integrations#L39",
        )
    ]
    assert first.content.startswith("target: ledger-service; target_type: service")


def test_d6_russian_keys_tables_subheadings_and_prose() -> None:
    ru = of(build("services/refunds.md").records, "D6_INTEGRATION_INDEX")
    assert meta(ru, "target", "target_type", "via", "purpose", "details") == [
        ("ledger-service", "service", "REST", "проводки возврата", {}),
        ("acquirer", "external_system", "ISO 8583", "возврат средств", {"sla": "2s"}),
    ]
    table = of(build("services/ledger.md").records, "D6_INTEGRATION_INDEX")
    assert meta(table, "target", "direction", "via", "purpose") == [
        ("payments-service", "inbound", "REST", "receive capture entries"),
        ("reporting", "outbound", "Kafka", "stream postings"),
    ]
    subs = of(build("services/gateway.md").records, "D6_INTEGRATION_INDEX")
    assert meta(subs, "target", "target_type", "direction", "via", "details") == [
        ("Payments API", "", "outbound", "HTTP/2", {"retries": "2"}),
        ("Merchant dashboard", "ui", "inbound", "HTTPS", {}),
    ]
    prose = of(build("services/fraud.md").records, "D6_INTEGRATION_INDEX")
    assert [(r.content, r.metadata["target"], r.metadata["via"]) for r in prose] == [
        ("Антифрод получает запросы от payments-service по gRPC.", "payments-service", ""),
        ("Результаты проверок пишутся в Kafka для аналитики.", "Kafka", ""),
        ("Раз в сутки правила выгружаются в хранилище.", "", ""),
    ]


def test_big_generated_markdown_file_indexes(tmp_path: Path) -> None:
    section = (
        "## Part {n}\n\nSome prose about part {n} of the system.\n\n```python\nx = {n}\n```\n\n"
        "| key | value |\n|---|---|\n| n | {n} |\n\n"
    )
    text = "---\nid: big\n---\n# Big\n\n" + "".join(section.format(n=i) for i in range(42000))
    assert len(text.encode()) > 5_000_000
    path = tmp_path / "big.md"
    path.write_text(text, encoding="utf-8")
    res = build("big.md", path.read_text(encoding="utf-8"))
    d0 = of(res.records, "D0_DOC_CHUNKS")
    assert len(d0) == 42000  # `# Big` opens the first part
    assert d0[-1].metadata["section_path"] == ["Big", "Part 41999"]
    assert d0[-1].content.endswith("| n | 41999 |")
    assert len(of(res.records, "D2_FACT_INDEX")) == 42000
