"""A generated data module (thousands of `NAME = literal` lines) is indexed without walking
or unparsing each statement again in every layer (issue 15 item 11). The work is counted,
not timed: walks and unparses that grow with the number of constants fail the test."""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from strata.config import load_config
from strata.index.chunking.python import statement_breaks
from strata.index.discovery import discover
from strata.index.pipeline import process_file
from strata.layers import C0_SOURCE_CHUNKS, C1_SYMBOL_CATALOG

LINES = 2_000


def _counting(counts: Counter[str], name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return original(*args, **kwargs)

    return counted


def test_a_data_table_is_not_walked_per_statement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "table.py").write_text(
        "\n".join(f"VALUE_{i} = {i * 7}" for i in range(LINES)) + "\n"
    )
    cfg = load_config(None, {"embed.provider": "none"})
    (source,) = discover(tmp_path, cfg.index).files
    counts: Counter[str] = Counter()
    for name in ("walk", "unparse"):
        monkeypatch.setattr(ast, name, _counting(counts, name, getattr(ast, name)))
    outcome = process_file(source, cfg)
    layers = Counter(r.layer for r in outcome.records)
    assert layers[C1_SYMBOL_CATALOG] == LINES  # every constant is still a symbol
    assert layers[C0_SOURCE_CHUNKS] > 0
    signatures = {r.title: r.content for r in outcome.records if r.layer == C1_SYMBOL_CATALOG}
    assert signatures["table.VALUE_3"] == "VALUE_3 = 21"
    assert counts["walk"] < LINES // 20, counts
    assert counts["unparse"] < LINES // 20, counts


def test_statement_breaks_still_reach_nested_statements() -> None:
    tree = ast.parse("A = 1\nif A:\n    def f():\n        return 1\nelse:\n    B = 2\n")
    assert statement_breaks(tree) == {1: 0, 2: 0, 3: 1, 4: 2, 6: 1}
