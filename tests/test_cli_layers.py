"""The layer commands end to end: `strata symbols|callers|callees|entrypoints|docs`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from strata.surfaces.cli import app
from strata.surfaces.cli.layers import attach
from tests.test_lookup import CORPORA, build, write_shop

COMMON = {"id", "path", "start_line", "end_line", "layer", "title", "lang", "content", "metadata"}


@pytest.fixture
def cli() -> click.Group:
    attach(app)
    return app


def run(cli: click.Group, *args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def mini(tmp_path: Path) -> str:
    root = tmp_path / "minirepo"
    shutil.copytree(CORPORA / "minirepo", root)
    return str(build(root).index_dir)


def test_attach_adds_the_commands(cli: click.Group) -> None:
    assert {"symbols", "callers", "callees", "entrypoints", "docs"} <= set(cli.commands)


def test_symbols_json(cli: click.Group, mini: str) -> None:
    res = run(cli, "symbols", "Client.send", "--json", "--index-dir", mini)
    assert res.exit_code == 0
    [row] = json.loads(res.stdout)
    assert set(row) >= COMMON
    assert row["layer"] == "C1_SYMBOL_CATALOG"
    assert (row["qname"], row["kind"], row["match"]) == (
        "minihttp.client.Client.send",
        "method",
        "qualified",
    )
    assert (row["path"], row["start_line"], row["end_line"]) == ("src/minihttp/client.py", 31, 38)


def test_symbols_kind_filter_and_table(cli: click.Group, mini: str) -> None:
    res = run(cli, "symbols", "RetryPolcy", "--kind", "class", "--index-dir", mini)
    assert res.exit_code == 0
    assert "fuzzy" in res.stdout and "RetryPolicy" in res.stdout
    res = run(cli, "symbols", "RetryPolicy", "--kind", "function", "--json", "--index-dir", mini)
    assert json.loads(res.stdout) == []


def test_unknown_symbol_is_a_helpful_empty_result(cli: click.Group, mini: str) -> None:
    res = run(cli, "symbols", "frobnicate_header", "--json", "--index-dir", mini)
    assert res.exit_code == 0
    assert json.loads(res.stdout) == []
    assert "no symbol named frobnicate_header; closest: " in res.stderr
    assert "parse_header" in res.stderr


def test_a_walk_of_an_unknown_name_names_the_closest(cli: click.Group, mini: str) -> None:
    res = run(cli, "callers", "parse_headr_line", "--json", "--index-dir", mini)
    assert res.exit_code == 0
    assert json.loads(res.stdout) == []
    assert "no symbol named parse_headr_line; closest: parse_header" in res.stderr
    res = run(cli, "callees", "parse_header", "--json", "--index-dir", mini)
    assert "no symbol named" not in res.stderr  # a known name: no hint


def test_a_walk_of_a_misspelt_name_walks_the_name_it_misspells(cli: click.Group, mini: str) -> None:
    res = run(cli, "callers", "parse_haeder", "--json", "--index-dir", mini)
    assert res.exit_code == 0
    right = run(cli, "callers", "parse_header", "--json", "--index-dir", mini)
    assert json.loads(res.stdout) == json.loads(right.stdout) != []
    assert "no symbol named 'parse_haeder'; showing 'parse_header'" in res.stderr


def test_callers_json_depth_2(cli: click.Group, mini: str) -> None:
    res = run(cli, "callers", "parse_header", "--depth", "2", "--json", "--index-dir", mini)
    assert res.exit_code == 0
    rows = json.loads(res.stdout)
    assert [(r["depth"], r["symbol"]["qname"]) for r in rows] == [
        (1, "minihttp.client.Client._transmit"),
        (2, "minihttp.client.Client.send"),
    ]
    assert all(set(r) >= COMMON and r["layer"] == "C2_DEPENDENCY_GRAPH" for r in rows)
    assert "parse_header(line)" in rows[0]["chunk"]["content"]


def test_callers_terminal_shows_the_calling_code(cli: click.Group, mini: str) -> None:
    res = run(cli, "callers", "parse_header", "--index-dir", mini)
    assert res.exit_code == 0
    assert "minihttp.client.Client._transmit" in res.stdout
    assert "src/minihttp/client.py:42" in res.stdout
    assert "parse_header(line)" in res.stdout


def test_callers_terminal_names_every_line_of_a_call(cli: click.Group, tmp_path: Path) -> None:
    root = tmp_path / "untyped"
    root.mkdir()
    (root / "m.py").write_text(UNTYPED, encoding="utf-8")
    res = run(cli, "callers", "m.Client._transmit", "--index-dir", str(build(root).index_dir))
    assert "m.py:11 (also 14)" in res.stdout


UNTYPED = """import time


