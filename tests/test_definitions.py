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
