"""A tiny HTTP-ish server used to compare the tree-sitter and ast paths."""

import logging
from dataclasses import dataclass

MAX_RETRIES = 3
log = logging.getLogger(__name__)


@dataclass
class Request:
    """One incoming request."""

    path: str
    body: bytes = b""


class Server:
    """Dispatches requests to handlers. Keeps no state between calls."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.routes: dict[str, object] = {}

    def handle(self, request: Request) -> str:
        """Handle one request and return the response body."""
        handler = self.routes.get(request.path)
        if handler is None:
            return not_found(request)
        return str(handler)

    @staticmethod
    def version() -> str:
        return "1.0"


def not_found(request: Request) -> str:
    """Answer a missing route."""
    log.info("missing %s", request.path)
    return f"404 {request.path}"


def main() -> None:
    server = Server("demo")
    print(server.handle(Request("/")))
