"""cobra commands (Go): `&cobra.Command{Use: ...}` values joined by `AddCommand`.

A command is keyed by the variable or function that makes it: a package-level
`var rootCmd = &cobra.Command{...}` is `rootCmd`, a local `cmd := &cobra.Command{...}` in
`newServeCmd` is `newServeCmd.cmd`, and a `return &cobra.Command{...}` is its function
(`gofile.GoFile.key`); `parent.AddCommand(child, newChildCmd())` mounts the children, so
command paths join across files in `compose_entrypoints`.
"""

from __future__ import annotations

from strata.index.code.entrypoints.base import Mount, Owner
from strata.index.code.entrypoints.gofile import GoFile
from strata.index.code.entrypoints.parsed import Node, ParsedFile, command_entry, string_value

FRAMEWORK = "cobra"


class Commands:
    """The cobra commands of one Go file, written into its `GoFile`."""

    def __init__(self, go: GoFile) -> None:
        self.go = go
        self.f = go.f

    def command(self, lit: Node, body: Node) -> None:
        """A `cobra.Command{...}` literal: its name is the first word of `Use`."""
        fields = _keyed(self.f, body)
        use = string_value(self.f, fields.get("Use"))
        if not use:
            return
        key = self.command_key(lit)
        name = use.split()[0]
        self.go.owners.append(Owner(key, FRAMEWORK, "command", name))
        run = fields.get("RunE") or fields.get("Run")
        handler = (
            self.go.handler_name(run) if run is not None and run.type != "func_literal" else ""
        )
        summary = string_value(self.f, fields.get("Short")) or ""
        self.go.entries.append(
            command_entry(self.f, FRAMEWORK, name, lit, handler, key, summary, {"use": use})
        )

    def command_key(self, lit: Node) -> str:
        up = (
            lit.parent.parent
            if lit.parent is not None and lit.parent.type == "unary_expression"
            else lit.parent
        )
        while up is not None and up.type in ("expression_list", "unary_expression"):
            up = up.parent
        if up is not None and up.type == "var_spec":
            return self.go.key(self.f.text(up.child_by_field_name("name")))
        func = self.go.func_of(lit)
        if up is not None and up.type in ("short_var_declaration", "assignment_statement"):
            left = up.child_by_field_name("left")
            var = (
                self.f.text(left.named_children[0])
                if left is not None and left.named_children
                else ""
            )
            return self.go.key(f"{func}.{var}" if func else var)
        return self.go.key(func)  # `return &cobra.Command{...}`

    def add(self, call: Node, recv: Node, args: Node) -> None:
        """`parent.AddCommand(children...)`: one mount a child."""
        func = self.go.func_of(call)
        parent = self.ref(func, self.f.text(recv))
        for child in args.named_children:
            key = (
                self.ref(func, self.f.text(child))
                if child.type == "identifier"
                else self.go.callee_key(child)
            )
            if key:
                self.go.mounts.append(Mount(parent, key, FRAMEWORK, None, call.start_point.row + 1))

    def ref(self, func: str, var: str) -> str:
        """The key a command variable names in `func`: its local command, else the package's."""
        return self.go.key(f"{func}.{var}" if (func, var) in self.local_commands() else var)

    def local_commands(self) -> set[tuple[str, str]]:
        """(function, variable) of the commands made in a function's local variables."""
        names = (o.key.rsplit("#", 1)[1] for o in self.go.owners if o.framework == FRAMEWORK)
        return {(n.split(".", 1)[0], n.split(".", 1)[1]) for n in names if "." in n}


def _keyed(f: ParsedFile, body: Node) -> dict[str, Node]:
    out: dict[str, Node] = {}
    for el in body.named_children:
        if el.type == "keyed_element" and len(el.named_children) == 2:
            key, value = el.named_children
            out[f.text(key)] = (
                value.named_children[0]
                if value.type == "literal_element" and value.named_children
                else value
            )
    return out
