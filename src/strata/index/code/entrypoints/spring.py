"""Spring MVC routes (Java): `@RestController`/`@Controller` classes, a class-level
`@RequestMapping` prefix joined with each method's `@GetMapping`, `@PostMapping`, ...,
`@RequestMapping(value=..., method=RequestMethod.X)`; several paths give several routes."""

from __future__ import annotations

from strata.index.code.entrypoints.base import FileEntrypoints
from strata.index.code.entrypoints.compose import join_route
from strata.index.code.entrypoints.parsed import Node, ParsedFile, route_entry, string_value
from strata.index.code.model import Entrypoint

FRAMEWORK = "spring"
_CONTROLLERS = frozenset({"RestController", "Controller"})
_SHORTCUTS = {f"{v.capitalize()}Mapping": v for v in ("GET", "POST", "PUT", "DELETE", "PATCH")}
_PATH_KEYS = ("value", "path")


def detect(f: ParsedFile) -> FileEntrypoints:
    """Spring entries of one Java file (their prefixes are all in the file)."""
    entries: list[Entrypoint] = []
    for caps in f.matches():
        mods, body = caps["mods"][0], caps["body"][0]
        notes = _annotations(f, mods)
        if not (_CONTROLLERS & notes.keys() or "RequestMapping" in notes):
            continue
        prefixes = _paths(f, notes.get("RequestMapping")) or [""]
        name = f.text(caps["class"][0])
        for method in body.named_children:
            if method.type == "method_declaration":
                entries += _routes(f, method, name, prefixes)
    return FileEntrypoints(f.path, tuple(entries))


def _routes(f: ParsedFile, method: Node, cls: str, prefixes: list[str]) -> list[Entrypoint]:
    mods = next((c for c in method.named_children if c.type == "modifiers"), None)
    if mods is None:
        return []
    out: list[Entrypoint] = []
    name = f.text(method.child_by_field_name("name"))
    for note, args in _annotations(f, mods).items():
        if note in _SHORTCUTS:
            verbs = [_SHORTCUTS[note]]
        elif note == "RequestMapping":
            verbs = _verbs(f, args) or ["ANY"]
        else:
            continue
        for prefix in prefixes:
            for path in _paths(f, args) or [""]:
                local = join_route(prefix, path) or "/"
                handler, owner = f"{cls}.{name}", f.key(cls)
                out += [route_entry(f, FRAMEWORK, v, local, method, handler, owner) for v in verbs]
    return out


def _annotations(f: ParsedFile, mods: Node) -> dict[str, Node | None]:
    """Annotation name (without package) -> its argument list (None for a marker)."""
    out: dict[str, Node | None] = {}
    for node in mods.named_children:
        if node.type in ("annotation", "marker_annotation"):
            name = f.text(node.child_by_field_name("name")).rsplit(".", 1)[-1]
            out[name] = node.child_by_field_name("arguments")
    return out


def _paths(f: ParsedFile, args: Node | None) -> list[str]:
    """The paths an annotation names: its bare value, or `value=`/`path=`, one or an array."""
    if args is None:
        return []
    for item in args.named_children:
        if item.type == "element_value_pair":
            key = f.text(item.child_by_field_name("key"))
            if key in _PATH_KEYS:
                return _strings(f, item.child_by_field_name("value"))
        else:
            return _strings(f, item)
    return []


def _verbs(f: ParsedFile, args: Node | None) -> list[str]:
    for item in args.named_children if args is not None else []:
        if (
            item.type == "element_value_pair"
            and f.text(item.child_by_field_name("key")) == "method"
        ):
            text = f.text(item.child_by_field_name("value"))
            return [w.rsplit(".", 1)[-1] for w in text.strip("{}").replace(" ", "").split(",") if w]
    return []


def _strings(f: ParsedFile, node: Node | None) -> list[str]:
    if node is None:
        return []
    if node.type == "element_value_array_initializer":
        return [s for c in node.named_children if (s := string_value(f, c)) is not None]
    value = string_value(f, node)
    return [value] if value is not None else []
