"""2048's own expectimax valuation: the state values of :mod:`engine.search.expectimax` without its
per-node calls through the :class:`~engine.game.Game` interface (after nneonneo/2048-ai's search).

A player node computes its four slides from the row and column tables at once, an afterstate its spawns
from a mask of the empty cells (one bit a cell: the spawn of exponent ``e`` in the cell of bit ``low`` is
``board | low * e``), and the evaluation is inlined. A transposition table keyed by the afterstate and
the plies left below it stores each chance node's value, so that the same board reached by other spawn
orders (the common case two moves deep) is averaged once.

The values are those of the generic search with pruning off, node for node when the table is off; with
the table, the same values when ``probability_cutoff`` is 0 (an afterstate's value then depends only on the
board and the plies left), and otherwise the value of the first path that reached the board, as the
published players have it.
"""
import math

from engine.deadline import Deadline, Timeout
from engine.games.twenty48.board import (BOARD_MASK, COL_DOWN, COL_UP, EVAL_BASE, EVAL_SCALE, ROW_HEURISTIC,
                                         ROW_LEFT, ROW_MASK, ROW_RIGHT, utility_of)

ONES = 0x1111111111111111   # bit 0 of every cell


def empty_cells(b: int) -> int:
    """One bit, the lowest of the cell's nibble, for every empty cell of board ``b``."""
    return ~(b | b >> 1 | b >> 2 | b >> 3) & ONES


class Kernel:
    """Values of 2048 states for one search: ``value(state, ply, limit, reach)`` is the generic
    ``value`` of :mod:`engine.search.expectimax` at ``ply`` of a pass ``limit`` plies deep (``math.inf``:
    none), for a state reached with probability ``reach``. Leaves are valued by ``prize`` (None: the
    game's own values) of the utility or evaluation. :meth:`counts` gives the nodes, leaves, leaves cut
    by the depth limit, table hits and deepest ply of all the calls so far (a pass that cut none saw
    all that a deeper one would: the probability cut-offs do not depend on the depth).
    The deadline is polled every :data:`~engine.deadline.Deadline.CHECK_EVERY` nodes or so, and its node
    budget at every player's node; its :class:`~engine.deadline.Timeout` unwinds the call. The table and the cache of evaluations hold at
    most ``capacity`` entries each (starting afresh when full; the table also at each new depth limit);
    :meth:`close` frees them.

    ``step``: deepening goes two plies at a time, so that every pass ends on afterstates (the spawns
    below a horizon would only average the evaluation over the tiles)."""

    step = 2

    def __init__(self, game, deadline: Deadline, cutoff: float = 0.0, prize=None, table: bool = True,
                 capacity: int = 1_000_000):
        self.value, self.counts, self.close = build(game.tiles, deadline, cutoff, prize, table, capacity)


