"""The definitions a query names join the ranking: found even when BM25 leaves them out."""

from __future__ import annotations

from pathlib import Path

from strata import Engine

LEXICAL = {"embed.provider": "none"}


def _repo(root: Path) -> Path:
    (root / "app").mkdir(parents=True)
    uses = "\n\n".join(
        f"def use_context_{i}(context):\n    return context.context_value(context, {i})"
        for i in range(70)
    )
    (root / "app" / "uses.py").write_text(uses + "\n", encoding="utf-8")
    doc = "\n".join(f"    Line {i} of a long description of the state it holds." for i in range(40))
    (root / "app" / "core.py").write_text(
        f'class Context:\n    """The state of one run.\n\n{doc}\n    """\n\n    level = 0\n',
        encoding="utf-8",
    )
    return root


def test_a_bare_class_name_finds_the_class_though_bm25_ranks_it_past_the_candidates(
    tmp_path: Path,
) -> None:
    eng = Engine.open(_repo(tmp_path), config=LEXICAL)
    eng.index()
    plain = eng.search("Context", k=5, route=False, mode="lexical")
    top = plain[0]
    assert (top.record.path, top.record.title) == ("app/core.py", "Context")
    assert top.record.span_start == 1
    assert top.parts["symbols"] > 0 and top.parts["definition"] > 0
    # a sentence that mentions a name is not a lookup: no definitions list is added
    said = eng.search("the code that uses a context value", k=5, route=False, mode="lexical")
    assert all("symbols" not in h.parts for h in said)
    eng.close()


def test_a_name_used_as_written_beats_a_definition_spelt_in_another_case(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "defaults.py").write_text(
        '"""Defaults."""\nLINE_PREFIX = None\nLINE_SUFFIX = None\n', encoding="utf-8"
    )
    (tmp_path / "app" / "lexer.py").write_text(
        "def lex(source, line_prefix=None):\n    if line_prefix:\n"
        "        source = source.removeprefix(line_prefix)\n    return source.split()\n",
        encoding="utf-8",
    )
    eng = Engine.open(tmp_path, config=LEXICAL)
    eng.index()
    used = eng.search("line_prefix", k=5, mode="lexical")
    assert used[0].record.path == "app/lexer.py"
    assert any("no symbol spelt 'line_prefix'" in n for n in used.notes)
    # a name written loosely and used nowhere as written still finds its definition
    loose = eng.search("line_suffix", k=5, mode="lexical")
    assert loose[0].record.path == "app/defaults.py"
    eng.close()


_R = """#' Format a string
#'
{doc}
#' @export
format_all <- function(x, ...) {{
  paste0(x, collapse = "")
}}

format_all.default <- function(x, ...) x

print.format_all <- function(x, ...) {{
  cat(format_all(x))
}}

.onLoad <- function(libname, pkgname) {{
  invisible()
}}
"""


def test_a_definition_under_a_long_doc_comment_is_found_at_its_header(tmp_path: Path) -> None:
    # the roxygen block fills more than a chunk: the hit is the chunk that declares it
    doc = "\n".join(f"#' @param arg{i} the {i}th argument, described at length" for i in range(90))
    (tmp_path / "format.R").write_text(_R.format(doc=doc), encoding="utf-8")
    with Engine.open(tmp_path, config=LEXICAL) as eng:
        eng.index()
        lines = (tmp_path / "format.R").read_text(encoding="utf-8").split("\n")
        decl = lines.index("format_all <- function(x, ...) {") + 1
        top = eng.search("where is format_all defined", k=3)[0].record
        assert top.title == "format_all" and top.span_start <= decl <= top.span_end
        assert top.span_start > 1  # not the doc block's first chunk


def test_names_with_dots_of_their_own_are_names_not_qualified(tmp_path: Path) -> None:
    (tmp_path / "format.R").write_text(_R.format(doc="#' Short."), encoding="utf-8")
    with Engine.open(tmp_path, config=LEXICAL) as eng:
        eng.index()
        # `print.format_all` is an S3 method named with a dot, not `format_all` of `print`
        assert [h.record.title for h in eng.search("where is format_all defined", k=3)][:1] == [
            "format_all"
        ]
        assert eng.search("where is print.format_all defined", k=1)[0].record.title == (
            "print.format_all"
        )
        onload = eng.search("where is .onLoad defined", k=1)[0]
        assert onload.record.title == ".onLoad" and "1.symbol.C1" in onload.parts


def test_a_cpp_method_is_found_where_its_body_is_written_however_it_is_asked(
    tmp_path: Path,
) -> None:
    (tmp_path / "runner.h").write_text(
        "#pragma once\nnamespace app {\nclass Runner\n{\npublic:\n    void run(int times);\n"
        "    int count() const { return n; }\n    int n;\n};\n}\n",
        encoding="utf-8",
    )
    body = "".join(f"        step({i});\n" for i in range(8))
    (tmp_path / "runner.cpp").write_text(
        f'#include "runner.h"\nnamespace app {{\n\n    void Runner::run(int times)\n    {{\n{body}'
        "    }\n}\n",
        encoding="utf-8",
    )
    with Engine.open(tmp_path, config=LEXICAL) as eng:
        eng.index()
        found = eng.symbols("Runner::run")  # as C++ writes it
        assert [(s.record.path, bool(s.record.metadata.get("declaration"))) for s in found] == [
            ("runner.cpp", False),  # the body first
            ("runner.h", True),
        ]
        for query in ("where is Runner::run defined", "where is Runner.run defined"):
            top = eng.search(query, k=1)[0].record  # one hit asked for: the body
            assert (top.path, top.span_start) == ("runner.cpp", 4), query


def test_a_script_without_an_extension_is_code_of_its_interpreter(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "deploy").write_text(
        "#!/usr/bin/env bash\nset -e\n\nrollout_release() {\n  kubectl apply -f deploy.yaml\n}\n"
        "\nrollout_release\n",
        encoding="utf-8",
    )
    with Engine.open(tmp_path, config=LEXICAL) as eng:
        eng.index()
        assert [(s.record.path, s.record.lang) for s in eng.symbols("rollout_release")] == [
            ("bin/deploy", "bash")
        ]
        top = eng.search("where is rollout_release defined", k=1)[0].record
        assert (top.path, top.span_start) == ("bin/deploy", 4)


def test_a_notebooks_code_is_found_by_name_and_by_words(tmp_path: Path) -> None:
    import json

    cells = [
        {"cell_type": "markdown", "source": "# Churn\nWhich customers leave, and when."},
        {"cell_type": "code", "source": "def churn_rate(events):\n    return len(events) / 12\n"},
    ]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4}
    (tmp_path / "churn.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    with Engine.open(tmp_path, config=LEXICAL) as eng:
        eng.index()
        top = eng.search("where is churn_rate defined", k=1)[0].record
        assert (top.path, top.lang, top.title) == ("churn.ipynb", "python", "churn_rate")
        assert eng.search("which customers leave", k=1)[0].record.path == "churn.ipynb"
