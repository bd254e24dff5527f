"""Lua, Solidity, Zig, C, C++ and Haskell sets (`newlangs`): the `doc-`, `nl-` and `def-<lang>` sets
that `langsets` draws for Go, Rust, Java and JavaScript, from one pinned real package each.

The definitions and their doc comments come from a walk of the grammar's nodes written
here, not from Strata's tag queries (which are what is measured):

- Lua (LDoc): `function`, `local function` and a function assigned to a name, top level;
  the doc comment is the run of `--` lines above, from its `---` line down.
- Solidity (NatSpec): contracts, interfaces, libraries and their functions, modifiers,
  structs, enums, events and errors; a `/** */` block or `///` lines above (`@dev` and
  `@notice` dropped, the other tags end the prose).
- Zig: functions, and constants bound to a struct, enum, union or opaque type (also inside
  a function that returns a type); `///` lines above.
- C: function definitions, top level and inside `#if` blocks; the block or line
  comments directly above (marks and `**` line starts removed).
- C++ (Doxygen, jsoncpp): functions and methods, defined or declared (in a class, out of
  it as `Owner::name`, in templates), classes, structs and enums with a body; `/**` or
  `///` comments above (`\brief` dropped, other commands end the prose). The walk knows
  jsoncpp's declaration macros (`JSON_API`, `JSONCPP_DEPRECATED(...)`), as its compiler
  does; Strata is not told them.
- Haskell (Haddock): a function is its signature and its equations (consecutive
  declarations of one name), besides data types, newtypes, synonyms and classes; a
  `-- |` comment above.

Everything else (the fixed seed, blanking, sentence rules, sampling) is `langsets.draw`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import tree_sitter as ts

from benchmarks.quality.langsets import Definition, draw
from benchmarks.quality.model import Corpus
from benchmarks.sdists import fetch_deb, fetch_deb_source, fetch_npm, fetch_wheel

Namer = Callable[[ts.Node], str]
_LINKS = re.compile(r"\{([^}|\s]+)[^}]*\}|\[([^\]]+)\]\([^)]*\)")
_TAGLESS = re.compile(r"^@(?:dev|notice)\s+")


@dataclass(frozen=True, slots=True)
class Spec:
    """How one language writes definitions and their doc comments."""

    lang: str  # Strata's name and the bundled grammar's
    suffixes: tuple[str, ...]
    names: Mapping[str, Namer]  # definition node type -> its name ("" when it defines none)
    containers: frozenset[str]  # node types whose children may be definitions
    doc: re.Pattern[str]  # the first line of a doc comment
    line: re.Pattern[str]  # a line of one (its marks, removed from the prose)
    clauses: bool = False  # consecutive definitions of one name are one
    ends: tuple[str, ...] = ("@", "```")  # a line of the doc starting so ends its prose
    # the source as the grammar should read it (the same bytes and lines)
    prepare: Callable[[bytes], bytes] | None = None


class LangSpec(Protocol):
    """What `Package` and `build` read of a language's spec (this module's, `extralangs`')."""

    @property
    def lang(self) -> str: ...

    @property
    def suffixes(self) -> tuple[str, ...]: ...


Walk = Callable[[Any, Path, str], list[Definition]]  # (spec, root, file) -> its definitions


@dataclass(frozen=True, slots=True)
class Package:
    """A pinned package and the directories (or files) of it that are indexed."""

    spec: LangSpec
    label: str
    fetch: Callable[[], Path]
    dirs: tuple[str, ...]
    private: str = "_"  # the prefix of its names that are its own (see `langsets.draw`)

    @property
    def slug(self) -> str:
        """The corpus name: `<lang>-<label>`."""
        return f"{self.spec.lang}-{self.label}"


def _text(node: ts.Node | None) -> str:
    return (node.text or b"").decode("utf-8", "replace") if node is not None else ""


