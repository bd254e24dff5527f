"""The definitions of code in a language no bundled grammar reads, found by their lines (pure).

Emacs Lisp, Nim, Pascal, D, Ada, Tcl, F#, VB.NET, Elm, Raku, assembly and the others of
`RULES` have no tree-sitter grammar here. Read as text, their files were documents: one
paragraph window after another, no symbols, so "where is fetchUrl defined" found a window
that happened to hold it. Here each language names the lines that open a definition (`proc
fetchUrl*(`, `(defun my-mode-indent (`, `procedure TForm1.Click;`) and what kind each
opens; a definition runs to the line before the next one at its indentation or outside it,
blank lines at its end left out, with the comment lines right above it as its doc. One
indented deeper inside another's lines is its member (a method of its class). The outline
is the one a tag query gives (`treesitter.outlines`), so the same chunker and symbol
builder turn it into syntax chunks and symbols; there are no references (no call edges).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from strata.index.code.treesitter.outlines import METHOD_OWNERS, Definition, Outline

__all__ = ["DIRECTIVES", "LANGUAGES", "knows", "outline"]

_I = re.IGNORECASE
_M = re.MULTILINE
# What a definition's opening line may hold before its keyword (visibility and the like).
_MODS = (
    r"(?:(?:public|private|protected|internal|static|export|pub|async|inline|override|abstract"
    r"|final|virtual|extern|local|global|partial|sealed|shared|friend|overridable|overrides"
    r"|mustoverride|notinheritable|readonly|default|multi|proto|our|my|unsafe|rec|mutable)\s+)*"
)
_NAME = r"(?P<name>[A-Za-z_](?:[\w$!?']|-(?=\w))*)"


@dataclass(frozen=True, slots=True)
class Rule:
    """One kind of opening line: its pattern (group `name`) and the kind it opens
    (`kind` group, when the pattern says it, read through `KINDS`)."""

    pattern: re.Pattern[str]
    kind: str = ""


# A keyword that opens a definition -> its kind (`function` unless listed).
KINDS: Final = {
    **dict.fromkeys(
        ("class", "object", "actor", "primitive", "role", "grammar", "record"), "class"
    ),
    **dict.fromkeys(("struct", "structure", "union", "datatype", "data", "newtype"), "struct"),
    **dict.fromkeys(("interface", "protocol", "signature", "typeclass"), "interface"),
    **dict.fromkeys(("trait", "concept", "mixin"), "trait"),
    "enum": "enum",
    **dict.fromkeys(("type", "typedef", "alias", "abstract", "deftype"), "type"),
    **dict.fromkeys(
        ("module", "namespace", "package", "unit", "program", "library", "entity", "functor"),
        "module",
    ),
    **dict.fromkeys(("architecture", "lib", "defpackage", "defgroup"), "module"),
    **dict.fromkeys(
        ("const", "val", "var", "defvar", "defconst", "defcustom", "defparameter"), "constant"
    ),
    **dict.fromkeys(("defface", "def", "defonce", "global", "signal"), "constant"),
    **dict.fromkeys(("defclass", "defstruct", "cl-defstruct", "defrecord"), "class"),
}


def _keywords(words: str, *, flags: int = 0, name: str = _NAME, before: str = _MODS) -> Rule:
    """A rule for a line that opens with one of `words` (after `before`), then the name."""
    alts = "|".join(sorted(words.split(), key=len, reverse=True))
    return Rule(re.compile(rf"^[ \t]*{before}(?P<kind>{alts})\s+{name}", flags))


_C_LIKE = Rule(  # `int foo(int x) {`, `static void Bar<T>(...)`: a type, a name, `(`, no `;`
    re.compile(
        r"^[ \t]*" + _MODS + r"(?!(?:if|while|for|foreach|switch|return|else|case|catch|new|do|"
        r"throw|delete|sizeof|typeof|await|yield)\b)[\w.:<>\[\]*&!,?]+(?:\s+[\w.:<>\[\]*&!?]+)*"
        r"\s+[*&]*(?P<name>[A-Za-z_]\w*)\s*(?:<[^()\n]*>)?\s*\([^;\n]*$"
    )
)
_LISP = Rule(
    re.compile(
        r"^\((?P<kind>(?:cl-)?def[\w-]*|define-[\w-]+|defn-?|fn|varfn|macro)\s+"
        r"\(?(?P<name>[^\s()\[\]{}\"']+)"
    )
)
_ML_VALUE = Rule(re.compile(r"^(?P<name>[a-z_][\w']*)\s+[^=:\n]*?=(?!=)"))  # Elm's `view model =`
RULES: Final[dict[str, tuple[Rule, ...]]] = {
    **dict.fromkeys(("elisp", "commonlisp", "fennel", "janet", "hy"), (_LISP,)),
    "nim": (
        _keywords("proc func method iterator converter macro template"),
        Rule(
            re.compile(
                r"^[ \t]+(?P<name>[A-Za-z_]\w*)\*?(?:\[[^\]\n]*\])?\s*=\s*(?:ref\s+|ptr\s+)?"
                r"(?P<kind>object|enum|tuple|concept|distinct)\b"
            )
        ),
    ),
    "pascal": (
        _keywords(
            "function procedure constructor destructor",
            flags=_I,
            name=r"(?P<name>[A-Za-z_][\w.]*)",
            before=r"(?:class\s+)?",
        ),
        Rule(
            re.compile(
                r"^[ \t]*(?P<name>[A-Za-z_]\w*)\s*=\s*(?:packed\s+)?"
                r"(?P<kind>class|record|interface|object)\b",
                _I,
            )
        ),
    ),
    "d": (_keywords("class struct interface enum union template module"), _C_LIKE),
    "ada": (
        _keywords(
            "procedure function package entry task protected",
            flags=_I,
            before=r"(?:(?:overriding|not\s+overriding|package\s+body|task\s+body|"
            r"protected\s+body|separate)\s+)*",
        ),
        Rule(re.compile(r"^[ \t]*type\s+(?P<name>\w+)\s+is\b", _I), "type"),
    ),
    "tcl": (
        _keywords("proc method constructor", name=r"(?P<name>[\w:]+)"),
        Rule(re.compile(r"^[ \t]*namespace\s+eval\s+(?P<name>[\w:]+)"), "module"),
        Rule(
            re.compile(
                r"^[ \t]*(?:oo::class|itcl::class|snit::type)\s+(?:create\s+)?"
                r"(?P<name>[\w:]+)"
            ),
            "class",
        ),
    ),
    "vala": (_keywords("class interface struct enum namespace"), _C_LIKE),
    "crystal": (_keywords("def macro class struct module enum lib fun annotation"),),
    "fsharp": (
        _keywords("let member abstract type module namespace and", name=r"(?:\w+\.)?" + _NAME),
    ),
    "vbnet": (
        _keywords(
            "sub function property class module structure interface enum namespace", flags=_I
        ),
    ),
    "coffeescript": (
        _keywords("class"),
        Rule(
            re.compile(
                r"^[ \t]*(?:@|this\.)?(?P<name>[A-Za-z_$][\w$]*)\s*[:=]\s*(?:\([^)\n]*\)\s*)?"
                r"[-=]>"
            )
        ),
    ),
    "elm": (_keywords("type alias type module port", before=""), _ML_VALUE),
    "purescript": (
        _keywords("data newtype type class instance module foreign", before=""),
        _ML_VALUE,
    ),
    "idris": (
        _keywords("data record interface implementation namespace module", before=""),
        _ML_VALUE,
    ),
    "gleam": (_keywords("fn type const"),),
    "raku": (_keywords("sub method submethod class role grammar module token rule regex"),),
    "haxe": (_keywords("function class interface enum typedef abstract"),),
    "odin": (
        Rule(
            re.compile(
                r"^[ \t]*(?P<name>[A-Za-z_]\w*)\s*::\s*(?:#\w+\s+)*"
                r"(?P<kind>proc|struct|enum|union)\b"
            )
        ),
    ),
    "sml": (_keywords("fun val structure signature functor datatype type"),),
    "gdscript": (_keywords("func class class_name signal", before=r"(?:static\s+)?"),),
    "fish": (_keywords("function"),),
    "awk": (_keywords("function func"),),
    "nushell": (_keywords("def def-env extern module", name=r"(?:--env\s+)?" + _NAME),),
    "verilog": (_keywords("module interface class package program task function"),),
    "vhdl": (
        _keywords(
            "entity architecture package function procedure",
            flags=_I,
            before=r"(?:(?:pure|impure|package\s+body)\s+)?",
        ),
    ),
    "assembly": (Rule(re.compile(r"^(?P<name>(?!\.L)[A-Za-z_.$][\w.$]*):(?!:)")),),
    "cobol": (Rule(re.compile(r"^.{0,7}?\s*(?P<name>[\w-]+)\s+(?P<kind>SECTION|DIVISION)\.", _I)),),
    "cython": (
        _keywords(
            "def cdef cpdef",
            name=r"(?:(?:inline|public|api|extern|nogil)\s+)*"
            r"(?:(?P<kind2>class|struct|enum)\s+)?(?:[\w.\[\]*]+\s+)*?" + _NAME + r"\s*[(:]",
        ),
    ),
    "chapel": (_keywords("proc iter class record module"),),
    "pony": (
        _keywords(
            "fun be new class actor primitive trait interface struct",
            name=r"(?:(?:ref|val|box|iso|trn|tag)\s+)?" + _NAME,
        ),
    ),
    "lean": (
        _keywords(
            "def theorem lemma structure class inductive instance abbrev namespace",
            before=r"(?:(?:private|protected|noncomputable|partial)\s+)*",
        ),
    ),
    "mojo": (_keywords("def fn struct trait"),),
}
LANGUAGES: Final = frozenset(RULES)
# The tag query's directives (treesitter.tagquery) each language reads as: in Pascal and
# Ada a routine's one-line heading (in a class, an interface section or a package spec)
# declares what its body further on defines.
DIRECTIVES: Final = {lang: ("prototypes: declarations",) for lang in ("pascal", "ada")}
# Where a definition ends at the first line back at its indentation (no closing line):
# indentation-delimited languages, and Lisp's top-level forms.
OFFSIDE: Final = frozenset(
    [
        "nim",
        "fsharp",
        "elm",
        "purescript",
        "idris",
        "coffeescript",
        "gdscript",
        "cython",
        "mojo",
        "elisp",
        "commonlisp",
        "fennel",
        "janet",
        "hy",
        "lean",
    ]
)
MAX_HEAD: Final = 400  # characters: a longer line opens no definition
# A line that closes a definition opened at its indentation (`end;`, `end Foo;`, `}`,
# `End Function`, `endmodule`), and one there that is still part of it (Pascal's `begin`
# and `var`, a brace on a line of its own, a class's visibility section).
_CLOSER: Final = re.compile(r"^[ \t]*(?:[}\])]+\W*|end\w*\b.*)$", _I)
_GOES_ON: Final = re.compile(
    r"^[ \t]*(?:\{|begin|var|const|type|label|is|where|then|do|uses|private|public"
    r"|protected|published|strict|implements|inherits)\b",
    _I,
)
# The comment lines that may stand above a definition as its doc.
_COMMENT: Final = re.compile(r"^[ \t]*(?:;|#|//|--|%|\(\*|\{|'|!|\*|REM\b|\"\"\"|///)", _I)


def knows(lang: str) -> bool:
    """Whether `lang` is read by its definitions' lines."""
    return lang in RULES


