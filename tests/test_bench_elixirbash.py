"""The `elixirbash` benchmark's own walk of definitions and their docs (not Strata's queries)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.quality.elixirbash import BASH, ELIXIR, Spec, definitions

LANGS = Path(__file__).parent / "corpora" / "langs"


def _by_name(spec: Spec, root: Path, name: str) -> dict[str, tuple[int, int, object, str]]:
    return {d.name: (d.start, d.end, d.comment, d.doc) for d in definitions(spec, root, name)}


def test_elixir_modules_functions_clauses_and_their_doc_attributes() -> None:
    defs = _by_name(ELIXIR, LANGS, "stack.ex")
    assert defs["Stack"] == (1, 28, (2, 4), "A stack of jobs, newest on top.")
    assert defs["push"] == (14, 17, (10, 12), "Pushes a job on top of the stack.")
    # two clauses are one definition; a one-line `@doc "..."` is a doc too
    assert defs["pop"] == (20, 21, (19, 19), "Takes the newest job off the stack.")
    assert defs["size"][2:] == (None, "")  # `defp`, undocumented
    assert "empty?" in defs  # `defmacro`


def test_elixir_doc_false_and_since_keywords(tmp_path: Path) -> None:
    (tmp_path / "m.ex").write_text(
        "defmodule M do\n"
        '  @doc """\n  Runs it.\n  """\n'
        '  @doc since: "1.11.0"\n'
        "  def run, do: :ok\n\n"
        "  @doc false\n"
        "  def hidden, do: :ok\n"
        "end\n",
        encoding="utf-8",
    )
    defs = _by_name(ELIXIR, tmp_path, "m.ex")
    assert defs["run"] == (6, 6, (2, 4), "Runs it.")  # the text, not the `since:` keyword
    assert defs["hidden"][2:] == (None, "")


def test_bash_functions_with_the_comment_lines_above(tmp_path: Path) -> None:
    (tmp_path / "complete").write_text(
        "#!/bin/bash\n"
        "# -*- shell-script -*-\n"
        "\n"
        "# Completes hosts. Reads the known hosts file.\n"
        "# shellcheck disable=SC2120\n"
        "# @param $1 the word\n"
        "_hosts()\n{\n    :\n}\n"
        "\n"
        "if true; then\n"
        "    # Nested, and indented as it is.\n"
        "    _inner() { :; }\n"
        "fi\n",
        encoding="utf-8",
    )
    defs = _by_name(BASH, tmp_path, "complete")
    assert defs["_hosts"] == (7, 10, (4, 6), "Completes hosts. Reads the known hosts file.")
    assert defs["_inner"] == (14, 14, (13, 13), "Nested, and indented as it is.")