def _field(name: str = "name") -> Namer:
    return lambda node: _text(node.child_by_field_name(name))


def _lua_name(node: ts.Node) -> str:
    """`function f`, `function M.f`, `function M:f`: the last part of the name."""
    name = node.child_by_field_name("name")
    while name is not None and name.type != "identifier":
        name = name.child_by_field_name("method") or name.child_by_field_name("field")
    return _text(name)


def _lua_assigned(node: ts.Node) -> str:
    """`M.f = function ... end` and `local f = function ... end`."""
    assign = node.named_children[0] if node.type == "variable_declaration" else node
    if assign.type != "assignment_statement" or len(assign.named_children) != 2:
        return ""
    names, values = assign.named_children
    value = values.named_children[0] if values.named_children else None
    if value is None or value.type != "function_definition" or not names.named_children:
        return ""
    target = names.named_children[0]
    return _text(target.child_by_field_name("field") if target.type != "identifier" else target)


def _c_name(node: ts.Node) -> str:
    """A C function definition's name, under its pointer and parenthesised declarators."""
    decl = node.child_by_field_name("declarator")
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    name = decl.child_by_field_name("declarator") if decl is not None else None
    return _text(name) if name is not None and name.type == "identifier" else ""


def _cpp_function(node: ts.Node) -> str:
    """A C++ function's or method's name, defined or declared (`Value::asInt` -> asInt,
    `~Value`); "" for an operator or a declaration of anything else."""
    decl = node.child_by_field_name("declarator")
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    name = decl.child_by_field_name("declarator") if decl is not None else None
    while name is not None and name.type == "qualified_identifier":
        name = name.child_by_field_name("name")
    kinds = ("identifier", "field_identifier", "destructor_name")
    return _text(name) if name is not None and name.type in kinds else ""


def _cpp_type(node: ts.Node) -> str:
    """A class, struct or enum with a body (a forward declaration defines nothing)."""
    return _text(node.child_by_field_name("name")) if node.child_by_field_name("body") else ""


def _zig_type(node: ts.Node) -> str:
    kinds = ("struct_declaration", "enum_declaration", "union_declaration", "opaque_declaration")
    if not any(c.type in kinds for c in node.named_children):
        return ""
    return next((_text(c) for c in node.named_children if c.type == "identifier"), "")


LUA = Spec(
    "lua",
    (".lua",),
    {
        "function_declaration": _lua_name,
        "assignment_statement": _lua_assigned,
        "variable_declaration": _lua_assigned,
    },
    frozenset(),
    re.compile(r"^---(?!-)"),
    re.compile(r"^\s*--+\s?"),
)
_SOL_NAMED = (
    *("contract_declaration", "interface_declaration", "library_declaration"),
    *("function_definition", "modifier_definition", "struct_declaration", "enum_declaration"),
    *("event_definition", "error_declaration"),
)
SOLIDITY = Spec(
    "solidity",
    (".sol",),
    dict.fromkeys(_SOL_NAMED, _field()),
    frozenset({"contract_body"}),
    re.compile(r"^(?:///(?!/)|/\*\*(?!\*))"),
    re.compile(r"^\s*(?:/\*\*|\*/|\*(?!/)|///)\s?"),
)
ZIG = Spec(
    "zig",
    (".zig",),
    {"function_declaration": _field(), "variable_declaration": _zig_type},
    frozenset(
        {
            *("struct_declaration", "enum_declaration", "union_declaration"),
            *("block", "expression_statement", "return_expression"),
        }
    ),
    re.compile(r"^///(?!/)"),
    re.compile(r"^\s*///\s?"),
)
C = Spec(
    "c",
    (".c", ".h"),
    {"function_definition": _c_name},
    frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"}),
    re.compile(r"^/[*/]"),
    re.compile(r"^\s*(?:/\*+|\*+/|\*+(?!/)|//+)\s?"),
)


