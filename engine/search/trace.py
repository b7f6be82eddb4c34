"""The optional trace of a depth-first search: every visited node in visit order, with the window it was
searched with and the value it returned, for teaching and debugging small searches."""
import math


class Tracer:
    """Collects at most ``limit`` entries ``{"path", "ply", "alpha", "beta", "value"}``. ``path`` is the
    list of JSON moves from the root; an unbounded alpha or beta is null. Searches call :meth:`move`
    before descending into a child and :meth:`visit` on entering a node, then set the entry's value."""

    def __init__(self, game, limit: int):
        self.to_json = game.move_to_json
        self.limit = limit
        self.entries = []
        self.path = []

    def move(self, ply: int, move) -> None:
        """The search is about to descend from depth ``ply`` through ``move``."""
        del self.path[ply:]
        self.path.append(move)

    def visit(self, ply: int, alpha=None, beta=None) -> dict | None:
        """A new entry for the node at depth ``ply``, or None when the trace is full."""
        if len(self.entries) >= self.limit:
            return None
        entry = {"path": [self.to_json(m) for m in self.path[:ply]], "ply": ply,
                 "alpha": bound(alpha), "beta": bound(beta), "value": None}
        self.entries.append(entry)
        return entry


def bound(x):
    return None if x is None or math.isinf(x) else float(x)
