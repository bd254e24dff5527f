"""A language's tag query: its file, the queries it inherits, and its directive lines.

`queries/<lang>.scm` holds the patterns `tags` reads (see there) and lines that switch on
what the language's style needs:

- `; inherits: <lang>`: that language's query comes first (C++ inherits C's).
- `; clauses: merge`: consecutive definitions of one name, kind and parent are one
  (Haskell's signature and equations, Elixir's function clauses).
- `; docs: across a blank line`: the comment one blank line above a definition is its
  doc (C's common style), unless that comment opens the file.
- `; prototypes: declarations`: a top-level function without a body beside one with a
  body of the same name (a C prototype) is no symbol of its own, and any other function
  or method without a body (a C++ method declared in its class) is a `declaration`:
  "where is it defined" shows the one with a body first.
- `; implements: blank`: a class head's `implements A, B<C>` is read as spaces (Groovy's
  grammar knows one base class, not the interfaces after it, and names the class wrong).
- `; embeds: script`: a single-file component (Vue, Svelte, Astro): its `<script>`
  elements are read as TypeScript when one says `lang="ts"`, else as JavaScript, with that
  language's query, and so is an Astro component's `---` front matter (TypeScript); the
  markup and styles around them are read as spaces.
- `; interfaces: declarations`: an `interface` declares what a `class` of the same name
  defines (Objective-C's `@interface` and `@implementation`): "where is it defined" shows
  the class first, and the interface where there is no class.
- `; signatures: declarations`: a method without a body inside an `interface` (Go's,
  whose types implement it without saying so) declares what the types that have the
  method define: "where is it defined" shows a method with a body first.
- `; opens <kind>: <word> ...`: the words a definition of that kind opens with (Perl's
  `; opens function: sub`). With such a line, what a parse error left unread is parsed
  again, cut above each line that opens with one of these words or with a keyword the
  file's parsed definitions open with (strata.index.code.treesitter.recover); `()` stands
  for a name followed by `()` (Bash's `name() {`). Only Perl and Bash have it: C's macros
  read the same way in isolation and give definitions wrong names (`typedef NTSTATUS
  (NTAPI *f)` as a struct `NTSTATUS`).
- `; macros: export`: an all-caps macro between `class`/`struct` and the name
  (`class FOO_API Name`), or opening a line before a return type and a function's name
  (`PUGI__FN xml_node xml_node::parent() const`) or after its parameters (`f(T&& rhs)
  FOO_NOEXCEPT {`) or its return type (`String JSON_API f(`), and a macro call on a line
  of its own (`FOO_DEPRECATED("...")`), is read as spaces: the grammar has no
  preprocessor, reads the macro as the name or the type and fails on the rest.
"""

from __future__ import annotations

import functools
import importlib.resources
import re

import tree_sitter

from strata.index.code import sketch
from strata.index.code.treesitter.grammars import is_supported, language

_INHERITS = re.compile(r"^; inherits: (\w+)\s*$", re.MULTILINE)
_DIRECTIVE = re.compile(r"^; ([a-z]+: [a-z ]+?)\s*$", re.MULTILINE)
_OPENS = re.compile(r"^; opens (\w+): ([\w() ]+?)\s*$", re.MULTILINE)
_CAPS = rb"[A-Z][A-Z0-9_]*[A-Z0-9]"
_EXPORT_MACRO = re.compile(
    rb"\b(?:class|struct)\s+(" + _CAPS + rb")\s+(?=[A-Za-z_]\w*\s*(?:final\b|[:{]))"
    # a line's macros, then a return type (maybe qualified, templated), then the name and `(`
    rb"|^[ \t]*(" + _CAPS + rb"(?:[ \t]+" + _CAPS + rb")*)[ \t]+"
    rb"(?=(?:(?:const|unsigned|signed|inline|static|virtual)[ \t]+)*[A-Za-z_][\w:]*"
    rb"(?:<[^;{}()\n]*>)?[ \t*&]+[~A-Za-z_][\w:~]*[ \t]*\("
    # or a constructor's or destructor's qualified name (`Owner::Owner(`, `Owner::~Owner(`)
    rb"|[A-Za-z_]\w*(?:<[^;{}()\n]*>)?::~?[A-Za-z_]\w*[ \t]*\()"
    # a macro between the parameters and the body or the end (`f(T&& rhs) FOO_NOEXCEPT {`,
    # `T as() const JSONCPP_TEMPLATE_DELETE;`)
    rb"|\)[ \t]*(?:const[ \t]+)?(" + _CAPS + rb")(?=[ \t]*(?:\n[ \t]*)?[{;])"
    # a macro call on a line of its own, before a declaration (`FOO_DEPRECATED("...")`)
    rb"|^[ \t]*(" + _CAPS + rb"\((?:\"[^\"\n]*\"|[^;{}\n\"])*\))[ \t]*$"
    # a macro between a line's return type and the name (`String JSON_API writeString(`)
    rb"|^[ \t]*[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?[ \t*&]+(" + _CAPS + rb")[ \t]+"
    rb"(?=[*&]*[~A-Za-z_][\w:~]*[ \t]*\()",
    re.MULTILINE,
)


