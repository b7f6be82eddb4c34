"""Admission control: how many searches a worker runs and lets wait, and refusing the rest at once.

A worker runs up to ``SEARCHES_PER_WORKER`` searches at once (they are CPU-bound: beyond one, they share
the worker's core, time-sliced by the scheduler, each in one of the worker's ``SEARCHES_PER_WORKER``
search processes (service/search_pool.py: a search let in always finds one idle), so
that a short search that arrives while a long one runs gets its share of the core at once rather than
waiting for it); its threads answer health checks and the cheap routes meanwhile. At most
``MAX_WAITING_SEARCHES`` more may wait for a slot; one more is refused at once with 503 problem+json and
``Retry-After`` rather than queued for minutes. A search counts from the moment it is let in (a
:class:`Ticket`), which is as soon as its whole request is at hand: under gunicorn, the worker's door
(service/door.py) sees each request as it arrives, before any thread parses it, and lets the search in or
answers its refusal itself there and then, in arrival order; otherwise the app refuses it before reading
its body, or lets it in once it has read it (a client sending its body slowly holds no place). Once the worker
is told to stop (SIGTERM, see :mod:`service.worker`) it refuses new searches too, while those it holds
finish. A waiting search's time limit runs while it waits (the limit counts from the request's
arrival), and it waits no longer than that: if no slot has come free by then, it answers at its deadline
with what a millisecond finds (``timed_out``). So a search never answers later than its limit plus the
usual margin, however long the running ones take. A rules request with a big body (service/rules.py) is
admitted as a search is, and takes a slot while a search process answers it; it has no time limit, so it
waits for one up to ``MAX_TIME_LIMIT_MS`` (the longest a search holds one), then is refused (503).
"""
from contextlib import contextmanager
import math
import threading
import time

from flask import Flask, request
from werkzeug.exceptions import ServiceUnavailable

from service import lifecycle
from service.errors import of_kind

EXTENSION = "tactician.admission"
# The WSGI environ key under which the server (service/worker.py) gives a request's arrival, a
# time.perf_counter(): the time limit counts from then.
ARRIVED = "tactician.arrived"
# The WSGI environ key under which the server may give a callable that the app calls when it admits a
# search: the server counts only those toward ``max_requests`` (service/worker.py).
SEARCH_STARTED = "tactician.search_started"
# The WSGI environ key of a search's :class:`Ticket`, given by the server when its door let the search in
# (service/worker.py), else set by the app when it lets it in.
TICKET = "tactician.ticket"


class Ticket:
    """A search let in: it counts toward its worker's bound from the moment it is let in (by the server's
    door, service/worker.py, or by the app) until it takes its place in the waiting line
    (:meth:`Admission.search`), or its request ends without a search. Releasing it twice is harmless."""

    def __init__(self, gate: "Admission"):
        self.gate = gate
        self.held = True

    def release(self) -> None:
        with self.gate.guard:
            self._release()

    def _release(self) -> None:  # with the gate's guard held
        if self.held:
            self.held = False
            self.gate.tickets -= 1


