"""The documentation layers through the whole engine: produced, stored, searchable, counted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from strata import Engine
from strata.layers import DOC_LAYERS

pytestmark = pytest.mark.usefixtures("both_stores")

CORPUS = Path(__file__).parent / "corpora" / "docs"


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("docs") / "corpus"
    shutil.copytree(CORPUS, root)
    eng = Engine.open(root, config={"embed.provider": "none"})
    eng.index()
    return eng


def test_every_docs_layer_is_stored_and_counted_in_status(docs: Engine) -> None:
    layers = docs.status().to_json()["layers"]
    for layer in DOC_LAYERS:
        assert layers.get(layer, {}).get("rows", 0) > 0, layer


def test_each_layer_is_searchable_by_name(docs: Engine) -> None:
    workflow = docs.search("refund", layers=["D4_WORKFLOW_INDEX"], k=3)
    assert workflow.hits and all(h.record.layer == "D4_WORKFLOW_INDEX" for h in workflow)
    assert any(
        "refund" in h.record.metadata["workflow_name"].lower()
        or "возврат" in h.record.metadata["workflow_name"].lower()
        for h in workflow
    )
    integrations = docs.search("ledger", layers=["D6"], k=5)
    assert integrations.hits and {h.record.layer for h in integrations} == {"D6_INTEGRATION_INDEX"}
    assert any(h.record.metadata["target"] for h in integrations)


def test_catalog_and_relations_from_the_api(docs: Engine) -> None:
    cards = docs.docs(kind="runbook")
    assert cards and all(c.metadata["doc_kind"] == "runbook" for c in cards)
    related = docs.related("payments-service")
    assert related, "payments-service has relations in its frontmatter"


def test_how_questions_route_to_workflows_first(docs: Engine) -> None:
    result = docs.search("how does a refund work", k=5)
    assert result.plan["route"]["intent"] == "workflow"
    assert result[0].record.layer == "D4_WORKFLOW_INDEX"


def test_a_domain_the_documents_name_becomes_a_filter(docs: Engine) -> None:
    plan = docs.plan("how are refunds handled in the payments domain")
    assert plan.filters.to_json().get("domain") == "payments"
    assert "domain" not in docs.plan("helpers with domain specific names").filters.to_json()
