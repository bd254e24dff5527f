"""Where is X defined, for a class's field or a struct's, on the quality run's corpora in
Python, Go, Rust, TypeScript, Java, C#, Kotlin, Scala and Swift: Recall@1 and @5 per corpus.

    python -m benchmarks.quality.fields [--sets docstring,nonpython,langs,extralangs]
        [--per-corpus 40] [--json FILE]

The names come from a walk of the grammar's nodes written here, not from Strata's tag
queries: a field or property declared directly in a class or struct body (a Python class's
`name = ...` or `name: T`, a Go or Rust struct's `field_declaration`, TypeScript
`public_field_definition`, Java `field_declaration`, C# `field_declaration` and
`property_declaration`, Kotlin `property_declaration`, Scala `val`/`var`, Swift
`property_declaration` and a protocol's `protocol_property_declaration`), named once among
the corpus's fields, three letters or more, outside tests; up to `--per-corpus` drawn with
a fixed seed. The question is routed as a user's would be (`Engine.search`); a hit is a
result in the field's file whose span holds its first line. The corpora are the quality
run's cached indexes (run `benchmarks.quality.run` first for the current build).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import tree_sitter as ts

from benchmarks.quality.askforms import main_with
from benchmarks.quality.indexes import open_index
from benchmarks.quality.run import build_corpora

EMBEDDER = "all-MiniLM-L6-v2"
SEED = 1
# language -> (its suffix, the node types of a class body, of a field in one)
LANGS = {
    "py": (".py", {"block"}, {"expression_statement"}),  # in a class's block only
    "go": (".go", {"field_declaration_list"}, {"field_declaration"}),
    "rust": (".rs", {"field_declaration_list"}, {"field_declaration"}),
    "typescript": (".ts", {"class_body"}, {"public_field_definition"}),
    "java": (".java", {"class_body"}, {"field_declaration"}),
    "csharp": (".cs", {"declaration_list"}, {"property_declaration", "field_declaration"}),
    "kotlin": (".kt", {"class_body"}, {"property_declaration"}),
    "scala": (
        ".scala",
        {"template_body"},
        {"val_definition", "var_definition", "val_declaration", "var_declaration"},
    ),
    "swift": (
        ".swift",
        {"class_body", "protocol_body"},
        {"property_declaration", "protocol_property_declaration"},
    ),
}
_NAMES = ("identifier", "simple_identifier", "property_identifier", "field_identifier")
_PY_CLASS = "class_definition"
_NAME = re.compile(r"^[A-Za-z_]\w{2,}$")
_TEST = re.compile(r"(^|/)(tests?|spec|__tests__)/|Tests?\.\w+$|\.spec\.ts$|\.test\.ts$")

Field = tuple[str, str, int]  # name, file, first line


def fields(root: Path, lang: str) -> list[Field]:
    """Every field or property declared in a class body of the corpus's `lang` files."""
    from semble_grammars import get_language

    suffix, bodies, kinds = LANGS[lang]
    parser = ts.Parser(get_language("python" if lang == "py" else lang))
    out: list[Field] = []
    for path in sorted(root.rglob(f"*{suffix}")):
        rel = path.relative_to(root).as_posix()
        stack = [parser.parse(path.read_bytes()).root_node]
        while stack:
            node = stack.pop()
            for kid in node.named_children:
                in_class = lang != "py" or (
                    node.parent is not None and node.parent.type == _PY_CLASS
                )
                if (
                    kid.type in kinds
                    and node.type in bodies
                    and in_class
                    and (name := _field_name(kid))
                ):
                    out.append((name, rel, kid.start_point.row + 1))
                stack.append(kid)
    return out


def _field_name(node: ts.Node) -> str:
    """The first name a field declares (`int a = 1, b` -> a; Python's `retries: int = 3`)."""
    if node.type == "expression_statement":
        assign = node.named_children[0] if node.named_children else None
        left = (
            assign.child_by_field_name("left") if assign and assign.type == "assignment" else None
        )
        return _text(left) if left is not None and left.type == "identifier" else ""
    named = node.child_by_field_name("name") or node.child_by_field_name("pattern")
    if named is not None and named.type in _NAMES:
        return _text(named)
    return next((_text(n) for n in _descend(node, 3) if n.type in _NAMES), "")


def _descend(node: ts.Node, depth: int) -> Iterator[ts.Node]:
    declarators = any(k.type == "variable_declarator" for k in node.named_children)
    for kid in node.named_children:
        if declarators and kid.type != "variable_declarator":
            continue  # C#'s `JsonToken _token;`: the type, not the name
        if kid.type in _NAMES:
            yield kid
            return
        if depth and kid.type in ("pattern", "variable_declaration", "variable_declarator"):
            yield from _descend(kid, depth - 1)


def _text(node: ts.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def measure(sets: Sequence[str], per_corpus: int) -> dict[str, Any]:
    """Every corpus with fields of a language here: each field's rank (1-5 or None)."""
    rows: list[dict[str, Any]] = []
    for corpus in build_corpora(sets):
        prefix = corpus.name.split("-", 1)[0]
        lang = {"ts": "typescript"}.get(prefix, prefix)
        if lang not in LANGS:
            continue
        found = [f for f in fields(corpus.root, lang) if _NAME.match(f[0])]
        once = Counter(name for name, _, _ in found)
        asked = [f for f in found if once[f[0]] == 1 and not _TEST.search(f[1])]
        random.Random(SEED).shuffle(asked)
        eng, _ = open_index(corpus, EMBEDDER, reindex=False)
        for name, rel, line in asked[:per_corpus]:
            hits = eng.search(f"where is {name} defined", k=5).hits
            rank = next(
                (
                    n
                    for n, h in enumerate(hits, 1)
                    if h.record.path == rel
                    and (h.record.span_start or 0) <= line <= (h.record.span_end or 0)
                ),
                None,
            )
            rows.append({"corpus": corpus.name, "field": name, "file": rel, "rank": rank})
        eng.close()
    return {"summary": _summary(rows), "rows": rows}


def _summary(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for corpus in dict.fromkeys(r["corpus"] for r in rows):
        ranks = [r["rank"] for r in rows if r["corpus"] == corpus]
        out.append(
            {
                "corpus": corpus,
                "n": len(ranks),
                "r_at_1": round(sum(1 for x in ranks if x == 1) / len(ranks), 3),
                "r_at_5": round(sum(1 for x in ranks if x) / len(ranks), 3),
            }
        )
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Parse flags, measure, print the summary (and write every row with `--json`)."""
    main_with(
        argv,
        __doc__ or "",
        measure,
        sets="docstring,nonpython,langs,extralangs",
        per_corpus=40,
        mode=False,
    )


if __name__ == "__main__":
    main()
