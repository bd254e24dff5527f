"""Calls between files where the language says what a bare name means (pure).

A tree-sitter file's calls are resolved against its own definitions only (`treesitter/
symbols.py`); a call of a name defined in another file stays unresolved, and `callers`
leaves such name-only matches out by default. What the languages say of a name:

- Go: the files of one directory are one package, which shares one namespace: a bare
  `checkRequiredFlags(...)` in `app.go` calls the package-level function of that name in
  `context.go`. A non-test file cannot call what only a `_test.go` file defines.
- C and Bash: a program's (a shell's) functions share one namespace: a bare call names
  the function of that name defined with a body, when the repository has exactly one (a
  prototype is no definition; two `usage()` of two programs stay unresolved, as a
  `static` one called from its own file already was).
- Rust: `bail!(...)` names the crate's `macro_rules! bail` (an exported macro is the
  crate's, wherever it is defined; two so named, a definition per `cfg`, are ambiguous).
- Kotlin: a top-level function of the caller's directory (its package), when it has one
  of that name.
- Kotlin, Swift and Scala: a call of a capitalised name no function answers constructs the
  one type so named in the language (`throw UnexpectedException(e)`; of two, the one in
  the caller's directory), as `new Type(...)` does elsewhere.
- Haskell: the one top-level function of that name among the modules the module imports
  (`import Text.Megaparsec.Char` -> `Text/Megaparsec/Char.hs`).
- JavaScript and TypeScript: a name a module does not define comes from an import; a bare
  call resolves to the top-level function or class of that name in the one file among
  those the caller imports by a relative path (`./headers`, `../util/index.js` written for
  `index.ts`) that defines it.
- Perl: `Pkg::Name::sub(...)` and `Pkg::Name->sub(...)` to the one sub of that name in the
  files declaring `package Pkg::Name`.
- Lua: `utils.f(...)` where the file requires a module whose last part is `utils`
  (`local utils = require "pl.utils"`, as custom binds it) to that module file's `f`.
- Any language with types: `Type.method(...)` (`Type::new`, `$Type->m`, `Pkg::Type.m`)
  and `new Type(...)` resolve to that type's member, or the type, when exactly one type
  so named in the caller's language defines it (`Arg::new` in clap's `command.rs` is
  `Arg.new` in `arg.rs`; `Math.max` stays external).
- Any language with classes: a method's call of a name its class does not define in its
  file (`foo()`, `this.foo()`, `$this->foo()`, `super.foo()`, `parent::foo()`) resolves
  to the method of the class's other part (a C# partial class) or of the nearest base
  defining it, each base the one type so named in the language.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from strata.index.code.bindings import held_type
from strata.index.code.model import MAX_BASES, TYPE_KINDS, Edge, Symbol, base_name, callables
from strata.text.langs import language_of

# Languages whose top-level functions a directory shares (its package), and those whose
# functions share one namespace across files (a program's, a shell's)
_PACKAGE_DIRS = frozenset({"go", "kotlin"})
# languages where a call of a type's name constructs one (`UnexpectedException(e)`, no `new`)
_CONSTRUCTED = frozenset({"kotlin", "swift", "scala"})
_ONE_NAMESPACE = frozenset({"c", "bash"})
_RUST_MACRO = "rust macro"  # `by_name`'s key for Rust's `macro_rules!`, crate-wide
_JS_LANGS = frozenset({"javascript", "typescript", "tsx"})
_JS_KINDS = frozenset({"function", "class"})
_JS_SUFFIXES = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
# `Type.method`, `Type::new`, `Pkg::Type.method`, `$Type->m` as written: a capitalised
# receiver names a type (`treesitter/symbols.py` reads it so within a file); `new Type`.
_TYPED = re.compile(r"^(?:[\w$]+(?:\.|::|->))*([A-Z][\w$]*)(?:\.|::|->)([A-Za-z_$][\w$]*[!?]?)$")
_NEW = re.compile(r"^new\s+(?:[\w$]+(?:\.|::))*([A-Z][\w$]*)$")
_NOT_A_TYPE = frozenset({"Self", "This", "Super"})
# A method calling its own class's (or a base's) method: `foo()`, `this.foo()`,
# `self.foo()`, `$this->foo()`, `this->foo()`, `super.foo()`, `parent::foo()`
_OWN = re.compile(r"^(?:(?:this|self|\$this|super|parent)(?:\.|->|::))?([A-Za-z_$][\w$]*)$")
# A C# extension method (`static int Count<T>(this IEnumerable<T> source)`): a member, for
# a call on a value, of the type it extends as much as of its static class.
_EXTENDS = re.compile(r"\(\s*this\s+([A-Za-z_]\w*)")
# Perl's `Pod::Simple::new(...)`, `Pod::Text::Color->output(...)`: a package and its sub
_PERL_CALL = re.compile(r"^(\w+(?:::\w+)*)(?:::|->)(\w+)$")
# Lua's `utils.assert_arg(...)` where `local utils = require "pl.utils"`
_LUA_CALL = re.compile(r"^([A-Za-z_]\w*)[.:]([A-Za-z_]\w*)$")


@dataclass
class _Tables:
    """The definitions a cross-file rule looks a name up in."""

    # top-level functions by (directory, name), and by (language, name)
    by_dir: dict[tuple[str, str], list[Symbol]] = field(default_factory=lambda: defaultdict(list))
    by_name: dict[tuple[str, str], list[Symbol]] = field(default_factory=lambda: defaultdict(list))
    js: dict[tuple[str, str], list[Symbol]] = field(default_factory=lambda: defaultdict(list))
    # (language family, type, member) and (language family, type)
    members: dict[tuple[str, str, str], list[Symbol]] = field(
        default_factory=lambda: defaultdict(list)
    )
    types: dict[tuple[str, str], list[Symbol]] = field(default_factory=lambda: defaultdict(list))
    imported: dict[str, list[str]] = field(default_factory=dict)
    # a file's top-level functions by (path, name); Perl's packages and the files declaring them
    top: dict[tuple[str, str], list[Symbol]] = field(default_factory=lambda: defaultdict(list))
    packages: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    required: dict[str, dict[str, str]] = field(default_factory=dict)  # Lua: alias -> file
    modules: dict[str, list[str]] = field(default_factory=dict)  # Haskell: imported files
    langs: dict[str, str] = field(default_factory=dict)  # a file's language, by its symbols
    by_id: dict[str, Symbol] = field(default_factory=dict)

    def add(self, s: Symbol) -> None:
        self.langs.setdefault(s.path, s.lang)
        self.by_id[s.symbol_id] = s
        # a prototype's calls go to its body; a Go interface's method is what a call
        # through the interface reaches (its types implement it without saying so)
        if s.declaration and s.lang != "go":
            return
        if s.parent_symbol_id is not None or s.kind == "method":  # Go's: apart from its type
            if owner := s.qname.rsplit(".", 2)[-2:-1]:
                self.members[(_family(s.lang), owner[0], s.name)].append(s)
            if s.lang == "csharp" and (extended := _EXTENDS.search(s.signature)):
                self.members[("csharp", extended.group(1), s.name)].append(s)
            return
        if s.kind in TYPE_KINDS:
            self.types[(_family(s.lang), s.name)].append(s)
        if s.lang == "perl" and s.kind == "package":
            self.packages[s.name].add(s.path)
        elif s.lang in ("perl", "lua", "haskell") and s.kind == "function":
            self.top[(s.path, s.name)].append(s)
        if s.lang in _PACKAGE_DIRS and s.kind == "function":
            self.by_dir[(posixpath.dirname(s.path), s.name)].append(s)
        elif s.lang in _ONE_NAMESPACE and s.kind == "function":
            self.by_name[(s.lang, s.name)].append(s)
        elif s.lang in _JS_LANGS and s.kind in _JS_KINDS:
            self.js[(s.path, s.name)].append(s)
        elif s.lang == "rust" and s.signature.startswith("macro_rules!"):
            self.by_name[(_RUST_MACRO, s.name)].append(s)


def resolve_across_files(edges: Sequence[Edge], symbols: Iterable[Symbol]) -> list[Edge]:
    """`edges` with each unresolved call resolved across files where the language says
    what its name means (see the module's doc)."""
    tables = _Tables()
    for s in symbols:
        tables.add(s)
    if tables.js:
        tables.imported = _relative_imports(edges, {path for path, _ in tables.js})
    if lua := {path for path, _ in tables.top if path.endswith(".lua")}:
        # `local utils = require "pl.utils"`: bound, by custom, to the name's last part
        required = _module_imports(edges, lua, (".lua",))
        tables.required = {
            p: {m.rsplit(".", 1)[-1]: f for m, f in mods.items()} for p, mods in required.items()
        }
    if haskell := {path for path, _ in tables.top if path.endswith((".hs", ".lhs"))}:
        imported = _module_imports(edges, haskell, (".hs", ".lhs"))
        tables.modules = {p: list(dict.fromkeys(mods.values())) for p, mods in imported.items()}
    out = []
    for e in edges:
        if e.edge_type == "calls" and e.resolution == "unresolved":
            e = _across(e, tables)
            if e.resolution == "unresolved":
                e = _inherited(e, tables)
        out.append(e)
    return out


def _across(e: Edge, t: _Tables) -> Edge:
    """One unresolved call, resolved by the first rule that reads it."""
    ref = e.dst_ref
    if not ref.isidentifier():
        if (found := _qualified(e, t)) is not None:
            return _to(e, found) if len(found) == 1 else e
        return _held(e, t) if e.receiver else _typed(e, t)
    lang = t.langs.get(e.path) or language_of(e.path) or ""
    if lang in _PACKAGE_DIRS:
        found = t.by_dir.get((posixpath.dirname(e.path), ref), [])
        found = [s for s in found if s.lang == lang and (e.is_test or not _test_only(s))]
        if lang == "go" or len(found) == 1:
            return _to(e, found)
        if found or lang not in _CONSTRUCTED:
            return e
    if lang in _CONSTRUCTED and ref[:1].isupper():
        return _one_type(e, t.types.get((_family(lang), ref), []))
    if lang in _ONE_NAMESPACE:
        found = t.by_name.get((lang, ref), [])
        return _to(e, found) if len(found) == 1 else e
    if lang == "rust" and (found := t.by_name.get((_RUST_MACRO, ref), [])):
        return _to(e, found)
    if e.path in t.modules:
        found = [s for f in t.modules[e.path] for s in t.top.get((f, ref), [])]
        return _to(e, found) if len(found) == 1 else e
    if e.path in t.imported:
        return _to(e, [s for f in t.imported[e.path] for s in t.js.get((f, ref), [])])
    return e


def _qualified(e: Edge, t: _Tables) -> list[Symbol] | None:
    """The subs a Perl `Pkg::Name::sub` or a Lua `module.f` call may mean, or None when
    the call is not such a call."""
    if e.path.endswith((".pl", ".pm", ".t")) and (m := _PERL_CALL.match(e.dst_ref)):
        files = t.packages.get(m.group(1), ())
        return [s for path in files for s in t.top.get((path, m.group(2)), [])]
    modules = t.required.get(e.path, {})
    if (m := _LUA_CALL.match(e.dst_ref)) and m.group(1) in modules:
        return t.top.get((modules[m.group(1)], m.group(2)), [])
    return None


def _inherited(e: Edge, t: _Tables) -> Edge:
    """A method's call of a name its class does not define in this file (`foo()`,
    `this.foo()`, `$this->foo()`, `super.foo()`): the method of that name of the class's
    other part (a C# partial class, a Swift extension) or of the nearest base that has one,
    each base the one type so named in the language."""
    m = _OWN.match(e.dst_ref)
    caller = t.by_id.get(e.src_symbol_id)
    owner = t.by_id.get(caller.parent_symbol_id or "") if caller else None
    if m is None or owner is None or owner.kind not in TYPE_KINDS:
        return e
    family, name = _family(owner.lang), m.group(1)
    above = m.group(0).startswith(("super", "parent"))  # the base's, not an override's
    level = _bases(owner, family, t) if above else [owner]
    found = _nearest(level, family, name, t, lambda s: s.path != e.path)
    return _to(e, found) if found else e


def _nearest(
    level: list[Symbol], family: str, name: str, t: _Tables, keep: Callable[[Symbol], bool]
) -> list[Symbol]:
    """The one member `name` (that `keep` keeps) of the nearest of `level`'s types and
    their bases that has one, or []."""
    seen: set[str] = set()
    for _ in range(MAX_BASES):
        for cls in level:
            found = [s for s in t.members.get((family, cls.name, name), []) if keep(s)]
            if len(found) == 1:
                return found
        seen.update(c.symbol_id for c in level)
        level = [b for c in level for b in _bases(c, family, t) if b.symbol_id not in seen]
        if not level:
            break
    return []


def _bases(cls: Symbol, family: str, t: _Tables) -> list[Symbol]:
    """The types `cls` derives from that its language defines once in the repository."""
    out = []
    for written in cls.bases:
        if len(found := t.types.get((family, base_name(written)), [])) == 1:
            out.append(found[0])
    return out


def _typed(e: Edge, t: _Tables) -> Edge:
    """`Type.method(...)` or `new Type(...)` of a type another file of the same language
    defines: that type's member, or the type; one only. Of two types so named, the one in
    the caller's directory (a Java or Kotlin package's own `Util`), else unresolved."""
    family = _family(t.langs.get(e.path) or language_of(e.path) or "")
    if (m := _TYPED.match(e.dst_ref)) and m.group(1) not in _NOT_A_TYPE:
        found = t.members.get((family, m.group(1), m.group(2)), [])
    elif m := _NEW.match(e.dst_ref):
        found = t.types.get((family, m.group(1)), [])
    else:
        return e
    return _one_type(e, found)


def _one_type(e: Edge, found: list[Symbol]) -> Edge:
    """The edge resolved to the one of `found`, or of those in the caller's directory (a
    Java or Kotlin package's own `Util`); as it was for none or several."""
    if len(found) > 1:
        here = posixpath.dirname(e.path)
        found = [s for s in found if posixpath.dirname(s.path) == here]
    return _to(e, found) if len(found) == 1 else e


def _held(e: Edge, t: _Tables) -> Edge:
    """A call on a value whose type its file states (Go's `fs.Parse(...)` after `fs :=
    NewFlagSet(...)`, `CALLED` `NewFlagSet`; a typed field's or parameter's, `store.save`
    with `Store store`): that type's method, or its nearest base's; a Go type read from the
    package's one function so named where it is defined."""
    here, member = posixpath.dirname(e.path), e.dst_ref.rsplit(".", 1)[-1]
    held = held_type(e.receiver, lambda name: t.by_dir.get((here, name), []))
    family = _family(t.langs.get(e.path) or "go")
    found = t.members.get((family, held, member), [])
    if len(found) > 1:
        found = [s for s in found if posixpath.dirname(s.path) == here]
    if held and not found and len(types := t.types.get((family, held), [])) == 1:
        found = _nearest(_bases(types[0], family, t), family, member, t, lambda s: True)
    owners = {s.qname for s in found}  # one type's overloads: a call of that method
    return _to(e, found) if held and len(owners) == 1 else e


def _family(lang: str) -> str:
    """Languages whose code calls each other's definitions by the same names."""
    return "js" if lang in _JS_LANGS else "c" if lang in ("c", "cpp") else lang


def _relative_imports(edges: Iterable[Edge], files: set[str]) -> dict[str, list[str]]:
    """Each JavaScript or TypeScript file's relatively imported files among `files`."""
    out: dict[str, list[str]] = defaultdict(list)
    for e in edges:
        if e.edge_type == "imports" and e.dst_ref.startswith(".") and e.path.endswith(_JS_SUFFIXES):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(e.path), e.dst_ref))
            if (found := _module_file(target, files)) and found not in out[e.path]:
                out[e.path].append(found)
    return out


