"""What a field or a parameter holds in a language that writes its type (pure): the type of
the value a call is made on, so that `store.save(x)` in a class with `private final Store
store;` is a call of `Store.save`, not of every `save` (Java, C#, Kotlin, Scala, Swift,
TypeScript; Go's names are read by `bindings`).

A field or property of a type binds its name inside that type's lines, and so does a
parameter of the type's own (Kotlin's and Scala's `class S(private val store: Store)`, a
record's, a TypeScript constructor's `private store: Store`); a method's or a function's
parameter or local variable, inside the method's, over the fields (a local declared with
two types in one callable is left out).
The type is the one written: before the name in Java and C# (`private final Store store`,
`IStore? _store`), after it in the others (`val store: Store`, `private store?: Store`,
`let store: Store!`), or the type a field is made of (`val cache = Cache()`, `new
Cache()`). A type is a capitalised name; its generic arguments are dropped (`List<Store>`
holds a `List`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from strata.index.code.bindings import CALLED
from strata.index.code.model import Symbol

__all__ = [
    "Typed",
    "declared_type",
    "local_types",
    "parameters",
    "return_type",
    "typed_bindings",
]

_PREFIX_TYPED = frozenset({"java", "csharp"})
_SUFFIX_TYPED = frozenset({"kotlin", "scala", "swift", "typescript", "tsx"})
_FIELDS = frozenset({"field", "property"})
_CALLABLE = frozenset({"method", "function"})
_TYPES = frozenset({"class", "struct", "object", "record"})
_NAME = r"[A-Za-z_$][\w$]*"
_TYPE = r"([A-Z]\w*)"
_GENERIC = re.compile(r"<[^<>]*>")  # a type's arguments, two levels deep by `_bare`
_MADE = re.compile(rf"=\s*(?:new\s+)?{_TYPE}\s*[({{]")
# A local variable: `final Store s = …;`, `Mem m;`, `var m = new Mem(…)` (Java, C#) …
_PREFIX_LOCAL = re.compile(
    rf"(?m)^[ \t]*(?:final[ \t]+)?(?:(?P<type>[A-Z]\w*)(?:\[\])?\??|var)[ \t]+(?P<name>{_NAME})"
    rf"[ \t]*(?:;|=[ \t]*(?:new[ \t]+(?P<made>[A-Z]\w*)[ \t]*[({{]|(?P<call>[a-z_]\w*)[ \t]*\()?)"
)
# … and a loop's: `for (PluginCall call : calls)`, `foreach (JToken t in tokens)`
_PREFIX_LOOP = re.compile(
    rf"\b(?:for|foreach)[ \t]*\([ \t]*(?:final[ \t]+)?(?P<type>[A-Z]\w*)(?:\[\])?\??[ \t]+"
    rf"(?P<name>{_NAME})[ \t]*(?::|in\b)"
)
# … `val m: Mem = …`, `let m = Mem()`, `const m = new Mem()` (Kotlin, Scala, Swift, TypeScript)
_SUFFIX_LOCAL = re.compile(
    rf"\b(?:val|var|let|const)[ \t]+(?P<name>{_NAME})[ \t]*(?::[ \t]*(?P<type>[A-Z]\w*)[^=\n]*)?"
    rf"=[ \t]*(?:(?:new[ \t]+)?(?P<made>[A-Z]\w*)[ \t]*[({{]|(?P<call>[a-z_]\w*)[ \t]*\()?"
)


@dataclass(frozen=True, slots=True)
class Typed:
    """Names bound inside line ranges (a type's fields, a method's parameters), each range
    with the names it binds, outer ranges first."""

    ranges: tuple[tuple[int, int, Mapping[str, str]], ...] = ()
    lang: str = ""

    def returned(self, signature: str, name: str) -> str:
        """The type the callable `name` returns, as its `signature` writes it."""
        return return_type(signature, name, self.lang)

    def at(self, line: int) -> Mapping[str, str]:
        """The names bound at `line`, the innermost range's over the outer ones'."""
        out: dict[str, str] = {}
        for start, end, names in self.ranges:
            if start <= line <= end:
                out.update(names)
        return out


def _bare(text: str) -> str:
    """`text` without its types' arguments: `Map<String, List<Store>> m` -> `Map m`."""
    return _GENERIC.sub("", _GENERIC.sub("", text))


