"""The HTTP client: sends requests and retries failed ones."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .headers import parse_header


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a failed request is retried."""

    max_retries: int = 3
    backoff_factor: float = 0.5

    def delay(self, attempt: int) -> float:
        """Seconds to wait before retry number `attempt` (exponential backoff)."""
        return self.backoff_factor * (2 ** attempt)


class Client:
    """Sends requests to one base URL, retrying on connection errors."""

    def __init__(self, base_url: str, retries: RetryPolicy | None = None, timeout: float = 10.0):
        self.base_url = base_url.rstrip("/")
        self.retries = retries or RetryPolicy()
        self.timeout = timeout

    def send(self, method: str, path: str, body: bytes = b"") -> dict[str, str]:
        """Send one request and return the response headers."""
        for attempt in range(self.retries.max_retries + 1):
            try:
                return self._transmit(method, path, body)
            except ConnectionError:
                time.sleep(self.retries.delay(attempt))
        raise ConnectionError(f"gave up on {method} {path}")

    def _transmit(self, method: str, path: str, body: bytes) -> dict[str, str]:
        raw = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\n"
        return dict(parse_header(line) for line in raw.splitlines()[1:] if line)
