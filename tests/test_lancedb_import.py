"""LanceDB imports without its REST namespace client, which stays usable on demand."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def test_opening_a_store_leaves_the_rest_client_unimported() -> None:
    out = _run(
        """
        import sys
        import strata.store.lance
        loaded = [m for m in sys.modules if m.startswith("lance_namespace_urllib3_client.api")]
        print("lancedb" in sys.modules, loaded, "urllib3" in sys.modules)
        """
    )
    assert out == "True [] False"


def test_the_rest_client_runs_its_init_when_a_package_name_is_used() -> None:
    out = _run(
        """
        import strata.store.lance
        from lance_namespace_urllib3_client import ApiClient, Configuration
        import lance_namespace_urllib3_client as client
        print(ApiClient.__name__, Configuration.__name__, hasattr(client, "no_such_name"))
        """
    )
    assert out == "ApiClient Configuration False"


def test_store_works_with_the_client_deferred(tmp_path: object) -> None:
    out = _run(
        f"""
        import sys
        from strata.store.lancedb_import import REST_CLIENT
        from strata.store.lance import LanceStore
        import lancedb
        db = lancedb.connect({str(tmp_path)!r})
        t = db.create_table("t", data=[{{"id": "a", "text": "hello world"}}])
        t.create_fts_index("text")
        print(t.search("hello", query_type="fts").limit(1).to_list()[0]["id"],
              "__getattr__" in sys.modules[REST_CLIENT].__dict__)
        """
    )
    assert out == "a True"


def test_lancedb_imports_with_overrides_as_on_python_312_and_leaves_the_real_one() -> None:
    out = _run(
        """
        import sys
        import strata.store.lance
        from lancedb.db import DBConnection
        shimmed = "overrides" not in sys.modules
        import overrides
        base = DBConnection.__mro__[-2]
        real = hasattr(overrides, "overrides") and overrides.EnforceOverrides is not base
        print(sys.version_info >= (3, 12) or shimmed, real)
        """
    )
    assert out == "True True"
