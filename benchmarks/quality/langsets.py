"""Go, Rust, Java and JavaScript sets: doc comment -> definition, "where is X defined", and a
second-sentence question, each from a pinned real package, comments blanked.

Everything is mechanical, from the sources, with one fixed seed:

- `doc-<lang>`: the first sentence (6-60 words) of the doc comment directly above a
  function, method or type (Go `//` lines, Rust `///`, Java and JavaScript `/** */`);
  target the definition's span. A Go comment's leading name ("Execute runs ...") is
  dropped, so the query does not hand over the answer's name.
- `nl-<lang>`: the next sentence of the same comment, when it has one of 6-60 words: a
  question about a detail of behaviour rather than the summary.
- `def-<lang>`: "where is X defined" for names defined exactly once in the package
  (documented or not), outside tests; target the definition's span.

The sampled doc comments are blanked in the indexed copy (every line keeps its number),
as in the Python and TypeScript sets; other comments stay, as in a real repository.
"""

from __future__ import annotations

import importlib
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import tree_sitter as ts

from benchmarks.quality.blanking import blank_spans, first_sentence
from benchmarks.quality.docstring_queries import MAX_WORDS, MIN_WORDS
from benchmarks.quality.model import Corpus, Query, Target, copy_files, corpus_dir
from benchmarks.sdists import fetch_deb, fetch_npm

if TYPE_CHECKING:
    from tree_sitter import Node

_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\[])")
_LINK = re.compile(r"\{@\w+\s+([^}|\s]+)[^}]*\}|\[`?([^\]`]+)`?\]\([^)]*\)|\[`([^`\]]+)`\]")
_TAG = re.compile(r"<[^>]+>")
_TEST_PATH = re.compile(r"(^|/)(tests?|testdata|__tests__)/|_test\.go$|Test\w*\.java$|\.test\.js$")


@dataclass(frozen=True, slots=True)
class Grammar:
    """How one language writes definitions and their doc comments."""

    lang: str
    suffixes: tuple[str, ...]
    language: Callable[[], object]
    definitions: frozenset[str]  # node types that define a name
    containers: frozenset[str]  # node types whose children may be definitions
    skip_between: frozenset[str]  # nodes allowed between a doc comment and its definition
    doc_prefixes: tuple[str, ...]  # a comment is a doc comment when it starts so


@dataclass(frozen=True, slots=True)
class Package:
    """A pinned package and the directories of it that are indexed."""

    grammar: Grammar
    label: str
    fetch: Callable[[], Path]
    dirs: tuple[str, ...]

    @property
    def slug(self) -> str:
        """The corpus name: `<lang>-<label>`."""
        return f"{self.grammar.lang}-{self.label}"


@dataclass(frozen=True, slots=True)
class Definition:
    """A named definition, with its doc comment (lines and prose) when it has one."""

    path: str
    name: str
    start: int
    end: int
    comment: tuple[int, int] | None
    doc: str


def _wheel(module: str) -> Callable[[], object]:
    """The language of a per-language tree-sitter wheel, imported when first asked for."""
    return lambda: importlib.import_module(module).language()


_go, _rust, _java, _js = (_wheel(f"tree_sitter_{n}") for n in ("go", "rust", "java", "javascript"))

GO = Grammar(
    "go",
    (".go",),
    _go,
    frozenset({"function_declaration", "method_declaration", "type_declaration"}),
    frozenset(),
    frozenset(),
    ("//",),
)
RUST = Grammar(
    "rust",
    (".rs",),
    _rust,
    frozenset(
        {
            *("function_item", "function_signature_item", "struct_item", "enum_item"),
            *("trait_item", "type_item", "macro_definition"),
        }
    ),
    frozenset({"impl_item", "trait_item", "mod_item", "declaration_list"}),
    frozenset({"attribute_item"}),
    ("///", "/**"),
)
JAVA = Grammar(
    "java",
    (".java",),
    _java,
    frozenset(
        {
            "method_declaration",
            "constructor_declaration",
            "class_declaration",
            "interface_declaration",
            "enum_declaration",
        }
    ),
    frozenset(
        {
            *("class_declaration", "interface_declaration", "enum_declaration", "class_body"),
            *("interface_body", "enum_body", "enum_body_declarations"),
        }
    ),
    frozenset(),
    ("/**",),
)
JAVASCRIPT = Grammar(
    "javascript",
    (".js",),
    _js,
    frozenset(
        {
            *("function_declaration", "method_definition", "class_declaration"),
            *("expression_statement", "lexical_declaration", "variable_declaration"),
        }
    ),
    frozenset({"class_declaration", "class_body", "export_statement"}),
    frozenset(),
    ("/**",),
)

