"""LanceDB as the store modules use it, imported once the way `lancedb_import` describes:
without its REST client's eager `__init__`, and with `overrides` as on Python 3.12."""

from __future__ import annotations

from strata.store.lancedb_import import defer_rest_client, overrides_as_on_312

defer_rest_client()
with overrides_as_on_312():
    import lancedb
    from lancedb.index import FTS, Bitmap, IvfPq
    from lancedb.query import FullTextOperator, MatchQuery

__all__ = ["FTS", "Bitmap", "FullTextOperator", "IvfPq", "MatchQuery", "lancedb"]
