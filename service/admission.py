"""Admission control: how many searches a worker runs and lets wait, and refusing the rest at once.

A worker runs up to ``SEARCHES_PER_WORKER`` searches at once (they are CPU-bound: beyond one, they share
the worker's core, time-sliced by the scheduler, each in its process (service/search_processes.py), so
that a short search that arrives while a long one runs gets its share of the core at once rather than
waiting for it); its threads answer health checks and the cheap routes meanwhile. At most ``MAX_WAITING_SEARCHES`` more may wait for a slot; one
more is refused at once with 503 problem+json and ``Retry-After`` rather than queued for minutes. Once
the worker is told to stop (SIGTERM, see :mod:`service.worker`) it refuses new searches too, while those
it holds finish. A waiting search's time limit runs while it waits (the limit counts from the request's
arrival), and it waits no longer than that: if no slot has come free by then, it answers at its deadline
with what a millisecond finds (``timed_out``). So a search never answers later than its limit plus the
usual margin, however long the running ones take.
"""
from contextlib import contextmanager
import math
import threading

from flask import Flask
from werkzeug.exceptions import ServiceUnavailable

from service import lifecycle

EXTENSION = "tactician.admission"
# The WSGI environ key under which the server (service/worker.py) gives a request's arrival, a
# time.perf_counter(): the time limit counts from then.
ARRIVED = "tactician.arrived"
# The WSGI environ key under which the server may give a callable that the app calls when it admits a
# search: the server counts only those toward ``max_requests`` (service/worker.py).
SEARCH_STARTED = "tactician.search_started"


class Admission:
    """One worker's search slots and their waiting line."""

    def __init__(self, slots: int, max_waiting: int, retry_after_s: int):
        self.slots = threading.Semaphore(slots)
        self.max_running = slots
        self.guard = threading.Lock()
        self.running = 0
        self.waiting = 0
        self.max_waiting = max_waiting
        self.retry_after_s = retry_after_s
        self.drained = False

    def drain(self) -> None:
        """From now on: refuse new searches, and answer ``/readyz`` with 503."""
        self.drained = True

    @property
    def draining(self) -> bool:
        """This worker was told to stop, or the whole server was (service/lifecycle.py)."""
        return self.drained or lifecycle.stopping()

    def check(self) -> None:
        """Refuse at once (before the body is even read) when a search could not be admitted now."""
        if self.draining:
            raise ServiceUnavailable("This worker is shutting down; retry on another.", retry_after=1)
        if self.running >= self.max_running and self.waiting >= self.max_waiting:
            raise self.full()

    def full(self) -> ServiceUnavailable:
        return ServiceUnavailable(f"Too many searches are waiting ({self.waiting}); retry in "
                                  f"{self.retry_after_s} s.", retry_after=self.retry_after_s)

    @contextmanager
    def search(self, patience_s: float):
        """Hold a search slot for the body of the ``with``, waiting for one at most ``patience_s`` (the
        search's time left) if waiting is allowed, else raise :class:`ServiceUnavailable` (503 with
        ``Retry-After``). A search whose time ran out while it waited runs without a slot: it has no
        time left, so it answers at once with what a millisecond finds."""
        if self.draining:
            raise ServiceUnavailable("This worker is shutting down; retry on another.", retry_after=1)
        if not self.slots.acquire(blocking=False):
            with self.guard:
                if self.waiting >= self.max_waiting:
                    raise self.full()
                self.waiting += 1
            try:
                admitted = self.slots.acquire(timeout=patience_s)
            finally:
                with self.guard:
                    self.waiting -= 1
            if not admitted:
                yield
                return
        with self.guard:
            self.running += 1
        try:
            yield
        finally:
            with self.guard:
                self.running -= 1
            self.slots.release()


def admission(app: Flask) -> Admission:
    return app.extensions[EXTENSION]


def register(app: Flask) -> None:
    settings = app.config["SETTINGS"]
    app.extensions[EXTENSION] = Admission(settings.searches_per_worker, settings.max_waiting_searches,
                                          math.ceil(settings.default_time_limit_ms / 1000))
