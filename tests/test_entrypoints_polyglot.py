"""C3 beyond Python, on excerpts of each framework's own example apps (tests/corpora/
entrypoints_polyglot, licences in its README): full prefixed routes, handlers resolved."""

from __future__ import annotations

import shutil
from pathlib import Path

from strata import Engine
from strata.index.code.entrypoints import compose_entrypoints
from strata.index.code.entrypoints.polyglot import (
    DETECTORS,
    entrypoints_of,
    scan_treesitter_entrypoints,
)
from strata.index.code.model import Entrypoint
from strata.index.code.treesitter import symbols as treesitter_symbols
from strata.text.langs import language_of

CORPUS = Path(__file__).parent / "corpora" / "entrypoints_polyglot"
Route = tuple[str | None, str, str]


def scan(app: str) -> list[Entrypoint]:
    """Every entry of one example app, composed across its files as the corpus pass does."""
    root = CORPUS / app
    files = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        lang = language_of(rel)
        if lang in DETECTORS:
            files.append((rel, lang, path.read_text(encoding="utf-8")))
    return entrypoints_of(files)


def routes(entries: list[Entrypoint], framework: str) -> set[Route]:
    return {
        (e.http_method, e.route_or_command, e.handler_symbol.rsplit(".", 1)[-1])
        for e in entries
        if e.framework == framework
    }


def test_chi_rest_example_routes_with_route_callbacks_with_and_mount() -> None:
    found = routes(scan("chi/rest"), "chi")
    assert {
        ("GET", "/articles", "ListArticles"),
        ("POST", "/articles", "CreateArticle"),
        ("GET", "/articles/search", "SearchArticles"),
        ("GET", "/articles/{articleSlug:[a-z-]+}", "GetArticle"),
        ("GET", "/articles/{articleID}", "GetArticle"),
        ("PUT", "/articles/{articleID}", "UpdateArticle"),
        ("DELETE", "/articles/{articleID}", "DeleteArticle"),
        ("GET", "/admin/accounts", ""),
        ("GET", "/admin/users/{userId}", ""),
    } <= found
    assert not {r for r in found if r[1] in ("/accounts", "/{articleID}")}  # prefixes joined


def test_chi_resources_mounted_from_other_files() -> None:
    found = routes(scan("chi/todos-resource"), "chi")
    assert ("GET", "/users/{id}", "Get") in found and ("GET", "/todos/{id}/sync", "Sync") in found
    assert ("POST", "/todos/", "Create") in found and ("GET", "/", "") in found
    got = {e.route_or_command: e for e in scan("chi/todos-resource") if e.http_method == "GET"}
    assert got["/users/{id}"].handler_symbol == "users.usersResource.Get"
    assert got["/users/{id}"].handler_symbol_id == "users.go::users.usersResource.Get"


def test_gin_groups_nested_and_handed_to_a_function() -> None:
    assert routes(scan("gin"), "gin") == {
        ("GET", "/user/:name", "userByName"),
        ("POST", "/form_post", "formPost"),
        ("POST", "/v1/login", "loginEndpoint"),
        ("POST", "/v1/submit", "submitEndpoint"),
        ("DELETE", "/v1/admin/users/:id", "deleteUser"),
        ("GET", "/v2/read", "readEndpoint"),
        ("PATCH", "/v2/items/:id", "patchItem"),
    }


def test_cobra_command_paths_net_http_routes_and_main() -> None:
    entries = scan("cobra")
    assert routes(entries, "cobra") == {
        (None, "hugo", ""),
        (None, "hugo serve", "runServe"),
        (None, "hugo version", "printVersion"),
        (None, "hugo config", ""),
        (None, "hugo config show", "showConfig"),
    }
    assert routes(entries, "net/http") == {
        ("GET", "/healthz", "healthz"),
        ("ANY", "/static/", "static"),
    }
    mains = [e for e in entries if e.entrypoint_kind == "main_func"]
    assert [(m.path, m.entry_type) for m in mains] == [("main.go", "other")]
    serve = next(e for e in entries if e.route_or_command == "hugo serve")
    assert serve.handler_symbol_id and serve.summary_text == "Serve the site over HTTP"


