"""Terminal and JSON rendering for the CLI: hits, summaries, status, config, progress."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.syntax import Syntax
from rich.table import Table

from strata.engine.results import EmbedderState, Status
from strata.index.summary import IndexSummary
from strata.query.focus import window_lines
from strata.query.hybrid import SearchResult

UNWRAPPED = 100_000  # columns of a console writing to a pipe or a file: no hard wrap
PROGRESS_SECONDS = 3.0  # between two progress lines when stderr is not a terminal


def unwrapped(console: Console) -> Console:
    """`console`, not hard-wrapped (nor cropped) at 80 columns when it writes to a pipe or
    a file: a terminal's width means something, a log's does not."""
    if not console.is_terminal:
        console.width = UNWRAPPED
    return console


def consoles() -> tuple[Console, Console]:
    """The consoles of a command run in its own process: (stdout, stderr)."""
    out = unwrapped(Console(highlight=False, soft_wrap=True))
    return out, unwrapped(Console(stderr=True, highlight=False))


SNIPPET_LINES = 14
# A snippet line is cut here: a bundle's or a data blob's one line holds thousands.
SNIPPET_LINE_CHARS = 240
LEXERS = {
    "tsx": "tsx",
    "csharp": "csharp",
    "bash": "bash",
    "text": "text",
    "pdf": "text",
    "html": "markdown",
}


_PHASES = {"chunk": "chunking ", "index": "indexing ", "embed": "embedding", "adapt": "adapting "}
_UNITS = {"embed": "chunks", "adapt": "texts"}


def emit_json(out: Console, data: Any) -> None:
    """Machine output on stdout, one JSON document."""
    out.file.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


class Bar:
    """A progress bar on stderr: `[i/total]`, rate and ETA, one task per phase."""

    def __init__(self, err: Console, enabled: bool) -> None:
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[item]}", style="dim"),
            console=err,
            transient=False,
            disable=not enabled,
        )
        self._tasks: dict[str, TaskID] = {}

    def __enter__(self) -> Bar:
        self._progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.__exit__(None, None, None)

    def __call__(self, phase: str, done: int, total: int, item: str) -> None:
        if phase not in self._tasks:
            label = _PHASES.get(phase, phase)
            self._tasks[phase] = self._progress.add_task(label, total=total, rate="", item="")
        task = self._tasks[phase]
        t = self._progress.tasks[task]
        elapsed = t.elapsed or 0.0
        unit = _UNITS.get(phase, "files")
        rate = f"{done / elapsed:,.0f} {unit}/s" if elapsed > 0.5 else ""
        self._progress.update(task, completed=done, total=total, rate=rate, item=item[-50:])


class Lines:
    """Progress for a pipe, a log file or CI: a plain `[i/total] path` line on stderr every
    few seconds, and at the end of each phase (a bar there would print nothing until the end)."""

    def __init__(self, err: Console, every: float = PROGRESS_SECONDS) -> None:
        self._err = err
        self._every = every
        self._last: dict[str, float] = {}

    def __enter__(self) -> Lines:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __call__(self, phase: str, done: int, total: int, item: str) -> None:
        now = time.monotonic()
        last = self._last.get(phase)
        if last is not None and now - last < self._every and done < total:
            return
        self._last[phase] = now
        label = _PHASES.get(phase, phase).strip()
        self._err.print(f"{label} [{done}/{total}] {item}".rstrip(), markup=False, highlight=False)


def progress(err: Console, quiet: bool) -> Bar | Lines:
    """The progress display for stderr: a bar on a terminal, plain lines elsewhere."""
    if quiet or err.is_terminal:
        return Bar(err, enabled=not quiet)
    return Lines(err)


def summary(err: Console, s: IndexSummary) -> None:
    """The final summary of an index run, on stderr."""
    skipped = ", ".join(f"{n} {reason}" for reason, n in sorted(s.skipped.items()))
    layers = ", ".join(f"{layer.split('_')[0]} {n}" for layer, n in sorted(s.rows_by_layer.items()))
    reread = f"; {s.reread} read again (the index was chunked another way)" if s.reread else ""
    err.print(
        f"[bold]indexed[/] {s.indexed} files, {s.unchanged} unchanged, {s.removed} removed, "
        f"{len(s.skips)} skipped{f' ({skipped})' if skipped else ''} of {s.files_seen} seen{reread}"
    )
    if layers:
        err.print(f"rows written: {layers}")
    vec = f"; {s.vectors_embedded} chunks embedded" if s.vectors_embedded else ""
    pending = f", {s.vectors_missing} still without vectors" if s.vectors_missing else ""
    err.print(
        f"searchable after {s.searchable_seconds:.1f}s, done in {s.seconds:.1f}s{vec}{pending}"
    )


def hits(out: Console, err: Console, result: SearchResult, explain: bool) -> None:
    """Ranked hits with a highlighted snippet and real line numbers."""
    for note in result.notes:
        err.print(f"[yellow]note:[/] {note}")
    if explain:
        for line in plan_lines(result.plan):
            err.print(f"[dim]{line}[/]", highlight=False)
    if not result.hits:
        err.print("no results")
    several = len({h.record.repo_id for h in result.hits}) > 1  # then name each hit's repo
    for i, hit in enumerate(result.hits, 1):
        r = hit.record
        span = f":{r.span_start}-{r.span_end}" if r.span_start else ""
        repo = f"[magenta]{r.repo_id}[/] " if several and r.repo_id else ""
        branches = f" [green]{','.join(r.branches)}[/]" if r.branches else ""
        out.print(
            f"[bold]{i}.[/] {repo}[cyan]{r.path}{span}[/]  [bold]{r.title}[/]  "
            f"[dim]{r.layer} {hit.score:.4f}[/]{branches}"
        )
        if explain:
            parts = "  ".join(f"{k}={v:.4g}" for k, v in hit.parts.items())
            out.print(f"   [dim]{parts}[/]")
        if twins := r.metadata.get("same_text_at"):
            out.print(f"   [dim]the same text at {', '.join(twins)}[/]", highlight=False)
        start, text = window_lines(r)  # a long code hit: the lines the query's words are in
        _snippet(out, text, r.lang, start)


def plan_lines(plan: Mapping[str, Any]) -> list[str]:
    """The router's plan (intent, filters, steps, why) and the search's own plan, as lines."""
    routed = plan.get("route")
    lines: list[str] = []
    if isinstance(routed, Mapping):
        lines.append(f"plan: intent {routed.get('intent')}")
        if routed.get("filters"):
            lines.append(f"  filters: {json.dumps(routed['filters'], ensure_ascii=False)}")
        for i, step in enumerate(routed.get("steps", []), 1):
            args = {k: v for k, v in step.get("args", {}).items() if k != "query"}
            lines.append(
                f"  step {i}: {step.get('method')} {step.get('layer')} {args or ''} "
                f"limit={step.get('limit')} weight={step.get('weight')}"
            )
        lines += [f"  why: {r}" for r in routed.get("reasons", [])]
    search = {k: v for k, v in plan.items() if k != "route"}
    if search:
        lines.append(f"search: {json.dumps(search, ensure_ascii=False)}")
    return lines


def snippet_text(lines: list[str], count: int) -> str:
    """The first `count` lines, each cut at `SNIPPET_LINE_CHARS` (with "…")."""
    cut = SNIPPET_LINE_CHARS
    return "\n".join(ln if len(ln) <= cut else ln[:cut] + " …" for ln in lines[:count])


def _snippet(out: Console, content: str, lang: str, start: int) -> None:
    lines = content.split("\n")
    shown = snippet_text(lines, SNIPPET_LINES)
    syntax = Syntax(
        shown,
        LEXERS.get(lang, lang),
        line_numbers=True,
        start_line=start,
        word_wrap=False,
        theme="ansi_dark",
        background_color="default",
    )
    out.print(syntax)
    if len(lines) > SNIPPET_LINES:
        out.print(f"   [dim]… {len(lines) - SNIPPET_LINES} more lines[/]")


def table(
    out: Console, rows: Iterable[Mapping[str, Any]], columns: list[str], title: str = ""
) -> None:
    """A plain table of records on stdout."""
    t = Table(title=title or None, show_lines=False)
    for c in columns:
        t.add_column(c)
    for row in rows:
        t.add_row(*(_cell(row.get(c)) for c in columns))
    out.print(t)


def columns(out: Console, rows: Iterable[Mapping[str, Any]], columns: list[str]) -> None:
    """Aligned plain columns on stdout: never truncated, so they read well in a pipe too."""
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    out.print(
        "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip(),
        style="bold",
        markup=False,
    )
    for r in cells:
        out.print(
            "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip(), markup=False
        )


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, list | tuple):
        return ", ".join(map(str, v))
    return str(v)


def status(out: Console, s: Status) -> None:
    """`strata status` for people."""
    emb = s.embedder
    out.print(f"[bold]root[/]      {s.root}")
    if s.moved_from:
        out.print(
            f"[yellow]moved[/]     indexed at {s.moved_from}; the next `strata index` "
            "records this root"
        )
    out.print(f"[bold]index[/]     {s.index_dir}  ({s.store})")
    mode = "lexical only (embedder none)" if emb.lexical_only else f"{emb.name} ({emb.dim}-d)"
    if emb.vectors_pending:
        mode = f"{emb.name}: lexical until it answers ({emb.vectors_pending})"
    out.print(f"[bold]embedder[/]  {mode}")
    if not emb.lexical_only:
        out.print(f"[bold]vectors[/]   {s.vectors.done}/{s.vectors.total} rows embedded")
        if emb.adapter_pairs is not None:
            out.print(f"[bold]adapter[/]   {_fitted(emb)}")
    out.print(f"[bold]rows[/]      {s.rows}")
    for layer, c in sorted(s.layers.items()):
        out.print(f"  {layer:<22} {c.rows:>8}")
    out.print(f"[bold]pending[/]   {s.files_pending} files changed on disk since the last index")
    out.print(f"[bold]writer[/]    {'running' if s.writer_active else 'none'}")
    if s.unindexed_rows:
        out.print(
            f"[yellow]lexical[/]   {s.unindexed_rows} rows outside the full-text index "
            "(searched by a scan): `strata doctor --repair` folds them in"
        )
    out.print(f"[bold]health[/]    {'ok' if s.healthy else 'needs `strata index`'}")


def _fitted(emb: EmbedderState) -> str:
    """What the query adapter was fitted on, in words."""
    said = [
        f"{n} {what}"
        for n, what in (
            (emb.adapter_pairs, "documented symbols"),
            (emb.adapter_sections, "doc sections"),
        )
        if n
    ]
    return (
        "fitted on " + " and ".join(said)
        if said
        else "none (too few documented symbols or doc sections)"
    )
