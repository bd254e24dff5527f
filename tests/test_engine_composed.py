"""The Engine is composed, not assembled from mixins: it owns its parts and calls functions,
and a plan runs against a `QueryContext` that anything holding a store can build."""

from __future__ import annotations

import importlib.util

import pytest

from strata import Engine
from strata.config import load_config
from strata.query.executor import execute
from strata.query.hybrid import QueryContext
from strata.query.router import IndexFacts, route
from strata.store import open_store
from strata.workspace.locate import read_locator
from tests.test_router import build_shop


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return build_shop(tmp_path_factory)


def test_the_engine_is_one_class_without_a_proxy() -> None:
    assert Engine.__mro__ == (Engine, object)
    assert "__getattr__" not in vars(Engine)
    for gone in ("searching", "layered", "host", "repoqueries"):  # the mixins and host
        assert importlib.util.find_spec(f"strata.engine.{gone}") is None


def test_a_plan_runs_against_a_context_built_without_an_engine(shop: Engine) -> None:
    """The store opened by hand and the configuration loaded by hand answer a routed
    question and a plain one exactly as the Engine does."""
    cfg = load_config(shop.index_dir, {"embed.provider": "none"})
    store = open_store(shop.store_uri, int(read_locator(shop.index_dir)["dim"]))
    try:
        ctx = QueryContext(store, cfg)
        facts = IndexFacts.from_counts(store.counts(), repos=[shop.root.name])
        for query in ("who calls charge_card", "pay for every item of the cart"):
            plan = route(query, facts)
            mine = execute(ctx, plan, 10, mode="lexical")
            engines = shop.search(query, k=10, mode="lexical")
            assert mine.hits, query
            assert [h.record.id for h in mine.hits] == [h.record.id for h in engines.hits]
            assert mine.plan["route"]["intent"] == engines.plan["route"]["intent"]
    finally:
        store.close()


def test_route_false_is_the_plain_search_of_the_passages(shop: Engine) -> None:
    """`route=False` (kept: docs/api.md and the benchmarks use it) asks the passages
    directly, with no router plan in the result."""
    plain = shop.search("who calls charge_card", k=5, mode="lexical", route=False)
    assert plain.hits and "route" not in plain.plan
    assert {h.record.layer for h in plain.hits} <= {"C0_SOURCE_CHUNKS", "D0_DOC_CHUNKS"}


def test_the_engine_methods_are_short() -> None:
    """Each public method is a few lines calling functions (docstring aside)."""
    import ast
    import inspect
    import textwrap

    source = textwrap.dedent(inspect.getsource(Engine))
    cls = ast.parse(source).body[0]
    assert isinstance(cls, ast.ClassDef)
    long = {}
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            body = node.body[1:] if isinstance(node.body[0], ast.Expr) else node.body
            lines = body[-1].end_lineno - body[0].lineno + 1  # type: ignore[operator]
            if lines > 12:
                long[node.name] = lines
    assert not long, long