PACKAGES = (
    Package(
        GO,
        "cobra",
        lambda: fetch_deb("golang-github-spf13-cobra-dev", "1.6.1-1"),
        ("usr/share/gocode/src/github.com/spf13/cobra",),
    ),
    Package(
        RUST,
        "regex-syntax",
        lambda: fetch_deb("librust-regex-syntax-dev", "0.6.27-1"),
        ("usr/share/cargo/registry/regex-syntax-0.6.27/src",),
    ),
    Package(
        JAVA, "cordova-android", lambda: fetch_npm("cordova-android", "12.0.1"), ("framework",)
    ),
    Package(JAVASCRIPT, "commander", lambda: fetch_npm("commander", "12.1.0"), ("lib",)),
    Package(JAVASCRIPT, "express", lambda: fetch_npm("express", "4.21.2"), ("lib",)),
    Package(JAVASCRIPT, "axios", lambda: fetch_npm("axios", "1.7.9"), ("lib",)),
)


def build(pkg: Package, per_package: int, names_per_package: int, seed: int) -> Corpus:
    """Fetch `pkg`, draw its three sets (`per_package` doc comments, `names_per_package`
    definitions), and write the blanked copy of its sources."""
    src = pkg.fetch()
    rels = sorted(
        p.relative_to(src).as_posix()
        for d in pkg.dirs
        for p in (src / d).rglob("*")
        if p.is_file() and p.suffix in pkg.grammar.suffixes
    )
    defs = [d for rel in rels for d in definitions(pkg.grammar, src, rel)]
    return draw(pkg.slug, pkg.grammar.lang, src, rels, defs, (per_package, names_per_package), seed)


def draw(
    slug: str,
    lang: str,
    src: Path,
    rels: list[str],
    defs: list[Definition],
    sizes: tuple[int, int],
    seed: int,
    private: str = "_",
) -> Corpus:
    """The `doc-`, `nl-` and `def-<lang>` sets of a package's definitions (`sizes`: doc
    comments, names), with the copy of its files `rels` whose sampled comments are blanked.
    `private`: the prefix of the names the package keeps to itself (not asked for)."""
    per_package, names_per_package = sizes
    rng = random.Random(f"{seed}:{slug}")
    documented = _documented(defs)
    chosen = sorted(
        rng.sample(documented, min(per_package, len(documented))), key=lambda d: (d.path, d.start)
    )
    root = corpus_dir(slug)
    copy_files(src, rels, root)
    for rel in sorted({d.path for d in chosen}):
        path = root / rel
        spans = [d.comment for d in chosen if d.path == rel and d.comment]
        path.write_bytes(blank_spans(path.read_bytes().decode("utf-8"), spans).encode("utf-8"))
    queries: list[Query] = []
    for d in chosen:
        sentences = _sentences(d)
        queries.append(_query(f"doc-{lang}", slug, d, sentences[0]))
        if len(sentences) > 1 and MIN_WORDS <= len(sentences[1].split()) <= MAX_WORDS:
            queries.append(_query(f"nl-{lang}", slug, d, sentences[1]))
    unique = _unique(defs, private)
    picked = rng.sample(unique, min(names_per_package, len(unique)))
    queries += [
        _query(f"def-{lang}", slug, d, f"where is {d.name} defined")
        for d in sorted(picked, key=lambda d: (d.path, d.start))
    ]
    return Corpus(slug, root, tuple(queries))


def definitions(grammar: Grammar, root: Path, rel: str) -> list[Definition]:
    """Every named definition of one file, each with the doc comment directly above it."""
    source = (root / rel).read_bytes()
    parser = ts.Parser(ts.Language(grammar.language()))
    tree = parser.parse(source)
    return sorted(_walk(grammar, tree.root_node, rel), key=lambda d: d.start)


def _walk(grammar: Grammar, node: Node, rel: str) -> Iterator[Definition]:
    kids = node.named_children
    for i, kid in enumerate(kids):
        if kid.type in grammar.definitions:
            name = _name(kid)
            if name:
                comment = _doc_comment(grammar, kids, i)
                span = (
                    (comment[0].start_point.row + 1, _last_row(comment[-1]) + 1)
                    if comment
                    else None
                )
                yield Definition(
                    rel,
                    name,
                    kid.start_point.row + 1,
                    kid.end_point.row + 1,
                    span,
                    _prose(grammar, comment, name),
                )
        if kid.type in grammar.containers or kid.type in grammar.definitions:
            yield from _walk(grammar, kid, rel)


def _last_row(node: Node) -> int:
    """The last row a node has text on (a line comment may end at column 0 of the next)."""
    end = node.end_point
    return end.row - 1 if end.column == 0 and end.row > node.start_point.row else end.row