def test_an_index_lists_them_and_the_router_answers(tmp_path: Path) -> None:
    root = tmp_path / "app"
    shutil.copytree(CORPUS / "gin", root / "web")
    shutil.copytree(CORPUS / "cobra", root / "cli")
    eng = Engine.open(root, config={"embed.provider": "none"})
    eng.index()
    http = {r.metadata["route_or_command"] for r in eng.entrypoints(type="http")}
    assert {"/v1/admin/users/:id", "/v2/items/:id", "/healthz"} <= http
    cli = {r.metadata["route_or_command"] for r in eng.entrypoints(type="cli", framework="cobra")}
    assert "hugo config show" in cli
    assert all(r.lang == "go" for r in eng.entrypoints())


def test_express_multi_router_mounts_required_modules() -> None:
    assert routes(scan("express/multi-router"), "express") == {
        ("GET", "/api/v1/", ""),
        ("GET", "/api/v1/users", ""),
        ("GET", "/api/v2/", ""),
        ("GET", "/api/v2/users", ""),
        ("GET", "/", ""),
    }


def test_express_route_separation_handlers_and_verbs() -> None:
    found = {
        (m, r, h) for m, r, h in routes(scan("express"), "express") if not r.startswith("/api")
    }
    assert {
        ("GET", "/users", "list"),
        ("ANY", "/user/:id/:op?", "load"),
        ("PUT", "/user/:id/edit", "update"),
        ("GET", "/posts", "list"),
    } <= found
    handlers = {e.handler_symbol for e in scan("express") if e.route_or_command == "/user/:id/edit"}
    assert handlers == {"user.edit", "user.update"}


def test_express_router_in_typescript_with_route_chain_and_default_export(tmp_path: Path) -> None:
    (tmp_path / "routes").mkdir()
    (tmp_path / "app.ts").write_text(
        "import express from 'express';\nimport books from './routes/books';\n"
        "const app = express();\napp.use('/books', books);\napp.get('port');\n"
    )
    (tmp_path / "routes" / "books.ts").write_text(
        "import { Router } from 'express';\nconst router = Router();\n"
        "function list(req, res) {}\n"
        "router.route('/:id').get(list).delete((req, res) => res.end());\n"
        "export default router;\n"
    )
    scans = []
    for rel in ("app.ts", "routes/books.ts"):
        text = (tmp_path / rel).read_text()
        scans.append(
            scan_treesitter_entrypoints(
                text, "typescript", rel, treesitter_symbols.extract(text, "typescript", rel)[0]
            )
        )
    got = {
        (e.http_method, e.route_or_command, e.handler_symbol) for e in compose_entrypoints(scans)
    }
    assert got == {("GET", "/books/:id", "routes.books.list"), ("DELETE", "/books/:id", "")}


def test_spring_class_prefix_joined_with_each_method_mapping() -> None:
    assert routes(scan("spring"), "spring") == {
        ("GET", "/owners", "findOwners"),
        ("GET", "/owners/{ownerId}", "showOwner"),
        ("POST", "/owners/new", "createOwner"),
        ("PUT", "/owners/{ownerId}/edit", "updateOwner"),
        ("PATCH", "/owners/{ownerId}/edit", "updateOwner"),
        ("PUT", "/owners/{ownerId}/update", "updateOwner"),
        ("PATCH", "/owners/{ownerId}/update", "updateOwner"),
        ("DELETE", "/owners/{ownerId}", "deleteOwner"),
        ("ANY", "/greeting", "greeting"),
    }
    first = next(e for e in scan("spring") if e.route_or_command == "/owners")
    assert first.handler_symbol_id and first.summary_text.startswith("Lists the owners")


def test_axum_chains_nest_merge_across_files() -> None:
    assert routes(scan("axum"), "axum") == {
        ("GET", "/", "root"),
        ("GET", "/todos", "todos_index"),
        ("POST", "/todos", "todos_create"),
        ("PATCH", "/todos/:id", "todos_update"),
        ("DELETE", "/todos/:id", "todos_delete"),
        ("GET", "/healthz", ""),
        ("GET", "/api/users/", "list_users"),
        ("POST", "/api/users/", "create_user"),
        ("GET", "/api/users/:id", "show_user"),
        ("POST", "/api/login", "login"),
    }


