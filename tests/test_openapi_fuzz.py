"""schemathesis against `strata serve`'s own `/openapi.json`: no 500s, answers as documented."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import checks
from schemathesis.generation.case import Case

from strata import Engine
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.server import Server

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A lexical index of the sample repository behind a real server on a free port."""
    import shutil

    root = tmp_path_factory.mktemp("fuzz") / "minirepo"
    shutil.copytree(Path(__file__).parent / "corpora" / "minirepo", root)
    Engine.open(root, config={"embed.provider": "none"}).index()
    with Server(Engines.open(str(root), None, None), "127.0.0.1", 0) as srv:
        yield srv


def test_no_server_errors_and_answers_match_the_schema(served: Server) -> None:
    schema = schemathesis.openapi.from_url(f"{served.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    tried = []
    for operation in operations:
        if operation.path == "/index":  # it writes; test_http_api runs it
            continue
        tried.append(f"{operation.method.upper()} {operation.path}")

        @given(case=operation.as_strategy())
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
        def run(case: Case) -> None:
            case.call_and_validate(base_url=served.url, checks=CHECKS)

        run()
    assert {"POST /search", "POST /symbols", "POST /cli", "GET /jobs/{job_id}"} <= set(tried)