@dataclass(frozen=True, slots=True)
class _Opening:
    line: int  # 1-based
    indent: int
    name: str
    kind: str
    text: str


def outline(text: str, lang: str) -> Outline:
    """The definitions of a file in language `lang` (one of `LANGUAGES`), in source order."""
    lines = text.split("\n")
    found = _openings(lines, RULES[lang])
    return Outline(tuple(_definitions(found, lines, offside=lang in OFFSIDE)), (), False)


def _openings(lines: Sequence[str], rules: Sequence[Rule]) -> list[_Opening]:
    out = []
    for n, line in enumerate(lines, 1):
        if len(line) > MAX_HEAD or not line.strip():
            continue  # a definition's head is short; a long line is data or minified code
        if _COMMENT.match(line) and not line.lstrip().startswith("("):
            continue
        for rule in rules:
            if m := rule.pattern.match(line):
                name = m.group("name").rstrip("*")
                said = (m.groupdict().get("kind2") or m.groupdict().get("kind") or "").lower()
                kind = rule.kind or KINDS.get(said.removeprefix("cl-"), "function")
                if name:
                    indent = len(line) - len(line.lstrip())
                    out.append(_Opening(n, indent, name, kind, line.strip()))
                break
    return out


def _definitions(
    found: Sequence[_Opening], lines: Sequence[str], *, offside: bool
) -> list[Definition]:
    """Each opening's span, parent and doc, as the tag query's definitions are. One inside a
    function's lines is a local (an F# `let` in a body), not a definition of the file."""
    defs: list[Definition] = []
    open_: list[tuple[_Opening, int, int]] = []  # (opening, its end, its definition's index)
    ends = _ends(found, lines, offside=offside)
    for o, end in zip(found, ends, strict=True):
        while open_ and (open_[-1][0].indent >= o.indent or open_[-1][1] < o.line):
            open_.pop()
        parent = open_[-1][2] if open_ else None
        if parent is not None and defs[parent].kind in ("function", "method"):
            continue
        names = re.split(r"\.|::", o.name.strip(":"))  # `TForm1.Click`, `::ns::proc`
        kind = o.kind
        owned = parent is not None and defs[parent].kind in METHOD_OWNERS
        if kind == "function" and (owned or "." in o.name):  # Pascal's `TForm1.Click`
            kind = "method"
        path = (*(defs[parent].path if parent is not None else ()), *names)
        if parent is not None:
            end = min(end, defs[parent].end_line)  # a member ends inside its owner
        start, doc = _doc_above(lines, o.line, defs[-1].decl_line if defs else 0)
        defs.append(
            Definition(
                kind,
                path[-1],
                path,
                start,
                end,
                o.line,
                o.text[:200],
                doc,
                parent,
                has_body=end > o.line,
                starts_line=True,
                ends_line=True,
            )
        )
        open_.append((o, end, len(defs) - 1))
    return defs


