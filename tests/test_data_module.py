"""A generated data module (thousands of `NAME = literal` lines) is indexed without walking
or unparsing each statement again in every layer (issue 15 item 11). The work is counted,
not timed: walks and unparses that grow with the number of constants fail the test."""

from __future__ import annotations

import ast
import gc
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from strata import Engine
from strata.config import load_config
from strata.index.chunking.python import statement_breaks
from strata.index.discovery import discover
from strata.index.pipeline import process_file
from strata.layers import (
    C0_SOURCE_CHUNKS,
    C1_SYMBOL_CATALOG,
    C2_DEPENDENCY_GRAPH,
    C4_SEMANTIC_ROLES,
)
from strata.query.lookup.symbols import symbol_index
from strata.store import Filter
from strata.text.pyparse import DATA_BLOCK, DATA_RUN

LINES = 2_000
BLOCKS = -(-LINES // DATA_BLOCK)


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
    assert layers[C1_SYMBOL_CATALOG] == BLOCKS  # a row per block of constants
    assert layers[C0_SOURCE_CHUNKS] > 0
    blocks = [r for r in outcome.records if r.layer == C1_SYMBOL_CATALOG]
    members = [m for r in blocks for m in r.metadata["members"]]
    assert members == [f"VALUE_{i}" for i in range(LINES)]  # every constant is named
    (first,) = [r for r in blocks if r.span_start == 1]
    assert first.kind == "constants" and first.title == "table.VALUE_0..VALUE_63"
    assert first.content.split("\n")[3] == "VALUE_3 = 21"
    assert first.metadata["member_lines"][6:8] == [4, 4]
    assert counts["walk"] < LINES // 20, counts
    assert counts["unparse"] < LINES // 20, counts


def test_statement_breaks_still_reach_nested_statements() -> None:
    tree = ast.parse("A = 1\nif A:\n    def f():\n        return 1\nelse:\n    B = 2\n")
    assert statement_breaks(tree) == {1: 0, 2: 0, 3: 1, 4: 2, 6: 1}


def test_a_data_table_has_a_role_row_per_block_and_each_constant_is_still_found(
    tmp_path: Path,
) -> None:
    """Module constants share `config` rows (a block of up to `CONSTANT_BLOCK`, ended by
    anything else), and both lookups still find any one constant: C1 by name, C4 by text."""
    body = [f"VALUE_{i} = {i * 7}" for i in range(150)]
    body.insert(100, "def between():\n    return VALUE_1")
    (tmp_path / "table.py").write_text("\n".join(body) + "\nLAST = 1\n")
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    eng.index()
    roles = eng.store.fetch(Filter(paths=("table.py",), layers=(C4_SEMANTIC_ROLES,)))
    members = [tuple(r.metadata.get("members") or (r.metadata["qname"],)) for r in roles]
    # 100 constants (64 + 36), then the function (no role: it ends the run), then 51
    assert sorted(len(m) for m in members) == [36, 51, 64]
    assert sorted(q for m in members for q in m if "VALUE" in q or "LAST" in q) == sorted(
        [f"table.VALUE_{i}" for i in range(150)] + ["table.LAST"]
    )
    for name in ("VALUE_0", "VALUE_77", "VALUE_123", "LAST"):
        (match, *_) = eng.symbols(name, exact=True)
        assert match.qname == f"table.{name}"
        (symbol, *_) = eng.search(name, layers=[C1_SYMBOL_CATALOG], mode="lexical").hits
        assert symbol.record.title == f"table.{name}"
        hits = eng.search(name, layers=[C4_SEMANTIC_ROLES], mode="lexical").hits
        assert hits, name
        top = hits[0].record
        assert f"table.{name}" in (top.metadata.get("members") or [top.metadata["qname"]])
        assert top.span_start <= match.record.span_start <= top.span_end  # type: ignore[operator]


def test_an_index_run_here_does_not_walk_its_rows_with_the_cycle_collector(
    tmp_path: Path,
) -> None:
    """The rows of a big file live until their commit; the automatic collections their
    allocations set off walked them all again and again (a third of a data table's run).
    A run in this process holds them off and collects the young generations itself."""
    for name in ("warm", "table"):  # the first run's imports are not counted
        (tmp_path / name).mkdir()
        (tmp_path / name / "table.py").write_text(
            "\n".join(f"VALUE_{i} = {i * 7}" for i in range(LINES)) + "\n"
        )
    Engine.open(tmp_path / "warm", config={"embed.provider": "none"}).index()
    eng = Engine.open(tmp_path / "table", config={"embed.provider": "none"})
    runs: Counter[int] = Counter()

    def started(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            runs[info["generation"]] += 1

    gc.callbacks.append(started)
    try:
        summary = eng.index()
    finally:
        gc.callbacks.remove(started)
    assert summary.rows_by_layer[C1_SYMBOL_CATALOG] == BLOCKS
    assert gc.isenabled()
    # held off: the one young collection after the file's task, and perhaps one outside
    # the run (16 with the collector running: 15 of them set off while the rows were built)
    assert runs[2] == 0 and runs[0] + runs[1] <= 4, runs


def test_entry_point_detectors_do_not_scan_a_module_s_literal_constants() -> None:
    from strata.index.code.entrypoints.base import FileContext

    body = [f"VALUE_{i} = {i}" for i in range(100)] + ['"""A docstring."""', "pass"]
    body += ["app = Flask(__name__)", "urlpatterns = [path('a/', view)]", "X: int = 1"]
    ctx = FileContext("m.py", "m", ast.parse("\n".join(body)), [], False)
    module = next(ctx.blocks())
    assert [ast.unparse(s)[:3] for s in module.stmts] == ["app", "url"]
    assert ctx.defined["VALUE_3"] == "m.VALUE_3"  # still known by name


def test_each_constant_of_a_data_table_is_a_symbol_of_its_own_to_every_lookup(
    tmp_path: Path,
) -> None:
    """A data table's constants share block rows, yet the lookups, the call graph and
    cross-file resolution see each one: its qname, kind, line and signature."""
    (tmp_path / "table.py").write_text(
        '"""Codes."""\n' + "\n".join(f"VALUE_{i} = {i * 7}" for i in range(1000)) + "\n"
    )
    (tmp_path / "other.py").write_text(
        "from table import VALUE_777\nimport table\n\n"
        "def use():\n    return VALUE_777 + table.VALUE_5\n"
    )
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    summary = eng.index()
    assert summary.rows_by_layer[C1_SYMBOL_CATALOG] == -(-1000 // DATA_BLOCK) + 1  # + use
    (match,) = eng.symbols("VALUE_777", exact=True)
    assert (match.qname, match.kind, match.symbol_id) == (
        "table.VALUE_777",
        "constant",
        "table.py::table.VALUE_777",
    )
    assert (match.record.span_start, match.record.span_end) == (779, 779)
    assert match.record.content == "VALUE_777 = 5439"
    assert eng.symbols("table.VALUE_5", exact=True)[0].record.span_start == 7
    assert eng.symbols("VALUE_99", limit=3)[0].qname == "table.VALUE_99"
    edges = eng.store.fetch(Filter(paths=("other.py",), layers=(C2_DEPENDENCY_GRAPH,)))
    imported = {r.metadata["dst_symbol_id"]: r.metadata["resolution"] for r in edges}
    assert imported["table.py::table.VALUE_777"] == "resolved"
    assert symbol_index(eng.store).record_of("table.py::table.VALUE_777") is not None


def test_fewer_adjacent_constants_than_a_data_table_stay_one_row_each(tmp_path: Path) -> None:
    (tmp_path / "consts.py").write_text(
        "\n".join(f"LIMIT_{i} = {i}" for i in range(DATA_RUN - 1)) + "\n"
    )
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    assert eng.index().rows_by_layer[C1_SYMBOL_CATALOG] == DATA_RUN - 1


def test_a_module_s_tree_is_not_kept_once_its_layers_are_built(tmp_path: Path) -> None:
    """The parsed tree (~60x its source) is let go when the file's records are made, not
    held while they are written and the next files are read."""
    import tracemalloc

    (tmp_path / "table.py").write_text(
        "\n".join(f"VALUE_{i} = {i * 7}" for i in range(20_000)) + "\n"
    )
    cfg = load_config(None, {"embed.provider": "none"})
    (source,) = discover(tmp_path, cfg.index).files
    tracemalloc.start()
    try:
        outcome = process_file(source, cfg)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert outcome.records
    assert kept < peak / 3, f"kept {kept / 1e6:.1f} MB of a {peak / 1e6:.1f} MB peak"
