"""Multi-PV (``algorithm.multi_pv``): the N best root moves, each with an exact value and its line.

UCI's MultiPV. A search that supports it declares :class:`MultiPVSettings` among its settings' bases and,
at the root, searches each move with the window of the N-th best value found so far (:func:`threshold`)
instead of the best's: a move that beats it is exact (full window above it), one that does not is a bound
and is not among the N best. With N = 1 this is the ordinary root, node for node. The search then hands
its root moves and their lines to :func:`best_lines`.
"""
from collections.abc import Callable, Sequence
from dataclasses import dataclass
import math

from engine.result import EXACT, ESTIMATE, Line, MoveValue
from engine.search.settings import INTEGER, AlgorithmSettings, setting

# The most lines a request may ask for (a game with more legal moves answers with the first MAX_MULTI_PV).
MAX_MULTI_PV = 32


@dataclass(frozen=True)
class MultiPVSettings(AlgorithmSettings):
    """``multi_pv``: the number of best root moves the answer lists in ``lines``, each with an exact value
    and its principal variation (1, the default: the best move alone, and no ``lines``)."""

    multi_pv: int = setting(1, INTEGER, minimum=1, maximum=MAX_MULTI_PV)


def threshold(values: Sequence[float], n: int) -> float:
    """The value a root move must beat to be among the ``n`` best, given the values (for the maximising
    root mover) of the moves already searched: the ``n``-th highest, or -inf while fewer than ``n``."""
    if len(values) < n:
        return -math.inf
    return sorted(values, reverse=True)[n - 1]


def ranked(moves: Sequence[MoveValue], n: int, maximize: bool = True) -> list[int]:
    """The indices of the ``n`` best of ``moves`` by value (the highest, or the lowest when the root player
    minimises the perspective's value), best first, ties to the first in list order; only moves whose
    value is exact (or an estimate) qualify, not bounds."""
    sign = 1 if maximize else -1
    valued = [i for i, mv in enumerate(moves) if mv.bound in (EXACT, ESTIMATE)]
    return sorted(valued, key=lambda i: -sign * moves[i].value)[:n]


def best_lines(moves: Sequence[MoveValue], order: Sequence[int], pv_of: Callable[[int], list],
               proof_of: Callable[[int], tuple] = lambda i: (None, None)) -> list[Line]:
    """The :class:`~engine.result.Line` of each root move ``moves[i]`` for ``i`` in ``order`` (best first):
    its principal variation ``pv_of(i)`` (the move itself when empty) and ``proof_of(i)``, its
    ``(outcome, plies_to_end)`` where proven."""
    lines = []
    for i in order:
        mv = moves[i]
        outcome, plies = proof_of(i)
        lines.append(Line(move=mv.move, value=mv.value, pv=list(pv_of(i)) or [mv.move], bound=mv.bound,
                          outcome=outcome, plies_to_end=plies, visits=mv.visits))
    return lines
