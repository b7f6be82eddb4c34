"""A cooperative deadline: searches poll it every few hundred nodes and unwind with :class:`Timeout`."""
import time


class Timeout(Exception):
    """Raised inside a search when its deadline has passed; the search driver catches it."""


class Deadline:
    """A wall-clock budget. ``seconds=None`` never expires.

    Polling the clock costs about as much as visiting a node, so searches call :meth:`expired` only every
    ``CHECK_EVERY`` nodes (a power of two, tested with ``nodes & CHECK_MASK == 0``). At a few microseconds
    a node that keeps the overshoot to a few milliseconds.
    """

    CHECK_EVERY = 256
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

    def elapsed(self) -> float:
        """Seconds since the deadline was set."""
        return time.perf_counter() - self.start

    def remaining(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - time.perf_counter())