_IMPLEMENTS = re.compile(
    rb"\bimplements\s+[\w.]+(?:<[^>{;]*>)?(?:\s*,\s*[\w.]+(?:<[^>{;]*>)?)*(?=\s*\{)"
)
_SCRIPT = re.compile(rb"(<script\b[^>]*>)(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)
_TS_ATTR = re.compile(rb"""\blang\s*=\s*["']?(?:ts|typescript|tsx)\b""", re.IGNORECASE)
_FRONT_MATTER = re.compile(rb"\A\s*---[ \t]*\n(.*?)^---[ \t]*$", re.DOTALL | re.MULTILINE)
_NOT_NEWLINE = re.compile(rb"[^\n]")


def blank_implements(src: bytes) -> bytes:
    """`src` with each class head's `implements` clause turned to spaces."""
    return _IMPLEMENTS.sub(lambda m: _NOT_NEWLINE.sub(b" ", m.group(0)), src)


def script_of(src: bytes) -> tuple[str, bytes]:
    """A single-file component's script language and `src` with everything outside its
    `<script>` elements' contents turned to spaces (lines and byte offsets stay)."""
    out = bytearray(_NOT_NEWLINE.sub(b" ", src))
    lang = "javascript"
    front = _FRONT_MATTER.match(src)
    if front is not None:
        out[front.start(1) : front.end(1)] = front.group(1)
        lang = "typescript"
    for m in _SCRIPT.finditer(src, front.end() if front else 0):
        out[m.start(2) : m.end(2)] = m.group(2)
        if _TS_ATTR.search(m.group(1)):
            lang = "typescript"
    return lang, bytes(out)


def parse(text: str, lang: str) -> tree_sitter.Tree:
    """Parse `text` as `lang` (UTF-8); raises the grammar's errors for unknown languages."""
    parser = tree_sitter.Parser(language(lang))
    return parser.parse(text.encode("utf-8", "surrogatepass"))


@functools.cache
def query(lang: str) -> tree_sitter.Query:
    """The compiled tag query of `strata/index/code/treesitter/queries/<lang>.scm`."""
    compiled: tree_sitter.Query = tree_sitter.Query(language(lang), query_source(lang))
    return compiled


@functools.cache
def has_query(lang: str) -> bool:
    """Whether `lang` has a grammar and a tag query: its files get symbols and syntax chunks."""
    return is_supported(lang) and _has_file(lang)


def query_source(lang: str) -> str:
    """The text of `<lang>.scm`, after the queries it inherits (`; inherits: typescript`)."""
    folder = importlib.resources.files("strata.index.code.treesitter").joinpath("queries")
    text = folder.joinpath(f"{lang}.scm").read_text(encoding="utf-8")
    parents = _INHERITS.findall(text)
    return "\n".join([*(query_source(p.strip()) for p in parents), text])


@functools.cache
def directive(lang: str, line: str) -> bool:
    """Whether the query of `lang` (or one it inherits) has the line `; <line>` (a language
    read without a query says it in strata.index.code.sketch)."""
    if not _has_file(lang):
        return line in sketch.DIRECTIVES.get(lang, ())
    return line in _DIRECTIVE.findall(query_source(lang))


@functools.cache
def _has_file(lang: str) -> bool:
    folder = importlib.resources.files("strata.index.code.treesitter").joinpath("queries")
    return folder.joinpath(f"{lang}.scm").is_file()


@functools.cache
def openers(lang: str) -> dict[bytes, str]:
    """The words the query of `lang` says a definition opens with, and its kind (`; opens
    function: sub`)."""
    lines = _OPENS.findall(query_source(lang))
    return {word.encode(): kind for kind, words in lines for word in words.split()}


def blank_export_macros(src: bytes) -> bytes:
    """`src` with each export macro of a class head or a function's first line turned to
    spaces (every byte and line stays where it was, so spans and texts still match the
    file)."""
    out = bytearray(src)
    for m in _EXPORT_MACRO.finditer(src):
        start, end = next(m.span(g) for g in range(1, 6) if m.start(g) >= 0)
        out[start:end] = b" " * (end - start)
    return bytes(out)
