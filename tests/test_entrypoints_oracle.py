"""C3 against the frameworks' own truth: real example apps from PyPI sdists, imported live.

Each app's live routing table (FastAPI `app.routes`, Flask `app.url_map`) or command
tree (Click groups, Typer via `typer.main.get_command`) is compared with what Strata
extracts statically from the same files: recall 1.0, precision >= 0.95, handler file
and line exact. The line is the first line of the handler's definition, decorators
included (what `co_firstlineno` and `inspect.getsourcelines` report).
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmarks.sdists import fetch_sdist

# Imported up front: `live_import` forgets every module a test imports, and LanceDB's
# native half can only initialise once per process.
import strata.index.pipeline
import strata.store.lance  # noqa: F401
from strata import Engine
from strata.index.code.entrypoints import compose_entrypoints, scan_entrypoints
from strata.index.code.model import Entrypoint
from strata.index.code.python.symbols import extract_symbols

Key = tuple[str, str, str, int]  # (method or "", route or command path, handler file, line)


def _sdist(name: str, version: str) -> Path:
    try:
        return fetch_sdist(name, version)
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"pip could not fetch the {name}=={version} sdist from PyPI: {exc}")


@pytest.fixture
def live_import() -> Iterator[Any]:
    """Import a module with `root` on sys.path, then forget everything it imported."""
    before = set(sys.modules)
    added: list[str] = []

    def load(root: Path, module: str) -> Any:
        sys.path.insert(0, str(root))
        added.append(str(root))
        return importlib.import_module(module)

    yield load
    for name in set(sys.modules) - before:
        del sys.modules[name]
    for root in added:
        sys.path.remove(root)


def _static(root: Path, app_key: str) -> set[Key]:
    results = []
    for file in sorted(root.rglob("*.py")):
        rel = file.relative_to(root).as_posix()
        text = file.read_text(encoding="utf-8")
        results.append(scan_entrypoints(text, rel, extract_symbols(text, rel)))
    entries = [e for e in compose_entrypoints(results) if e.lang_payload.get("root") == app_key]
    static = {_key(e, root) for e in entries}
    assert _indexed(root, app_key) == static, "what `strata entrypoints --json` lists differs"
    return static


def _indexed(root: Path, app_key: str) -> set[Key]:
    """The same entries through the whole engine: index, cross-file pass, store, listing."""
    eng = Engine.open(
        root, index_dir=tempfile.mkdtemp(prefix="strata-oracle-"), config={"embed.provider": "none"}
    )
    eng.index()
    out: set[Key] = set()
    for rec in eng.entrypoints():
        meta = rec.metadata
        if meta["lang_payload"].get("root") == app_key:
            key = (meta["http_method"] or "", meta["route_or_command"], str(root / rec.path))
            out.add((*key, int(rec.span_start or 0)))
    return out


def _key(e: Entrypoint, root: Path) -> Key:
    return (e.http_method or "", e.route_or_command, str(root / e.path), e.start_line)


def _where(fn: Any) -> tuple[str, int]:
    fn = inspect.unwrap(fn)
    fn = getattr(fn, "view_class", fn)
    return str(Path(inspect.getsourcefile(fn) or "").resolve()), inspect.getsourcelines(fn)[1]


def _assert_matches(static: set[Key], live: set[Key]) -> None:
    _report(static, live)
    assert live, "the live app has no routes: the oracle itself is broken"
    missing, extra = live - static, static - live
    assert not missing, f"recall < 1: live entries Strata missed: {sorted(missing)}"
    precision = len(static & live) / len(static)
    assert precision >= 0.95, f"precision {precision:.2f}; extra: {sorted(extra)}"


def _report(static: set[Key], live: set[Key]) -> None:
    """With ENTRYPOINT_ORACLE_REPORT=FILE, append the figures (benchmarks/entrypoint_oracle.py)."""
    out = os.environ.get("ENTRYPOINT_ORACLE_REPORT")
    if out:
        test = os.environ.get("PYTEST_CURRENT_TEST", "?").split("::")[-1].split(" ")[0]
        row = {"test": test, "live": len(live), "strata": len(static), "both": len(static & live)}
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")


def _fastapi_live(routes: list[Any], prefix: str = "") -> set[Key]:
    """Every API route and websocket, through included routers and mounted sub-apps.

    FastAPI >= 0.16x keeps included routers lazy; `routing.iter_route_contexts` is how
    its own OpenAPI generator enumerates them.
    """
    from fastapi import routing
    from fastapi.routing import APIRoute, APIWebSocketRoute
    from starlette.routing import Mount

    out: set[Key] = set()
    for ctx in routing.iter_route_contexts(routes):
        route = ctx.original_route
        if isinstance(route, APIRoute):
            out |= {(m, prefix + ctx.path, *_where(ctx.endpoint)) for m in ctx.methods}
        elif isinstance(route, APIWebSocketRoute):
            out.add(("WEBSOCKET", prefix + ctx.path, *_where(ctx.endpoint)))
        elif isinstance(route, Mount):
            out |= _fastapi_live(route.routes, prefix + route.path)
    return out


def _flask_live(app: Any) -> set[Key]:
    out: set[Key] = set()
    for rule in app.url_map.iter_rules():
        view = app.view_functions.get(rule.endpoint)
        if rule.endpoint.endswith("static") or view is None:
            continue  # static files, and endpoints with no view function bound
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            out.add((method, rule.rule, *_where(view)))
    return out


def _click_live(cmd: Any, path: list[str]) -> set[Key]:
    out: set[Key] = set()
    if cmd.callback is not None:
        out.add(("", " ".join(path), *_where(cmd.callback)))
    for name, sub in getattr(cmd, "commands", {}).items():
        out |= _click_live(sub, [*path, name])
    return out


def _resolved(root: Path) -> Path:
    return root.resolve()


@pytest.mark.parametrize(
    ("subdir", "module", "key"),
    [
        ("docs_src/bigger_applications", "app.main", "app.main.app"),
        ("docs_src/sub_applications", "tutorial001", "tutorial001.app"),
        ("docs_src/websockets_", "tutorial003", "tutorial003.app"),
    ],
)
def test_fastapi_docs_apps_match_live_routes(
    subdir: str, module: str, key: str, live_import: Any
) -> None:
    root = _resolved(_sdist("fastapi", "0.165.0") / subdir)
    app = live_import(root, module).app
    _assert_matches(_static(root, key), _fastapi_live(app.routes))


def test_flask_tutorial_flaskr_matches_url_map(live_import: Any, tmp_path: Path) -> None:
    root = _resolved(_sdist("flask", "3.1.3") / "examples/tutorial")
    app = live_import(root, "flaskr").create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "db")}
    )
    _assert_matches(_static(root, "flaskr.create_app.app"), _flask_live(app))


def test_flask_javascript_example_matches_url_map(live_import: Any) -> None:
    root = _resolved(_sdist("flask", "3.1.3") / "examples/javascript")
    app = live_import(root, "js_example").app
    _assert_matches(_static(root, "js_example.app"), _flask_live(app))


@pytest.mark.parametrize(
    ("example", "module"),
    [("repo", "repo"), ("naval", "naval"), ("termui", "termui"), ("aliases", "aliases")],
)
def test_click_examples_match_command_tree(example: str, module: str, live_import: Any) -> None:
    root = _resolved(_sdist("click", "8.1.3") / "examples" / example)
    cli = live_import(root, module).cli
    _assert_matches(_static(root, f"{module}.cli"), _click_live(cli, [cli.name]))


@pytest.mark.parametrize("tutorial", ["tutorial001", "tutorial003"])
def test_typer_subcommands_match_command_tree(tutorial: str, live_import: Any) -> None:
    import typer.main

    root = _resolved(_sdist("typer", "0.29.2") / "docs_src/subcommands" / tutorial)
    command = typer.main.get_command(live_import(root, "main").app)
    live = {k for k in _click_live(command, []) if k[1]}  # the root group is not a command
    _assert_matches(_static(root, "main.app"), live)
