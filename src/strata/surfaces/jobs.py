"""Background index jobs for the servers: one at a time, with progress a client can poll.

`strata serve` (`POST /index`, `GET /jobs/{id}`) and `strata mcp` (`reindex`, and the build
of a missing or stale index on start) run `Engine.index` here, on a thread of their own,
through a fresh engine: the run takes the index's write lock as any writer does, and the
warm engine that answers reads sees each of its commits.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from strata.engine import Engine
from strata.errors import StrataError
from strata.types import fields_json

log = logging.getLogger(__name__)

KEEP = 20  # finished jobs remembered for `GET /jobs/{id}`


@dataclass(frozen=True, slots=True)
class Job:
    """One index run: its state, the phase it is in and how far it got."""

    id: str
    first: bool = False  # the index's first build: nothing was searchable before it
    state: str = "running"  # running, done, failed
    phase: str = "starting"
    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.time)
    summary: dict[str, Any] | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The `GET /jobs/{id}` shape (`bodies.JobOut`)."""
        return fields_json(self, "id", "state", "phase", "done", "total", "summary", "error")


class Jobs:
    """Index jobs of one index; `start` returns the running job instead of a second one."""

    def __init__(self, open_engine: Callable[[], Engine]) -> None:
        self._open = open_engine
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._running: str | None = None
        self._threads: list[threading.Thread] = []

    def start(self, *, full: bool = False) -> Job:
        """Start an index run on a thread (or return the one already running)."""
        with self._lock:
            if self._running is not None:
                return self._jobs[self._running]
            job = Job(id=str(next(self._ids)), first=self._first())
            self._jobs[job.id] = job
            self._running = job.id
            while len(self._jobs) > KEEP:
                del self._jobs[next(iter(self._jobs))]
        thread = threading.Thread(
            target=self._run, args=(job.id, full), name=f"strata-index-{job.id}", daemon=True
        )
        self._threads.append(thread)
        thread.start()
        return job

    def _first(self) -> bool:
        with self._open() as eng:
            return not eng.exists

    def get(self, job_id: str) -> Job | None:
        """A job by id (None when unknown or long finished)."""
        with self._lock:
            return self._jobs.get(job_id)

    def current(self) -> Job | None:
        """The running job, else the latest one, else None."""
        with self._lock:
            if self._running is not None:
                return self._jobs[self._running]
            return next(reversed(self._jobs.values()), None)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for every started job to finish (tests and shutdown)."""
        for thread in list(self._threads):
            thread.join(timeout)

    def _update(self, job_id: str, **changes: Any) -> None:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None:
                self._jobs[job_id] = replace(job, **changes)

    def _run(self, job_id: str, full: bool) -> None:
        def progress(phase: str, done: int, total: int, _item: str) -> None:
            self._update(job_id, phase=phase, done=done, total=total)

        try:
            with self._open() as eng:
                summary = eng.index(full=full, progress=progress)
            self._update(job_id, state="done", phase="done", summary=summary.to_json())
        except StrataError as exc:
            self._update(job_id, state="failed", error=exc.message)
        except Exception as exc:  # a thread's crash must reach the client, not vanish
            log.exception("index job %s failed", job_id)
            self._update(job_id, state="failed", error=f"{type(exc).__name__}: {exc}")
        finally:
            with self._lock:
                self._running = None