def _cpp_macros(source: bytes) -> bytes:
    """jsoncpp's and TinyXML-2's declaration macros as spaces (as the preprocessor would
    leave them, give or take the spaces), so that the grammar sees the declarations a
    compiler sees (`class TINYXML2_LIB XMLNode` is class `XMLNode`)."""
    return _EXPORT_MACROS.sub(lambda m: b" " * len(m.group(0)), source)


# Written from jsoncpp 1.9.5's and TinyXML-2 9.0.0's headers, independently of Strata's own
# macro handling.
_EXPORT_MACROS = re.compile(
    rb"\bJSON_API\b|\bJSONCPP_TEMPLATE_DELETE\b|\bJSONCPP_NORETURN\b"
    rb"|\bJSONCPP_DEPRECATED\((?:\"[^\"\n]*\"|[^)\n])*\)|\bTINYXML2_LIB\b"
)
# Doxygen's `\brief`/`@brief` opens the prose; the other commands end it (as `@param` does).
# jsoncpp and TinyXML-2 are walked with it (`prepare` knows their macros).
CPP = Spec(
    "cpp",
    (".h", ".cpp", ".inl"),
    {
        **dict.fromkeys(("function_definition", "declaration", "field_declaration"), _cpp_function),
        **dict.fromkeys(("class_specifier", "struct_specifier", "enum_specifier"), _cpp_type),
    },
    frozenset(
        {
            *("namespace_definition", "declaration_list", "field_declaration_list"),
            *("template_declaration", "linkage_specification"),
            *("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"),
        }
    ),
    re.compile(r"^/(?:\*\*|//)(?!/)"),
    re.compile(r"^\s*(?:/\*+|\*+/|\*+(?!/)|//+[!<]?)\s?(?:[@\\]brief\s+)?"),
    ends=("@", "```", "\\"),
    prepare=_cpp_macros,
)
_HS_NAMED = ("signature", "function", "bind", "data_type", "newtype", "type_synomym", "class")
HASKELL = Spec(
    "haskell",
    (".hs",),
    dict.fromkeys(_HS_NAMED, _field()),
    frozenset({"declarations", "class_declarations"}),
    re.compile(r"^--\s*\|"),
    re.compile(r"^\s*--\s*\|?\s?"),
    clauses=True,
)

PACKAGES = (
    Package(
        LUA,
        "penlight",
        lambda: fetch_deb("lua-penlight", "1.13.1-3"),
        ("usr/share/lua/5.1/pl",),
    ),
    Package(
        SOLIDITY, "openzeppelin", lambda: fetch_npm("@openzeppelin/contracts", "5.1.0"), (".",)
    ),
    Package(
        ZIG,
        "std",
        lambda: fetch_wheel("ziglang", "0.13.0", "ziglang/lib/std/"),
        tuple(f"ziglang/lib/std/{d}" for d in ("json", "fmt", "hash", "heap")),
    ),
    Package(
        C,
        "lua",
        lambda: fetch_deb_source("lua5.4", "5.4.4-3+deb12u1"),
        ("lua-5.4.4/src",),
    ),
    # The C corpus the prototype and blank-line doc defects were found on (2026-12-04).
    Package(
        C,
        "libyaml",
        lambda: fetch_deb_source("libyaml", "0.2.5-1"),
        ("libyaml-0.2.5/src", "libyaml-0.2.5/include"),
    ),
    Package(
        CPP,
        "jsoncpp",
        lambda: fetch_deb_source("libjsoncpp", "1.9.5-4"),
        ("jsoncpp-1.9.5/include/json", "jsoncpp-1.9.5/src/lib_json"),
    ),
    Package(
        HASKELL,
        "megaparsec",
        lambda: fetch_deb_source("haskell-megaparsec", "9.2.2-1"),
        ("megaparsec-9.2.2/Text",),
    ),
)


