"""C4: each symbol's role, from names, decorators, bases, entry points and the call graph."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from strata.index.code.model import Edge, Entrypoint, Role, Symbol
from strata.text import pyparse

_MODEL_BASES = frozenset(
    {
        "BaseModel",
        "Model",
        "Base",
        "DeclarativeBase",
        "TypedDict",
        "NamedTuple",
        "Struct",
        "Schema",
        "SQLModel",
        "Document",
        "Enum",
        "StrEnum",
        "IntEnum",
    }
)
_MODEL_DECORATORS = re.compile(
    r"^(dataclasses\.)?dataclass\b|^attr(s)?\.(s|define|frozen)\b|^define\b"
)
_CONFIG_BASES = frozenset({"BaseSettings", "Settings"})
_REPO_NAME = re.compile(r"(Repository|Repo|DAO|Dao|Store|Storage|Gateway)$")
_SERVICE_NAME = re.compile(r"(Service|Manager|Handler|Controller|UseCase|Processor|Engine)$")
_CONFIG_NAME = re.compile(r"(Config|Configuration|Settings|Options)$")
# A role row per block of up to this many adjacent module constants, not one per constant:
# a generated data table (`_pb2.py`, 40k `NAME = literal` lines) otherwise writes as many
# C4 rows as C1 symbols, each saying only "module constant NAME". The block's text names
# every constant, so a search of C4 for any one of them still finds it.
CONSTANT_BLOCK = pyparse.DATA_BLOCK
_CONSTANT = "module constant "
_CONSTANT_ROLE = ("config", 0.5)
_GLUE_CALLS = re.compile(r"\.(include_router|register_blueprint|add_command|add_typer|mount|run)$")
_GLUE_NAMES = frozenset({"main", "create_app", "make_app", "app_factory", "cli", "run"})
_DATA_ACCESS = re.compile(
    r"(sqlalchemy|session\.(query|execute|add|commit)|cursor|\.execute$|"
    r"\.fetch(one|all)$|objects\.(filter|get|create|all))"
)


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the graph says about every symbol, computed once."""

    entries: dict[str, list[Entrypoint]]
    callers: dict[str, set[str]]
    callees: dict[str, list[str]]  # dst qname or ref of each outgoing call
    bases: dict[str, list[str]]  # resolved or written base names


def assign_roles(
    symbols: Sequence[Symbol], edges: Iterable[Edge], entrypoints: Iterable[Entrypoint]
) -> list[Role]:
    """The strongest role of each symbol that has evidence for one.

    Args:
        symbols: C1 symbols (one file or the whole repository).
        edges: C2 edges, resolved for fan-in to count across files.
        entrypoints: C3 entry points (their handlers become handlers and commands).

    Returns:
        One `Role` per symbol with evidence, `confidence` in [0, 1]; symbols with no
        evidence get none rather than a guess.
    """
    facts = _facts(symbols, edges, entrypoints)
    out: list[Role] = []
    block: list[Symbol] = []  # the run of plain module constants being gathered
    for sym in symbols:
        if sym.members:  # a data table's block of constants: its own `config` row
            if block:
                out.append(_constants(block))
                block = []
            out.append(_block(sym))
            continue
        found = _role(sym, facts)
        if found is not None and found[2] == [_CONSTANT + sym.name]:
            if block and (block[0].path != sym.path or len(block) == CONSTANT_BLOCK):
                out.append(_constants(block))
                block = []
            block.append(sym)
            continue
        if block:  # anything else between two constants ends their run
            out.append(_constants(block))
            block = []
        if found is not None:
            out.append(_one(sym, *found))
    if block:
        out.append(_constants(block))
    return out


def _one(sym: Symbol, role: str, confidence: float, evidence: list[str]) -> Role:
    return Role(
        sym.symbol_id,
        sym.qname,
        role,
        round(min(max(confidence, 0.0), 1.0), 2),
        tuple(evidence),
        sym.path,
        sym.start_line,
        sym.end_line,
    )


def _constants(block: list[Symbol]) -> Role:
    """The `config` role of a run of module constants (one constant: its own role)."""
    first, last = block[0], block[-1]
    if len(block) == 1:
        return _one(first, *_CONSTANT_ROLE, [_CONSTANT + first.name])
    evidence = f"module constants {first.name} … {last.name} ({len(block)})"
    role, confidence = _CONSTANT_ROLE
    return Role(
        first.symbol_id,
        first.qname,
        role,
        confidence,
        (evidence,),
        first.path,
        first.start_line,
        max(s.end_line for s in block),
        tuple(s.qname for s in block),
    )


def _block(sym: Symbol) -> Role:
    """The `config` role of a data table's block symbol (`Symbol.members`)."""
    qnames = tuple(sym.member_qnames())
    first, last = sym.members[0], sym.members[-1]
    role, confidence = _CONSTANT_ROLE
    evidence = f"module constants {first} … {last} ({len(qnames)})"
    return Role(
        sym.symbol_id,
        qnames[0],
        role,
        confidence,
        (evidence,),
        sym.path,
        sym.start_line,
        sym.end_line,
        qnames,
    )