_FUNCTION_VALUES = frozenset({"function_expression", "arrow_function", "function"})


def _js_assigned(node: Node) -> str:
    """`app.use = function use() {...}` and `const f = () => {...}`: the name given a
    function value ("" when the statement assigns anything else)."""
    if node.type == "expression_statement":
        expr = node.named_children[0] if node.named_children else None
        if expr is None or expr.type != "assignment_expression":
            return ""
        left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
        if left is not None and left.type == "member_expression":
            left = left.child_by_field_name("property")
    else:
        if len(node.named_children) != 1:
            return ""
        decl = node.named_children[0]
        left, right = decl.child_by_field_name("name"), decl.child_by_field_name("value")
    if left is None or right is None or right.type not in _FUNCTION_VALUES or not left.text:
        return ""
    return left.text.decode("utf-8")


def _name(node: Node) -> str:
    if node.type in ("expression_statement", "lexical_declaration", "variable_declaration"):
        return _js_assigned(node)
    if node.type == "type_declaration":  # Go: `type X struct {...}` holds a type_spec
        spec = next((c for c in node.named_children if c.type in ("type_spec", "type_alias")), None)
        node = spec if spec is not None else node
    name = node.child_by_field_name("name")
    return name.text.decode("utf-8") if name is not None and name.text else ""


def _doc_comment(grammar: Grammar, kids: list[Node], i: int) -> list[Node]:
    """The comment nodes directly above `kids[i]` that form its doc comment (may be [])."""
    found: list[Node] = []
    row = kids[i].start_point.row
    j = i - 1
    while j >= 0 and kids[j].type in grammar.skip_between:
        row = kids[j].start_point.row
        j -= 1
    while j >= 0 and "comment" in kids[j].type:
        text = (kids[j].text or b"").decode("utf-8", "replace")
        if _last_row(kids[j]) != row - 1 or not text.startswith(grammar.doc_prefixes):
            break
        if text.startswith("////"):
            break
        found.insert(0, kids[j])
        row = kids[j].start_point.row
        j -= 1
        if text.startswith("/**"):
            break  # one block comment is the whole doc comment
    return found


def _prose(grammar: Grammar, comment: list[Node], name: str) -> str:
    """A doc comment's text: delimiters, stars, tags, links and `@`/`#` blocks removed."""
    lines: list[str] = []
    for node in comment:
        raw = (node.text or b"").decode("utf-8", "replace")
        for line in raw.removeprefix("/**").removesuffix("*/").split("\n"):
            text = line.strip()
            for prefix in ("///", "//", "*"):
                text = text.removeprefix(prefix)
            text = text.strip()
            if text.startswith(("@", "# ", "```")):
                return _clean("\n".join(lines), grammar, name)
            lines.append(text)
    return _clean("\n".join(lines), grammar, name)


def _clean(text: str, grammar: Grammar, name: str) -> str:
    text = _TAG.sub("", _LINK.sub(lambda m: next(g for g in m.groups() if g), text))
    words = text.split(maxsplit=1)
    if grammar is GO and words and words[0] == name:  # Go's "Name does ..." convention
        text = words[1] if len(words) > 1 else ""
        text = text[:1].upper() + text[1:]
    return text.strip()


def _sentences(d: Definition) -> list[str]:
    first = first_sentence(d.doc)
    paragraph = " ".join(d.doc.split("\n\n", 1)[0].split())
    rest = paragraph[len(first) :].strip() if paragraph.startswith(first) else ""
    following = _SENTENCES.split(rest)[0].strip() if rest else ""
    return [first, following] if following else [first]


def _documented(defs: list[Definition]) -> list[Definition]:
    """Definitions outside tests with a doc comment whose first sentence is 6-60 words
    long and no other definition's."""
    firsts = Counter(first_sentence(d.doc) for d in defs if d.doc)
    return [
        d
        for d in defs
        if d.comment
        and not _TEST_PATH.search(d.path)
        and MIN_WORDS <= len(first_sentence(d.doc).split()) <= MAX_WORDS
        and firsts[first_sentence(d.doc)] == 1
    ]


def _unique(defs: list[Definition], private: str) -> list[Definition]:
    """Definitions outside tests whose bare name is defined once in the package and does
    not start with `private`."""
    counts = Counter(d.name for d in defs)
    return [
        d
        for d in defs
        if counts[d.name] == 1
        and len(d.name) >= 3
        and not d.name.startswith(private)
        and not _TEST_PATH.search(d.path)
    ]


def _query(set_name: str, slug: str, d: Definition, text: str) -> Query:
    return Query(
        f"{set_name}:{slug}:{d.path}:{d.name}:{d.start}",
        set_name,
        slug,
        text,
        (Target(d.path, d.start, d.end),),
    )