def build(tiles, deadline, cutoff, prize, table, capacity):
    """The closures behind :class:`Kernel` (locals are Python's fastest variables)."""
    every, check, inf, max_nodes = Deadline.CHECK_EVERY, deadline.check, math.inf, deadline.max_nodes
    h, left, right, up, down = ROW_HEURISTIC, ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN
    store: dict[int, float] = {}  # (board, ply) key -> value
    seen: dict[int, float] = {}  # board -> evaluation
    nodes = leaves = horizon = hits = max_ply = 0
    poll = every
    limit = inf

    def evaluation(b):
        v = seen.get(b)
        if v is not None:
            return v
        a = b & 0xF0F00F0FF0F00F0F | (b & 0x0000F0F00000F0F0) << 12 | (b & 0x0F0F00000F0F0000) >> 12
        t = a & 0xFF00FF0000FF00FF | (a & 0x00FF00FF00000000) >> 24 | (a & 0x00000000FF00FF00) << 24
        v = EVAL_BASE + EVAL_SCALE * (
            h[b & ROW_MASK] + h[b >> 16 & ROW_MASK] + h[b >> 32 & ROW_MASK] + h[b >> 48]
            + h[t & ROW_MASK] + h[t >> 16 & ROW_MASK] + h[t >> 32 & ROW_MASK] + h[t >> 48])
        if prize is not None:
            v = prize(v)
        if len(seen) >= capacity:
            seen.clear()
        seen[b] = v
        return v

    def final(b):
        v = utility_of(b)
        return v if prize is None else prize(v)

    def player(b, ply, reach):
        """A board with the player to move."""
        nonlocal nodes, leaves, horizon, max_ply, poll
        nodes += 1
        if nodes >= poll:
            check()
            poll = nodes + every
        if nodes >= max_nodes:  # the node budget, tested at every player's node as the compiled core does
            raise Timeout
        if ply > max_ply:
            max_ply = ply
        r0, r1, r2, r3 = b & ROW_MASK, b >> 16 & ROW_MASK, b >> 32 & ROW_MASK, b >> 48
        a = b & 0xF0F00F0FF0F00F0F | (b & 0x0000F0F00000F0F0) << 12 | (b & 0x0F0F00000F0F0000) >> 12
        t = a & 0xFF00FF0000FF00FF | (a & 0x00FF00FF00000000) >> 24 | (a & 0x00000000FF00FF00) << 24
        c0, c1, c2, c3 = t & ROW_MASK, t >> 16 & ROW_MASK, t >> 32 & ROW_MASK, t >> 48
        slides = (up[c0] | up[c1] << 4 | up[c2] << 8 | up[c3] << 12,
                  down[c0] | down[c1] << 4 | down[c2] << 8 | down[c3] << 12,
                  left[r0] | left[r1] << 16 | left[r2] << 32 | left[r3] << 48,
                  right[r0] | right[r1] << 16 | right[r2] << 32 | right[r3] << 48)
        if ply >= limit or reach < cutoff:
            leaves += 1
            if empty_cells(b) or slides[0] != b or slides[2] != b:
                if ply >= limit:
                    horizon += 1
                return evaluation(b)
            return final(b)
        best = -inf
        if ply + 1 >= limit:        # the afterstates are leaves (reach is the same)
            if ply + 1 > max_ply:
                max_ply = ply + 1
            for a in slides:
                if a != b:
                    nodes += 1
                    leaves += 1
                    horizon += 1
                    v = evaluation(a)
                    if v > best:
                        best = v
        else:
            for a in slides:
                if a != b:
                    v = chance(a, ply + 1, reach)
                    if v > best:
                        best = v
        if best == -inf:
            leaves += 1
            return final(b)
        return best

    def chance(a, ply, reach):
        """An afterstate: the board after a slide, before the spawn."""
        nonlocal nodes, leaves, horizon, hits, max_ply
        nodes += 1
        if ply > max_ply:
            max_ply = ply
        if ply >= limit or reach < cutoff:
            leaves += 1
            if ply >= limit:
                horizon += 1
            return evaluation(a)
        if table:
            key = a | (limit - ply) << 64 if limit != inf else a
            v = store.get(key)
            if v is not None:
                hits += 1
                return v
        cells = empty_cells(a)
        share = 1.0 / cells.bit_count()
        total = 0.0
        while cells:
            low = cells & -cells
            cells ^= low
            for e, p in tiles:
                q = p * share
                total += q * player(a | low * e, ply + 1, reach * q)
        if table:
            if len(store) >= capacity:
                store.clear()
            store[key] = total
        return total

    def value(state, ply, depth_limit, reach):
        nonlocal limit
        if depth_limit != limit:     # a new pass: its table entries would not tell whether it cut
            store.clear()
            limit = depth_limit
        if state > BOARD_MASK:
            return chance(state & BOARD_MASK, ply, reach)
        return player(state, ply, reach)

    def counts():
        return nodes, leaves, horizon, hits, max_ply

    def close():
        """Drop the tables now: the closures refer to one another, so only the cyclic collector would
        free them otherwise."""
        store.clear()
        seen.clear()

    return value, counts, close
