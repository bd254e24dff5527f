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


def _parser_class(n_instances: int) -> str:
    """A Haskell class whose method signatures sit among others' (one chunk holds them),
    and instances whose short equations repeat the names."""
    sigs = "\n\n".join(
        f"  -- | Step {i} of a parse, documented at some length so that the class\n"
        f"  -- is one chunk of many signatures.\n  step{i} :: m a -> m a"
        for i in range(12)
    )
    head = f"module Parser where\n\nclass Monad m => MonadParser m where\n{sigs}\n"
    head += "  lookAhead :: m a -> m a\n  eof :: m ()\n  string' :: String -> m String\n"
    insts = "".join(
        f"\ninstance MonadParser (P{i} s) where\n  lookAhead p = P{i} (\\s -> run p s)\n"
        f"  eof = P{i} (\\s -> done s)\n  string' t = P{i} (\\s -> text t s)\n"
        for i in range(n_instances)
    )
    return head + insts


def test_a_class_methods_signature_is_its_definition_not_each_instances_equation(
    tmp_path: Path,
) -> None:
    (tmp_path / "Parser.hs").write_text(_parser_class(6), encoding="utf-8")
    (tmp_path / "Internal.hs").write_text(  # an instance in another module
        "module Internal where\n\nimport Parser\n\ninstance MonadParser Q where\n"
        "  lookAhead p = Q p\n  eof = Q ()\n",
        encoding="utf-8",
    )
    with Engine.open(tmp_path, config=LEXICAL) as eng:
        eng.index()
        found = eng.symbols("lookAhead")
        impl = [bool(s.record.metadata.get("implementation")) for s in found]
        assert impl == [False] + [True] * 7
        signature = found[0].record.span_start
        for query in ("where is lookAhead defined", "where is eof defined", "lookAhead"):
            top = eng.search(query, k=3)[0]
            span = (top.record.span_start or 0, top.record.span_end or 0)
            assert top.record.path == "Parser.hs", query
            assert span[0] <= signature <= span[1] and "instance" not in top.record.content, query
        # the instances are still found, after the class
        rest = [h.record.content for h in eng.search("where is lookAhead defined", k=8)[1:]]
        assert any("instance MonadParser" in text or "P0 (" in text for text in rest)
        # a primed name is its own (`string'` is not `string`)
        top = eng.search("where is string' defined", k=1)[0].record
        assert "string' :: String" in top.content


def test_a_method_named_by_a_stop_word_is_found_where_the_question_names_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "comments.cpp").write_text(
        "#include <string>\n\nbool Comments::has(int slot) const {\n  return slot > 0;\n}\n\n"
        "bool Value::hasComment(int placement) const {\n  return comments_.has(placement);\n}\n",
        encoding="utf-8",
    )
    with Engine.open(tmp_path, config=LEXICAL) as eng:
        eng.index()
        top = eng.search("where is has defined", k=1)[0].record
        assert (top.path, top.span_start) == ("comments.cpp", 3)
        # a pronoun in the same place is no name
        assert eng.search("where is it defined", k=1).plan["route"]["intent"] == "free_text"