def _test_only(s: Symbol) -> bool:
    return s.path.endswith("_test.go")


def _by_module(files: set[str]) -> dict[str, list[str]]:
    """Dotted module name -> the files it may be (`pl/utils.lua`, `pl/utils/init.lua`:
    `pl.utils` and `utils`; `src/Text/Megaparsec.hs`: `Text.Megaparsec` and shorter)."""
    out: dict[str, list[str]] = defaultdict(list)
    for path in files:
        module = path.rsplit(".", 1)[0].removesuffix("/init")
        parts = module.split("/")
        for i in range(len(parts)):
            out[".".join(parts[i:])].append(path)
    return out


def _module_imports(
    edges: Iterable[Edge], files: set[str], suffixes: tuple[str, ...]
) -> dict[str, dict[str, str]]:
    """Each file (of `suffixes`)'s imported modules among `files`, by dotted name
    (`pl.utils`, `Text.Megaparsec.Char`) -> the module's one file."""
    by_module = _by_module(files)
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for e in edges:
        if e.edge_type == "imports" and e.path.endswith(suffixes):
            name = e.dst_ref.strip("'\"")
            if len(found := by_module.get(name, [])) == 1:
                out[e.path][name] = found[0]
    return out


def _module_file(spec: str, files: set[str]) -> str | None:
    """The file an import of `spec` loads: itself, with a script suffix, its `index`, or
    the TypeScript source a `.js` import is compiled from."""
    stem, dot, suffix = spec.rpartition(".")
    bases = [spec, stem] if dot and f".{suffix}" in _JS_SUFFIXES else [spec]
    for base in bases:
        for candidate in (base, *(base + x for x in _JS_SUFFIXES)):
            if candidate in files:
                return candidate
        for x in _JS_SUFFIXES:
            if f"{base}/index{x}" in files:
                return f"{base}/index{x}"
    return None


def _to(edge: Edge, targets: Sequence[Symbol]) -> Edge:
    """The edge resolved to its one target, ambiguous among several, as it was for none."""
    if edge.edge_type == "calls":
        targets = callables(targets)
    if len(targets) == 1:
        (t,) = targets
        return dataclasses.replace(
            edge, resolution="resolved", dst_symbol_id=t.symbol_id, dst_qname=t.qname
        )
    if targets:  # a function per build target (`f_linux.go`, `f_windows.go`)
        ids = tuple(t.symbol_id for t in targets)
        # one name in every variant (a `cfg` pair of macros): the call names that qname
        qnames = {t.qname for t in targets}
        qname = qnames.pop() if len(qnames) == 1 else edge.dst_qname
        return dataclasses.replace(edge, resolution="ambiguous", candidates=ids, dst_qname=qname)
    return edge
