"""The optional trace of a depth-first search: every visited node in visit order, with the window it was
searched with and the value it returned, for teaching and debugging small searches."""
import math

from engine.deadline import Deadline
from engine.errors import TraceTooLarge
from engine.limits import Limits

VALUE_BYTES = 24  # room kept in an entry's size for the value it gets once searched ("null" when visited)
# Sending the trace from the search's process and writing it as JSON happen after the search has stopped
# its clock, and count against the time limit: every visit keeps this much time per byte collected in hand
# (measured: 250 KB of trace answered 40-90 ms later than the same search without one, on a busy machine).
WRITE_SECONDS_PER_BYTE = 3e-7


class Collector:
    """Trace entries, at most ``limits.max_trace_entries`` of them and about ``limits.max_trace_bytes`` of
    JSON: whatever is collected is sent and written after the search has stopped its clock, and a trace of
    deep paths grows to megabytes long before it reaches its cap on entries (issue 34: an 8 MB trace
    answered 230 ms late). An entry's ``repr`` (a C-speed upper bound on the length of its JSON) measures
    it. :meth:`room`, called before each entry's work, raises :class:`~engine.deadline.Timeout`, as a
    deadline poll does, unless the time to write what is collected (``WRITE_SECONDS_PER_BYTE``) is left;
    :meth:`add` raises :class:`~engine.errors.TraceTooLarge`, naming the limit, when an entry would pass
    either cap: a trace is whole or not sent (issue 54)."""

    def __init__(self, game, limits: Limits, deadline: Deadline):
        self.to_json, self.deadline = game.move_to_json, deadline
        self.limit, self.max_bytes = limits.max_trace_entries, limits.max_trace_bytes
        self.bytes = 2                                                # the brackets
        self.entries: list[dict] = []

    def room(self) -> None:
        """Stop the search (:class:`~engine.deadline.Timeout`) unless the time to write the trace is left."""
        self.deadline.check_room(self.bytes * WRITE_SECONDS_PER_BYTE)

    def add(self, entry: dict, room: int = 0) -> dict:
        """``entry`` collected, with ``room`` bytes kept for what it gets later; returns it."""
        if len(self.entries) >= self.limit:
            raise TraceTooLarge(f"the trace would have more than MAX_TRACE_ENTRIES ({self.limit}) entries: "
                                "ask for a smaller search (a depth limit, fewer iterations) or no trace")
        size = len(repr(entry)) + room + 1                              # and a comma
        if self.bytes + size > self.max_bytes:
            raise TraceTooLarge(f"the trace would be longer than MAX_TRACE_BYTES ({self.max_bytes} bytes of "
                                "JSON): ask for a smaller search (a depth limit, fewer iterations) or no trace")
        self.bytes += size
        self.entries.append(entry)
        return entry


class Tracer(Collector):
    """The trace of a depth-first search: entries ``{"path", "ply", "alpha", "beta", "value"}`` in visit
    order (:class:`Collector` bounds them). ``path`` is the list of JSON moves from the root; an unbounded
    alpha or beta is null. Searches call :meth:`move` before descending into a child and :meth:`visit` on
    entering a node, then set the entry's value."""

    def __init__(self, game, limits: Limits, deadline: Deadline):
        super().__init__(game, limits, deadline)
        self.path: list = []  # the moves from the root to the node being searched

    def move(self, ply: int, move) -> None:
        """The search is about to descend from depth ``ply`` through ``move``."""
        del self.path[ply:]
        self.path.append(move)

    def visit(self, ply: int, alpha=None, beta=None) -> dict:
        """A new entry for the node at depth ``ply``."""
        self.room()
        return self.add({"path": [self.to_json(m) for m in self.path[:ply]], "ply": ply,
                         "alpha": bound(alpha), "beta": bound(beta), "value": None}, VALUE_BYTES)


def bound(x):
    return None if x is None or math.isinf(x) else float(x)
