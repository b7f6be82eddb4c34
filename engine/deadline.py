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


    A node budget (``nodes``, ``algorithm.nodes``) expires it too: a search that passes its count of nodes
    to :meth:`check` stops there once the count is at least ``max_nodes`` (``nodes`` rounded up to a
    multiple of ``NODE_STEP``: :func:`node_budget`) on a multiple of ``NODE_STEP``. A search that counts
    nodes it does not poll (chess's quiescence search) may pass over that multiple and stop at a later one
    (chess's ``nodes: 5000`` stops at 5,376, not 5,120). The compiled core tests the same counts at the same
    nodes (native/src/core/budget.hpp), so that both stop at the same node.
    """

    CHECK_EVERY = 16
    CHECK_MASK = CHECK_EVERY - 1
    NODE_STEP = 256  # the compiled core's poll (Budget::CHECK_EVERY), a multiple of CHECK_EVERY
    NODE_MASK = NODE_STEP - 1

    __slots__ = ("start", "end", "on_progress", "cancelled", "parts", "nodes", "max_nodes")

    def __init__(self, seconds: float | None = None, on_progress=None, nodes: int | None = None):
        self.start = time.perf_counter()
        self.end = None if seconds is None else self.start + seconds
        self.on_progress = on_progress
        self.cancelled = False
        self.parts: list["Deadline"] = []
        self.nodes = nodes  # the budget asked for (MCTS takes it as its iterations: engine.search.native)
        self.max_nodes = NO_NODE_LIMIT if nodes is None else node_budget(nodes)

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

    def check(self, nodes: int = 0) -> None:
        """Raise :class:`Timeout` if the deadline has passed, or the search's ``nodes`` (a search's count,
        at a node it polls) reached the node budget."""
        if self.end is not None and time.perf_counter() >= self.end:
            raise Timeout
        self.count(nodes)

    def count(self, nodes: int) -> None:
        """Raise :class:`Timeout` if ``nodes`` is a multiple of ``NODE_STEP`` at or past the node budget."""
        if nodes >= self.max_nodes and not nodes & self.NODE_MASK:
            raise Timeout

    def check_room(self, seconds: float, nodes: int = 0) -> None:
        """Raise :class:`Timeout` unless ``seconds`` remain: before a step that cannot poll the clock
        (clearing a table of a million entries takes tens of milliseconds), so that it never runs past the
        deadline. The search then stops a little early instead of late. ``nodes`` as for :meth:`check`."""
        if self.end is not None and time.perf_counter() + seconds >= self.end:
            raise Timeout
        self.count(nodes)

    def share(self, fraction: float) -> "Deadline":
        """A deadline with the same start that ends once ``fraction`` of the time left now has passed
        (never, if this one never does): a budget for one phase of a search."""
        part = Deadline(on_progress=self.on_progress, nodes=self.nodes)
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


NO_NODE_LIMIT = 1 << 62
# The largest node budget a request may give (algorithm.nodes): more than any search finishes within the
# longest time limit (the compiled core visits some 10-30 million nodes a second).
MAX_NODES = 10_000_000_000


def node_budget(nodes: int) -> int:
    """The node budget a search keeps for ``algorithm.nodes``: rounded up to a multiple of ``NODE_STEP``,
    the nodes at which both cores test it."""
    return -(-nodes // Deadline.NODE_STEP) * Deadline.NODE_STEP


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
