"""Ruby, PHP, C#, Kotlin, Scala and Swift sets (`extralangs`): the `doc-`, `nl-` and
`def-<lang>` sets that `langsets` draws for Go, Rust, Java and JavaScript, from one pinned
real package each.

The definitions come from a walk of the grammar's nodes written here (node types per
language), not from Strata's tag queries, which are what is measured; their doc comments
from the comment nodes on the lines directly above them, from the first line that opens a
doc comment down:

- Ruby (rack): `def`, `def self.`, `class` and `module`; a run of `#` lines (RDoc/YARD).
- PHP (monolog): classes, interfaces, traits, enums, methods and functions; `/** */`.
- C# (Newtonsoft.Json): classes, structs, interfaces, enums, methods, constructors,
  properties and delegates; `///` XML docs (`<see cref="X"/>` is `X`, other tags dropped,
  `<param>`, `<returns>` and `<remarks>` end the prose).
- Kotlin (kotlinx.coroutines' common core): classes, objects and functions; KDoc.
- Scala (the standard library's `immutable` collections and `concurrent`): classes,
  objects, traits and functions (defined or declared); Scaladoc.
- Swift (Capacitor's iOS runtime): classes, structs, enums, protocols, functions and
  initialisers (an `extension` defines no name); `///` or `/** */`.

A tag line (`@param`, `- Parameter`) or a code fence ends the prose. Everything else (the
fixed seed, blanking, sentence rules, sampling) is `langsets.draw`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import tree_sitter as ts

from benchmarks.quality import morelangs
from benchmarks.quality.langsets import Definition
from benchmarks.quality.model import Corpus
from benchmarks.quality.morelangs import Package
from benchmarks.sdists import fetch_deb, fetch_deb_source, fetch_npm

_MARKS = re.compile(r"^\s*(?:/\*\*+|/\*+|\*+/|\*+(?!/)|///?|#+)\s?")
_XML_REFS = re.compile(
    r"<see\s+(?:cref|langword)=\"(?:\w:)?([^\"]+)\"\s*/>|<paramref\s+name=\"([^\"]+)\"\s*/>"
)
_XML_TAG = re.compile(r"</?\w+[^>]*>")
_LINKS = re.compile(
    r"\[\[([^\]|]+)(?:\|[^\]]*)?\]\]|\{@\w+\s+([^}|\s]+)[^}]*\}|\[`?([^\]`]+)`?\]\([^)]*\)"
)
_ENDS = re.compile(
    r"^(?:@|<param|<returns|<exception|<typeparam|<remarks|<example|```"
    r"|- (?:Parameter|Returns|Throws))"
)
_NAME = re.compile(r"[A-Za-z_]\w*[?!]?")


@dataclass(frozen=True, slots=True)
class Spec:
    """How one language writes definitions and their doc comments."""

    lang: str  # Strata's name and the bundled grammar's
    suffixes: tuple[str, ...]
    definitions: frozenset[str]  # node types that define a name
    doc: re.Pattern[str]  # the first line of a doc comment


RUBY = Spec(
    "ruby",
    (".rb",),
    frozenset({"method", "singleton_method", "class", "module"}),
    re.compile(r"^#(?![!#]| frozen_string_literal| :nodoc:| -\*-)"),
)
PHP = Spec(
    "php",
    (".php",),
    frozenset(
        {
            *("class_declaration", "interface_declaration", "trait_declaration"),
            *("enum_declaration", "method_declaration", "function_definition"),
        }
    ),
    re.compile(r"^/\*\*"),
)
CSHARP = Spec(
    "csharp",
    (".cs",),
    frozenset(
        {
            *("class_declaration", "struct_declaration", "interface_declaration"),
            *("enum_declaration", "method_declaration", "constructor_declaration"),
            *("property_declaration", "delegate_declaration"),
        }
    ),
    re.compile(r"^///"),
)
KOTLIN = Spec(
    "kotlin",
    (".kt",),
    frozenset({"class_declaration", "object_declaration", "function_declaration"}),
    re.compile(r"^/\*\*"),
)
SCALA = Spec(
    "scala",
    (".scala",),
    frozenset(
        {
            *("class_definition", "object_definition", "trait_definition"),
            *("function_definition", "function_declaration"),
        }
    ),
    re.compile(r"^/\*\*"),
)
SWIFT = Spec(
    "swift",
    (".swift",),
    frozenset(
        {
            *("class_declaration", "protocol_declaration", "function_declaration"),
            *("protocol_function_declaration", "init_declaration"),
        }
    ),
    re.compile(r"^(?:///|/\*\*)"),
)

PACKAGES = (
    Package(
        RUBY,
        "rack",
        lambda: fetch_deb("ruby-rack", "2.2.22-0+deb12u2"),
        ("usr/share/rubygems-integration/all/gems/rack-2.2.22/lib",),
    ),
    Package(
        PHP,
        "monolog",
        lambda: fetch_deb_source("php-monolog", "2.9.1-1"),
        ("php-monolog-2.9.1/src",),
    ),
    Package(
        CSHARP,
        "newtonsoft",
        lambda: fetch_deb_source("newtonsoft-json", "6.0.8+dfsg-1.1"),
        ("newtonsoft-json-6.0.8/Src/Newtonsoft.Json",),
    ),
    Package(
        KOTLIN,
        "coroutines",
        lambda: fetch_deb_source("kotlinx-coroutines", "1.0.1-2"),
        ("kotlinx-coroutines-1.0.1/common/kotlinx-coroutines-core-common/src",),
    ),
    Package(
        SCALA,
        "stdlib",
        lambda: fetch_deb_source("scala", "2.11.12-5"),
        tuple(
            f"scala-2.11.12/src/library/scala/{d}" for d in ("collection/immutable", "concurrent")
        ),
    ),
    Package(
        SWIFT, "capacitor", lambda: fetch_npm("@capacitor/ios", "5.7.0"), ("Capacitor/Capacitor",)
    ),
)


def build(pkg: Package, per_package: int, names_per_package: int, seed: int) -> Corpus:
    """Fetch `pkg`, walk its definitions, and draw its sets as `langsets.draw` does."""
    return morelangs.build(pkg, per_package, names_per_package, seed, walk=definitions)


def definitions(spec: Spec, root: Path, rel: str) -> list[Definition]:
    """Every named definition of one file, each with the doc comment directly above it."""
    from semble_grammars import get_language

    source = (root / rel).read_bytes()
    tree = ts.Parser(get_language(spec.lang)).parse(source)
    lines = source.split(b"\n")
    comments: dict[int, ts.Node] = {}  # by last row
    found: list[tuple[ts.Node, str]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        for kid in node.named_children:
            if "comment" in kid.type:
                comments[_last_row(kid)] = kid
            elif kid.type in spec.definitions and (name := _name(kid)):
                found.append((kid, name))
        stack.extend(reversed(node.named_children))
    out = []
    for node, name in found:
        doc = _doc_comment(spec, node, comments, lines)
        span = (doc[0].start_point.row + 1, _last_row(doc[-1]) + 1) if doc else None
        first, last = node.start_point.row + 1, _last_row(node) + 1
        out.append(Definition(rel, name, first, last, span, _prose(doc)))
    return sorted(out, key=lambda d: d.start)


def _name(node: ts.Node) -> str:
    """A definition's name: its `name` field or first name-like child ("" for a Swift
    `extension`, which names another type)."""
    if any(c.type == "extension" for c in node.children[:3]):
        return ""
    name = node.child_by_field_name("name")
    if name is None:
        kinds = ("identifier", "simple_identifier", "type_identifier", "constant")
        name = next((c for c in node.named_children if c.type in kinds), None)
    if name is not None and name.type == "scope_resolution":  # Ruby's `class A::B`
        name = name.child_by_field_name("name") or name
    text = (name.text or b"").decode("utf-8", "replace") if name is not None else ""
    return text if _NAME.fullmatch(text) else ""


def _last_row(node: ts.Node) -> int:
    end = node.end_point
    return end.row - 1 if end.column == 0 and end.row > node.start_point.row else end.row


def _doc_comment(
    spec: Spec, node: ts.Node, comments: dict[int, ts.Node], lines: list[bytes]
) -> list[ts.Node]:
    """The comments on lines of their own directly above `node`, from the highest one that
    opens a doc comment down (none when no such line)."""
    found: list[ts.Node] = []
    row = node.start_point.row
    while (comment := comments.get(row - 1)) is not None:
        start = comment.start_point
        if lines[start.row][: start.column].strip():
            break
        found.insert(0, comment)
        row = start.row
    while found and not spec.doc.match((found[0].text or b"").decode("utf-8", "replace")):
        found.pop(0)
    return found


def _prose(comment: list[ts.Node]) -> str:
    """A doc comment's text: marks and XML tags removed, references and links unwrapped; a
    tag line or a code fence ends it."""
    out: list[str] = []
    for node in comment:
        for raw in (node.text or b"").decode("utf-8", "replace").split("\n"):
            text = _MARKS.sub("", raw).removesuffix("*/").strip()
            text = _XML_REFS.sub(lambda m: m.group(1) or m.group(2), text)
            if _ENDS.match(text):
                return _finish(out)
            out.append(_XML_TAG.sub("", text).strip())
    return _finish(out)


def _finish(lines: list[str]) -> str:
    text = _LINKS.sub(lambda m: next(g for g in m.groups() if g), "\n".join(lines).strip())
    return re.sub(r"\n{3,}", "\n\n", text).strip()
