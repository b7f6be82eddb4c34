"""Minimax (AIMA fig. 5.3), and H-minimax when a depth limit cuts the search with the evaluation."""
import math

from engine.deadline import Deadline
from engine.result import Stats, MoveValue
from engine.limits import Limits
from engine.search.common import (Linked, RootMoves, best_move, deterministic_two_sided, exact_outcome, finish,
                                  first_move_fallback, reaches_end, require_deterministic_two_player, root_actions,
                                  root_passes, sides_of, unlinked)
from engine.search.endgame import scored_outcome
from engine.search.settings import DepthSettings, depth_in_plies
from engine.search.trace import Tracer

NAME = "minimax"
Settings = DepthSettings


def requires(game_type) -> str | None:
    return deterministic_two_sided(game_type, NAME)


def search(game, state, settings: Settings = Settings(), *, deadline: Deadline, trace: bool = False,
           limits: Limits = Limits(), root_moves: RootMoves = None):
    """Minimax value of every root move (of ``root_moves`` alone, where given: engine.root), searched to the end of the game or to ``depth`` plies.

    Values are utilities (or, at the depth cut-off, evaluations) from the point of view of the
    perspective player ``game.perspective(state)``: MAX nodes are those where a player of its side moves
    (:func:`~engine.search.common.sides_of`), MIN nodes the others (each of Pacman's ghosts on its own
    ply). Without a depth limit the search runs once to the terminal states (in a game that may never end,
    iterative deepening instead: :func:`~engine.search.common.root_passes`); when the deadline passes
    first, the answer is the best root move among those fully searched. A tie between root moves goes to
    the first in natural order.

    In win/draw/loss games a search that reaches every terminal state also proves how long the game
    lasts: below the root, among children of equal value the mover prefers the shorter line when it wins
    and the longer when it loses, and ``plies_to_end`` counts the chosen move's line, played so.
    """
    require_deterministic_two_player(game, NAME)
    depth = depth_in_plies(settings, game)
    player = game.perspective(state)
    sides = sides_of(game)
    side = sides[player]
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility, evaluate = game.is_terminal, game.utility, game.evaluate
    mask = Deadline.CHECK_MASK
    limit = math.inf if depth is None else depth
    tracer = Tracer(game, limits, deadline) if trace else None
    nodes = leaves = max_ply = 0
    outcome_game = game.outcome_game
    pv: dict[int, Linked] = {}  # pv[ply]: the principal variation below the node last valued at that depth, as pairs
    length = 0  # the plies from the node last valued to the end of its principal variation

    def value(s, ply):
        """The minimax value of ``s`` for ``player``; fills ``pv[ply]`` with its principal variation
        (``(move, rest)`` pairs, None at a leaf) and ``length`` with that line's number of plies."""
        nonlocal nodes, leaves, max_ply, length
        nodes += 1
        if not nodes & mask:
            deadline.check(nodes)
        terminal = is_terminal(s)
        if terminal or ply >= limit:
            leaves += 1
            if ply > max_ply:
                max_ply = ply
            pv[ply] = None
            length = 0
            return utility(s, player) if terminal else evaluate(s, player)
        child_ply, kept = ply + 1, 0   # kept: the length of the line kept so far
        if sides[to_move(s)] == side:  # MAX-VALUE
            v = -math.inf
            for a in actions(s):
                if tracer:
                    tracer.move(ply, a)
                child = node(result(s, a), child_ply)
                if child > v or child == v and outcome_game and (v > 0 and length < kept or v < 0 and length > kept):
                    v, kept = child, length
                    pv[ply] = (a, pv[child_ply])
        else:  # MIN-VALUE
            v = math.inf
            for a in actions(s):
                if tracer:
                    tracer.move(ply, a)
                child = node(result(s, a), child_ply)
                if child < v or child == v and outcome_game and (v < 0 and length < kept or v > 0 and length > kept):
                    v, kept = child, length
                    pv[ply] = (a, pv[child_ply])
        length = kept + 1
        return v

    node = value
    if tracer is not None:
        def traced_value(s, ply):
            entry = tracer.visit(ply)
            entry["value"] = v = value(s, ply)
            return v

        node = traced_value
    maximizing = sides[game.to_move(state)] == side

    def root_pass(d, moves, lines):
        nonlocal nodes, limit
        nodes += 1
        limit = math.inf if d is None else d
        root_entry = tracer.visit(0) if tracer else None
        for a in root_actions(game, state, root_moves):
            if tracer:
                tracer.move(0, a)
            moves.append(MoveValue(a, node(result(state, a), 1)))
            lines.append([a, *unlinked(pv[1])])
        if root_entry:
            root_entry["value"] = best_move(moves, maximize=maximizing).value

    moves, lines, depth, timed_out = root_passes(game, state, depth, root_pass)
    best = best_move(moves, maximize=maximizing) if moves else first_move_fallback(game, state, root_moves)
    stats = Stats(nodes=nodes, leaves=leaves, max_depth=max_ply,
                  depth_completed=depth or (0 if timed_out else max_ply))
    solved = not timed_out and reaches_end(game, state, depth)
    line = lines[moves.index(best)] if moves else None
    outcome = exact_outcome(game, best.value) if solved else None
    answer = finish(game, state, stats, deadline, move=best.move, value=best.value, moves=moves, pv=line,
                    outcome=outcome, plies_to_end=len(line) if outcome and line else None,
                    trace=tracer.entries if tracer else None, timed_out=timed_out)
    return scored_outcome(game, state, answer, deadline, True, limits.tt_max_entries, root_moves is not None)
