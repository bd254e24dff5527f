"""The index summary counts what the run wrote and dropped (issue 15, item 12)."""

from __future__ import annotations

import shutil
from pathlib import Path

from strata import Engine
from strata import layers as L

CORPORA = Path(__file__).parent / "corpora"


def test_the_summary_counts_every_layer_written_d3_entities_included(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    shutil.copytree(CORPORA / "docs", root)
    eng = Engine.open(root, config={"embed.provider": "none"})
    summary = eng.index()
    stored = {layer: c["rows"] for layer, c in eng.store.counts().items() if c["rows"]}
    assert summary.rows_by_layer.get(L.D3_ENTITY_CATALOG, 0) > 0
    assert summary.rows_by_layer == stored  # a first index wrote every row there is
    assert summary.to_json()["rows_by_layer"] == stored


def test_removed_counts_files_dropped_for_becoming_empty_or_binary(tmp_path: Path) -> None:
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(f"def {name[0]}_fn():\n    return 1\n", encoding="utf-8")
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    assert eng.index().indexed == 3
    (tmp_path / "a.py").write_bytes(b"")
    (tmp_path / "b.py").write_bytes(b"\x00\x01\x02 binary \xff\xfe" * 50)
    again = eng.index()
    assert again.removed == 2, again.to_json()
    assert {r.path for r in eng.records()} == {"c.py"}
    assert sorted(s.rel for s in again.skips) == ["a.py", "b.py"]