def _facts(
    symbols: Sequence[Symbol], edges: Iterable[Edge], entries: Iterable[Entrypoint]
) -> _Facts:
    by_handler: dict[str, list[Entrypoint]] = defaultdict(list)
    for entry in entries:
        if entry.handler_symbol_id:
            by_handler[entry.handler_symbol_id].append(entry)
    callers: dict[str, set[str]] = defaultdict(set)
    callees: dict[str, list[str]] = defaultdict(list)
    bases: dict[str, list[str]] = defaultdict(list)
    for e in edges:
        target = e.dst_qname or e.dst_ref
        if e.edge_type == "calls":
            callees[e.src_symbol_id].append(target)
            if e.dst_symbol_id and e.dst_symbol_id != e.src_symbol_id:
                callers[e.dst_symbol_id].add(e.src_symbol_id)
        elif e.edge_type == "inherits":
            bases[e.src_symbol_id].append(target)
    for sym in symbols:
        bases[sym.symbol_id] += list(sym.bases)
    return _Facts(dict(by_handler), dict(callers), dict(callees), dict(bases))


Finding = tuple[str, float, list[str]]


def _role(sym: Symbol, facts: _Facts) -> Finding | None:
    for rule in (_test, _entry, _model, _config, _repository, _glue, _service, _utility):
        found = rule(sym, facts)
        if found is not None:
            return found
    return None


def _test(sym: Symbol, facts: _Facts) -> Finding | None:
    if sym.is_test and (
        sym.name.startswith(("test", "Test")) or sym.kind in ("function", "method")
    ):
        return "test", 0.95, [f"defined in test file {sym.path}", f"name {sym.name}"]
    if sym.name.startswith("test_") or (sym.kind == "class" and sym.name.startswith("Test")):
        return "test", 0.7, [f"name {sym.name} follows the test naming convention"]
    return None


def _entry(sym: Symbol, facts: _Facts) -> Finding | None:
    entries = facts.entries.get(sym.symbol_id, [])
    if not entries:
        return None
    evidence = [
        f"{e.framework} {e.entry_type} entry point: "
        + " ".join(p for p in (e.http_method, e.route_or_command) if p)
        for e in entries[:5]
    ]
    kinds = {e.entry_type for e in entries}
    if "http" in kinds:
        return "http_handler", 0.95, evidence
    if "cli" in kinds:
        return "cli_command", 0.95, evidence
    return "entrypoint_glue", 0.8, evidence


def _model(sym: Symbol, facts: _Facts) -> Finding | None:
    if sym.kind != "class":
        return None
    evidence = [
        f"base class {b}" for b in _base_names(sym, facts) if b.rsplit(".", 1)[-1] in _MODEL_BASES
    ]
    evidence += [f"decorated @{d}" for d in sym.decorators if _MODEL_DECORATORS.match(d)]
    if not evidence:
        return None
    return "model/schema", 0.9 if len(evidence) > 1 or "." in evidence[0] else 0.8, evidence


def _config(sym: Symbol, facts: _Facts) -> Finding | None:
    based = [
        f"base class {b}" for b in _base_names(sym, facts) if b.rsplit(".", 1)[-1] in _CONFIG_BASES
    ]
    if based:
        return "config", 0.9, based
    if sym.kind == "class" and _CONFIG_NAME.search(sym.name):
        return "config", 0.7, [f"class name {sym.name} ends like a configuration type"]
    if sym.kind == "constant":
        return (*_CONSTANT_ROLE, [_CONSTANT + sym.name])
    return None


def _repository(sym: Symbol, facts: _Facts) -> Finding | None:
    evidence = []
    if sym.kind == "class" and _REPO_NAME.search(sym.name):
        evidence.append(f"class name {sym.name} names a data-access type")
    access = sorted({c for c in facts.callees.get(sym.symbol_id, []) if _DATA_ACCESS.search(c)})
    evidence += [f"calls {c}" for c in access[:3]]
    if not evidence:
        return None
    return "repository/dao", 0.8 if len(evidence) > 1 else 0.6, evidence


def _glue(sym: Symbol, facts: _Facts) -> Finding | None:
    wiring = sorted({c for c in facts.callees.get(sym.symbol_id, []) if _GLUE_CALLS.search(c)})
    evidence = [f"calls {c}" for c in wiring[:3]]
    if sym.kind == "function" and sym.name in _GLUE_NAMES:
        evidence.append(f"function name {sym.name}")
    if not evidence:
        return None
    return "entrypoint_glue", 0.8 if wiring else 0.5, evidence


def _service(sym: Symbol, facts: _Facts) -> Finding | None:
    if sym.kind == "class" and _SERVICE_NAME.search(sym.name):
        return "service", 0.7, [f"class name {sym.name} names a service"]
    return None


def _utility(sym: Symbol, facts: _Facts) -> Finding | None:
    if sym.kind != "function" or sym.parent_symbol_id is not None:
        return None
    fan_in = facts.callers.get(sym.symbol_id, set())
    fan_out = len(set(facts.callees.get(sym.symbol_id, [])))
    modules = {c.split("::", 1)[0] for c in fan_in}
    if len(fan_in) >= 3 and fan_out <= 3:
        return (
            "utility",
            0.6 + 0.1 * min(len(modules) - 1, 3),
            [
                f"called from {len(fan_in)} places in {len(modules)} files",
                f"calls {fan_out} other things",
            ],
        )
    return None


def _base_names(sym: Symbol, facts: _Facts) -> list[str]:
    return list(dict.fromkeys(facts.bases.get(sym.symbol_id, [])))
