"""Invariants every chunker keeps, over generated sources, random text and real packages."""

from __future__ import annotations

import ast
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strata.config import ChunkConfig
from strata.index.chunking import chunk, line_windows, paragraphs
from strata.types import Chunk, Extracted

DEFAULT = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=5)


def check_chunks(text: str, chunks: list[Chunk], cfg: ChunkConfig, *, windows: bool) -> None:
    """Assert the chunk contract: exact text, budget, order, overlap rules, coverage.

    Args:
        text: the file.
        chunks: what a chunker returned for it.
        cfg: the budget it was given.
        windows: whether consecutive chunks may share up to `cfg.overlap_lines` lines.
    """
    lines = text.split("\n")
    cols: dict[int, list[tuple[int, int]]] = {}
    covered: set[int] = set()
    for i, c in enumerate(chunks):
        assert 1 <= c.start_line <= c.end_line <= len(lines), c
        assert len(c.text) <= max(1, cfg.max_chars), c
        assert c.end_line - c.start_line + 1 <= max(1, cfg.max_lines), c
        assert c.text.strip(), c
        if "col_start" in c.metadata:
            a, b = c.metadata["col_start"], c.metadata["col_end"]
            assert c.start_line == c.end_line
            assert c.text == lines[c.start_line - 1][a:b]
            cols.setdefault(c.start_line, []).append((a, b))
        else:
            assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])
            covered.update(range(c.start_line, c.end_line + 1))
        if i:
            _check_pair(chunks, i, cfg, windows)
    for n, line in enumerate(lines, start=1):
        if line.strip() and n not in covered:
            assert n in cols, f"line {n} not covered: {line[:80]!r}"
            _check_columns_cover(line, sorted(cols[n]))


def _check_pair(chunks: list[Chunk], i: int, cfg: ChunkConfig, windows: bool) -> None:
    prev, cur = chunks[i - 1], chunks[i]
    if prev.start_line == cur.start_line == prev.end_line == cur.end_line and (
        "col_start" in cur.metadata or "col_start" in prev.metadata
    ):
        assert "col_start" in cur.metadata and "col_start" in prev.metadata
        assert cur.metadata["col_start"] >= prev.metadata["col_end"]
        return
    if not windows:
        assert cur.start_line > prev.end_line, (prev, cur)
        return
    assert cur.start_line > prev.start_line, (prev, cur)
    assert prev.end_line - cur.start_line + 1 <= cfg.overlap_lines, (prev, cur)
    if i >= 2:  # a line is shared by consecutive windows only
        assert cur.start_line > chunks[i - 2].end_line, (chunks[i - 2], cur)


def _check_columns_cover(line: str, ranges: list[tuple[int, int]]) -> None:
    pos = 0
    for a, b in ranges:
        assert a >= pos
        assert not line[pos:a].strip(), "non-blank text between column windows"
        pos = b
    assert not line[pos:].strip(), "non-blank text after the last column window"


configs = st.just(DEFAULT) | st.builds(
    ChunkConfig,
    max_lines=st.integers(1, 4) | st.integers(8, 80),
    max_chars=st.integers(1, 60) | st.integers(300, 3000),
    window_lines=st.integers(0, 30),
    overlap_lines=st.integers(0, 12),
)

NAMES = st.sampled_from(["run", "send", "Client", "_helper", "données", "x1"])


@st.composite
def python_sources(draw: st.DrawFn) -> str:
    """Valid Python with definitions, decorators, comments, nesting and long lines."""
    return "\n".join(_block(draw, "", 0)) + draw(st.sampled_from(["", "\n", "\n\n"]))


def _block(draw: st.DrawFn, indent: str, depth: int) -> list[str]:
    kinds = ["stmt", "comment", "blank", "long"] + (["def", "class", "if"] if depth < 3 else [])
    out: list[str] = []
    for kind in draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=8)):
        name = draw(NAMES)
        if kind == "stmt":
            out.append(f"{indent}{name} = {draw(st.integers())}")
        elif kind == "comment":
            out.append(f"{indent}# about {name}")
        elif kind == "blank":
            out.append(draw(st.sampled_from(["", "   "])))
        elif kind == "long":
            words = draw(st.lists(st.sampled_from(["alpha", "beta", "ünï", "'x'"]), max_size=90))
            out.append(f"{indent}{name} = [{', '.join(words)}]")
        else:
            out.extend(_compound(draw, kind, name, indent, depth))
    if all(not line.strip() or line.lstrip().startswith("#") for line in out):
        out.append(f"{indent}pass")
    return out


