"""The web page at `/` of a real `strata serve`, over a real index, in a real Chromium.

The HTTP half checks what the page relies on (its files and headers, `/file` refusing what
the index does not hold); the browser half types, clicks and reads as a person would, and
saves screenshots under tests/artifacts/web/.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from strata import Engine
from strata.surfaces.cli import app
from strata.surfaces.cli.forward import run_command
from strata.surfaces.http.pool import Engines
from strata.surfaces.http.server import Server
from tests.llama_server import LlamaServer

CORPORA = Path(__file__).parent / "corpora"
ARTIFACTS = Path(__file__).parent / "artifacts" / "web"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
EVIL = (
    "# Hostile notes\n\n<script>window.__pwned = 1</script> "
    '<img src=x onerror="window.__pwned=2"> zanzibar marker\n'
)


PLATYPUS = (
    "# Platypus\n\nThe platypus section is copied word for word into the site's pages, as a\n"
    "read-me often is into a documentation index.\n"
)


# A definition inside a longer chunk: the var block below the imports.
MUX_GO = (
    "package mux\n\nimport (\n"
    + "".join(f'\t"pkg{i}"\n' for i in range(12))
    + ")\n\nvar (\n\t// ErrWombat is returned when no route matches.\n"
    + '\tErrWombat = errors.New("no match")\n)\n\nfunc Use() {\n\treturn\n}\n'
)


def _request(srv: Server, method: str, path: str, body: Any = None, headers: Any = None) -> Any:
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=60)
    data = None if body is None else json.dumps(body).encode()
    conn.request(method, path, data, {"Content-Type": "application/json", **(headers or {})})
    resp = conn.getresponse()
    payload = resp.read()
    conn.close()
    return resp.status, dict(resp.getheaders()), payload


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """minirepo, the docs corpus and a hostile Markdown file, indexed lexically."""
    root = tmp_path_factory.mktemp("web") / "repo"
    shutil.copytree(CORPORA / "minirepo", root)
    shutil.copytree(CORPORA / "docs", root / "docs" / "corpus")
    (root / "docs" / "evil.md").write_text(EVIL)
    (root / "docs" / "vanishing.md").write_text("# Vanishing\n\nquokka paragraph\n")
    (root / "mux").mkdir()
    (root / "mux" / "mux.go").write_text(MUX_GO)
    for twin in ("docs/platypus.md", "docs/site/platypus.md"):  # one text in two places
        (root / twin).parent.mkdir(parents=True, exist_ok=True)
        (root / twin).write_text(PLATYPUS)
    Engine.open(root, config={"embed.provider": "none"}).index()
    (root / "docs" / "vanishing.md").unlink()  # indexed, then gone from disk
    old = os.environ.get("STRATA_EMBED_PROVIDER")
    os.environ["STRATA_EMBED_PROVIDER"] = "none"
    yield root
    if old is None:
        os.environ.pop("STRATA_EMBED_PROVIDER", None)
    else:
        os.environ["STRATA_EMBED_PROVIDER"] = old


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[Server]:
    engines = Engines.open(str(site), None, None)
    with Server(engines, "127.0.0.1", 0, cli=run_command(engines, app)) as srv:
        yield srv


def test_the_page_and_its_files_come_with_a_strict_policy(server: Server) -> None:
    status, headers, body = _request(server, "GET", "/")
    assert status == 200 and b'<script type="module" src="/web/app.js">' in body
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe" not in csp
    assert b"<script>" not in body  # no inline script anywhere
    for name, kind in (("app.js", "text/javascript"), ("app.css", "text/css")):
        status, headers, _ = _request(server, "GET", f"/web/{name}")
        assert status == 200 and headers["content-type"].startswith(kind)
    assert _request(server, "GET", "/web/server.py")[0] == 404
    assert _request(server, "GET", "/web/..%2F__init__.py")[0] == 404


def test_file_reads_only_what_the_index_holds(server: Server, site: Path) -> None:
    status, _, body = _request(server, "POST", "/file", {"path": "src/minihttp/client.py"})
    got = json.loads(body)
    assert status == 200 and got["lines"][0].startswith('"""The HTTP client')
    assert got["line_count"] == len((site / "src/minihttp/client.py").read_text().splitlines())
    for path in ("/etc/passwd", "../../../etc/passwd", ".strata/meta.json", "nosuch.py"):
        status, _, body = _request(server, "POST", "/file", {"path": path})
        assert status == 400, path
        assert "not an indexed file" in json.loads(body)["error"]
    for body_in in ({"path": "a\x00b"}, {"path": "README.md", "repo": "\x00"}):
        for endpoint in ("/file", "/document"):  # no store is asked for a NUL
            assert _request(server, "POST", endpoint, body_in)[0] == 400
    status, _, body = _request(server, "POST", "/file", {"path": "docs/vanishing.md"})
    assert status == 200 and json.loads(body)["gone"] == "deleted since it was indexed"


