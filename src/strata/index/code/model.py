"""Values of the code layers: symbols (C1), edges (C2), entry points (C3) and roles (C4)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Symbol:
    """One definition: class, function, method, constant, interface, struct, trait, ...

    `symbol_id` is stable across runs: `"<path>::<qname>"` (plus `#<n>` for a
    redefinition of the same qname in one file). `qname` is dotted from the module
    (`pkg.mod.Class.method`); `name` is the bare name.
    """

    symbol_id: str
    qname: str
    name: str
    kind: str
    path: str
    lang: str
    start_line: int
    end_line: int
    signature: str = ""
    summary: str = ""
    parent_symbol_id: str | None = None
    # Where the declaration itself starts when its doc comment or decorators come first
    # (0: at `start_line`): a long doc splits the chunks, and the header is after it.
    decl_line: int = 0
    # A C or C++ function or method written without a body (a prototype, a method declared
    # in its class), a Python `@overload`: "where is it defined" prefers the one with a body.
    declaration: bool = False
    # A member of an impl block (a Haskell instance, a Swift extension, a Rust impl). Where
    # its qname is also a member of a class or trait (a class method's signature), that
    # member is the definition asked for and this one an implementation of it.
    implementation: bool = False
    package_or_module: str = ""
    is_test: bool = False
    decorators: tuple[str, ...] = ()
    bases: tuple[str, ...] = ()
    # A block of a data table's constants (kind `constants`): their bare names, and the
    # first and last line of each, flat (`start0, end0, start1, ...`); `signature` holds
    # one line per member. Lookups and resolution see each member as a constant.
    members: tuple[str, ...] = ()
    member_lines: tuple[int, ...] = ()

    def member_qnames(self) -> list[str]:
        """The qualified names of a block's members (`[]` for any other symbol)."""
        module = self.package_or_module
        return [f"{module}.{n}" if module else n for n in self.members]


# The kinds of a definition that is a type (a base, what a value holds), and how many
# bases up a call's resolution looks for the member a type does not define itself
TYPE_KINDS = frozenset({"class", "struct", "enum", "interface", "trait", "object", "record"})
MAX_BASES = 4
# A base as written, to its bare name: `pkg.Base<T>`, `Base[A]`, `Base(x)`, `ns::Base`
_BASE_NAME = re.compile(r"[^\s<\[(]*")


def base_name(written: str) -> str:
    """A base's bare name as its class writes it: `Seq[A]`, `pkg.Base<T>`, `Base(x)`,
    `ns::Base`, `\\App\\Base` -> the last part before any type arguments."""
    head = _BASE_NAME.match(written.strip())
    return re.split(r"[.:\\]+", head.group() if head else "")[-1]


def callables(targets: Sequence[Symbol]) -> list[Symbol]:
    """What a call of a name can reach among the symbols so named: those that are no
    field, or all of them when every one is (a field holding a function: `this.handler()`).
    A Rust struct's field `span` beside its method `span` leaves `self.span()` one target."""
    found = [t for t in targets if t.kind != "field"]
    return found or list(targets)


@dataclass(frozen=True, slots=True)
class Edge:
    """One dependency: `calls`, `imports` or `inherits`, from a symbol (or module) to a target.

    `dst_ref` is the target as written; `dst_symbol_id`/`dst_qname` are set when resolved.
    `resolution` is `resolved`, `ambiguous`, `external` or `unresolved`. `line` is the
    first line of the reference; `lines`, when set, every line the source makes it on
    (one edge stands for all of a function's calls of one target).
    """

    edge_id: str
    edge_type: str
    src_symbol_id: str
    src_qname: str
    dst_ref: str
    path: str
    line: int
    resolution: str = "unresolved"
    dst_symbol_id: str | None = None
    dst_qname: str | None = None
    candidates: tuple[str, ...] = ()
    is_test: bool = False
    lines: tuple[int, ...] = ()
    # What the calls pass, `slot=class` (`0=pkg.Foo()`; python/edges.py `arguments`)
    arguments: tuple[str, ...] = ()
    # What the value a call is made on holds (a type, or `()NewT`: code/bindings.py), for
    # the resolution across files; not stored
    receiver: str = ""


@dataclass(frozen=True, slots=True)
class Entrypoint:
    """One way into the program: an HTTP route, a CLI command, or another trigger."""

    entry_id: str
    entry_type: str
    framework: str
    route_or_command: str
    path: str
    start_line: int
    end_line: int
    handler_symbol: str = ""
    handler_symbol_id: str | None = None
    declaring_symbol: str = ""
    entrypoint_kind: str = ""
    http_method: str | None = None
    route_path: str | None = None
    decorator_text: str = ""
    summary_text: str = ""
    is_test: bool = False
    lang_payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Role:
    """One symbol's role in the system, with how sure and why.

    A run of module constants whose only evidence is being one shares a role: `members`
    holds every constant's qname (the first is `qname`), the lines span them all.
    """

    symbol_id: str
    qname: str
    role: str
    confidence: float
    evidence: tuple[str, ...]
    path: str
    start_line: int
    end_line: int
    members: tuple[str, ...] = ()