def _ends(found: Sequence[_Opening], lines: Sequence[str], *, offside: bool) -> list[int]:
    """Each definition's last line, at most the line before the next definition at its
    indentation or outside it (or the file's end), blank lines and the next one's doc
    comment left out. Within that: `offside`, before the first line of code back at its
    indentation; else at the first line there that closes it (`end;`, `}`, `End Sub`), or
    before the first one there that is neither that nor a part of it (`begin`, `{`)."""
    ends = []
    for i, o in enumerate(found):
        stop = next((f.line for f in found[i + 1 :] if f.indent <= o.indent), len(lines) + 1)
        end = _closed(lines, o, stop, offside)
        if end is None:
            end = stop - 1
            while end > o.line and (not lines[end - 1].strip() or _COMMENT.match(lines[end - 1])):
                end -= 1  # blank lines, and the next definition's doc comment
        ends.append(end)
    return ends


def _closed(lines: Sequence[str], o: _Opening, stop: int, offside: bool) -> int | None:
    """The last line of the definition opened at `o` where a line back at its indentation
    says so before `stop` (None: it runs on to `stop`)."""
    for n in range(o.line + 1, stop):
        line = lines[n - 1]
        if not _back_out(line, o):
            continue
        if offside or len(line) - len(line.lstrip()) < o.indent:  # back out of it
            return _above(lines, n, o.line)
        if _CLOSER.match(line):
            return n
        if not _GOES_ON.match(line):
            return _above(lines, n, o.line)
    return None


def _above(lines: Sequence[str], n: int, floor: int) -> int:
    """The last line of code or comment above line `n` (and below `floor`)."""
    end = n - 1
    while end > floor and not lines[end - 1].strip():
        end -= 1
    return end


def _back_out(line: str, opening: _Opening) -> bool:
    """Whether a line of code stands at or left of the opening's indentation."""
    body = line.lstrip()
    return bool(body) and not _COMMENT.match(line) and len(line) - len(body) <= opening.indent


def _doc_above(lines: Sequence[str], line: int, floor: int) -> tuple[int, str]:
    """The first line of the comment lines right above `line` (below `floor`), and their text."""
    start = line
    while start - 1 > floor and _COMMENT.match(lines[start - 2]) and lines[start - 2].strip():
        start -= 1
    doc = " ".join(lines[n - 1].strip().lstrip(";#/-%(*{'!").strip() for n in range(start, line))
    return start, doc
