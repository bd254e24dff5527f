"""C2 for Python: per-file edges and cross-file resolution over a real small package."""

from __future__ import annotations

from strata.index.code.model import Edge
from strata.index.code.python.edges import extract_edges, module_scope
from strata.index.code.python.symbols import extract_symbols
from strata.index.code.resolve import build_table, resolve_edges

FILES = {
    "src/shop/__init__.py": "from .client import Client\n",
    "src/shop/util.py": "def helper(x):\n    return x\n",
    "src/shop/client.py": """
import os.path
import requests as rq
from . import util
from .util import helper as h


class Base:
    def close(self):
        pass


class Client(Base):
    def send(self, x):
        self.prepare()
        h(x)
        util.helper(x)
        os.path.join("a", x)
        rq.get(x).json()
        self.close()
        return super().close()

    def prepare(self):
        len([])
""",
    "src/app.py": "from shop import Client\n\n\ndef main(c):\n    Client()\n    c.send(2)\n",
}


def _edges() -> dict[tuple[str, str, str], Edge]:
    syms, scopes, edges = [], [], []
    for path, text in FILES.items():
        found = extract_symbols(text, path)
        syms += found
        scopes.append(module_scope(text, path))
        edges += extract_edges(text, path, found)
    resolved = resolve_edges(edges, build_table(syms, scopes))
    return {(e.src_qname, e.edge_type, e.dst_ref): e for e in resolved}


def test_calls_resolve_through_imports_aliases_self_and_bases() -> None:
    edges = _edges()
    send = "shop.client.Client.send"
    assert edges[(send, "calls", "shop.client.Client.prepare")].dst_symbol_id == (
        "src/shop/client.py::shop.client.Client.prepare"
    )
    assert edges[(send, "calls", "shop.util.helper")].resolution == "resolved"
    inherited = edges[(send, "calls", "shop.client.Client.close")]
    assert inherited.dst_qname == "shop.client.Base.close"
    assert edges[(send, "calls", "shop.client.Base.close")].resolution == "resolved"  # super()
    assert edges[("shop.client.Client", "inherits", "shop.client.Base")].resolution == "resolved"


def test_reexport_through_package_init_resolves_to_the_definition() -> None:
    edges = _edges()
    call = edges[("app.main", "calls", "shop.Client")]
    assert call.resolution == "resolved"
    assert call.dst_symbol_id == "src/shop/client.py::shop.client.Client"


def test_external_unknown_and_builtin_targets() -> None:
    edges = _edges()
    send = "shop.client.Client.send"
    assert edges[(send, "calls", "os.path.join")].resolution == "external"
    assert edges[(send, "calls", "requests.get")].resolution == "external"
    local = edges[("app.main", "calls", "app.main@c().send")]  # what `c` is: its callers
    assert local.resolution == "ambiguous" and local.candidates == ("shop.client.Client.send",)
    assert not any(dst == "len" for _, _, dst in edges)  # builtins are left out
    assert edges[("shop.client", "imports", "requests")].resolution == "external"


def test_one_edge_per_source_target_pair_keeps_every_line() -> None:
    text = (
        "class K:\n    def a(self):\n        self.b()\n        (self\n         .b)()\n"
        "        self.b()\n\n    def b(self):\n        self.b()\n"
    )
    edges = extract_edges(text, "m.py", extract_symbols(text, "m.py"))
    assert [(e.src_qname, e.dst_ref, e.line, e.lines) for e in edges] == [
        ("m.K.a", "m.K.b", 3, (3, 5, 6)),  # the line of the name: `(self\n .b)()` calls on 5
        ("m.K.b", "m.K.b", 9, ()),  # recursion; one call: `line` alone
    ]