class Policy:
    def delay(self):
        return 1


class Client:
    def send(self, policy):
        self._transmit()
        wait = policy.delay()
        time.sleep(wait)
        self._transmit()

    def _transmit(self):
        pass
"""


def test_callees_json(cli: click.Group, tmp_path: Path) -> None:
    root = tmp_path / "untyped"
    root.mkdir()
    (root / "m.py").write_text(UNTYPED, encoding="utf-8")
    index_dir = str(build(root).index_dir)
    args = ("callees", "m.Client.send", "--json", "--index-dir", index_dir)
    rows = json.loads(run(cli, *args, "--name-matches").stdout)
    assert [(r["symbol"]["qname"], r["match"], r["resolved"], r["lines"]) for r in rows] == [
        ("m.Client._transmit", "resolved", True, [11, 14]),
        ("m.Policy.delay", "name", False, [12]),  # `policy` has no stated class
        ("time.sleep", "unresolved", False, [13]),
    ]
    assert rows[2]["chunk"] is None
    res = run(cli, *args)  # by default a bare-name guess is not shown as the callee
    assert [r["match"] for r in json.loads(res.stdout)] == ["resolved", "unresolved", "unresolved"]
    assert "1 callees shown as unresolved: tied by the bare name only" in res.stderr


def test_entrypoints_json(cli: click.Group, tmp_path: Path) -> None:
    index_dir = str(build(write_shop(tmp_path / "shop")).index_dir)
    res = run(cli, "entrypoints", "--type", "http", "--json", "--index-dir", index_dir)
    assert res.exit_code == 0
    rows = json.loads(res.stdout)
    assert [(r["http_method"], r["route_or_command"], r["framework"]) for r in rows] == [
        ("POST", "/charges", "fastapi"),
        ("GET", "/health", "fastapi"),
    ]
    assert all(set(r) >= COMMON and r["layer"] == "C3_ENTRYPOINTS" for r in rows)
    res = run(cli, "entrypoints", "--framework", "click", "--index-dir", index_dir)
    assert "main charge" in res.stdout and "/charges" not in res.stdout


def test_docs_json_and_filters(cli: click.Group, tmp_path: Path) -> None:
    root = tmp_path / "docs"
    shutil.copytree(CORPORA / "docs", root)
    index_dir = str(build(root).index_dir)
    res = run(cli, "docs", "--kind", "adr", "--json", "--index-dir", index_dir)
    rows = json.loads(res.stdout)
    assert [(r["path"], r["document_id"], r["doc_kind"]) for r in rows] == [
        ("adr/0001-use-postgres.md", "adr-0001", "adr"),
        ("adr/0002-kafka.md", "adr-0002", "adr"),
    ]
    assert all(set(r) >= COMMON and r["layer"] == "D1_DOCUMENT_CATALOG" for r in rows)
    res = run(
        cli, "docs", "--type", "entity", "--domain", "payments", "--json", "--index-dir", index_dir
    )
    assert [r["path"] for r in json.loads(res.stdout)] == ["entities/transaction.md"]


def test_no_index_is_a_user_error(cli: click.Group, tmp_path: Path) -> None:
    for args in (["symbols", "x"], ["callers", "x"], ["entrypoints"], ["docs"]):
        res = run(cli, *args, "--index-dir", str(tmp_path / "nowhere"))
        assert res.exit_code == 1, args
        assert "no index" in res.stderr
