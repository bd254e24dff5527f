"""A long code hit points at the lines its query's words are in (strata.query.focus)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from strata import Engine
from strata.index.records import make_record
from strata.query.focus import FOCUS_LINES, focus, focused, window_lines
from strata.surfaces.mcp import hit_snippet
from strata.text.tokens import query_terms

# A long function as real code has them: setup, a retry loop in the middle, cleanup.
BODY = [
    "def sync_orders(client, since, store):",
    '    """Copy the orders changed since `since` from the shop into the store."""',
    "    page = 1",
    "    seen = set()",
    "    started = time.monotonic()",
    "    log.info('sync from %s', since)",
    *[f"    step_{i} = prepare(client, page, {i})" for i in range(14)],
    "    attempts = 0",
    "    while attempts < MAX_ATTEMPTS:",
    "        try:",
    "            batch = client.fetch(page, since)",
    "            break",
    "        except RateLimited as exc:",
    "            backoff = exc.retry_after or 2 ** attempts",
    "            time.sleep(backoff)",
    "            attempts += 1",
    *[f"    total_{i} = summarise(batch, {i})" for i in range(14)],
    "    store.commit()",
    "    return len(seen)",
]
SOURCE = "\n".join(BODY) + "\n"
RETRY_LINE = BODY.index("        except RateLimited as exc:") + 1  # 1-based


def _chunk(start: int = 1, layer: str = "C0_SOURCE_CHUNKS") -> object:
    return make_record(
        id="sync.py:sync_orders",
        path="sync.py",
        layer=layer,
        title="sync_orders",
        content=SOURCE.rstrip("\n"),
        lang="python",
        file_hash="h",
        span=(start, start + len(BODY) - 1),
        kind="function",
    )


def test_the_window_holds_the_query_words_not_the_first_lines() -> None:
    rec = _chunk(start=101)
    window = focus(rec, query_terms("how does it back off when the shop is rate limited"))
    assert window is not None
    first, last = window
    assert last - first + 1 == FOCUS_LINES
    assert first <= 100 + RETRY_LINE <= last  # the `except RateLimited` line, at file lines
    assert first > 101  # not the head of the chunk


def test_short_chunks_documents_and_unmatched_words_get_no_window() -> None:
    terms = query_terms("rate limited backoff")
    short = make_record(
        id="a", path="a.py", layer="C0_SOURCE_CHUNKS", title="f", content="def f():\n    pass",
        lang="python", file_hash="h", span=(1, 2), kind="function",
    )  # fmt: skip
    assert focus(short, terms) is None
    assert focus(_chunk(layer="D0_DOC_CHUNKS"), terms) is None  # a section reads from its heading
    assert focus(_chunk(), query_terms("kubernetes helm chart")) is None
    assert focused(_chunk(), query_terms("kubernetes helm chart")) == _chunk()


def test_a_word_on_every_line_does_not_place_the_window() -> None:
    # `step` and `total` fill most lines; `backoff` is on one: the window goes to it
    first, last = focus(_chunk(), query_terms("step total backoff")) or (0, 0)
    assert first <= RETRY_LINE + 1 <= last


def test_surfaces_show_the_window_of_a_long_hit(tmp_path: Path) -> None:
    (tmp_path / "sync.py").write_text("import time\n\n\n" + SOURCE, encoding="utf-8")
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    eng.index(full=True)
    query = "what happens when the shop answers rate limited, how long is the backoff"
    result = eng.search(query, mode="lexical")
    eng.close()
    hit = next(h for h in result.hits if h.record.title.endswith("sync_orders"))
    start, end = hit.record.metadata["focus_start"], hit.record.metadata["focus_end"]
    assert hit.record.span_start is not None and start > hit.record.span_start
    assert start <= 3 + RETRY_LINE <= end  # three lines above the function in the file
    shown_from, text = window_lines(hit.record)
    assert shown_from == start and "except RateLimited" in text
    snippet = hit_snippet(hit, 6)
    assert snippet.focus_start == start and snippet.start_line == hit.record.span_start
    assert "RateLimited" in snippet.snippet and "def sync_orders" not in snippet.snippet
    shown = subprocess.run(
        [sys.executable, "-m", "strata", "search", query, "--mode", "lexical", "-k", "1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=os.environ.copy(),
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert "except RateLimited" in shown.stdout and "def sync_orders" not in shown.stdout


@pytest.mark.parametrize("query", ["sync_orders", "where is sync_orders defined"])
def test_a_name_lookup_keeps_the_header(tmp_path: Path, query: str) -> None:
    (tmp_path / "sync.py").write_text(SOURCE, encoding="utf-8")
    eng = Engine.open(tmp_path, config={"embed.provider": "none"})
    eng.index(full=True)
    result = eng.search(query, mode="lexical")
    eng.close()
    top = result.hits[0].record
    assert top.title.endswith("sync_orders") and "focus_start" not in top.metadata
