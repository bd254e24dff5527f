"""What every route of `strata serve` shares: the warm engines, the jobs, the `/cli` runner."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from strata.engine import Engine
from strata.surfaces.http.pool import Engines
from strata.surfaces.jobs import Jobs

# Answers a `/cli` body (RequestError for a malformed one); see `strata.surfaces.cli.forward`.
CliHandler = Callable[[Mapping[str, Any]], dict[str, Any]]


class RequestError(Exception):
    """A request the server cannot serve: its HTTP status and a one-line reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ServeState:
    """The served index's engines and jobs, and the `/cli` runner (replaceable: tests spy)."""

    def __init__(self, engines: Engines, cli: CliHandler | None = None) -> None:
        self.engines = engines
        self.cli = cli
        self.jobs = Jobs(lambda: fresh_engine(engines))

    def run_cli(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Hand a `/cli` body to the runner (runs may overlap: each has its own context)."""
        handler = self.cli
        if handler is None:
            return refusal("this server runs no commands")
        return handler(body)


def refusal(reason: str) -> dict[str, Any]:
    """The `/cli` reply for a command the server does not run: the caller runs it itself."""
    line = f"strata serve: {reason}\n"
    return {"stdout": "", "stderr": line, "output": [[2, line]], "exit_code": 2, "refused": True}


def fresh_engine(engines: Engines) -> Engine:
    """An engine of its own for a writer, opened as the served one was."""
    home = engines.home
    return Engine.open(home.root, index_dir=home.index_dir, store=home.store_uri)
