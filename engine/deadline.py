"""A cooperative deadline: searches poll it every few nodes and unwind with :class:`Timeout`. Its owner may
also cancel it (a client went away) and listen to the search's progress through it. Reading a state
counts against it too: a loader of input whose size only the body limit bounds (an explicit tree) polls
:func:`reading_deadline` and stops with :class:`ReadTimeout`."""
from contextlib import contextmanager
from contextvars import ContextVar
import time

from engine.result import Progress


class Timeout(Exception):
    """Raised inside a search when its deadline has passed; the search driver catches it."""


class ReadTimeout(Timeout):
    """The deadline passed while the state was still being read, so no search could start. It carries the
    anytime answer the loader could already give: the first legal move at the root (in JSON form) and the
    name of the perspective player."""

    def __init__(self, move, perspective: str):
        super().__init__(move, perspective)
        self.move, self.perspective = move, perspective


class Deadline:
    """A wall-clock budget. ``seconds=None`` never expires.

    Polling the clock costs about a tenth of a cheap node, so searches poll only every ``CHECK_EVERY``
    nodes (a power of two, tested with ``nodes & CHECK_MASK == 0``): under 1% of the time, and even at
    the 70 microseconds of a 19 x 19 evaluation the overshoot stays near a millisecond.

    ``cancel()`` (safe from another thread) expires it at once, and the parts it has shared out with it: the
    search stops at its next poll. ``on_progress``, if given, receives a :class:`~engine.result.Progress`
    whenever a search reports one (:meth:`report`: after each iteration of iterative deepening, every so
    many MCTS iterations).
    """

    CHECK_EVERY = 16
    CHECK_MASK = CHECK_EVERY - 1

    __slots__ = ("start", "end", "on_progress", "cancelled", "parts")

    def __init__(self, seconds: float | None = None, on_progress=None):
        self.start = time.perf_counter()
        self.end = None if seconds is None else self.start + seconds
        self.on_progress = on_progress
        self.cancelled = False
        self.parts: list["Deadline"] = []

    def cancel(self) -> None:
        """Expire now, with every part shared out of this deadline."""
        self.cancelled = True
        self.end = self.start
        for part in list(self.parts):
            part.cancel()

    def report(self, **fields) -> None:
        """Hand the search's progress (the fields of :class:`~engine.result.Progress` but the time) to
        ``on_progress``, if anyone listens."""
        if self.on_progress is not None:
            self.on_progress(Progress(time_ms=round(self.elapsed() * 1000.0, 3), **fields))

    def expired(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end

    def check(self) -> None:
        """Raise :class:`Timeout` if the deadline has passed."""
        if self.end is not None and time.perf_counter() >= self.end:
            raise Timeout

    def check_room(self, seconds: float) -> None:
        """Raise :class:`Timeout` unless ``seconds`` remain: before a step that cannot poll the clock
        (clearing a table of a million entries takes tens of milliseconds), so that it never runs past the
        deadline. The search then stops a little early instead of late."""
        if self.end is not None and time.perf_counter() + seconds >= self.end:
            raise Timeout

    def share(self, fraction: float) -> "Deadline":
        """A deadline with the same start that ends once ``fraction`` of the time left now has passed
        (never, if this one never does): a budget for one phase of a search."""
        part = Deadline(on_progress=self.on_progress)
        part.start = self.start
        if self.end is not None:
            now = time.perf_counter()
            part.end = now + fraction * max(0.0, self.end - now)
        self.parts.append(part)
        if self.cancelled:  # cancelled while the part was being made
            part.cancel()
        return part

    def elapsed(self) -> float:
        """Seconds since the deadline was set."""
        return time.perf_counter() - self.start

    def remaining(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - time.perf_counter())


_reading: ContextVar[Deadline | None] = ContextVar("tactician_reading_deadline", default=None)


@contextmanager
def reading(deadline: Deadline):
    """While the body of the ``with`` reads a state, :func:`reading_deadline` is ``deadline``."""
    token = _reading.set(deadline)
    try:
        yield
    finally:
        _reading.reset(token)


def reading_deadline() -> Deadline:
    """The deadline of the state being read (one that never expires outside :func:`reading`)."""
    return _reading.get() or Deadline()
