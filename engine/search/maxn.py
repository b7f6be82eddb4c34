"""Max^n (Luckhardt and Irani 1986; AIMA 5.2.2): minimax generalised to any number of players.

Every node is worth a utility vector, one entry per player: terminal states their ``utilities``, states
where the depth limit cuts the search their ``evaluations``. The player to move picks the child whose
vector is best for itself, the first in natural order on ties; a chance node is worth the
probability-weighted mean of its children's vectors (outcomes of probability 0 are not searched). In a
two-player zero-sum game this is minimax. The principal variation is the chosen move's line: each mover's
choice, down to a leaf or to the first chance node (whose outcome no one chooses).
"""
from engine.deadline import Deadline
from engine.game import CHANCE
from engine.result import MoveValue, Stats
from engine.limits import Limits
from engine.search.common import (Linked, RootMoves, chosen_line, deepen, finish, first_move_fallback, root_actions,
                                  require_decision_root, unlinked)
from engine.search.settings import DepthSettings, depth_in_plies
from engine.search.trace import Tracer

NAME = "maxn"
Settings = DepthSettings


def requires(game_type) -> str | None:
    """Max^n values states with a vector of utilities: it fits every game."""
    return None


def search(game, state, settings: Settings = Settings(), *, deadline: Deadline, trace: bool = False,
           limits: Limits = Limits(), root_moves: RootMoves = None):
    """The max^n vector of every root move (of ``root_moves`` alone, where given: engine.root), ``depth`` plies deep (None: iterative deepening until the whole
    game is seen or the deadline passes, answering with the last complete depth).

    ``vector(s, ply)`` is the utility vector of ``s`` in player order. The result's ``value`` is the
    component of ``game.perspective(state)``, ``values`` the whole vector of the chosen move; trace entries
    carry their node's whole vector as their value (they have no alpha or beta).
    """
    require_decision_root(game, state)
    depth = depth_in_plies(settings, game)
    root_player, perspective = game.to_move(state), game.perspective(state)
    to_move, actions, result, chance_outcomes = game.to_move, game.actions, game.result, game.chance_outcomes
    is_terminal, utilities, evaluations = game.is_terminal, game.utilities, game.evaluations
    mask = Deadline.CHECK_MASK
    tracer = Tracer(game, limits, deadline) if trace else None
    nodes = leaves = max_ply = 0
    limit, cut = None, False  # the current pass's depth (None: unlimited); whether it cut anywhere
    pv: dict[int, Linked] = {}  # pv[ply]: the line below the node last valued at that depth, as pairs

    def vector(s, ply):
        nonlocal nodes, leaves, max_ply, cut
        nodes += 1
        if not nodes & mask:
            deadline.check(nodes)
        if ply > max_ply:
            max_ply = ply
        entry = tracer.visit(ply) if tracer else None
        pv[ply] = None
        if is_terminal(s):
            leaves += 1
            v = tuple(utilities(s))
        elif limit is not None and ply >= limit:
            leaves += 1
            cut = True
            v = tuple(evaluations(s))
        else:
            mover = to_move(s)
            if mover == CHANCE:
                total = None
                for o, p in chance_outcomes(s):
                    if p > 0.0:
                        if tracer:
                            tracer.move(ply, o)
                        child = vector(result(s, o), ply + 1)
                        total = [p * u for u in child] if total is None else [x + p * u for x, u in zip(total, child)]
                assert total is not None  # the outcomes' probabilities sum to 1
                v = tuple(total)
            else:
                best = None
                for a in actions(s):
                    if tracer:
                        tracer.move(ply, a)
                    child = vector(result(s, a), ply + 1)
                    if best is None or child[mover] > best[mover]:
                        best = child
                        pv[ply] = (a, pv[ply + 1])
                assert best is not None  # a state that is not terminal has a legal move
                v = best
        if entry:
            entry["value"] = list(v)
        return v

    lines: list = []  # (moves, lines): each pass's root moves and the line of each, the last two passes

    def root_pass(d, moves):
        nonlocal nodes, limit, cut
        limit, cut = d, False
        nodes += 1
        entry = tracer.visit(0) if tracer else None
        del lines[:-1]
        lines.append((moves, []))
        for a in root_actions(game, state, root_moves):
            if tracer:
                tracer.move(0, a)
            v = vector(result(state, a), 1)
            moves.append(MoveValue(a, v[perspective], values=list(v)))
            lines[-1][1].append([a, *unlinked(pv[1])])
        best = best_for(root_player, moves)
        if entry:
            assert best.values is not None  # every root move's vector is kept
            entry["value"] = list(best.values)
        deadline.report(depth=d or max_ply, value=best.value, move=best.move, pv=lines[-1][1][moves.index(best)],
                        nodes=nodes, seldepth=max_ply)
        return not cut

    moves, depth_completed, timed_out = deepen(game, depth, root_pass)
    best = best_for(root_player, moves) if moves else first_move_fallback(game, state, root_moves)
    stats = Stats(nodes=nodes, leaves=leaves, max_depth=max_ply,
                  depth_completed=max_ply if depth_completed is None else depth_completed)
    return finish(game, state, stats, deadline, move=best.move, value=best.value, moves=moves,
                  values=best.values, pv=chosen_line(lines, moves, best),
                  trace=tracer.entries if tracer else None, timed_out=timed_out)


def best_for(player: int, moves: list) -> MoveValue:
    """The root move whose vector is best for ``player``, the first on ties."""
    best = moves[0]
    for mv in moves[1:]:
        if mv.values[player] > best.values[player]:
            best = mv
    return best
