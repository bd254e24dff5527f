"""The quality run's paired comparison: wins, losses, ties and the bootstrap interval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.quality import paired

HYBRID = "strata hybrid (all-MiniLM-L6-v2)"


def _rows(set_name: str, ours: list[int | None], theirs: list[int | None]) -> list[dict]:
    rows = []
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        rows.append({"system": HYBRID, "set": set_name, "repo": "r", "id": str(i), "rank": a})
        rows.append(
            {"system": paired.BASELINE, "set": set_name, "repo": "r", "id": str(i), "rank": b}
        )
    rows.append(
        {
            "system": "strata lexical (all-MiniLM-L6-v2)",
            "set": set_name,
            "repo": "r",
            "id": "0",
            "rank": 1,
        }
    )
    return rows


def test_a_set_hybrid_wins_throughout_is_above() -> None:
    [p] = paired.compare(_rows("doc-x", [1] * 20, [3] * 20))
    assert (p.n, p.wins, p.losses, p.ties) == (20, 20, 0, 0)
    assert p.delta == pytest.approx(1 - 1 / 3)
    assert p.verdict == "above"


def test_one_question_a_rank_lower_among_ties_is_the_same() -> None:
    [p] = paired.compare(_rows("nl-x", [4, 1, 1, 1, 1], [3, 1, 1, 1, 1]))
    assert (p.wins, p.losses, p.ties) == (0, 1, 4)
    assert p.delta == pytest.approx((1 / 4 - 1 / 3) / 5)
    assert p.low < 0 and p.high == 0
    assert p.verdict == "same"


def test_misses_past_the_tenth_count_as_zero_and_sets_stay_apart() -> None:
    rows = _rows("a", [None, 11], [1, 1]) + _rows("b", [2] * 30, [1] * 30)
    a, b = paired.compare(rows)
    assert (a.set, a.delta, a.losses) == ("a", -1.0, 2)
    assert b.verdict == "below" and b.high < 0


def test_the_interval_is_seeded() -> None:
    diffs = [0.5, -0.25, 0.0, 1.0, -1.0, 0.1]
    assert paired.interval(diffs) == paired.interval(diffs)
    low, high = paired.interval(diffs)
    assert min(diffs) <= low <= sum(diffs) / len(diffs) <= high <= max(diffs)


def test_the_command_reads_a_run_and_writes_json(tmp_path: Path, capsys) -> None:
    run = tmp_path / "quality.json"
    run.write_text(json.dumps({"queries": _rows("doc-x", [1, 2, None], [2, 2, 1])}))
    out = tmp_path / "paired.json"
    paired.main([str(run), "--json", str(out)])
    table = capsys.readouterr().out
    assert "| doc-x | 3 | 1 | 1 | 1 |" in table
    [row] = json.loads(out.read_text())
    assert row["set"] == "doc-x" and row["verdict"] in ("same", "below", "above")
    with pytest.raises(SystemExit, match="cannot read"):
        paired.main([str(tmp_path / "missing.json")])


def test_before_pairs_hybrid_with_an_older_runs_hybrid(tmp_path: Path, capsys) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"queries": _rows("doc-x", [3] * 20, [1] * 20)}))
    new.write_text(json.dumps({"queries": _rows("doc-x", [1] * 20, [1] * 20)}))
    paired.main([str(new), "--before", str(old)])
    table = capsys.readouterr().out
    assert "against hybrid in old.json" in table
    assert "| doc-x | 20 | 20 | 0 | 0 | +0.667 |" in table  # rank 3 -> 1, not the baseline's
