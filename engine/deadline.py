"""A cooperative deadline: searches poll it every few hundred nodes and unwind with :class:`Timeout`.
Reading a state counts against it too: a loader of input whose size only the body limit bounds (an
explicit tree) polls :func:`reading_deadline` and stops with :class:`ReadTimeout`."""
from contextlib import contextmanager
from contextvars import ContextVar
import time


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
    """

    CHECK_EVERY = 16
    CHECK_MASK = CHECK_EVERY - 1

    __slots__ = ("start", "end")

    def __init__(self, seconds: float | None = None):
        self.start = time.perf_counter()
        self.end = None if seconds is None else self.start + seconds

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
        part = Deadline()
        part.start = self.start
        if self.end is not None:
            now = time.perf_counter()
            part.end = now + fraction * max(0.0, self.end - now)
        return part

    def elapsed(self) -> float:
        """Seconds since the deadline was set."""
        return time.perf_counter() - self.start

    def remaining(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - time.perf_counter())


_reading = ContextVar("tactician_reading_deadline", default=None)


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
