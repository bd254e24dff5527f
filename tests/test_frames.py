"""A pasted stack trace leads to the lines it failed at (`strata.query.frames`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata.engine import Engine
from strata.query.frames import Frame, parse, resolve

PYTHON = """Traceback (most recent call last):
  File "/home/me/proj/src/app/cli.py", line 10, in main
    run()
  File "/usr/lib/python3/dist-packages/click/core.py", line 1157, in __call__
  File "/home/me/proj/src/app/db.py", line 42, in connect
    raise ValueError("no database configured")
ValueError: no database configured"""


@pytest.mark.parametrize(
    ("text", "frames"),
    [
        (  # most recent call last: the innermost is the last frame
            PYTHON,
            [
                ("/home/me/proj/src/app/db.py", 42),
                ("/usr/lib/python3/dist-packages/click/core.py", 1157),
                ("/home/me/proj/src/app/cli.py", 10),
            ],
        ),
        (  # the JVM's file name, in the directories of its package
            "java.lang.IllegalStateException: boom\n"
            "\tat com.acme.Db.connect(Db.java:42)\n"
            "\tat java.base/java.lang.Thread.run(Thread.java:833)",
            [("com/acme/Db.java", 42), ("java/lang/Thread.java", 833)],
        ),
        (
            "TypeError: x is not a function\n    at parse (/srv/app/lib/parse.js:12:5)\n"
            "    at node:internal/main/run_main_module:23:47",
            [("/srv/app/lib/parse.js", 12)],
        ),
        (
            "goroutine 1 [running]:\nmain.handler(...)\n\t/go/src/app/handler.go:27 +0x1d",
            [("/go/src/app/handler.go", 27)],
        ),
        ("   at Acme.Db.Connect() in C:\\src\\Acme\\Db.cs:line 42", [("C:\\src\\Acme\\Db.cs", 42)]),
        ("#0 /var/www/src/Db.php(42): Db->connect()", [("/var/www/src/Db.php", 42)]),
        ("thread 'main' panicked at src/main.rs:10:5:", [("src/main.rs", 10)]),
        ("what is wrong at src/strata/query/hybrid.py:120?", [("src/strata/query/hybrid.py", 120)]),
        (  # a link to a line, as a forge shows one
            "why is https://github.com/acme/app/blob/main/src/db.py#L42 slow",
            [("//github.com/acme/app/blob/main/src/db.py", 42)],
        ),
        ("versions 1.2:3 and 3.14:2 differ", []),  # numbers are no file names
    ],
)
def test_frames_are_read_innermost_first(text: str, frames: list[tuple[str, int]]) -> None:
    assert [(f.path, f.line) for f in parse(text)] == frames


def test_a_frame_names_an_indexed_file_by_its_trailing_directories() -> None:
    indexed = ["src/app/cli.py", "src/app/db.py", "tests/app/db.py", "main.py", "x/__init__.py"]
    indexed += ["y/__init__.py", "setup.py"]
    frames = [
        Frame("/home/me/proj/src/app/db.py", 42),  # src/app/db.py, not tests/app/db.py
        Frame("/home/me/proj/main.py", 3),  # the file at the index's top, by its name
        Frame("/usr/lib/python3/site-packages/setuptools/setup.py", 9),  # an installed one
        Frame("/home/me/proj/pkg/__init__.py", 1),  # two files so named, neither its folder
        Frame("/srv/other/db.py", 5),  # the name alone, and two files have it
        Frame("api.example.com", 443),  # a host and port
    ]
    assert resolve(frames, indexed) == [("src/app/db.py", 42), ("main.py", 3)]


SOURCES = {
    "src/app/db.py": "\n".join(
        [
            '"""The database."""',
            "",
            "",
            "def connect(url):",
            '    """Open a connection to `url`."""',
            *[f"    step_{i} = prepare({i})" for i in range(40)],
            "    if not url:",
            '        raise ValueError("no database configured")',
            "    return open_pool(url)",
            "",
        ]
    ),
    "src/app/cli.py": "\n".join(
        [
            '"""The command line."""',
            "from app.db import connect",
            "",
            "",
            "def main():",
            '    """Run the tool: connect to the database and serve."""',
            "    connect(load_url())",
            "",
        ]
    ),
    "src/app/pool.py": '"""Connection pools."""\n\n\ndef open_pool(url):\n    return [url]\n',
}


def test_a_pasted_traceback_leads_to_where_it_failed(tmp_path: Path) -> None:
    for name, text in SOURCES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    trace = PYTHON.replace("/home/me/proj/", "/home/dev/checkout/").replace("line 10", "line 7")
    trace = trace.replace("line 42", "line 47")  # the `raise`, near the end of a long chunk
    with Engine.open(tmp_path, config={"embed.provider": "none"}) as eng:
        eng.index()
        for query in (trace, f"why does this fail?\n{trace}"):
            result = eng.search(query, k=5)
            first, second = (h.record for h in result.hits[:2])
            assert (first.path, first.title) == ("src/app/db.py", "connect")
            assert "frames" in result.hits[0].parts
            # shown from the screenful holding the failing line, not from `def connect`
            assert (first.metadata["focus_start"], first.metadata["focus_end"]) == (37, 48)
            assert (second.path, second.title) == ("src/app/cli.py", "main")  # its caller
            assert eng.plan(query).intent == "free_text"  # a path is no filter here
        link = "why does https://github.com/acme/app/blob/main/src/app/db.py#L47 raise?"
        first = eng.search(link, k=3).hits[0].record
        assert (first.path, first.title, first.metadata["focus_end"]) == (
            "src/app/db.py",
            "connect",
            48,
        )
        # a trace of files the index does not hold has no frames to lead with
        elsewhere = PYTHON.replace("/home/me/proj/src/app/", "/opt/other/lib/")
        assert all("frames" not in h.parts for h in eng.search(elsewhere, k=5).hits)