def test_the_page_needs_no_token_but_the_api_does(site: Path) -> None:
    engines = Engines.open(str(site), None, None)
    with Server(engines, "127.0.0.1", 0, token="s3cret") as srv:
        assert _request(srv, "GET", "/")[0] == 200
        assert _request(srv, "POST", "/file", {"path": "README.md"})[0] == 401
        auth = {"Authorization": "Bearer s3cret"}
        assert _request(srv, "POST", "/file", {"path": "README.md"}, auth)[0] == 200
        assert _request(srv, "GET", "/", headers={"Host": "evil.example"})[0] == 403


# ---- in a real browser -------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    pg.close()
    assert errors == [], errors


def _base(srv: Server) -> str:
    return f"http://127.0.0.1:{srv.port}/"


def test_typing_a_query_shows_hits_and_enter_opens_the_file(server: Server, page: Any) -> None:
    page.goto(_base(server))
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("retry policy backoff")
    page.wait_for_url("**backoff**")  # the view is a shareable URL
    # the list of the whole query: one of a prefix, still on screen, may order hits otherwise
    hits = '#hits[data-query="retry policy backoff"]'
    page.locator(f"{hits} .hit h3", has_text="client.py").first.wait_for()
    titles = page.locator(f"{hits} .hit h3").all_inner_texts()
    target = next(i for i, t in enumerate(titles) if "client.py" in t)
    for _ in range(target + 1):
        page.keyboard.press("ArrowDown")
    chosen = page.locator(f"{hits} .hit").nth(target)
    assert "selected" in (chosen.get_attribute("class") or "")
    page.keyboard.press("Enter")
    page.wait_for_selector("pre.code .row.mark")
    assert "#/file?" in page.url and "client.py" in page.url
    assert "class RetryPolicy" in page.locator("pre.code").inner_text()
    # the shared URL opens the same view in a fresh page
    shared = page.url
    page.goto("about:blank")
    page.goto(shared)
    page.wait_for_selector("pre.code .row.mark")


def test_a_text_in_two_places_is_one_hit_naming_the_other(server: Server, page: Any) -> None:
    page.goto(_base(server) + "#/search?q=platypus%20section%20copied")
    hit = page.locator(".hit", has_text="platypus.md").first
    hit.wait_for()
    assert page.locator(".hit h3", has_text="platypus.md").count() == 1
    twin = hit.locator(".twins a")
    shown = hit.locator("h3 a").inner_text()
    other = "docs/site/platypus.md" if shown.startswith("docs/platypus.md") else "docs/platypus.md"
    assert twin.inner_text().startswith(f"{other}:1-")
    twin.click()  # opens the other place
    page.wait_for_selector("pre.code .row.mark")
    assert page.locator(".file h2").inner_text().startswith(other)


def test_a_definition_inside_a_chunk_is_shown_from_its_lines(server: Server, page: Any) -> None:
    page.goto(_base(server) + "#/search?q=where%20is%20ErrWombat%20defined")
    hit = page.locator(".hit", has_text="mux/mux.go").first
    hit.wait_for()
    assert hit.locator("h3 a").inner_text().startswith("mux/mux.go:1-")  # the whole chunk
    first = hit.locator("pre.code .row").first
    assert first.get_attribute("data-line") == "19"  # its own lines first
    assert "ErrWombat is returned" in first.inner_text()


def test_the_filter_fields_are_the_servers_search_filters(server: Server, page: Any) -> None:
    from strata.surfaces.http.bodies import Filters

    page.goto(_base(server) + "#/search?q=retry+policy+backoff&path=src%2F**")
    page.wait_for_selector("#hits .hit")
    names = page.eval_on_selector_all("#f-filters input", "els => els.map(e => e.name)")
    assert names == list(Filters.model_fields)  # one field per filter the server takes
    assert page.locator("#f-path").input_value() == "src/**"
    where = page.locator("#hits .hit a.open").all_inner_texts()
    assert where and all(w.startswith("src/") for w in where)
    page.locator("#f-no_tests").check()
    page.wait_for_url("**no_tests=1**")  # the filter's own name, as the body takes it
    page.locator("#f-path").fill("docs/**")
    page.wait_for_url("**docs%2F**")
    page.wait_for_function(  # the src/ hits give way to the docs/ ones
        "() => [...document.querySelectorAll('#hits .hit a.open')]"
        ".every(a => a.textContent.startsWith('docs/'))"
    )


