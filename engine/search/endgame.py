"""A game's own endgame solver (:meth:`engine.game.Game.solve_endgame`) as a search answer.

Othello scores its endgames by the final disc difference, not by win/draw/loss: a position the game's
solver proves answers with that score as its ``value`` (from the perspective player's point of view), the
result's sign as its ``outcome`` and the length of the perfect line found as its ``plies_to_end``.
"""
from engine.deadline import Timeout
from engine.game import ENDGAME_SOLVER
from engine.result import LOWER, SOLVED, UPPER, MoveValue
from engine.search.common import finish, outcome_of


def has_endgame_solver(game) -> bool:
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
