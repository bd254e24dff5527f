"""The Python chunker on real-looking modules: exact spans, kinds, titles and metadata."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from strata.config import ChunkConfig
from strata.index.chunking import chunk
from strata.index.chunking.python import chunk_python
from strata.types import Chunk, Extracted

CFG = ChunkConfig(max_lines=80, max_chars=3000, window_lines=40, overlap_lines=5)


def spans(chunks: list[Chunk]) -> list[tuple[int, int, str, str]]:
    return [(c.start_line, c.end_line, c.kind, c.title) for c in chunks]


def source(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


CLIENT = source('''
    #!/usr/bin/env python
    """HTTP client."""
    from __future__ import annotations

    import logging

    TIMEOUT = 5.0

    # Sends one request.
    # Retries are the caller's business.
    @retry(times=3)
    @trace
    def send(self, request, *, timeout=None) -> Response:
        def encode(body):
            return body.encode()

        class Local:
            pass

        return transport(encode(request.body))
        # not reached


    @dataclass(frozen=True)
    class Client(Base, metaclass=Meta):
        """A client."""

        base_url: str
        retries: int = 3

        def get(self, url: str) -> Response:
            return send(self, Request("GET", url))

        user_agent = "strata"

        @property
        def name(self) -> str:
            return "client"

        async def close(self) -> None:
            await self.pool.aclose()

        class Pool:
            def acquire(self): ...


    if __name__ == "__main__":
        send(None, None)
''')


def test_definitions_become_units_with_exact_spans() -> None:
    chunks = chunk_python(CLIENT, CFG)
    assert spans(chunks) == [
        (1, 7, "module", ""),
        (9, 21, "function", "send"),
        (24, 29, "class", "Client"),
        (31, 32, "method", "Client.get"),
        (34, 34, "block", "Client"),
        (36, 38, "method", "Client.name"),
        (40, 41, "method", "Client.close"),
        (43, 43, "class", "Client.Pool"),
        (44, 44, "method", "Client.Pool.acquire"),
        (47, 48, "module", ""),
    ]


def test_chunk_text_is_the_files_lines_at_the_span() -> None:
    lines = CLIENT.split("\n")
    for c in chunk_python(CLIENT, CFG):
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])


def test_decorators_and_preceding_comments_join_the_function() -> None:
    send = chunk_python(CLIENT, CFG)[1]
    assert send.text.startswith("# Sends one request.\n# Retries are the caller's business.\n")
    assert "@retry(times=3)\n@trace\ndef send" in send.text
    assert send.text.endswith("    # not reached")


def test_nested_definitions_stay_inside_their_parent() -> None:
    titles = [c.title for c in chunk_python(CLIENT, CFG)]
    assert "send.encode" not in titles and "encode" not in titles
    assert "Local" not in titles and "send.Local" not in titles


def test_signatures_and_symbols_are_in_metadata() -> None:
    by_title = {c.title: c for c in chunk_python(CLIENT, CFG) if c.kind != "block"}
    send = by_title["send"].metadata
    assert send["symbol"] == "send"
    assert send["signature"] == "def send(self, request, *, timeout=None) -> Response"
    assert by_title["Client.close"].metadata["signature"] == "async def close(self) -> None"
    assert by_title["Client"].metadata["signature"] == "class Client(Base, metaclass=Meta)"


def test_class_header_lists_its_members_in_the_outline() -> None:
    header = chunk_python(CLIENT, CFG)[2]
    assert header.text.startswith("@dataclass(frozen=True)\nclass Client")
    assert "retries: int = 3" in header.text and "def get" not in header.text
    assert header.metadata["outline"] == [
        "def get(self, url: str) -> Response",
        "def name(self) -> str",
        "async def close(self) -> None",
        "class Pool",
    ]


def test_dataclass_without_methods_is_one_class_chunk() -> None:
    text = source("""
        @dataclass(frozen=True, slots=True)
        class Point:
            x: float
            y: float = 0.0
    """)
    [only] = chunk_python(text, CFG)
    assert (only.start_line, only.end_line, only.kind, only.title) == (1, 4, "class", "Point")
    assert only.metadata["outline"] == []


def test_module_with_only_statements_groups_them() -> None:
    text = source("""
        import os
        import sys

        DEBUG = os.environ.get("DEBUG") == "1"
        NAMES = {
            "a": 1,
        }

        if __name__ == "__main__":
            sys.exit(0)
    """)
    assert spans(chunk_python(text, CFG)) == [(1, 10, "module", "")]


def test_large_module_block_is_cut_at_statement_boundaries() -> None:
    body = "\n".join(f"VALUE_{i} = [\n    {i},\n    {i + 1},\n]" for i in range(40))
    chunks = chunk_python(body, CFG)
    assert [c.kind for c in chunks] == ["module"] * len(chunks)
    assert len(chunks) == 2
    assert all(c.end_line - c.start_line + 1 <= 80 for c in chunks)
    assert all(c.text.startswith("VALUE_") and c.text.endswith("]") for c in chunks)


def test_thousand_line_function_is_split_at_its_statements() -> None:
    lines = ["def big(n):", '    """A long one."""', "    total = 0"]
    for i in range(333):
        lines += [f"    if n > {i}:", f"        total += {i}", ""]
    lines.append("    return total")
    text = "\n".join(lines)
    chunks = chunk_python(text, CFG)
    assert len(lines) > 1000
    assert {(c.kind, c.title) for c in chunks} == {("function", "big")}
    assert [c.metadata["part"] for c in chunks] == list(range(1, len(chunks) + 1))
    assert all(c.end_line - c.start_line + 1 <= 80 for c in chunks)
    assert all(c.text.startswith("    if n >") for c in chunks[1:-1])
    assert chunks[-1].end_line == len(lines)
    assert all(c.metadata["signature"] == "def big(n)" for c in chunks)


def test_class_with_huge_header_is_split_keeping_kind_and_title() -> None:
    members = "\n".join(f"    RED_{i} = {i}" for i in range(150))
    text = f"class Colour(Enum):\n{members}\n\n    def describe(self) -> str:\n        return ''"
    chunks = chunk_python(text, CFG)
    assert spans(chunks) == [
        (1, 80, "class", "Colour"),
        (81, 151, "class", "Colour"),
        (153, 154, "method", "Colour.describe"),
    ]
    assert [c.metadata.get("part") for c in chunks] == [1, 2, None]
    assert chunks[1].metadata["outline"] == ["def describe(self) -> str"]


def test_syntax_error_falls_back_to_windows() -> None:
    text = "def ok():\n    return 1\n\ndef broken(:\n    pass\n"
    chunks = chunk_python(text, CFG)
    assert spans(chunks) == [(1, 5, "text", "")]
    assert chunks[0].metadata["fallback"] == "syntax error line 4"


def test_null_byte_falls_back_with_its_line() -> None:
    chunks = chunk_python("x = 1\ny = '\0'\n", CFG)
    assert chunks[0].metadata["fallback"] == "syntax error line 2"
    assert chunks[0].text == "x = 1\ny = '\0'"


def test_unicode_names_and_text_keep_exact_spans() -> None:
    text = source('''
        # Überschrift: données 🚀
        ÉTAT = "prêt"

        def größe(wert: str = "ü") -> int:
            """Länge in Zeichen — 🚀."""
            return len(wert)

        class Café:
            def servir(self):  # ☕ comment after the header
                return "☕"
                # trailing note ☕, indented like the body
            # a note on the class ☕
    ''')
    assert spans(chunk_python(text, CFG)) == [
        (1, 2, "module", ""),
        (4, 6, "function", "größe"),
        (8, 8, "class", "Café"),
        (9, 11, "method", "Café.servir"),
        (12, 12, "block", "Café"),
    ]


def test_a_lone_carriage_return_does_not_shift_lines() -> None:
    text = 'x = "a\rb"\n\ndef f():\n    return x\n'
    assert spans(chunk_python(text, CFG)) == [(1, 1, "module", ""), (3, 4, "function", "f")]


def test_empty_and_blank_files_have_no_chunks() -> None:
    assert chunk_python("", CFG) == []
    assert chunk_python("\n\n   \n", CFG) == []


def test_comments_separated_by_a_blank_line_stay_in_the_module_block() -> None:
    text = "import os\n\n# A loose note.\n\ndef f():\n    pass\n"
    assert spans(chunk_python(text, CFG)) == [(1, 3, "module", ""), (5, 6, "function", "f")]


def test_dispatcher_uses_the_ast_chunker_for_python() -> None:
    doc = Extracted("pkg/client.py", CLIENT, "python", "code", "h")
    assert spans(chunk(doc, CFG)) == spans(chunk_python(CLIENT, CFG))


def test_every_top_level_function_of_a_real_module_is_a_chunk() -> None:
    text = Path(ast.__file__).read_text(encoding="utf-8")
    titles = {c.title for c in chunk_python(text, CFG) if c.kind == "function"}
    expected = {
        n.name
        for n in ast.parse(text).body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    assert expected and expected <= titles


def test_split_prefers_shallow_statements_but_never_makes_tiny_parts() -> None:
    body = [f"        total += {i}" for i in range(200)]
    text = "\n".join(["def f():", "    total = 0", "    for i in range(3):", *body, "    return 1"])
    chunks = chunk_python(text, CFG)
    assert spans(chunks) == [
        (1, 80, "function", "f"),
        (81, 160, "function", "f"),
        (161, 204, "function", "f"),
    ]