class Admission:
    """One worker's search slots and their waiting line, and the searches on their way to it."""

    def __init__(self, slots: int, max_waiting: int, retry_after_s: int):
        self.slots = threading.Semaphore(slots)
        self.capacity = slots + max_waiting
        self.guard = threading.Lock()
        self.turns = threading.Condition(self.guard)  # told whenever a waiting search leaves the line
        self.tickets = 0    # searches let in that have not reached the line yet
        self.waiting = 0
        self.running = 0
        self.slots_taken = 0  # how many times a waiting search got a slot, ever
        self.retry_after_s = retry_after_s
        self.drained = False

    def drain(self) -> None:
        """From now on: refuse new searches, and answer ``/readyz`` with 503."""
        self.drained = True

    @property
    def draining(self) -> bool:
        """This worker was told to stop, or the whole server was (service/lifecycle.py)."""
        return self.drained or lifecycle.stopping()

    def has_room(self) -> bool:
        """Whether one more search could be let in now: the worker is not draining, and not every place
        (running, waiting, or on the way) is taken."""
        return not self.draining and self.tickets + self.waiting + self.running < self.capacity

    def check(self) -> None:
        """Refuse at once (:meth:`refusal`), before the request's body is read, a search that could not be
        let in now. (It is let in once its body is read: a client that sends it slowly holds no place.)"""
        if not self.has_room():
            raise self.refusal()

    def let_in(self) -> Ticket | None:
        """A ticket for one more search, or None if it cannot be let in now (:meth:`has_room`): the search
        is then refused (:meth:`refusal`)."""
        with self.guard:
            if not self.has_room():
                return None
            self.tickets += 1
        return Ticket(self)

    def enter(self, ticket: Ticket | None = None) -> Ticket:
        """``ticket`` if the search was let in already and the worker is not draining, else a new one; or
        raise :meth:`refusal`."""
        if ticket is not None and ticket.held and not self.draining:
            return ticket
        ticket = self.let_in()
        if ticket is None:
            raise self.refusal()
        return ticket

    def keep_place(self) -> Ticket:
        """For a request that runs several searches one after another (a review, a batch), taken while it
        holds a slot: a ticket for its next search, so that it keeps its place in the worker's bound
        between them (it is never refused halfway)."""
        with self.guard:
            self.tickets += 1
        return Ticket(self)

    def let_others_first(self, patience_s: float) -> None:
        """Between the searches of one request: wait, at most ``patience_s``, until the searches waiting in
        the line now have had a slot (as many slots taken as there are waiting, or none waiting), so that a
        request of many searches never starves the single ones (a semaphore lets a releasing thread take
        its slot again before a woken waiter does)."""
        with self.turns:
            target = self.slots_taken + self.waiting
            self.turns.wait_for(lambda: self.waiting == 0 or self.slots_taken >= target, timeout=patience_s)

    def refusal(self) -> ServiceUnavailable:
        """The 503 (with ``Retry-After``) of a search this worker cannot take now."""
        if self.draining:
            return of_kind(ServiceUnavailable("This worker is shutting down; retry on another.", retry_after=1),
                           "shutting-down")
        return ServiceUnavailable(f"This worker has {self.capacity} searches running or waiting; retry in "
                                  f"{self.retry_after_s} s.", retry_after=self.retry_after_s)

    @contextmanager
    def search(self, patience_s: float, ticket: Ticket | None = None):
        """Hold a search slot for the body of the ``with``, waiting for one at most ``patience_s`` (the
        search's time left); the search's ticket (:meth:`enter`'s, taken here if not given) becomes its
        place in the line. A search whose time ran out while it waited runs without a slot: it has no time
        left, so it answers at once with what a millisecond finds. The ``with`` gets whether it holds a
        slot."""
        ticket = self.enter(ticket)
        with self.guard:
            ticket._release()
            self.waiting += 1
        admitted = self.slots.acquire(timeout=patience_s)
        with self.guard:
            self.waiting -= 1
            if admitted:
                self.running += 1
                self.slots_taken += 1
            self.turns.notify_all()
        if not admitted:
            yield False
            return
        try:
            yield True
        finally:
            with self.guard:
                self.running -= 1
            self.slots.release()


def arrived() -> float:
    """When the request in hand arrived, a ``time.perf_counter()``: as the server stamped it (``ARRIVED``),
    else when the app began it (:func:`stamp_arrival`)."""
    if request.environ.get(ARRIVED) is None:
        request.environ[ARRIVED] = time.perf_counter()
    return request.environ[ARRIVED]


def stamp_arrival() -> None:
    """Before each request: its arrival, for a server that does not stamp it (the time limit, the log
    line's duration and the latency metric count from it)."""
    arrived()


def admission(app: Flask) -> Admission:
    return app.extensions[EXTENSION]


def release_ticket(_error=None) -> None:
    """At the end of a request: its search's ticket, if it never took its place in the line (its request
    was refused, or failed, before its search)."""
    ticket = request.environ.get(TICKET)
    if ticket is not None:
        ticket.release()


def register(app: Flask) -> None:
    settings = app.config["SETTINGS"]
    app.extensions[EXTENSION] = Admission(settings.searches_per_worker, settings.max_waiting_searches,
                                          math.ceil(settings.default_time_limit_ms / 1000))
    app.before_request(stamp_arrival)
    app.teardown_request(release_ticket)
