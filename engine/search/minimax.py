"""Minimax (AIMA fig. 5.3), and H-minimax when a depth limit cuts the search with the evaluation."""
import math

from engine.deadline import Deadline, Timeout
from engine.result import Stats, MoveValue
from engine.search.common import (best_move, check_depth, exact_outcome, finish, first_move_fallback,
                                  reaches_end, require_deterministic_two_player)
from engine.search.trace import Tracer

NAME = "minimax"
PARAMETERS = {"depth"}


def search(game, state, *, deadline: Deadline, depth: int | None = None, trace: bool = False,
           limits=None, **_):
    """Minimax value of every root move, searched to the end of the game or to ``depth`` plies.

    Values are utilities (or, at the depth cut-off, evaluations) from the point of view of the
    perspective player ``game.perspective(state)``: MAX nodes are those where that player moves, MIN
    nodes the others. Without a depth limit the search runs once to the terminal states; when the
    deadline passes first, the answer is the best root move among those fully searched.
    """
    require_deterministic_two_player(game, NAME)
    check_depth(depth)
    player = game.perspective(state)
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility, evaluate = game.is_terminal, game.utility, game.evaluate
    mask = Deadline.CHECK_MASK
    limit = math.inf if depth is None else depth
    tracer = Tracer(game, limits.max_trace_entries) if trace else None
    nodes = leaves = max_ply = 0
    pv = {}  # pv[ply]: the principal variation below the node last valued at that depth

    def value(s, ply):
        """The minimax value of ``s`` for ``player``; fills ``pv[ply]`` with its principal variation."""
        nonlocal nodes, leaves, max_ply
        nodes += 1
        if not nodes & mask:
            deadline.check()
        if ply > max_ply:
            max_ply = ply
        entry = tracer.visit(ply) if tracer else None
        if is_terminal(s):
            leaves += 1
            v = utility(s, player)
            pv[ply] = []
        elif ply >= limit:
            leaves += 1
            v = evaluate(s, player)
            pv[ply] = []
        else:
            maximizing = to_move(s) == player
            v = -math.inf if maximizing else math.inf
            for a in actions(s):
                if tracer:
                    tracer.move(ply, a)
                child = value(result(s, a), ply + 1)
                if child > v if maximizing else child < v:
                    v = child
                    pv[ply] = [a] + pv[ply + 1]
        if entry:
            entry["value"] = v
        return v

    maximizing = game.to_move(state) == player
    nodes, moves, lines, timed_out = 1, [], {}, False
    root_entry = tracer.visit(0) if tracer else None
    try:
        for a in actions(state):
            if tracer:
                tracer.move(0, a)
            moves.append(MoveValue(a, value(result(state, a), 1)))
            lines[len(moves) - 1] = [a] + pv[1]
    except Timeout:
        timed_out = True
    best = best_move(moves, maximize=maximizing) if moves else first_move_fallback(game, state)
    if root_entry and moves:
        root_entry["value"] = best.value
    stats = Stats(nodes=nodes, leaves=leaves, max_depth=max_ply,
                  depth_completed=0 if timed_out else depth or max_ply)
    solved = not timed_out and reaches_end(game, state, depth)
    return finish(game, state, stats, deadline, move=best.move, value=best.value, moves=moves,
                  pv=lines.get(moves.index(best)) if moves else None,
                  outcome=exact_outcome(game, best.value) if solved else None,
                  trace=tracer.entries if tracer else None, timed_out=timed_out)
