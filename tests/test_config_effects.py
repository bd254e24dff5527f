"""Every documented key, flag and `STRATA_*` variable has an effect: the ones no other test
file checks, each on real files, a real LanceDB index and, where a server answers, one that
speaks the real protocol (`tests/embed_server.py`, `tests/llm_server.py`)."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from strata import Engine
from strata.config import CHOICES, KEYS, load_config
from strata.surfaces.agents import CLIENTS
from strata.surfaces.cli import app
from strata.surfaces.client import SERVE_FILE, TOKEN_VAR
from tests import embed_server, llm_server
from tests.conftest import CORPORA
from tests.gitrepo import git

LEXICAL = {"embed.provider": "none"}


def cli(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env=env, catch_exceptions=False)


def _other_value(key: str) -> tuple[str, Any]:
    """A value of `key` that is not its default: as the environment spells it, and parsed."""
    spec = KEYS[key]
    if key in CHOICES:
        choice = next(c for c in CHOICES[key] if c != spec.default)
        return choice, choice
    if spec.type is bool:
        return str(not spec.default).lower(), not spec.default
    if spec.type is int:
        return str(spec.default + 7), spec.default + 7
    if spec.type is float:
        return str(spec.default + 0.5), spec.default + 0.5
    if spec.type is list:
        return "x/**, *.lock", ("x/**", "*.lock")  # comma-separated
    return "lancedb:///tmp/x", "lancedb:///tmp/x"  # any string; store.uri needs a scheme


@pytest.mark.parametrize("key", sorted(KEYS))
def test_every_key_is_set_by_its_environment_variable(key: str) -> None:
    """`STRATA_<SECTION>_<KEY>` (README, Configuration) reaches every key."""
    text, parsed = _other_value(key)
    var = "STRATA_" + key.replace(".", "_").upper()
    cfg = load_config(None, env={var: text})
    value = cfg.value(key)
    assert (tuple(value) if isinstance(value, tuple | list) else value) == parsed
    assert cfg.sources[key] == "env"


# --- one small indexed corpus for the read-only flags ------------------------------------


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("effects") / "minirepo"
    shutil.copytree(CORPORA / "minirepo", root)
    Engine.open(root, config=LEXICAL).index()
    return root


@pytest.mark.parametrize("client", CLIENTS)
def test_mcp_print_config_prints_the_clients_snippet(client: str, indexed: Path) -> None:
    done = cli("mcp", "--print-config", client, str(indexed))
    assert done.exit_code == 0, done.output
    body = "\n".join(line for line in done.output.splitlines() if not line.startswith("#"))
    if client == "codex":  # a TOML table whose values are JSON-compatible strings and arrays
        assert "[mcp_servers.strata]" in body
        pairs = (line.split(" = ", 1) for line in body.splitlines() if " = " in line)
        server = {key: json.loads(value) for key, value in pairs}
    else:
        start = body.index("{")
        parsed = json.loads(body[start:])
        server = parsed["servers" if client == "vscode" else "mcpServers"]["strata"]
    assert server["args"] == ["mcp", str(indexed)]
    assert Path(server["command"]).name.startswith("strata")


def test_index_dir_variable_finds_the_index_from_anywhere(indexed: Path) -> None:
    """`$STRATA_INDEX_DIR` is `--index-dir`; here the working directory holds no index."""
    assert not (Path.cwd() / ".strata" / "lance").exists()
    done = cli("status", "--json", env={"STRATA_INDEX_DIR": str(indexed / ".strata")})
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["root"] == str(indexed)


def test_symbols_k_caps_the_matches(indexed: Path) -> None:
    idx = ("--index-dir", str(indexed / ".strata"))
    every = json.loads(cli("symbols", "Retry", "--json", *idx).stdout)
    one = json.loads(cli("symbols", "Retry", "-k", "1", "--json", *idx).stdout)
    assert len(every) > 1 and one == every[:1]


def test_version_names_the_package() -> None:
    from importlib.metadata import version

    done = cli("--version")
    assert done.exit_code == 0 and version("strata-index") in done.output


def _notes(tmp_path: Path) -> Path:
    """A tree of one Markdown file."""
    root = tmp_path / "r"
    root.mkdir()
    (root / "notes.md").write_text("# Notes\n\nwombat carousel\n")
    return root


def test_store_flag_puts_the_rows_where_it_says(tmp_path: Path) -> None:
    root = _notes(tmp_path)
    rows = tmp_path / "rows-here"
    store = f"lancedb://{rows}"
    done = cli("index", str(root), "--embedder", "none", "--store", store, "-q")
    assert done.exit_code == 0, done.output
    assert (rows / "chunks.lance").is_dir() and not (root / ".strata" / "lance").exists()
    idx = str(root / ".strata")
    found = cli("search", "wombat", "--json", "--store", store, "--index-dir", idx)
    assert [h["path"] for h in json.loads(found.stdout)] == ["notes.md"]


def test_index_workers_flag_sets_the_processes(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    for i in range(210):  # at least PARALLEL_MIN_FILES, or one process does it all
        (root / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    done = cli("index", str(root), "--embedder", "none", "--workers", "1", "--json", "-q")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["workers"] == 1  # the default is one per core (2 in CI)


def test_index_since_flag_takes_only_what_git_diff_names(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.py").write_text("def alpha():\n    return 1\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "first")
    assert cli("index", str(root), "--embedder", "none", "-q").exit_code == 0
    base = git(root, "rev-parse", "HEAD")
    (root / "a.py").write_text("def alpha():\n    return 'amended'\n")
    git(root, "commit", "-q", "-am", "second")
    (root / "untracked.py").write_text("def zulu():\n    return 26\n")  # not in `git diff`
    done = cli("index", str(root), "--since", base, "--json", "-q")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["indexed"] == 1
    assert "untracked.py" not in {r.path for r in Engine.open(root).records()}


def test_doctor_deep_flag_checks_every_file(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    for i in range(40):  # more files than the sample of 25 a plain check re-processes
        (root / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    eng = Engine.open(root, config=LEXICAL)
    eng.index()
    eng.store._table.delete("layer = 'C0_SOURCE_CHUNKS'")  # type: ignore[attr-defined]
    eng.close()
    lost = {}
    for args in ((), ("--deep",)):
        done = cli("doctor", "--json", "--index-dir", str(root / ".strata"), *args)
        assert done.exit_code == 2, done.output
        problems = json.loads(done.stdout)["problems"]
        lost[args] = {p["path"] for p in problems if p["kind"] == "rows"}
    assert len(lost[("--deep",)]) == 40 and len(lost[()]) < 40


# --- the embedder flags and keys, against a server speaking Ollama's protocol -------------


@pytest.fixture(scope="module")
def embedder() -> Iterator[embed_server.EmbedServer]:
    yield from embed_server.serve()


def test_index_model_flag_names_the_embedding_model(
    tmp_path: Path, embedder: embed_server.EmbedServer
) -> None:
    root = _notes(tmp_path)
    env = {"STRATA_EMBED_BASE_URL": embedder.url}
    done = cli("index", str(root), "--embedder", "ollama", "--model", "m-flag", "-q", env=env)
    assert done.exit_code == 0, done.output
    assert {r.body.get("model") for r in embedder.requests} >= {"m-flag"}
    assert Engine.open(root).status().embedder.name.endswith("m-flag")


@pytest.fixture(scope="module")
def hybrid(
    tmp_path_factory: pytest.TempPathFactory, embedder: embed_server.EmbedServer
) -> tuple[Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp("hybrid") / "minirepo"
    shutil.copytree(CORPORA / "minirepo", root)
    cfg = {"embed.provider": "ollama", "embed.base_url": embedder.url, "embed.model": "m1"}
    Engine.open(root, config=cfg).index()
    return root, cfg


def test_fair_kinds_ranks_code_and_docs_each_among_their_own(
    hybrid: tuple[Path, dict[str, Any]],
) -> None:
    root, cfg = hybrid
    tops = {}
    for fair in (True, False):
        eng = Engine.open(root, config={**cfg, "search.fair_kinds": fair})
        hits = eng.search("retry delay", k=30, mode="hybrid", route=False)
        best = {
            kind: max(h.parts.get("lexical", 0.0) for h in hits if h.record.layer[0] == kind)
            for kind in "CD"
        }
        tops[fair] = best
    assert tops[True]["C"] == pytest.approx(tops[True]["D"])  # each kind's best is rank 1
    assert tops[False]["C"] != pytest.approx(tops[False]["D"])  # one list: one rank 1


def test_kind_floor_reads_deeper_for_the_kind_crowded_out_of_the_pool(
    tmp_path: Path, embedder: embed_server.EmbedServer
) -> None:
    from strata.query.hybrid import Searcher

    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    for i in range(8):  # code that repeats the words: BM25's first candidates are all code
        (root / "src" / f"retry{i}.py").write_text(
            f"def retry_delay_{i}(retry, delay):\n    return retry * delay + retry + delay\n",
            encoding="utf-8",
        )
    (root / "docs" / "retries.md").write_text(
        "# Retries\n\nThe client waits a delay before each retry.\n", encoding="utf-8"
    )
    cfg = {"embed.provider": "ollama", "embed.base_url": embedder.url, "embed.model": "m1"}
    Engine.open(root, config=cfg).index()
    seen: dict[bool, dict[str, list[str]]] = {}

    class Kept(Searcher):
        def _rank(self, q: Any, lists: Any, k: int, *rest: Any) -> Any:
            seen[floor] = {name: [r.layer[:1] for r, _ in pairs] for name, pairs in lists.items()}
            return super()._rank(q, lists, k, *rest)

    for floor in (True, False):
        eng = Engine.open(root, config={**cfg, "search.candidates": 4, "search.kind_floor": floor})
        Kept(eng.parts.context()).search("how long is the retry delay", k=1, mode="hybrid")
        eng.close()
    assert seen[False]["lexical"] == ["C"] * 4  # the doc is crowded out of a pool of 4
    assert seen[True]["lexical"] == ["C"] * 4 + ["D"]  # its kind's first, from deeper
    assert all(kinds[:4] == seen[False][name][:4] for name, kinds in seen[True].items())


def test_feedback_adds_a_bm25_list_of_the_names_the_first_hits_share(
    hybrid: tuple[Path, dict[str, Any]],
) -> None:
    root, cfg = hybrid
    query = "how long does the client wait between two attempts"
    off = Engine.open(root, config=cfg).search(query, k=10, mode="hybrid", route=False)
    eng = Engine.open(root, config={**cfg, "search.feedback": 1.0})
    on = eng.search(query, k=10, mode="hybrid", route=False)
    assert "feedback_terms" not in off.plan and not any("feedback" in h.parts for h in off)
    added = on.plan["feedback_terms"]
    assert added and not set(added) & set(on.plan["terms"])
    assert any(h.parts.get("feedback", 0.0) > 0 for h in on)
    named = eng.search("RetryPolicy", k=10, mode="hybrid", route=False)
    assert "feedback_terms" not in named.plan  # a name is looked up, not expanded


# --- ask --model, against a server speaking OpenAI's protocol ------------------------------


def test_ask_model_flag_names_the_model_asked(indexed: Path) -> None:
    gen = llm_server.serve()
    chat = next(gen)
    try:
        chat.reply = "It retries [1]."
        env = {"STRATA_LLM_PROVIDER": "openai", "STRATA_LLM_BASE_URL": chat.openai_url}
        env["STRATA_LLM_MODEL"] = chat.model
        idx = ("--index-dir", str(indexed / ".strata"))
        ok = cli("ask", "how does it retry?", *idx, env=env)
        assert ok.exit_code == 0, ok.output
        other = cli("ask", "how does it retry?", "--model", "other", *idx, env=env)
        assert other.exit_code == 2 and "has no model 'other'" in other.output
    finally:
        gen.close()


# --- serve --token / STRATA_SERVE_TOKEN, and watch --debounce: real processes -------------


def _strata(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "strata", *args],
        cwd=cwd,
        env={**os.environ, "STRATA_NO_SERVER": "1", **(env or {})},
        stderr=subprocess.PIPE,
        text=True,
    )


def _status(port: int, token: str | None) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/health", headers={"Authorization": f"Bearer {token}"} if token else {})
    status = conn.getresponse().status
    conn.close()
    return status


def test_serve_token_flag_and_variable_guard_loopback_too(tmp_path: Path, indexed: Path) -> None:
    """`--token` and `$STRATA_SERVE_TOKEN`, each on its own copy, served at once."""
    roots = {how: tmp_path / how for how in ("flag", "env")}
    for root in roots.values():
        shutil.copytree(indexed, root)
    procs = {
        "flag": _strata("serve", "--port", "0", "--token", "s3cret", cwd=roots["flag"]),
        "env": _strata("serve", "--port", "0", cwd=roots["env"], env={TOKEN_VAR: "s3cret"}),
    }
    try:
        for how, proc in procs.items():
            served = roots[how] / ".strata" / SERVE_FILE
            deadline = time.monotonic() + 120
            while not served.exists() and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            port = json.loads(served.read_text())["port"]
            assert (_status(port, None), _status(port, "s3cret")) == (401, 200), how
    finally:
        for proc in procs.values():
            proc.terminate()
            proc.communicate(timeout=60)


def test_watch_debounce_waits_for_quiet(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    (root / "a.md").write_text("# A\n\nfirst words\n")
    Engine.open(root, config=LEXICAL).index()
    proc = _strata("watch", "--debounce", "2", "--embedder", "none", cwd=root)
    try:
        assert proc.stderr is not None
        assert "watching" in proc.stderr.readline()
        # a first edit, seen whenever the watcher gets to it (its start-up catch-up may read
        # it at once); after its line the watcher is in its loop, and the second one waits
        (root / "a.md").write_text("# A\n\nsecond words\n")
        assert "a.md" in proc.stderr.readline()
        edited = time.monotonic()
        (root / "a.md").write_text("# A\n\nthird words\n")
        line = proc.stderr.readline()
        waited = time.monotonic() - edited
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
    assert "a.md" in line and waited >= 2, (line, waited)


def test_every_flag_of_every_command_is_documented_in_the_readme() -> None:
    """The reverse of `test_every_key_is_documented_in_the_readme`, for the CLI: each
    command's row of the README's table (or the line every command shares) names each of
    its options."""
    import click

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    start = readme.index("Every command takes")
    shared = readme[start : readme.index("Exit codes", start)]
    table = [line.split(" | ")[0] for line in readme.splitlines() if line.startswith("| `strata ")]
    rows = {name: cell for cell in table for name in re.findall(r"`strata (\w+)", cell)}
    ctx = click.Context(app)
    for name in app.list_commands(ctx):
        command = app.get_command(ctx, name)
        assert command is not None and name in rows, name
        for param in command.params:
            if isinstance(param, click.Option):
                named = [o for o in param.opts if f"`{o}" in shared or f"{o}" in rows[name]]
                assert named, (name, param.opts)


def _long_function(root: Path) -> None:
    body = "".join(f"    total += {i}\n" for i in range(60))
    (root / "calc.py").write_text(f"def add_up():\n    total = 0\n{body}    return total\n")
    os.utime(root / "calc.py", (time.time() - 60, time.time() - 60))  # its stat is settled


def _spans(root: Path) -> list[tuple[int, int]]:
    with Engine.open(root) as eng:
        return sorted(
            (h.record.span_start or 0, h.record.span_end or 0)
            for h in eng.search("total", k=20, layers=["C0_SOURCE_CHUNKS"]).hits
        )


def test_a_chunk_setting_changed_rechunks_the_unchanged_files(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    _long_function(root)
    first = cli("index", str(root), "--embedder", "none", "--json", "-q")
    assert json.loads(first.stdout)["reread"] == 0
    assert _spans(root) == [(1, 63)]
    (root / ".strata" / "config.yaml").write_text("chunk:\n  max_lines: 20\n")
    with Engine.open(root) as eng:
        assert eng.status().files_pending == 1  # to be chunked the new way
    again = json.loads(cli("index", str(root), "--json", "-q").stdout)
    assert again["reread"] == 1 and again["unchanged"] == 1 and again["indexed"] == 0
    assert len(_spans(root)) > 1 and max(e - s + 1 for s, e in _spans(root)) <= 20
    assert json.loads(cli("index", str(root), "--json", "-q").stdout)["reread"] == 0
    with Engine.open(root) as eng:
        assert eng.status().files_pending == 0


def test_an_index_from_another_strata_is_chunked_again(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    _long_function(root)
    assert cli("index", str(root), "--embedder", "none", "-q").exit_code == 0
    meta = root / ".strata" / "index.json"
    locator = json.loads(meta.read_text())
    locator["chunking"] = "made-by-an-older-strata"
    meta.write_text(json.dumps(locator))
    done = json.loads(cli("index", str(root), "--json", "-q").stdout)
    assert done["reread"] == 1 and _spans(root) == [(1, 63)]  # same rows, nothing lost
    assert json.loads(meta.read_text())["chunking"] != "made-by-an-older-strata"
