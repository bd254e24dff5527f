"""A time bound for a test step that could hang (a FIFO open, a backtracking regex)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Overran(Exception):
    """The block ran past its bound (not an OSError, so no `except OSError` swallows it)."""


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail with Overran when the block runs longer than `seconds` (SIGALRM, main thread)."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Overran(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
