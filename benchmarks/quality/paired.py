"""Strata's hybrid against the code-aware BM25, query by query: is a set's difference real?

A set's MRR@10 over a few queries moves by a rank or two: `nl-javascript` has five
questions, and one answered at rank 4 instead of 3 puts hybrid .017 below the baseline.
For each set this counts the questions hybrid answers higher (wins), lower (losses) and
at the same rank (ties), and gives the mean difference of the reciprocal ranks with a
95 % paired bootstrap interval (the questions resampled with replacement, a fixed seed).
An interval that holds 0 says the sets' questions cannot tell the two apart.

    python -m benchmarks.quality.paired [RESULTS.json] [--before OLD.json] [--json OUT]

reads a quality run's JSON (default: the run's default output) and prints the table;
`--before` pairs hybrid with an older run's hybrid instead of the baseline (did a change
move a set beyond its noise?).
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.quality.metrics import K

BASELINE = "code-aware BM25"
HYBRID = "strata hybrid"
RESAMPLES = 2000
SEED = 13


@dataclass(frozen=True, slots=True)
class Paired:
    """One set's paired comparison of hybrid (`system`) against the baseline."""

    set: str
    system: str
    n: int
    wins: int
    losses: int
    ties: int
    delta: float  # mean of hybrid's reciprocal rank minus the baseline's
    low: float  # the 95 % bootstrap interval of `delta`
    high: float

    @property
    def verdict(self) -> str:
        """`above`, `below`, or `same` when the interval holds 0."""
        if self.low > 0:
            return "above"
        return "below" if self.high < 0 else "same"


def reciprocal(rank: int | None) -> float:
    """A question's MRR@10 part: 1/rank within the first `K`, else 0."""
    return 1.0 / rank if rank is not None and rank <= K else 0.0


def interval(diffs: Sequence[float], seed: int = SEED) -> tuple[float, float]:
    """The 2.5th and 97.5th percentile of the mean of `diffs` resampled `RESAMPLES` times."""
    if not diffs:
        return 0.0, 0.0
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(rng.choices(diffs, k=n)) / n for _ in range(RESAMPLES))
    return means[int(0.025 * RESAMPLES)], means[int(0.975 * RESAMPLES) - 1]


def compare(rows: Iterable[Mapping[str, Any]]) -> list[Paired]:
    """Per set, hybrid's questions paired with the baseline's (the quality run's query
    rows: `system`, `set`, `repo`, `id`, `rank`), in first-seen set order."""
    ranks: dict[tuple[str, str], dict[tuple[str, str], int | None]] = {}
    names: dict[str, str] = {}
    for r in rows:
        system = str(r["system"])
        if system.startswith(HYBRID):
            names[str(r["set"])] = system
            side = HYBRID
        elif system == BASELINE:
            side = BASELINE
        else:
            continue
        ranks.setdefault((str(r["set"]), side), {})[(str(r["repo"]), str(r["id"]))] = r["rank"]
    out = []
    for set_name, system in names.items():
        ours, theirs = ranks[(set_name, HYBRID)], ranks.get((set_name, BASELINE), {})
        diffs = [reciprocal(ours[q]) - reciprocal(theirs[q]) for q in ours if q in theirs]
        if not diffs:
            continue
        low, high = interval(diffs)
        out.append(
            Paired(
                set_name,
                system,
                len(diffs),
                sum(d > 0 for d in diffs),
                sum(d < 0 for d in diffs),
                sum(d == 0 for d in diffs),
                sum(diffs) / len(diffs),
                low,
                high,
            )
        )
    return out


def markdown(pairs: Sequence[Paired], against: str = f"the {BASELINE}") -> str:
    """The table: one row per set."""
    lines = [
        f"### Hybrid against {against}, question by question\n",
        "| set | n | wins | losses | ties | Δ MRR@10 | 95 % interval | verdict |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for p in pairs:
        lines.append(
            f"| {p.set} | {p.n} | {p.wins} | {p.losses} | {p.ties} | {p.delta:+.3f} | "
            f"[{p.low:+.3f}, {p.high:+.3f}] | {p.verdict} |"
        )
    return "\n".join(lines) + "\n"


def _queries(path: Path) -> list[dict[str, Any]]:
    """A quality run's query rows."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"cannot read {path}: {exc}") from None
    return list(payload.get("queries", []))


def json_rows(pairs: Sequence[Paired]) -> list[dict[str, Any]]:
    """JSON-ready rows, with the verdict."""
    return [{**asdict(p), "verdict": p.verdict} for p in pairs]


def main(argv: Sequence[str] | None = None) -> None:
    """Read a quality run's JSON, print the paired table (and write it as JSON)."""
    from benchmarks.quality.run import RESULTS

    p = argparse.ArgumentParser(prog="python -m benchmarks.quality.paired", description=__doc__)
    p.add_argument("results", nargs="?", type=Path, default=RESULTS, help="a quality run's JSON")
    p.add_argument("--before", type=Path, default=None, help="an older run's JSON to pair with")
    p.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = p.parse_args(argv)
    rows = _queries(args.results)
    against = f"the {BASELINE}"
    if args.before is not None:
        rows = [r for r in rows if str(r["system"]).startswith(HYBRID)]
        old = _queries(args.before)
        rows += [{**r, "system": BASELINE} for r in old if str(r["system"]).startswith(HYBRID)]
        against = f"hybrid in {args.before.name}"
    pairs = compare(rows)
    print(markdown(pairs, against))
    if args.json:
        args.json.write_text(json.dumps(json_rows(pairs), indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
