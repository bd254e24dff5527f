"""What the other-kinds-of-question benchmarks share (`messages`, `traces`, `phrasings`,
`fields`): each form's Recall@1 and MRR@10, and their command line."""

from __future__ import annotations

import argparse
import json
import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def form_summary(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per `form` of the rows (in first-seen order): n, Recall@1 and MRR@10 of `rank`."""
    groups: dict[str, list[int | None]] = defaultdict(list)
    for r in rows:
        groups[r["form"]].append(r["rank"])
    return [
        {
            "form": form,
            "n": len(ranks),
            "r_at_1": round(sum(1 for x in ranks if x == 1) / len(ranks), 3),
            "mrr": round(sum(1 / x for x in ranks if x) / len(ranks), 3),
        }
        for form, ranks in groups.items()
    ]


def add_means(summary: Sequence[dict[str, Any]], rows: Sequence[dict[str, Any]], key: str) -> None:
    """Each form's mean of the rows' `key`, put into its summary row (three places)."""
    values: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        values[r["form"]].append(r[key])
    for s in summary:
        s[key] = round(sum(values[s["form"]]) / len(values[s["form"]]), 3)


def main_with(
    argv: Sequence[str] | None,
    doc: str,
    measure: Callable[..., dict[str, Any]],
    *,
    sets: str,
    per_corpus: int | None = None,
    mode: bool = True,
) -> None:
    """Parse `--sets` (default `sets`), `--per-corpus` and `--mode` when the benchmark
    takes them, and `--json`; run `measure`; print its summary (and write it all with
    `--json`)."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--sets", default=sets)
    if per_corpus is not None:
        p.add_argument("--per-corpus", type=int, default=per_corpus)
    if mode:
        p.add_argument("--mode", default="hybrid")
    p.add_argument("--json", type=Path, default=None)
    args = vars(p.parse_args(argv))
    logging.basicConfig(level=logging.WARNING)
    out: Path | None = args.pop("json")
    result = measure(args.pop("sets").split(","), **args)
    for s in result["summary"]:
        print(json.dumps(s, ensure_ascii=False))
    if out:
        out.write_text(json.dumps(result, indent=1), encoding="utf-8")
