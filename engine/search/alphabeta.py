"""Alpha-beta search (AIMA fig. 5.7), the textbook form and the enhanced default.

- Textbook (``move_ordering`` and ``transposition_table`` both false): exactly AIMA fig. 5.7, children in
  the game's natural order, cut when ``v >= beta`` at a MAX node and ``v <= alpha`` at a MIN node. Node
  counts are the textbook's (tic-tac-toe from the empty board: 18,297). ``strict_cutoffs`` cuts only on
  ``v > beta`` and ``v < alpha`` (a child equal to the bound is still searched), the rule whose generated
  states the CS188 Pacman autograder checks.
- Enhanced (the default): iteratively deepened principal-variation search (:mod:`engine.search.pvs`),
  and in win/draw/loss games an exact solve where it can finish (:mod:`engine.search.solver`).

Both return values from the point of view of ``game.perspective(state)``; they equal the minimax value.
"""
from dataclasses import dataclass
import math

from engine.deadline import Deadline
from engine.limits import Limits
from engine.result import EXACT, LOWER, UPPER, MoveValue, Stats
from engine.errors import AlgorithmMismatch
from engine.search.common import (RootMoves, best_move, deterministic_two_sided, exact_outcome, finish,
                                  first_move_fallback, reaches_end, require_deterministic_two_player, root_actions,
                                  root_passes, sides_of, unlinked)
from engine.search.endgame import has_endgame_solver, scored_lines
from engine.search.multipv import MultiPVSettings, best_lines, ranked, threshold
from engine.search.pvs import enhanced
from engine.search.solver import can_solve
from engine.search.settings import BOOLEAN, DepthSettings, depth_in_plies, setting
from engine.search.trace import Tracer

NAME = "alphabeta"


@dataclass(frozen=True)
class Settings(DepthSettings, MultiPVSettings):
    """``depth`` in plies (None: as deep as the time allows, to the end of the game if it can), or
    ``depth_rounds`` (:func:`~engine.search.settings.depth_in_plies`);
    ``move_ordering`` and ``transposition_table``: the enhancements, both on by default; both off is the
    textbook search; ``strict_cutoffs`` (textbook only): cut on ``v > beta`` / ``v < alpha`` instead of
    AIMA's ``v >= beta`` / ``v <= alpha``; ``solve`` (enhanced search, no depth): the whole time goes to
    the exact solve, whatever the plies left, instead of a share of it before the heuristic deepening; a
    game where no exact solver applies refuses it (:func:`require_solvable`); ``multi_pv``
    (:mod:`engine.search.multipv`): the number of best root moves valued exactly and listed in ``lines``."""

    move_ordering: bool = setting(True, BOOLEAN, echoed=True)
    transposition_table: bool = setting(True, BOOLEAN, echoed=True)
    strict_cutoffs: bool = setting(False, BOOLEAN)
    solve: bool = setting(False, BOOLEAN)

    def check(self):
        super().check()
        if self.strict_cutoffs and (self.move_ordering or self.transposition_table):
            raise AlgorithmMismatch("strict_cutoffs is a rule of the textbook search: set move_ordering and "
                                    "transposition_table to false", field="algorithm.strict_cutoffs")
        if self.solve and (self.depth is not None or self.depth_rounds is not None):
            raise AlgorithmMismatch("a solve searches to the end of the game: give no depth",
                                    field="algorithm.solve")
        if self.solve and self.multi_pv > 1:
            raise AlgorithmMismatch("the exact solve proves the best move alone: multi_pv needs solve false",
                                    field="algorithm.multi_pv")
        if self.solve and not (self.move_ordering or self.transposition_table):
            raise AlgorithmMismatch("the exact solver is part of the enhanced search: the textbook search "
                                    "(move_ordering and transposition_table false) cannot solve",
                                    field="algorithm.solve")


def requires(game_type) -> str | None:
    return deterministic_two_sided(game_type, NAME)


def search(game, state, settings: Settings = Settings(), *, deadline: Deadline, trace: bool = False,
           limits: Limits = Limits(), root_moves: RootMoves = None):
    """Alpha-beta of the root moves (of ``root_moves`` alone, where given: engine.root), the textbook form
    or the enhanced one (see the module docstring)."""
    require_deterministic_two_player(game, NAME)
    if settings.solve:
        require_solvable(game)
    tracer = Tracer(game, limits, deadline) if trace else None
    depth = depth_in_plies(settings, game)
    if not settings.move_ordering and not settings.transposition_table:
        answer = textbook(game, state, deadline, depth, tracer, settings.strict_cutoffs, settings.multi_pv,
                          root_moves)
        return scored_lines(game, state, answer, deadline, True, limits.tt_max_entries, root_moves is not None)
    return enhanced(game, state, deadline, depth, settings.move_ordering,
                    limits.tt_max_entries if settings.transposition_table else 0, tracer, settings.solve,
                    settings.multi_pv, root_moves)


def require_solvable(game) -> None:
    """``solve`` needs a game the exact solver applies to (:func:`~engine.search.solver.can_solve`: a
    win/draw/loss game whose players alternate, as Connect Four and tic-tac-toe) or with an endgame solver
    of its own (Othello, :mod:`engine.search.endgame`): an error on it otherwise."""
    if not can_solve(game) and not has_endgame_solver(game):
        raise AlgorithmMismatch(f"the exact solver does not apply to {game.id}: solve needs a win/draw/loss "
                                "game whose players alternate, or a game with an endgame solver of its own",
                                field="algorithm.solve")