def build(
    pkg: Package, per_package: int, names_per_package: int, seed: int, walk: Walk | None = None
) -> Corpus:
    """Fetch `pkg`, walk its definitions (`walk`: this module's `definitions`), and draw
    its sets as `langsets.draw` does."""
    src = pkg.fetch()
    rels = sorted(
        p.relative_to(src).as_posix()
        for d in pkg.dirs
        for p in ((src / d).rglob("*") if (src / d).is_dir() else [src / d])
        if p.is_file() and p.suffix in pkg.spec.suffixes
    )
    defs = [d for rel in rels for d in (walk or definitions)(pkg.spec, src, rel)]
    sizes = (per_package, names_per_package)
    return draw(pkg.slug, pkg.spec.lang, src, rels, defs, sizes, seed, pkg.private)


def definitions(spec: Spec, root: Path, rel: str) -> list[Definition]:
    """Every named definition of one file, each with the doc comment directly above it."""
    from semble_grammars import get_language

    source = (root / rel).read_bytes()
    source = spec.prepare(source) if spec.prepare else source
    tree = ts.Parser(get_language(spec.lang)).parse(source)
    lines = source.split(b"\n")
    found = sorted(_walk(spec, tree.root_node, rel, lines), key=lambda d: d.start)
    return _clauses(found) if spec.clauses else found


def _walk(spec: Spec, node: ts.Node, rel: str, lines: list[bytes]) -> Iterator[Definition]:
    kids = node.named_children
    for i, kid in enumerate(kids):
        namer = spec.names.get(kid.type)
        name = namer(kid) if namer else ""
        if name:
            comment = _doc_comment(spec, kids, i, lines)
            span = (comment[0].start_point.row + 1, _last_row(comment[-1]) + 1) if comment else None
            start, end = kid.start_point.row + 1, _last_row(kid) + 1
            yield Definition(rel, name, start, end, span, _prose(spec, comment))
        if kid.type in spec.containers or name:
            yield from _walk(spec, kid, rel, lines)


def _last_row(node: ts.Node) -> int:
    end = node.end_point
    return end.row - 1 if end.column == 0 and end.row > node.start_point.row else end.row


def _doc_comment(spec: Spec, kids: list[ts.Node], i: int, lines: list[bytes]) -> list[ts.Node]:
    """The comments on lines of their own directly above `kids[i]`, from the highest one
    that opens a doc comment down (none when no such line)."""
    found: list[ts.Node] = []
    row, j = kids[i].start_point.row, i - 1
    while j >= 0 and kids[j].type in ("comment", "haddock") and _last_row(kids[j]) == row - 1:
        point = kids[j].start_point
        if lines[point.row][: point.column].strip() or not spec.line.match(_text(kids[j])):
            break
        found.insert(0, kids[j])
        row, j = point.row, j - 1
    while found and not spec.doc.match(_text(found[0])):
        found.pop(0)
    return found


def _prose(spec: Spec, comment: list[ts.Node]) -> str:
    """A doc comment's text: marks removed, NatSpec's `@dev`/`@notice` dropped, links
    unwrapped; a tag line (`@param`) or a code fence ends it."""
    out: list[str] = []
    for node in comment:
        for raw in _text(node).split("\n"):
            text = _TAGLESS.sub("", spec.line.sub("", raw).removesuffix("*/").strip())
            if text.startswith(spec.ends):
                return _LINKS.sub(lambda m: m.group(1) or m.group(2), "\n".join(out)).strip()
            out.append(text)
    return _LINKS.sub(lambda m: m.group(1) or m.group(2), "\n".join(out)).strip()


def _clauses(defs: list[Definition]) -> list[Definition]:
    """Consecutive definitions of one name as one (a signature and its equations)."""
    out: list[Definition] = []
    for d in defs:
        if out and out[-1].name == d.name and out[-1].end < d.start:
            out[-1] = replace(out[-1], end=d.end)
        else:
            out.append(d)
    return out
