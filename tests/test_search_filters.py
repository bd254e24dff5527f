"""One `SearchFilters`: every surface builds the same value from the same input, the router
reads the same fields from a question, and bad values get a one-line reason."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from strata import Engine
from strata.errors import QueryError
from strata.query.filters import SearchFilters
from strata.query.router import IndexFacts, route
from strata.surfaces.http.bodies import SearchRequest
from strata.surfaces.jobs import Jobs
from strata.surfaces.mcp import Tools
from strata.types import Record
from tests.test_cli import strata

FLAGS = {"path": ["src/**"], "lang": ["python"], "no_tests": True, "repo": "minirepo"}
WANT = SearchFilters(path=("src/**",), lang=("python",), is_test=False, repo="minirepo")


@pytest.fixture
def indexed(minirepo: Path) -> Engine:
    eng = Engine.open(minirepo, config={"embed.provider": "none"})
    eng.index()
    return eng


def test_the_value_is_frozen_and_slotted() -> None:
    assert not hasattr(WANT, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        WANT.repo = "other"  # type: ignore[misc]


def test_the_engine_mapping_the_flags_and_the_http_body_give_one_value() -> None:
    one = SearchFilters.from_flags(path="src/**", lang="python", no_tests=True, repo="minirepo")
    assert one == WANT  # a string is a list of one
    assert SearchFilters.of(FLAGS) == WANT
    assert SearchFilters.from_flags(**FLAGS) == WANT  # type: ignore[arg-type]
    body = SearchRequest.model_validate({"query": "retry", "filters": FLAGS})
    assert body.arguments()["filters"] == WANT
    assert SearchRequest(query="retry").arguments()["filters"] == SearchFilters()
    assert SearchFilters.of(WANT) is WANT and SearchFilters.of(None) == SearchFilters()


def test_the_router_reads_the_same_fields_from_a_question() -> None:
    facts = IndexFacts(repos=("minirepo", "other"), paths=lambda: ["src/minihttp/client.py"])
    plan = route("python code for retries under src/ in minirepo, excluding tests", facts)
    assert plan.filters == WANT
    assert set(plan.guessed) == set(WANT.given())


def test_the_cli_builds_the_value_it_prints(indexed: Engine) -> None:
    """`strata search --explain` shows the plan's filters: the caller's flags, as JSON."""
    done = strata(
        "search", "send a request", "--explain", "--path", "src/**", "--lang", "python",
        "--no-tests", "--repo", "minirepo", "--mode", "lexical", cwd=indexed.root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = re.search(r"filters: (\{.*\})", done.stderr)
    assert shown, done.stderr
    assert json.loads(shown.group(1)) == WANT.to_json()


def test_mcp_asks_the_engine_with_the_same_value(indexed: Engine) -> None:
    tools = Tools(lambda: indexed, Jobs(lambda: indexed))
    got = tools.search("send a request", k=5, path=["src/**"], lang=["python"], repo="minirepo")
    mine = indexed.search("send a request", 5, filters=dataclasses.replace(WANT, is_test=None))
    assert got.hits and [h.path for h in got.hits] == [h.record.path for h in mine.hits]
    assert all(h.path.startswith("src/") for h in got.hits)


def test_the_plain_and_the_routed_search_keep_the_same_hits(indexed: Engine) -> None:
    plain = indexed.search("request", 10, filters=FLAGS, mode="lexical", route=False)
    routed = indexed.search("request", 10, filters=FLAGS, mode="lexical")
    for hits in (plain.hits, routed.hits):
        assert hits and all(WANT.keeps(h.record) for h in hits)
        assert all(h.record.path.startswith("src/") and not h.record.is_test for h in hits)


def test_bad_filters_get_a_one_line_reason(indexed: Engine) -> None:
    for bad, said in (({"paht": "src/**"}, "unknown search filter 'paht'"), ({"lang": 3}, "lang")):
        with pytest.raises(QueryError) as caught:
            indexed.search("request", filters=bad)
        assert said in caught.value.message and "\n" not in caught.value.message


def test_merging_clearing_and_keeping() -> None:
    guessed = SearchFilters(lang=("rust",), is_test=True, domain="payments")
    merged = guessed.narrowed_by(SearchFilters(lang=("python",), is_test=False))
    assert merged == SearchFilters(lang=("python",), is_test=False, domain="payments")
    assert merged.without(("lang", "domain")) == SearchFilters(is_test=False)
    assert merged.to_json() == {"lang": "python", "is_test": False, "domain": "payments"}
    rec = Record(
        id="a", layer="C0_SOURCE_CHUNKS", path="src/a.py", lang="python", kind="function",
        title="f", content="def f(): ...", span_start=1, span_end=1, is_test=False,
        metadata={"domain": "Payments"}, file_hash="h", content_hash="c",
    )  # fmt: skip
    assert merged.keeps(rec)
    assert not merged.narrowed_by(SearchFilters(path=("docs/**",))).keeps(rec)