def test_the_layer_menu_is_the_servers_list_of_layers(server: Server, page: Any) -> None:
    from strata.layers import ALL_LAYERS

    def menu() -> list[str]:
        return list(page.eval_on_selector_all("#f-layer option", "els => els.map(e => e.value)"))

    page.goto(_base(server) + "#/search?q=retry&layer=C1_SYMBOL_CATALOG")
    page.wait_for_selector("#hits .hit")
    assert menu() == ["", *sorted(ALL_LAYERS)]  # "" is the routed search
    assert page.locator("#f-layer").input_value() == "C1_SYMBOL_CATALOG"

    def one_fewer(route: Any) -> None:  # the page keeps no list of its own
        answer = route.fetch()
        schema = answer.json()
        layers = schema["components"]["schemas"]["SearchRequest"]["properties"]["layers"]
        for option in layers["anyOf"]:
            for listed in (option, option.get("items", {})):
                if "D6_INTEGRATION_INDEX" in listed.get("enum", []):
                    listed["enum"].remove("D6_INTEGRATION_INDEX")
        route.fulfill(response=answer, json=schema)

    page.route("**/openapi.json", one_fewer)
    page.goto(_base(server) + "#/status")
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#f-layer option').length > 1")
    assert menu() == ["", *sorted(set(ALL_LAYERS) - {"D6_INTEGRATION_INDEX"})]


def test_a_search_overtaken_by_a_newer_one_is_aborted_quietly(server: Server, page: Any) -> None:
    held: list[Any] = []  # the first search is held back, so it is still in flight

    def hold_first(route: Any) -> None:
        if not held and (route.request.post_data_json or {}).get("query") == "retry":
            held.append(route)
        else:
            route.continue_()

    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))
    page.goto(_base(server))
    page.route("**/search", hold_first)
    page.locator("#q").fill("retry")
    page.wait_for_timeout(300)  # past the debounce: "retry" is asked and held
    assert held
    page.locator("#q").press_sequentially(" policy")
    page.locator('#hits[data-query="retry policy"] .hit').first.wait_for()
    with contextlib.suppress(Exception):  # the page has given it up already
        held[0].continue_()
    assert [f for f in failed if "/search" in f] and all("ABORTED" in f for f in failed), failed
    assert page.locator("#error").inner_text() == ""
    assert "down" not in (page.locator("#conn").get_attribute("class") or "")


def test_a_keystroke_after_a_pause_searches_at_once(server: Server, page: Any) -> None:
    page.clock.install(time=0)  # the page's timers run only when the test moves its clock
    page.goto(_base(server))
    page.clock.pause_at(1000)
    page.locator("#q").press_sequentially("retry")
    page.locator('#hits[data-query="r"]').wait_for()  # the first key: searched, no wait
    assert page.locator('#hits[data-query="retry"]').count() == 0  # the rest: gathered
    page.clock.run_for(100)  # past the debounce
    page.locator('#hits[data-query="retry"] .hit').first.wait_for()


def test_the_hits_below_the_fold_follow_in_the_servers_order(server: Server, page: Any) -> None:
    """The first hits are put in the page before it paints, the rest after that frame:
    together they are the server's hits, all of them, in its order."""
    body = {"query": "retry policy", "k": 20, "filters": {}}
    status, _, raw = _request(server, "POST", "/search", body)
    hits = json.loads(raw)["hits"]
    assert status == 200 and len(hits) > 6  # more than the page renders before it paints
    want = [
        f"{h['path']}:{h['start_line']}-{h['end_line']}" if h["start_line"] else h["path"]
        for h in hits
    ]
    page.goto(_base(server) + "#/search?q=retry+policy")
    page.wait_for_function(f"() => document.querySelectorAll('#hits .hit').length >= {len(hits)}")
    assert page.locator("#hits .hit a.open").all_inner_texts() == want
    indexes = page.eval_on_selector_all("#hits .hit", "els => els.map(e => e.dataset.index)")
    assert indexes == [str(i) for i in range(len(hits))]


def test_a_rejected_query_shows_its_reason(server: Server, page: Any) -> None:
    page.goto(_base(server) + "#/search?q=x&layer=NOPE")
    page.locator("#error", has_text="layer").wait_for()
    assert "\n" not in page.locator("#error").inner_text().strip()


def test_hostile_content_renders_as_text(server: Server, page: Any) -> None:
    page.goto(_base(server) + "#/search?q=zanzibar+marker")
    page.wait_for_selector("#hits .hit")
    assert "<script>window.__pwned = 1</script>" in page.locator("#hits").inner_text()
    page.locator("#hits .hit a.open").first.click()
    page.wait_for_selector("pre.code")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("pre.code script, pre.code img").count() == 0


