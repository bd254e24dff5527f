"""What a Go variable holds, read off its file's text (pure): the type of the value a call
is made on, so that `fs.Parse(args)` after `fs := NewFlagSet(...)` is a call of
`FlagSet.Parse`, not of every `Parse` (`CommandLine.Parse(...)` with `var CommandLine =
NewFlagSet(...)`; `f.parseArgs(...)` in a method `func (f *FlagSet) ...`).

A name is bound when the file writes it as a composite literal's (`x := &T{...}`, `var x =
T{...}`), a declared variable's (`var x *T`), a parameter's or a receiver's (`f *FlagSet`),
or as what a call returns (`x := NewT(...)`, `x := pkg.NewT(...)`): a type (`T`) or the
function whose result it is (`()NewT`, its return type read from the function's signature
where it is defined). Each top-level function is a scope of its own over the package's
(`var`s outside any function); a name bound to two different things in one scope is not
bound there at all.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from strata.index.code.model import Symbol

__all__ = [
    "CALLED",
    "Bindings",
    "Bound",
    "go_bindings",
    "held_type",
    "receiver_of",
    "returned_type",
]

CALLED = "()"  # a binding to a function's result: `()NewFlagSet`
_NAME = r"[A-Za-z_]\w*"
_COMPOSITE = re.compile(rf"(?m)^[ \t]*(?:var[ \t]+)?({_NAME})[ \t]*:?=[ \t]*&?({_NAME})[ \t]*\{{")
_CALL = re.compile(
    rf"(?m)^[ \t]*(?:var[ \t]+)?({_NAME})[ \t]*:?=[ \t]*(?:({_NAME})\.)?({_NAME})[ \t]*\("
)
_DECLARED = re.compile(rf"(?m)^[ \t]*var[ \t]+({_NAME})[ \t]+\*?({_NAME})[ \t]*$")
_FUNC = re.compile(r"(?m)^func[ \t]*(?:\(([^)]*)\))?[ \t]*\w*[ \t]*\(([^)]*)\)")
_PARAM = re.compile(rf"({_NAME})[ \t]+\*?([A-Z]\w*)\b")
_KEYWORDS = frozenset({"func", "map", "struct", "interface", "chan", "make", "new", "append"})
_RECEIVER = re.compile(rf"^(?:this\.|self\.)?({_NAME})\.({_NAME})$")


class Bound(Protocol):
    """The names a file binds, and what each holds, where a line is; and the type a
    function's `signature` says the function `name` returns ("" when it says none)."""

    def at(self, line: int) -> Mapping[str, str]: ...

    def returned(self, signature: str, name: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Bindings:
    """A Go file's bound names: those of each top-level function (from its first line, in
    file order) over the package-level ones."""

    package: Mapping[str, str]
    starts: tuple[int, ...] = ()  # each function's first line, 1-based, ascending
    scopes: tuple[Mapping[str, str], ...] = ()

    def at(self, line: int) -> Mapping[str, str]:
        """The names bound where `line` is: the enclosing function's, then the package's."""
        i = bisect.bisect_right(self.starts, line) - 1
        return {**self.package, **self.scopes[i]} if i >= 0 else self.package

    def returned(self, signature: str, name: str) -> str:
        """The type a Go function returns (`returned_type`)."""
        return returned_type(signature, name)


def go_bindings(text: str) -> Bindings:
    """Each variable name bound to one type (`T`) or one function's result (`()NewT`),
    per top-level function and for the package (names bound to two things left out)."""
    lines = text.split("\n")
    starts = [i + 1 for i, line in enumerate(lines) if line.startswith("func")]
    if not starts:
        return Bindings(_bound(text))
    outside = "\n".join(lines[: starts[0] - 1])
    scopes = []
    for a, b in zip(starts, [*starts[1:], len(lines) + 1], strict=True):
        scopes.append(_bound("\n".join(lines[a - 1 : b - 1])))
    return Bindings(_bound(outside, package=True), tuple(starts), tuple(scopes))


def _bound(text: str, *, package: bool = False) -> dict[str, str]:
    """The names `text` binds to one thing each (see the module); `package`: only what a
    `var` binds (a name a function's body binds is its own)."""
    seen: dict[str, set[str]] = {}

    def bind(name: str, value: str) -> None:
        if value not in _KEYWORDS and name != "_":
            seen.setdefault(name, set()).add(value)

    for m in _COMPOSITE.finditer(text):
        bind(m.group(1), m.group(2))
    for m in _DECLARED.finditer(text):
        bind(m.group(1), m.group(2))
    for m in _FUNC.finditer(text):
        for params in m.groups():
            for p in _PARAM.finditer(params or ""):
                bind(p.group(1), p.group(2))
    for m in _CALL.finditer(text):
        if m.group(2) is None or m.group(2) not in seen:  # `pkg.NewT(...)`, not `x.Get(...)`
            bind(m.group(1), CALLED + m.group(3))
    return {name: next(iter(v)) for name, v in seen.items() if len(v) == 1}


def receiver_of(written: str, line: int, bindings: Bound | None) -> str:
    """What the value a call `written` on `line` is made on holds (`fs.Parse`:
    `()NewFlagSet`; `this.store.save`: `Store`), or "" when the call is on no bound name."""
    m = _RECEIVER.match(written)
    return bindings.at(line).get(m.group(1), "") if m and bindings else ""


def held_type(
    held: str,
    functions: Callable[[str], Sequence[Symbol]],
    returns: Callable[[str, str], str] | None = None,
) -> str:
    """The type a bound value holds: `held` itself, or for `()F` the type the one function
    `functions(F)` finds returns, read by `returns` (default: Go's `returned_type`; "" when
    none or two are found, or it returns no type)."""
    if not held.startswith(CALLED):
        return held
    name = held[len(CALLED) :]
    made = functions(name)
    return (returns or returned_type)(made[0].signature, name) if len(made) == 1 else ""


def returned_type(signature: str, name: str) -> str:
    """The type a Go function returns, from its signature (`func NewFlagSet(name string, h
    ErrorHandling) *FlagSet`: `FlagSet`; `(*T, error)`: `T`), or ""."""
    start = signature.find(name + "(")
    if start < 0:
        return ""
    depth, i = 0, start + len(name)
    for i in range(start + len(name), len(signature)):
        depth += {"(": 1, ")": -1}.get(signature[i], 0)
        if depth == 0:
            break
    m = re.match(rf"\s*\(?\s*\*?(?:{_NAME}\.)?({_NAME})", signature[i + 1 :])
    return m.group(1) if m and m.group(1) not in ("error", "func") else ""
