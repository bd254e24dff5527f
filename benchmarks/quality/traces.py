"""A pasted stack trace -> the line where it failed, on the quality run's code corpora.

    python -m benchmarks.quality.traces [--sets docstring,langs,newlangs,nonpython]
        [--per-corpus 40] [--mode hybrid] [--json FILE]

Mechanical, from the indexes: a line of a function or method chunk (not its first, not
blank, no comment) is where a trace fails, inside that function; a second such line of
another function is the frame that called it. The trace is written as the corpus's
language writes one, from a checkout at `/home/dev/src/<corpus>/`, with an installed
library's frame between the two and an error line (`ValueError: invalid state`):

- Python: `Traceback (most recent call last):` and `File "...", line N, in f` frames,
  innermost last;
- Java: `at pkg.Class.method(File.java:N)` with the package from the file's directories;
- JavaScript and TypeScript: Node's `at f (/path/file.js:N:C)`;
- Go: a goroutine's `/path/file.go:N +0x1d` lines;
- any other language: `path:N:C: in f` lines, innermost first.

Each is asked as pasted and after "why does this fail?". The target is the failing line;
a hit is a result whose span holds it (and is at most 100 lines long). The corpora are the
quality run's cached indexes (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.quality.askforms import form_summary, main_with
from benchmarks.quality.indexes import open_index
from benchmarks.quality.run import build_corpora
from strata.layers import C0_SOURCE_CHUNKS
from strata.types import Record

EMBEDDER = "all-MiniLM-L6-v2"
K = 10
SEED = 5
ROOT = "/home/dev/src"
FORMS = {"as pasted": "{}", "after a question": "why does this fail?\n{}"}
_COMMENT = ("#", "//", "*", "/*", "--", ";", '"""', "'''")
_LANG = {".py": "python", ".java": "java", ".js": "node", ".ts": "node", ".go": "go"}


def failing_lines(records: Sequence[Record], n: int, seed: int) -> list[tuple[Record, int]]:
    """Up to `n` (chunk, line) pairs, one line per function or method chunk, drawn with a
    fixed seed: a line of code inside the body (not the first, not blank, no comment)."""
    rng = random.Random(seed)
    units = [r for r in records if r.kind in ("function", "method") and r.span_start]
    rng.shuffle(units)
    out: list[tuple[Record, int]] = []
    for rec in units:
        lines = rec.content.split("\n")
        body = [
            i
            for i, text in enumerate(lines[1:], 1)
            if text.strip() and not text.strip().startswith(_COMMENT) and len(text.strip()) > 3
        ]
        if body and len(lines) <= 100:
            out.append((rec, (rec.span_start or 1) + rng.choice(body)))
        if len(out) == n:
            break
    return out


Frame = tuple[str, int, str]  # path under the checkout, line, function


def trace(corpus: str, inner: tuple[Record, int], outer: tuple[Record, int]) -> str:
    """A stack trace failing at `inner`, called from `outer`, in the file's language."""
    frames = [(r.path, line, (r.title or "main").split(".")[-1]) for r, line in (inner, outer)]
    write = _WRITERS.get(_LANG.get(Path(inner[0].path).suffix, ""), _other)
    return "\n".join(write(f"{ROOT}/{corpus}", frames[0], frames[1]))


def _python(base: str, inner: Frame, outer: Frame) -> list[str]:
    installed = '  File "/usr/lib/python3/dist-packages/wrapt/wrappers.py", line 578, in __call__'
    return [
        "Traceback (most recent call last):",
        f'  File "{base}/{outer[0]}", line {outer[1]}, in {outer[2]}',
        installed,
        f'  File "{base}/{inner[0]}", line {inner[1]}, in {inner[2]}',
        "ValueError: invalid state",
    ]


def _java(base: str, inner: Frame, outer: Frame) -> list[str]:
    rows = ['Exception in thread "main" java.lang.IllegalStateException: invalid state']
    for path, line, fn in (inner, ("java/lang/reflect/Method.java", 566, "invoke"), outer):
        *package, name = path.split("/")
        rows.append(f"\tat {'.'.join([*package, name.rsplit('.', 1)[0], fn])}({name}:{line})")
    return rows


def _node(base: str, inner: Frame, outer: Frame) -> list[str]:
    return [
        "Error: invalid state",
        f"    at {inner[2]} ({base}/{inner[0]}:{inner[1]}:9)",
        "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
        f"    at {outer[2]} ({base}/{outer[0]}:{outer[1]}:3)",
    ]


def _go(base: str, inner: Frame, outer: Frame) -> list[str]:
    rows = ["panic: invalid state", "", "goroutine 1 [running]:"]
    for path, line, fn in (inner, outer):
        rows += [f"main.{fn}(...)", f"\t{base}/{path}:{line} +0x1d"]
    return rows


def _other(base: str, inner: Frame, outer: Frame) -> list[str]:
    return ["error: invalid state"] + [f"  {base}/{p}:{n}:5: in {f}" for p, n, f in (inner, outer)]


_WRITERS = {"python": _python, "java": _java, "node": _node, "go": _go}


def measure(sets: Sequence[str], per_corpus: int, mode: str) -> dict[str, Any]:
    """Every corpus's traces in every form: the failing line's rank per row."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        picked = failing_lines(eng.records(layers=[C0_SOURCE_CHUNKS]), 2 * per_corpus, SEED)
        pairs = [(picked[i], picked[i + 1]) for i in range(0, len(picked) - 1, 2)]
        for inner, outer in pairs:
            text = trace(corpus.name, inner, outer)
            for form, shape in FORMS.items():
                hits = eng.search(shape.format(text), k=K, mode=mode).hits
                rank = next(
                    (
                        n
                        for n, h in enumerate(hits, 1)
                        if h.record.path == inner[0].path
                        and (h.record.span_start or 0) <= inner[1] <= (h.record.span_end or 0)
                        and (h.record.span_end or 0) - (h.record.span_start or 0) < 100
                    ),
                    None,
                )
                rows.append({"corpus": corpus.name, "form": form, "query": text, "rank": rank})
        eng.close()
    return {"mode": mode, "summary": form_summary(rows), "rows": rows}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(
        argv, __doc__ or "", measure, sets="docstring,langs,newlangs,nonpython", per_corpus=40
    )


if __name__ == "__main__":
    main()
