"""Configuration snippets that register `strata mcp` with a coding agent's MCP client."""

from __future__ import annotations

import json
from pathlib import Path

CLIENTS = ("claude", "cursor", "codex", "vscode")


def client_config(client: str, command: str, root: Path) -> str:
    """The snippet for `client`, launching `command mcp ROOT`, with where it goes."""
    args = ["mcp", str(root)]
    stdio = {"command": command, "args": args}
    if client == "claude":
        shell = f"claude mcp add strata -- {command} mcp {root}"
        body = json.dumps({"mcpServers": {"strata": stdio}}, indent=2)
        return f"# run once:\n{shell}\n# or put in .mcp.json at the project root:\n{body}\n"
    if client == "cursor":
        body = json.dumps({"mcpServers": {"strata": stdio}}, indent=2)
        return f"# .cursor/mcp.json (or ~/.cursor/mcp.json):\n{body}\n"
    if client == "codex":
        toml_args = ", ".join(json.dumps(a) for a in args)
        return (
            "# ~/.codex/config.toml:\n[mcp_servers.strata]\n"
            f"command = {json.dumps(command)}\nargs = [{toml_args}]\n"
        )
    if client == "vscode":
        body = json.dumps({"servers": {"strata": {"type": "stdio", **stdio}}}, indent=2)
        return f"# .vscode/mcp.json:\n{body}\n"
    raise ValueError(f"unknown client {client!r}; known: {', '.join(CLIENTS)}")
