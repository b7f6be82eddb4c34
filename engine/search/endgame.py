"""A game's own endgame solver (:class:`EndgameSolver`) as a search answer.

Othello scores its endgames by the final disc difference, not by win/draw/loss: a position the game's
solver proves answers with that score as its ``value`` (from the perspective player's point of view), the
result's sign as its ``outcome`` and the length of the perfect line found as its ``plies_to_end``.

In such a game a search that proves the result on its own, on the utilities' win/draw/loss scale (the
principal-variation search's heuristic deepening, textbook alpha-beta or minimax to the end, the MCTS
solver), proves the winner but not the score: :func:`scored_outcome` has the game's solver score the
position in the time left, and drops the ``outcome`` when it cannot. A position reported solved always
carries the final score as its value.
"""
from typing import Protocol, runtime_checkable

from engine.deadline import Timeout
from engine.game import ENDGAME_SOLVER, Solution
from engine.result import LOWER, SOLVED, UPPER, MoveValue, Stats
from engine.search.common import finish, outcome_of


@runtime_checkable
class EndgameSolver(Protocol):
    """Games whose result is a score (Othello's final disc difference) and that solve their last moves
    with a specialised exact solver; capability :data:`~engine.game.ENDGAME_SOLVER`."""

    def solve_endgame(self, state, deadline, ordering: bool, tt_capacity: int, stats) -> Solution | None:
        """The :class:`~engine.game.Solution` of ``state`` for the player to move, or None at once when
        ``state`` lies beyond the solver's reach. ``ordering`` and ``tt_capacity`` (0: no table) are the
        search's settings; the solver adds what it visits to ``stats`` and raises
        :class:`~engine.deadline.Timeout` when ``deadline`` passes."""


def has_endgame_solver(game) -> bool:
    """Whether the game lists its own endgame solver (:class:`EndgameSolver`) among its capabilities."""
    return ENDGAME_SOLVER in game.capabilities


def endgame_solve(game, state, deadline, ordering: bool, tt_capacity: int, tracer, ranking, stats):
    """The :class:`~engine.result.SearchResult` of the game's endgame solver, or None when the position is
    beyond its reach or ``deadline`` passed first (``stats`` then holds what the attempt visited). The
    arguments are :func:`engine.search.solver.exact_solve`'s, whose place it takes; the game orders the
    root moves itself (``ranking`` is not used). The solver keeps no trace: a traced search answered by
    it has an empty trace."""
    try:
        solution = game.solve_endgame(state, deadline, ordering, tt_capacity, stats)
    except Timeout:
        solution = None
    if solution is None:
        return None
    sign = 1 if game.to_move(state) == game.perspective(state) else -1
    moves = [MoveValue(move, float(sign * score), bound if sign == 1 else {UPPER: LOWER}.get(bound, bound))
             for move, score, bound in solution.moves]
    stats.depth_completed = len(solution.pv)
    stats.stop_reason = SOLVED
    return finish(game, state, stats, deadline, move=solution.pv[0], value=float(sign * solution.score),
                  moves=moves, pv=solution.pv, outcome=outcome_of(solution.score),
                  plies_to_end=len(solution.pv), trace=tracer.entries if tracer else None)


def scored_outcome(game, state, result, deadline, ordering: bool, tt_capacity: int, restricted: bool = False):
    """``result`` as it is, unless it reports an ``outcome`` in a game with an endgame solver: then the
    solver's answer (the final score as the value, its perfect line and ``plies_to_end``), the nodes of
    both searches counted, or, when the position is beyond the solver's reach, ``deadline`` passes
    first or the root is ``restricted`` (engine.root: the solver plays every root move), ``result``
    without ``outcome`` and ``plies_to_end`` (the winner proven, the score not)."""
    if result.outcome is None or not has_endgame_solver(game):
        return result
    solved = None if restricted else endgame_solve(game, state, deadline, ordering, tt_capacity, None, None, Stats())
    if solved is None:
        result.outcome = result.plies_to_end = None
        return result
    first, stats = result.stats, solved.stats
    stats.nodes += first.nodes
    stats.leaves += first.leaves
    stats.cutoffs += first.cutoffs
    stats.tt_hits += first.tt_hits
    stats.max_depth = max(stats.max_depth, first.max_depth)
    stats.iterations = first.iterations
    stats.finish(deadline.elapsed())
    solved.trace = result.trace
    return solved


def scored_lines(game, state, result, deadline, ordering: bool, tt_capacity: int, restricted: bool = False):
    """:func:`scored_outcome` (``restricted`` as there), but for a multi-PV answer (``result.lines``, engine.search.multipv): the
    solver scores one line, not several, so in a game with an endgame solver such an answer keeps its
    values and drops every ``outcome`` and ``plies_to_end`` (the winners proven, the scores not)."""
    if result.lines is None:
        return scored_outcome(game, state, result, deadline, ordering, tt_capacity, restricted)
    if has_endgame_solver(game):
        for proved in (result, *result.lines):
            proved.outcome = proved.plies_to_end = None
    return result