def typed_bindings(symbols: Iterable[Symbol], lang: str, text: str = "") -> Typed | None:
    """The fields each type of a file holds, and the parameters and local variables of each
    of its callables (`text`: the file's), with their written types; None for a language
    that does not write them."""
    if lang not in _PREFIX_TYPED | _SUFFIX_TYPED:
        return None
    symbols = list(symbols)
    lines = text.split("\n")
    by_id = {s.symbol_id: s for s in symbols}
    fields: dict[str, dict[str, str]] = {}
    ranges: list[tuple[int, int, Mapping[str, str]]] = []
    for s in symbols:
        if s.kind in _FIELDS and s.parent_symbol_id in by_id:
            if kind := declared_type(s.signature, s.name, lang):
                fields.setdefault(s.parent_symbol_id, {})[s.name] = kind
        elif s.kind in _CALLABLE:
            body = "\n".join(lines[s.start_line : s.end_line])  # after the signature's line
            params = parameters(s.signature, s.name, lang)
            if names := {**params, **local_types(body, lang)}:
                ranges.append((s.start_line, s.end_line, names))
            if s.name == "constructor" and s.parent_symbol_id in by_id:
                fields.setdefault(s.parent_symbol_id, {}).update(_properties(s.signature, params))
        elif s.kind in _TYPES and (params := parameters(s.signature, s.name, lang)):
            fields[s.symbol_id] = {**params, **fields.get(s.symbol_id, {})}  # `class S(val x: T)`
    owners = [(by_id[i].start_line, by_id[i].end_line, names) for i, names in fields.items()]
    ranges = sorted(owners, key=lambda r: (r[0], -r[1])) + sorted(ranges, key=lambda r: r[0])
    return Typed(tuple(ranges), lang) if ranges else None


def _properties(signature: str, params: Mapping[str, str]) -> dict[str, str]:
    """A TypeScript constructor's parameter properties (`constructor(private store:
    Store)`): fields of its class."""
    return {
        name: kind
        for name, kind in params.items()
        if re.search(rf"\b(?:public|private|protected|readonly)\s+{re.escape(name)}\b", signature)
    }


def return_type(signature: str, name: str, lang: str) -> str:
    """The type a callable's `signature` says `name` returns (`public Store get()`, `fun
    get(): Store`, `func get() -> Store`, `get(): Store`), or ""."""
    if lang in _PREFIX_TYPED:
        return declared_type(signature, name, lang)
    text = _bare(signature)
    n = re.escape(name)
    m = re.search(rf"\b{n}\s*(?:\([^()]*\))?\s*(?::|->)\s*\(?{_TYPE}", text)
    return m.group(1) if m else ""


def declared_type(signature: str, name: str, lang: str) -> str:
    """The type a field's declaration `signature` gives `name`, or ""."""
    text = _bare(signature.split("\n", 1)[0])
    n = re.escape(name)
    if lang in _PREFIX_TYPED:
        m = re.search(rf"(?:^|[\s(,]){_TYPE}(?:\[\])?\??\s+{n}\b", text)
    else:
        m = re.search(rf"(?:^|[\s(,]){n}\s*[?!]?\s*:\s*\(?{_TYPE}", text)
    if m is None and (made := _MADE.search(text)) and re.search(rf"\b{n}\s*(?::[^=]*)?=", text):
        return made.group(1)
    return m.group(1) if m else ""


def local_types(body: str, lang: str) -> dict[str, str]:
    """The local variables a callable's `body` declares with a type or makes of one
    (`Store s = …`, `var m = new Mem()`, `for (Mem m : all)`, `val m: Mem = …`, `let m =
    Mem()`); a name declared twice with two types is left out."""
    seen: dict[str, set[str]] = {}
    patterns = (_PREFIX_LOCAL, _PREFIX_LOOP) if lang in _PREFIX_TYPED else (_SUFFIX_LOCAL,)
    text = _bare(body)
    for m in (m for pattern in patterns for m in pattern.finditer(text)):
        name, kind = m.group("name"), m.group("type") or m.groupdict().get("made")
        kind = kind or (CALLED + called if (called := m.groupdict().get("call")) else "")
        if kind:
            seen.setdefault(name, set()).add(kind)
    return {name: next(iter(kinds)) for name, kinds in seen.items() if len(kinds) == 1}


def parameters(signature: str, name: str, lang: str) -> dict[str, str]:
    """A callable's parameters whose type `signature` writes as a capitalised name."""
    start = signature.find("(", max(signature.find(name), 0))
    if start < 0:
        return {}
    depth, end = 0, len(signature)
    for i in range(start, len(signature)):
        depth += {"(": 1, ")": -1}.get(signature[i], 0)
        if depth == 0:
            end = i
            break
    out: dict[str, str] = {}
    for part in _bare(signature[start + 1 : end]).split(","):
        part = part.split("=", 1)[0].strip()
        if lang in _PREFIX_TYPED:
            m = re.search(rf"{_TYPE}(?:\[\])?\??\s+({_NAME})$", part)
            found = (m.group(2), m.group(1)) if m else None
        else:
            m = re.search(rf"({_NAME})\s*\??\s*:\s*(?:@\w+\s+)?(?:inout\s+)?{_TYPE}", part)
            found = (m.group(1), m.group(2)) if m else None
        if found:
            out[found[0]] = found[1]
    return out