def test_net_http_routes_of_go_s_own_triv_server_with_their_handlers() -> None:
    assert routes(scan("nethttp"), "net/http") == {
        ("ANY", "/counter", "ctr"),
        ("ANY", "/", "Logger"),  # http.HandlerFunc(Logger)
        ("ANY", "/go/", "StripPrefix"),
        ("ANY", "/chan", "ChanCreate"),
        ("ANY", "/flags", "FlagServer"),
        ("ANY", "/args", "ArgServer"),
        ("ANY", "/go/hello", "HelloServer"),
        ("ANY", "/date", "DateServer"),
    }


def test_gin_readme_examples_groups_static_files_and_a_snippet_without_its_router() -> None:
    files = ("/assets/*filepath", "/more_static/*filepath", "/favicon.ico", "/more_favicon.ico")
    assert routes(scan("gin-readme"), "gin") == {
        ("GET", "/benchmark", "benchEndpoint"),  # the middleware before it is not the handler
        ("POST", "/login", "loginEndpoint"),  # under the group "/"
        ("POST", "/submit", "submitEndpoint"),
        ("POST", "/read", "readEndpoint"),
        ("GET", "/testing/analytics", "analyticsEndpoint"),  # group "testing" in group "/"
        *{(verb, path, "") for verb in ("GET", "HEAD") for path in files},  # gin's own handler
        ("GET", "/test", ""),  # `r` is not defined in the snippet: its handler names gin
        ("GET", "/test2", ""),
    }


def test_cobra_cli_commands_across_its_files() -> None:
    entries = scan("cobra-cli")
    assert routes(entries, "cobra") == {
        (None, "cobra-cli", ""),
        (None, "cobra-cli add", ""),
        (None, "cobra-cli init", ""),
    }
    init = next(e for e in entries if e.route_or_command == "cobra-cli init")
    assert init.summary_text == "Initialize a Cobra Application"


def test_spring_reference_docs_controller_with_bare_mappings() -> None:
    assert routes(scan("spring-docs"), "spring") == {
        ("GET", "/appointments", "get"),  # a bare @GetMapping is the class's own path
        ("GET", "/appointments/{day}", "getForDay"),
        ("GET", "/appointments/new", "getNewForm"),
        ("POST", "/appointments", "add"),
    }


def test_gin_s_own_tests_call_its_constructor_unqualified_and_name_methods_by_constant() -> None:
    # Inside package gin, `router := New()` is gin's router and `http.MethodGet` names GET;
    # the GitHub API table registered in a loop (`router.Handle(route.method, route.path,
    # ...)`) has no literal route, and none is made up for it.
    verbs = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
    assert routes(scan("gin-tests"), "gin") == {
        ("GET", "/rest/:name/:id", ""),
        ("GET", "/new/rest/:num", ""),
        ("GET", "/test/copy/race", ""),
        # routergroup_test.go: `v1 := router.Group("v1")` is "/v1" (the root group's path is "/")
        *{(verb, path, "handler") for verb in verbs for path in ("/v1/test", "/v1/login/test")},
    }


def test_cobra_s_own_tests_make_commands_unqualified_inside_package_cobra() -> None:
    assert {e.route_or_command for e in scan("cobra-tests") if e.framework == "cobra"} == {
        "root",
        "root echo",
        "root echo times",
        "root print",
        "root deprecated",
        "root cmd:colon",
    }


def test_axum_layered_generic_service_and_helper_routes() -> None:
    """What axum's own examples do beyond plain chains (benchmarks.entrypoint_polyglot):
    a comment among `route`'s arguments, a handler wrapped in a layer or called with a
    type (`h::<T>`), `post_service`, `route_service` (any method), and a file's own
    `route(path, method_router)` helper called by the function whose router it builds."""
    found = {" ".join(route).strip() for route in routes(scan("axum_extras"), "axum")}
    assert found == {
        *("GET /items/:id show_item", "POST /items/:id save_item"),
        *("GET /generic/:id show_generic", "ANY /index.html", "GET /v1/ping handler"),
    }
