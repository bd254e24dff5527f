"""C4: roles from names, bases, decorators, entry points and fan-in."""

from __future__ import annotations

from strata.index.code.entrypoints import detect_entrypoints
from strata.index.code.model import Role
from strata.index.code.python.edges import extract_edges, module_scope
from strata.index.code.python.symbols import extract_symbols
from strata.index.code.resolve import build_table, resolve_edges
from strata.index.code.roles import assign_roles

FILES = {
    "src/shop/models.py": """
from dataclasses import dataclass
from pydantic import BaseModel

class Order(BaseModel):
    id: int

@dataclass
class Line:
    qty: int
""",
    "src/shop/repo.py": """
class OrderRepository:
    def get(self, session, id):
        return session.query(id)
""",
    "src/shop/text.py": "def slug(s):\n    return s.lower()\n",
    "src/shop/api.py": """
from fastapi import FastAPI
from .text import slug
app = FastAPI()

@app.get("/orders/{id}")
def read_order(id: int):
    return slug(str(id))

def a(): return slug("a")
def b(): return slug("b")
""",
    "tests/test_api.py": "def test_read():\n    assert True\n",
}


def _roles() -> dict[str, Role]:
    syms, scopes, edges, entries = [], [], [], []
    for path, text in FILES.items():
        found = extract_symbols(text, path)
        syms += found
        scopes.append(module_scope(text, path))
        edges += extract_edges(text, path, found)
        entries += detect_entrypoints(text, path, found)
    resolved = resolve_edges(edges, build_table(syms, scopes))
    return {r.qname: r for r in assign_roles(syms, resolved, entries)}


def test_roles_from_bases_decorators_entrypoints_and_names() -> None:
    roles = _roles()
    assert roles["shop.models.Order"].role == "model/schema"
    assert "base class pydantic.BaseModel" in roles["shop.models.Order"].evidence
    assert roles["shop.models.Line"].role == "model/schema"
    assert roles["shop.api.read_order"].role == "http_handler"
    assert any("GET /orders/{id}" in f for f in roles["shop.api.read_order"].evidence)
    assert roles["shop.repo.OrderRepository"].role == "repository/dao"
    assert roles["tests.test_api.test_read"].role == "test"


def test_fan_in_makes_a_utility_and_confidence_is_bounded() -> None:
    roles = _roles()
    assert roles["shop.text.slug"].role == "utility"
    assert "called from 3 places in 1 files" in roles["shop.text.slug"].evidence
    assert all(0.0 <= r.confidence <= 1.0 and r.evidence for r in roles.values())
    assert "shop.api.a" not in roles  # no evidence, no guessed role
