"""The files the rest of the code leans on: imports matched to files in each language's
way, on a real index of a polyglot tree."""

from __future__ import annotations

from pathlib import Path

from strata import Engine
from strata.query import lookup


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _central(root: Path, n: int = 10) -> list[str]:
    with Engine.open(root, config={"embed.provider": "none"}) as eng:
        eng.index()
        return lookup.central_files(eng.store, n)


def test_python_modules_and_names_imported_from_them(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "src/pkg/__init__.py": '"""The package."""\n',
            "src/pkg/_config.py": "LEVEL = 1\n",
            "src/pkg/a.py": "from pkg._config import LEVEL\n",
            "src/pkg/b.py": "import pkg._config\n",
            "src/pkg/c.py": "from . import _config\nfrom pkg import a\n",
        },
    )
    assert _central(tmp_path)[0] == "src/pkg/_config.py"


def test_a_c_header_is_not_its_source_file(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "src/lua.h": "int lua_call(int n);\n",
            "src/lua.c": '#include "lua.h"\nint main(void) { return 0; }\n',
            "src/lapi.c": '#include "lua.h"\nint lua_call(int n) { return n; }\n',
            "src/ldo.c": '#include "lua.h"\n#include <stdio.h>\nint f(void) { return 1; }\n',
        },
    )
    assert _central(tmp_path) == ["src/lua.h"]


def test_elixir_modules_and_go_packages(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "lib/ex_unit/pretty_diff.ex": "defmodule ExUnit.PrettyDiff do\n  def run, do: 1\nend\n",
            "lib/ex_unit/case.ex": "defmodule ExUnit.Case do\n  alias ExUnit.PrettyDiff\nend\n",
            "lib/ex_unit/runner.ex": "defmodule ExUnit.Runner do\n  alias ExUnit.PrettyDiff\nend\n",
            # a Go import names a package (a folder), never the file `errors.go`
            "cmd/errors.go": "package cmd\n\nfunc Wrap() {}\n",
            "cmd/root.go": 'package cmd\n\nimport "errors"\n\nfunc Run() { errors.New("x") }\n',
        },
    )
    assert _central(tmp_path) == ["lib/ex_unit/pretty_diff.ex"]
