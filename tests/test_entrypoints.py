"""C3 detectors on small apps: routes, commands, prefixes across files, name derivation."""

from __future__ import annotations

from strata.index.code.entrypoints import compose_entrypoints, detect_entrypoints, scan_entrypoints
from strata.index.code.entrypoints.click import click_name
from strata.index.code.model import Entrypoint
from strata.index.code.python.symbols import extract_symbols


def _detect(text: str, path: str = "app.py") -> list[Entrypoint]:
    return detect_entrypoints(text, path, extract_symbols(text, path))


def _routes(entries: list[Entrypoint]) -> set[tuple[str | None, str, str]]:
    return {(e.http_method, e.route_or_command, e.handler_symbol) for e in entries}


def test_fastapi_router_prefix_api_route_websocket_and_add_api_route() -> None:
    text = '''
from fastapi import APIRouter, FastAPI
app = FastAPI()
router = APIRouter(prefix="/items")

@router.api_route("/{id}", methods=["GET", "POST"])
def item(id: int):
    """Read or write one item."""

@app.websocket("/ws")
async def ws(socket): ...

def health(): ...
app.add_api_route("/health", health)
app.include_router(router, prefix="/v1")
'''
    entries = _detect(text)
    assert _routes(entries) == {
        ("GET", "/v1/items/{id}", "app.item"),
        ("POST", "/v1/items/{id}", "app.item"),
        ("WEBSOCKET", "/ws", "app.ws"),
        ("GET", "/health", "app.health"),
    }
    item = next(e for e in entries if e.handler_symbol == "app.item")
    assert item.summary_text == "Read or write one item." and item.entry_type == "http"
    assert item.handler_symbol_id == "app.py::app.item" and item.framework == "fastapi"


def test_flask_blueprint_registered_in_another_file_gets_the_register_prefix() -> None:
    views = """
from flask import Blueprint
from flask.views import MethodView
bp = Blueprint("auth", __name__, url_prefix="/auth")

@bp.route("/login", methods=["GET", "POST"])
def login(): ...

class Users(MethodView):
    def get(self): ...
    def post(self): ...
bp.add_url_rule("/users", view_func=Users.as_view("users"))
"""
    main = (
        "from flask import Flask\nfrom .views import bp\napp = Flask(__name__)\n"
        "app.register_blueprint(bp, url_prefix='/api')\n"
    )
    files = {"web/views.py": views, "web/__init__.py": main}
    scans = [scan_entrypoints(t, p, extract_symbols(t, p)) for p, t in files.items()]
    assert _routes(compose_entrypoints(scans)) == {
        ("GET", "/api/login", "web.views.login"),
        ("POST", "/api/login", "web.views.login"),
        ("GET", "/api/users", "web.views.Users"),
        ("POST", "/api/users", "web.views.Users"),
    }
    alone = _routes(_detect(views, "web/views.py"))
    assert ("GET", "/auth/login", "web.views.login") in alone  # unregistered: its own prefix


def test_click_nested_groups_names_and_add_command() -> None:
    text = """
import click

@click.group()
def cli(): ...

@cli.group()
def remote_group(): ...

@remote_group.command()
def add_remote_cmd(): ...

@click.command(name="sync")
def do_sync(): ...
cli.add_command(do_sync, name="pull")
"""
    assert {e.route_or_command for e in _detect(text)} == {
        "cli",
        "cli remote",
        "cli remote add-remote",
        "cli pull",
    }
    assert click_name("init_db_command") == "init-db" and click_name("Run_All") == "run-all"


def test_typer_add_typer_django_argparse_and_main_guard() -> None:
    typer_app = """
import typer
app = typer.Typer()
users = typer.Typer()
app.add_typer(users, name="users")

@users.command()
def create_user(name: str): ...

@app.command("hello")
def say_hello(): ...
"""
    assert {e.route_or_command for e in _detect(typer_app)} == {"users create-user", "hello"}
    urls = """
from django.urls import include, path
from . import views
urlpatterns = [
    path("", views.index, name="index"),
    path("api/", include("shop.api.urls")),
    path("about/", views.About.as_view()),
]
"""
    api = (
        "from django.urls import path\nfrom .views import orders\n"
        "urlpatterns = [path('orders/', orders)]\n"
    )
    scans = [
        scan_entrypoints(t, p, [])
        for p, t in {"shop/urls.py": urls, "shop/api/urls.py": api}.items()
    ]
    assert {(e.route_or_command, e.handler_symbol) for e in compose_entrypoints(scans)} == {
        ("", "shop.views.index"),
        ("about/", "shop.views.About"),
        ("api/orders/", "shop.api.views.orders"),
    }
    script = """
import argparse
def cmd_add(args): ...
def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    add = sub.add_parser("add", help="Add a thing.")
    add.set_defaults(func=cmd_add)
if __name__ == "__main__":
    main()
"""
    found = {
        (e.framework, e.route_or_command, e.handler_symbol, e.summary_text)
        for e in _detect(script, "tool.py")
    }
    assert found == {
        ("argparse", "add", "tool.cmd_add", "Add a thing."),
        ("python", "tool", "tool.main", ""),
    }
