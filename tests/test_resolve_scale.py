"""Cross-file resolution stays near-linear on star-import webs and cycles (real parsing)."""

from __future__ import annotations

import time

from strata.index.code.model import Edge
from strata.index.code.python.edges import extract_edges, module_scope
from strata.index.code.python.symbols import extract_symbols
from strata.index.code.resolve import build_table, resolve_edges
from tests.bounded import within


def _resolve(files: dict[str, str]) -> list[Edge]:
    syms, scopes, edges = [], [], []
    for path, text in files.items():
        found = extract_symbols(text, path)
        syms += found
        scopes.append(module_scope(text, path))
        edges += extract_edges(text, path, found)
    return resolve_edges(edges, build_table(syms, scopes))


def _star_web(n: int, fan: int) -> dict[str, str]:
    """`n` modules, each star-importing the next `fan` (a web full of cycles)."""
    files = {}
    for i in range(n):
        stars = "".join(f"from .m{(i + k) % n} import *\n" for k in range(1, fan + 1))
        files[f"pkg/m{i}.py"] = stars + f"\ndef own{i}():\n    return {i}\n"
    files["pkg/__init__.py"] = "from .m0 import *\n"
    calls = "".join(f"    own{i}()\n    missing{i}()\n" for i in range(n))
    files["pkg/use.py"] = "from .m0 import *\n\n\ndef use():\n" + calls
    return files


def test_a_web_of_star_imports_resolves_in_near_linear_time() -> None:
    start = time.perf_counter()
    with within(60):
        edges = _resolve(_star_web(40, 6))
    assert time.perf_counter() - start < 10
    calls = {e.dst_ref: e for e in edges if e.src_qname == "pkg.use.use"}
    # a name defined anywhere in the web is found through the chain of stars
    assert calls["own25"].resolution == "resolved"
    assert calls["own25"].dst_qname == "pkg.m25.own25"
    assert calls["missing3"].resolution != "resolved"


def test_the_root_packages_own_star_imports_resolve_and_do_not_recurse() -> None:
    files = {
        "__init__.py": "from .errors import *\nfrom .main import *\n",
        "errors.py": "class PydanticError(Exception):\n    pass\n",
        "main.py": "from .errors import *\n\n\ndef run():\n    raise PydanticError()\n",
    }
    with within(30):
        edges = _resolve(files)
    by = {(e.src_qname, e.dst_ref): e for e in edges}
    assert by[("main.run", "PydanticError")].dst_qname == "errors.PydanticError"
    assert {e.dst_ref for e in edges if e.src_qname == "__init__"} >= {"errors", "main"}
