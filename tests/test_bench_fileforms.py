"""The file-question benchmark: each file's head, and the name a user would give it."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.fileforms import PHRASINGS, heads, names
from benchmarks.quality.model import Target


def test_a_module_docstring_and_a_documents_first_section_are_the_heads(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "db.py").write_text('\n"""The database:\nconnections."""\nimport os\n')
    (tmp_path / "app" / "bare.py").write_text("import os\n")  # no docstring: no head
    (tmp_path / "guide.md").write_text("# Guide\n\nRead this first.\n\n## Install\n\npip\n")
    assert heads(tmp_path) == {
        "app/db.py": Target("app/db.py", 2, 3),
        "guide.md": Target("guide.md", 1, 3),
    }


def test_a_file_is_named_by_its_shortest_unambiguous_path() -> None:
    paths = ["src/app/db.py", "src/app/legacy/db.py", "src/app/cli.py", "README.md"]
    paths += ["docs/README.md"]
    assert names(paths) == {
        "src/app/db.py": "app/db.py",
        "src/app/legacy/db.py": "legacy/db.py",
        "src/app/cli.py": "cli.py",
        "README.md": "README.md",  # the whole path, though docs/README.md ends with it
        "docs/README.md": "docs/README.md",
    }
    assert all(p.count("{}") == 1 for p in PHRASINGS)