def textbook(game, state, deadline, depth, tracer, strict=False, multi_pv: int = 1, root_moves: RootMoves = None):
    """AIMA fig. 5.7, ALPHA-BETA-SEARCH, one pass to ``depth`` plies (None: to the end of the game), of
    the root moves of ``root_moves`` where given (engine.root).
    With ``multi_pv`` > 1, the result's ``lines`` hold the ``multi_pv`` best root moves, each valued
    exactly (the root's window rests on the ``multi_pv``-th best value so far, not the best).

    Without a depth in a game that may never end, iterative deepening (see
    :func:`~engine.search.common.root_passes`).

    ``value(s, alpha, beta)`` is the minimax value of ``s`` for the perspective player when it lies in
    ``(alpha, beta)``; otherwise a bound on the same side: ``<= alpha`` or ``>= beta``. Alpha is the best
    value MAX is already assured of on the path to ``s``, beta the best MIN is. MAX nodes are those of the
    perspective player's side, MIN nodes the others' (each of Pacman's ghosts on its own ply). With
    ``strict``, a node cuts only when ``v > beta`` (MAX) or ``v < alpha`` (MIN), so that a child whose
    value equals the bound does not stop the search (the CS188 autograder's rule); the value is the same.
    """
    player = game.perspective(state)
    sides = sides_of(game)
    side = sides[player]
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility, evaluate = game.is_terminal, game.utility, game.evaluate
    mask = Deadline.CHECK_MASK
    limit = math.inf if depth is None else depth
    nodes = leaves = cutoffs = max_ply = 0
    pv: dict[int, tuple | None] = {}  # pv[ply]: the principal variation below the node last valued at that depth, as pairs

    def value(s, alpha, beta, ply):
        nonlocal nodes, leaves, cutoffs, max_ply
        nodes += 1
        if not nodes & mask:
            deadline.check(nodes)
        if ply > max_ply:
            max_ply = ply
        pv[ply] = None
        if is_terminal(s):
            leaves += 1
            return utility(s, player)
        if ply >= limit:
            leaves += 1
            return evaluate(s, player)
        moves = actions(s)
        last = len(moves) - 1  # a cut after the last child prunes nothing: it is not counted
        if sides[to_move(s)] == side:  # MAX-VALUE
            v = -math.inf
            for i, a in enumerate(moves):
                if tracer:
                    tracer.move(ply, a)
                child = node(result(s, a), alpha, beta, ply + 1)
                if child > v:
                    v = child
                    pv[ply] = (a, pv[ply + 1])
                if v > beta or v == beta and not strict:
                    cutoffs += i < last
                    break
                if v > alpha:
                    alpha = v
        else:  # MIN-VALUE
            v = math.inf
            for i, a in enumerate(moves):
                if tracer:
                    tracer.move(ply, a)
                child = node(result(s, a), alpha, beta, ply + 1)
                if child < v:
                    v = child
                    pv[ply] = (a, pv[ply + 1])
                if v < alpha or v == alpha and not strict:
                    cutoffs += i < last
                    break
                if v < beta:
                    beta = v
        return v

    def traced_value(s, alpha, beta, ply):
        entry = tracer.visit(ply, alpha, beta)
        entry["value"] = v = value(s, alpha, beta, ply)
        return v

    node = traced_value if tracer else value

    # The root is MAX-VALUE (or MIN-VALUE) that also remembers each move's value: the first is exact,
    # a later one is exact when it improves on the best so far and a bound when it does not.
    maximizing = sides[to_move(state)] == side

    # Multi-PV: the root's window starts at the multi_pv-th best value so far instead of the best
    # (engine.search.multipv.threshold), so that each of the multi_pv best moves gets an exact value.
    sign = 1 if maximizing else -1

    def root_pass(d, moves, lines):
        nonlocal nodes, limit
        nodes += 1
        limit = math.inf if d is None else d
        root_entry = tracer.visit(0, -math.inf, math.inf) if tracer else None
        exact: list[float] = []  # the exact values so far, for the root mover (negated at a MIN root)
        for a in root_actions(game, state, root_moves):
            if tracer:
                tracer.move(0, a)
            bar = threshold(exact, multi_pv)
            v = node(result(state, a), bar if maximizing else -math.inf, math.inf if maximizing else -bar, 1)
            if sign * v > bar or len(exact) < multi_pv:
                exact.append(sign * v)
                moves.append(MoveValue(a, v, EXACT))
            else:
                moves.append(MoveValue(a, v, UPPER if maximizing else LOWER))
            lines.append([a, *unlinked(pv[1])])
        if root_entry:
            root_entry["value"] = best_move(moves, maximize=maximizing).value

    moves, lines, depth, timed_out = root_passes(game, state, depth, root_pass)
    best = best_move(moves, maximize=maximizing) if moves else first_move_fallback(game, state, root_moves)
    stats = Stats(nodes=nodes, leaves=leaves, cutoffs=cutoffs, max_depth=max_ply,
                  depth_completed=depth or (0 if timed_out else max_ply))
    solved = not timed_out and reaches_end(game, state, depth)
    answer = finish(game, state, stats, deadline, move=best.move, value=best.value, moves=moves,
                    pv=lines[moves.index(best)] if moves else None,
                    outcome=exact_outcome(game, best.value) if solved else None,
                    trace=tracer.entries if tracer else None, timed_out=timed_out)
    if multi_pv > 1:
        answer.lines = best_lines(moves, ranked(moves, multi_pv, maximizing), lines.__getitem__,
                                  lambda i: (exact_outcome(game, moves[i].value) if solved else None, None))
    return answer