def test_the_call_graph_can_be_walked(server: Server, page: Any) -> None:
    page.goto(_base(server) + "#/graph?q=minihttp.client.Client.send")
    page.wait_for_selector("svg.graph a")
    names = _node_names(page)
    callee = next(n for n in names if n.endswith("_transmit"))
    page.locator(f'svg.graph a[data-name="{callee}"]').click()
    page.wait_for_url("**_transmit**")
    page.locator('svg.graph a[data-name$="Client.send"]').wait_for()
    assert any(n.endswith("Client.send") for n in _node_names(page))


def _node_names(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("svg.graph a", "els => els.map(e => e.dataset.name)"))


def test_a_documents_relations_can_be_read(server: Server, page: Any) -> None:
    page.goto(_base(server) + "#/docs")
    page.wait_for_selector("table a")
    cards = page.locator("table a")
    assert cards.count() >= 5
    with_relations = None
    for i in range(cards.count()):
        cards.nth(i).click()
        page.wait_for_selector(".document")
        if page.locator("#relations li").count():
            with_relations = page.url
            break
        page.go_back()
        page.wait_for_selector("table a")
    assert with_relations is not None, "no document with relations in the docs corpus"
    assert page.locator("#facts, #entities").count() == 2


def test_the_status_view_and_a_vanished_file(server: Server, page: Any) -> None:
    page.goto(_base(server) + "#/status")
    page.wait_for_selector("#status")
    assert "C0_SOURCE_CHUNKS" in page.locator("#layers").inner_text()
    page.goto(_base(server) + "#/file?path=docs%2Fvanishing.md")
    page.wait_for_selector("#gone")
    assert "deleted since it was indexed" in page.locator("#gone").inner_text()


def test_a_server_that_goes_away_is_shown_and_recovers(site: Path, page: Any) -> None:
    engines = Engines.open(str(site), None, None)
    srv = Server(engines, "127.0.0.1", 0)
    port = srv.port
    with srv:
        page.goto(f"http://127.0.0.1:{port}/#/status")
        page.wait_for_selector("#status")
    page.locator("#conn", has_text="unreachable").wait_for(timeout=15000)
    with Server(engines, "127.0.0.1", port):
        page.locator("#conn", has_text="connected").wait_for(timeout=15000)
        page.wait_for_selector("#status")


def test_axe_finds_no_serious_violations(server: Server, page: Any) -> None:
    spec = find_spec("axe_playwright_python")
    assert spec is not None and spec.origin is not None
    axe = (Path(spec.origin).parent / "axe.min.js").read_text()
    for view in ("#/search?q=retry", "#/file?path=src%2Fminihttp%2Fclient.py&line=12", "#/docs"):
        page.goto(_base(server) + view)
        page.wait_for_timeout(500)
        page.evaluate(axe + "\n;0")  # evaluate is not an inline script: the CSP stays on
        found = page.evaluate("async () => (await axe.run()).violations.map(v => [v.id, v.impact])")
        serious = [v for v in found if v[1] in ("serious", "critical")]
        assert serious == [], (view, serious)


def _llm_server(site: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Server:
    for key, value in env.items():  # read when the served engine loads its configuration
        monkeypatch.setenv(key, value)
    return Server(Engines.open(str(site), None, None), "127.0.0.1", 0)


def test_ask_streams_a_cited_answer_from_a_real_model(
    site: Path, page: Any, llama: LlamaServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {
        "STRATA_LLM_PROVIDER": "openai",
        "STRATA_LLM_BASE_URL": llama.base_url,
        "STRATA_LLM_MODEL": "default",
        "STRATA_LLM_TEMPERATURE": "0",
    }
    with _llm_server(site, env, monkeypatch) as srv:
        page.goto(f"http://127.0.0.1:{srv.port}/#/ask")
        page.locator("#question").fill("How does the client retry failed requests?")
        page.get_by_role("button", name="Ask").click()
        page.locator("#answer").filter(has_text=re.compile(r"\w")).wait_for(timeout=120_000)
        page.wait_for_load_state("networkidle", timeout=120_000)
        assert page.locator("#error").inner_text().strip() == ""
        for href in page.locator("#answer a, #sources a").evaluate_all(
            "els => els.map(e => e.getAttribute('href'))"
        ):
            assert href.startswith("#/file?path=")


def test_ask_without_an_llm_says_how_to_configure_one(
    site: Path, page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _llm_server(site, {"STRATA_LLM_PROVIDER": "none"}, monkeypatch) as srv:
        page.goto(f"http://127.0.0.1:{srv.port}/#/ask")
        page.locator("#question").fill("How does the client retry failed requests?")
        page.get_by_role("button", name="Ask").click()
        page.locator("#answer", has_text="configure an LLM").wait_for(timeout=30_000)
        assert page.locator("#error").inner_text().strip() != ""