def _compound(draw: st.DrawFn, kind: str, name: str, indent: str, depth: int) -> list[str]:
    head = []
    if kind != "if" and draw(st.booleans()):
        head.append(f"{indent}@decorator({name!r})")
    if kind == "def":
        keyword = draw(st.sampled_from(["def", "async def"]))
        head.append(f"{indent}{keyword} {name}(self, a=1, *, b: int = 2) -> int:")
    elif kind == "class":
        head.append(f"{indent}class {name}(Base):")
    else:
        head.append(f'{indent}if __name__ == "__main__":')
    if draw(st.booleans()):
        head.append(f'{indent}    """Docstring of {name}."""')
    return head + _block(draw, indent + "    ", depth + 1)


random_text = st.lists(
    st.sampled_from([*"ab \t\n\n\n#:()=é\r𝔘", "def ", "class ", "    ", "x" * 150]),
    max_size=200,
).map("".join) | st.lists(
    st.sampled_from(["", "  ", "word word", "# note", "x" * 70, "\tindented", "é𝔘"]),
    max_size=150,
).map("\n".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(python_sources(), configs)
def test_python_chunks_keep_the_contract(text: str, cfg: ChunkConfig) -> None:
    ast.parse(text)  # the generator makes valid Python, so the AST path is what is tested
    chunks = chunk(Extracted("m.py", text, "python", "code", "h"), cfg)
    check_chunks(text, chunks, cfg, windows=False)
    assert not any("fallback" in c.metadata for c in chunks)


@settings(max_examples=200, deadline=None)
@given(random_text, configs)
def test_python_chunker_survives_any_text(text: str, cfg: ChunkConfig) -> None:
    chunks = chunk(Extracted("m.py", text, "python", "code", "h"), cfg)
    fell_back = any("fallback" in c.metadata for c in chunks)
    check_chunks(text, chunks, cfg, windows=fell_back)


Chunker = Callable[[str, ChunkConfig], list[Chunk]]


@pytest.mark.parametrize(
    ("chunker", "windows"), [(line_windows, True), (paragraphs, False)], ids=["windows", "text"]
)
@settings(max_examples=200, deadline=None)
@given(text=random_text, cfg=configs)
def test_text_chunkers_keep_the_contract(
    chunker: Chunker, windows: bool, text: str, cfg: ChunkConfig
) -> None:
    check_chunks(text, chunker(text, cfg), cfg, windows=windows)


@settings(max_examples=100, deadline=None)
@given(text=random_text, cfg=configs, lang=st.sampled_from(["text", "go", "python", "markdown"]))
def test_dispatcher_keeps_the_contract(text: str, cfg: ChunkConfig, lang: str) -> None:
    chunks = chunk(Extracted("f", text, lang, "code", "h"), cfg)
    check_chunks(text, chunks, cfg, windows=lang != "text")


def _real_python_files() -> list[Path]:
    site = Path(sysconfig.get_paths()["purelib"])
    files = sorted((site / "rich").rglob("*.py")) + sorted((site / "click").rglob("*.py"))
    return [f for f in files if "__pycache__" not in f.parts]


@pytest.mark.parametrize("cfg", [DEFAULT, ChunkConfig(12, 400, 10, 3)], ids=["default", "small"])
def test_real_packages_keep_the_contract(cfg: ChunkConfig) -> None:
    files = _real_python_files()
    assert len(files) > 50, "rich and click should be installed in the venv"
    for path in files:
        text = path.read_text(encoding="utf-8")
        chunks = chunk(Extracted(path.name, text, "python", "code", "h"), cfg)
        check_chunks(text, chunks, cfg, windows=False)
        assert not any("fallback" in c.metadata for c in chunks), path
        _check_every_definition_has_a_chunk(text, chunks, path)


def _check_every_definition_has_a_chunk(text: str, chunks: list[Chunk], path: Path) -> None:
    titles = {(c.kind, c.title) for c in chunks}
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert ("function", node.name) in titles, (path, node.name)
        elif isinstance(node, ast.ClassDef):
            assert ("class", node.name) in titles, (path, node.name)
            for member in node.body:
                if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
                    assert ("method", f"{node.name}.{member.name}") in titles, (path, member.name)
