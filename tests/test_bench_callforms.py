"""The callers-phrasing benchmark reads the callers oracle's sites as it wrote them."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.quality.callforms import PHRASINGS, oracle_sites


def test_the_oracle_symbols_with_call_sites_become_names_and_line_targets(tmp_path: Path) -> None:
    rows = [
        {"symbol": "src/pkg/a.py:Loader.load", "oracle": ["src/pkg/b.py:12", "src/pkg/c.py:3"]},
        {"symbol": "src/pkg/a.py:unused", "oracle": []},
    ]
    path = tmp_path / "oracle.json"
    path.write_text(json.dumps({"packages": [{"package": "pkg 1.0", "rows": rows}]}))
    assert oracle_sites(path) == {
        "pkg": [("src/pkg/a.py", "Loader.load", [("src/pkg/b.py", 12), ("src/pkg/c.py", 3)])]
    }


def test_the_committed_oracle_gives_every_phrasing_a_name_to_ask() -> None:
    sites = oracle_sites()
    assert {"sqlparse", "marshmallow", "jinja2", "boltons"} <= set(sites)
    assert all(p.count("{}") == 1 for p in PHRASINGS) and len(set(PHRASINGS)) == len(PHRASINGS)
    assert all(lines for symbols in sites.values() for _, _, lines in symbols)
