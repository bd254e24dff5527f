"""Group scored outcomes per set and per repository; render Markdown tables and JSON rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import Any

from benchmarks.quality.evaluate import Outcome
from benchmarks.quality.metrics import Scores, mean

HEADER = (
    "| system | n | MRR@10 | Recall@1 | Recall@10 | file NDCG@10 |\n|---|---:|---:|---:|---:|---:|"
)


def label(o: Outcome) -> str:
    """The system's row name: `strata hybrid (all-MiniLM-L6-v2)` or `bm25s baseline`."""
    return f"{o.system} ({o.embedder})" if o.embedder else o.system


def group(outcomes: Iterable[Outcome], by_repo: bool) -> dict[tuple[str, str, str], Scores]:
    """Mean scores keyed by (set, repo or `all`, system label), in first-seen order."""
    buckets: dict[tuple[str, str, str], list[Scores]] = {}
    for o in outcomes:
        key = (o.query.set, o.query.repo if by_repo else "all", label(o))
        buckets.setdefault(key, []).append(o.scores)
    return {key: mean(items) for key, items in buckets.items()}


def markdown(outcomes: Sequence[Outcome], preamble: str = "") -> str:
    """The report: one table per set (all repositories), then one per set and repository."""
    parts = [preamble] if preamble else []
    overall = group(outcomes, by_repo=False)
    per_repo = group(outcomes, by_repo=True)
    for set_name in dict.fromkeys(k[0] for k in overall):
        parts.append(f"### Set `{set_name}` (all repositories)\n")
        parts.append(_table({k: v for k, v in overall.items() if k[0] == set_name}))
        repos = list(dict.fromkeys(k[1] for k in per_repo if k[0] == set_name))
        if len(repos) > 1:
            for repo in repos:
                parts.append(f"#### `{set_name}` / `{repo}`\n")
                rows = {k: v for k, v in per_repo.items() if k[:2] == (set_name, repo)}
                parts.append(_table(rows))
    return "\n".join(parts)


def _table(rows: dict[tuple[str, str, str], Scores]) -> str:
    lines = [HEADER]
    for (_, _, system), s in rows.items():
        lines.append(
            f"| {system} | {s.n} | {s.mrr:.3f} | {s.recall_1:.3f} | "
            f"{s.recall_10:.3f} | {s.ndcg_10:.3f} |"
        )
    return "\n".join(lines) + "\n"


def summary_rows(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """Aggregates per (set, all/repo, system) as JSON-ready dicts."""
    rows = []
    for by_repo in (False, True):
        for (set_name, repo, system), s in group(outcomes, by_repo).items():
            rows.append({"set": set_name, "repo": repo, "system": system, **asdict(s)})
    return rows


def query_rows(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """One JSON row per query and system: the query, its targets, rank and top results."""
    return [
        {
            "system": label(o),
            "set": o.query.set,
            "repo": o.query.repo,
            "id": o.query.id,
            "query": o.query.text,
            "targets": [asdict(t) for t in o.query.targets],
            "rank": o.rank,
            "ms": round(o.seconds * 1000, 1),
            "top": [f"{r.path}:{r.start}-{r.end}" for r in o.top],
        }
        for o in outcomes
    ]
