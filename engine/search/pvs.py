"""Iteratively deepened principal-variation search: the enhanced alpha-beta (negamax form).

Null-window scouts and re-searches, a bounded transposition table, move ordering (table move, killers,
history, the game's own ordering) and, in win/draw/loss games, wins scored by their distance
(:mod:`engine.search.scores`), so that the winner hurries, the loser delays and ``plies_to_end`` is exact.
Without a depth limit, a win/draw/loss game whose declarations allow it is first given to the exact solver
(:mod:`engine.search.solver`) for a share of the time.
"""
import math

from engine.deadline import Deadline, Timeout
from engine.game import EVALUATION, IMMEDIATE_WIN
from engine.result import COMPLETED, ESTIMATE, EXACT, LOWER, SOLVED, UPPER, MoveValue, Stats
from engine.search.common import declares, exact_outcome, finish, first_move_fallback, outcome_of, reaches_end
from engine.search.scores import (MAX_ID_DEPTH, PROVEN, TABLE_FREE_SECONDS_PER_ENTRY, TABLE_SECONDS_PER_ENTRY,
                                  TT_EXACT, TT_LOWER, TT_UPPER, WIN, from_table, to_table)
from engine.search.scores import as_value as score_value
from engine.search.solver import can_solve, exact_solve

# Without a depth limit, the share of the time an exact solve may take before the heuristic deepening, and
# the most plies left at which it is tried (a longer solve seldom finishes within a request's time).
SOLVE_SHARE = 1 / 3
SOLVE_MAX_PLIES = 36


def enhanced(game, state, deadline, depth, ordering: bool, tt_capacity: int, tracer):
    """Iteratively deepened principal-variation search (negamax form).

    ``negamax(s, d, alpha, beta, ply, player)`` returns the score of ``s`` for ``player``, who is to move
    in ``s`` (or, at a terminal ``s``, the player whose turn it would be), searched ``d`` plies deep.
    Fail-soft: a result ``<= alpha`` is an upper bound, ``>= beta`` a lower bound, anything between is
    exact. In outcome games a win reached at ply ``p`` scores ``WIN - p``, a loss ``-(WIN - p)``.
    The transposition table stores scores relative to the node (a win in so many plies from it).
    """
    perspective = game.perspective(state)
    to_move, result, is_terminal = game.to_move, game.result, game.is_terminal
    utility, evaluate, key_of = game.utility, game.evaluate, game.key
    moves_of = game.ordered_actions if ordering else game.actions
    outcome_game = game.outcome_game
    has_win_test = outcome_game and IMMEDIATE_WIN in game.capabilities
    # A player who cannot win at once wins at the soonest two plies later, if the players alternate.
    next_win = 3 if has_win_test and declares(game, "alternating") else 1
    immediate_win = game.immediate_win
    mask = Deadline.CHECK_MASK
    tt = {}
    killers, history = {}, {}
    stats = Stats()
    nodes = leaves = cutoffs = tt_hits = max_ply = 0
    pv = {}

    def negamax(s, d, alpha, beta, ply, player):
        nonlocal nodes, leaves, cutoffs, tt_hits, max_ply
        nodes += 1
        if not nodes & mask:
            deadline.check_room(len(tt) * TABLE_FREE_SECONDS_PER_ENTRY)
        if ply > max_ply:
            max_ply = ply
        pv[ply] = []
        entry = trace_visit(ply, alpha, beta, player) if tracer else None
        v = node_score(s, d, alpha, beta, ply, player)
        if entry:
            entry["value"] = as_value(v if player == perspective else -v)
        return v

    def node_score(s, d, alpha, beta, ply, player):
        nonlocal leaves, cutoffs, tt_hits
        if is_terminal(s):
            leaves += 1
            u = utility(s, player)
            return u * (WIN - ply) if outcome_game else u
        if outcome_game:
            if has_win_test and immediate_win(s) is not None:
                leaves += 1
                return WIN - ply - 1
            # Mate-distance pruning: nothing here can beat a win at the next chance, nor lose sooner.
            floor, ceiling = -(WIN - ply - 1), WIN - ply - next_win
            if alpha < floor:
                alpha = floor
            if beta > ceiling:
                beta = ceiling
            if alpha >= beta:
                return alpha
        if d <= 0:
            leaves += 1
            return evaluate(s, player)

        table_move = None
        if tt_capacity:
            key = key_of(s)
            hit = tt.get(key)
            if hit is not None:
                tt_hits += 1
                hit_depth, flag, score, table_move = hit
                if hit_depth >= d:
                    score = from_table(score, ply)
                    if flag == TT_EXACT:
                        return score
                    if flag == TT_LOWER:
                        if score >= beta:
                            return score
                        if score > alpha:
                            alpha = score
                    elif score <= alpha:
                        return score
                    elif score < beta:
                        beta = score

        moves = order(moves_of(s), table_move, ply)
        alpha0, best, best_mv = alpha, -math.inf, None
        other = 1 - player
        for i, a in enumerate(moves):
            if tracer:
                tracer.move(ply, a)
            child = result(s, a)
            same = to_move(child) == player
            if i == 0:
                v = child_score(child, same, d, alpha, beta, ply, player, other)
            else:
                v = child_score(child, same, d, alpha, math.nextafter(alpha, math.inf), ply, player, other)
                if alpha < v < beta:
                    v = child_score(child, same, d, alpha, beta, ply, player, other)
            if v > best:
                best, best_mv = v, a
                if v > alpha:
                    alpha = v
                    pv[ply] = [a] + pv[ply + 1]
                    if v >= beta:
                        cutoffs += 1
                        if ordering:
                            remember_cutoff(a, ply, d)
                        break

        if tt_capacity:
            if len(tt) >= tt_capacity:
                deadline.check_room(len(tt) * TABLE_SECONDS_PER_ENTRY)
                tt.clear()
            flag = TT_UPPER if best <= alpha0 else TT_LOWER if best >= beta else TT_EXACT
            tt[key] = (d, flag, to_table(best, ply), best_mv)
        return best

    def child_score(child, same, d, alpha, beta, ply, player, other):
        """The child's score for ``player``: searched as is when ``player`` moves again there, negated
        (with the window mirrored) when the opponent does."""
        if same:
            return negamax(child, d - 1, alpha, beta, ply + 1, player)
        return -negamax(child, d - 1, -beta, -alpha, ply + 1, other)

    def order(moves, table_move, ply):
        if not ordering:
            if table_move is not None and moves[0] != table_move:
                moves = [table_move] + [m for m in moves if m != table_move]
            return moves
        if history:
            moves = sorted(moves, key=lambda m: -history.get(m, 0))  # stable: ties keep the game's order
        first = [m for m in (table_move, *killers.get(ply, ())) if m is not None and m in moves]
        if first:
            moves = list(dict.fromkeys(first + list(moves)))
        return moves

    def remember_cutoff(move, ply, d):
        slot = killers.setdefault(ply, [])
        if move not in slot:
            slot.insert(0, move)
            del slot[2:]
        history[move] = history.get(move, 0) + d * d

    def trace_visit(ply, alpha, beta, player):
        if player == perspective:
            return tracer.visit(ply, as_value(alpha), as_value(beta))
        return tracer.visit(ply, as_value(-beta), as_value(-alpha))

    def as_value(score):
        return score_value(score, outcome_game)

    # --- the root: one PVS pass per depth, each root move's score and bound kept for the answer ---
    root_player = to_move(state)
    sign = 1 if root_player == perspective else -1  # root scores -> perspective values

    def root_pass(d, ranking):
        """Search every root move ``d`` plies deep: ``[(move, score, bound)]`` in searched order (the
        first exact, a later one exact if it beat the best so far, else an upper bound) and the PV."""
        alpha, scores, line = -math.inf, [], []
        other = 1 - root_player
        for i, a in enumerate(ranking):
            if tracer:
                tracer.move(0, a)
            child = result(state, a)
            same = to_move(child) == root_player
            if i == 0:
                v = child_score(child, same, d, alpha, math.inf, 0, root_player, other)
            else:
                v = child_score(child, same, d, alpha, math.nextafter(alpha, math.inf), 0, root_player, other)
                if v > alpha:
                    v = child_score(child, same, d, alpha, math.inf, 0, root_player, other)
            improved = i == 0 or v > alpha
            scores.append((a, v, EXACT if improved else UPPER))
            if improved:
                alpha, line = v, [a] + pv[1]
        if tt_capacity:
            tt[key_of(state)] = (d, TT_EXACT, to_table(alpha, 0), line[0])
        return scores, line

    bound = game.plies_bound(state)
    last = MAX_ID_DEPTH if depth is None else depth
    if bound is not None:
        last = min(last, bound)
    # Iterative deepening cuts at every depth, which needs an evaluation; without one (a tree without
    # evals) there is a single pass, straight to the requested depth or to the end of the game.
    first_depth = 1 if EVALUATION in game.capabilities else last
    ranking, timed_out = moves_of(state), False
    if depth is None and can_solve(game) and (bound or MAX_ID_DEPTH) <= SOLVE_MAX_PLIES:
        # A share of the time goes to an exact solve first: it finishes from the middle game on, and its
        # answer is perfect. When it cannot finish, the rest of the time deepens with the heuristic.
        solved = exact_solve(game, state, deadline.share(SOLVE_SHARE), ordering, tt_capacity, tracer,
                             ranking, stats)
        if solved is not None:
            return solved
        nodes, leaves, cutoffs, tt_hits, max_ply = (stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits,
                                                     stats.max_depth)
        stats.stop_reason = COMPLETED
    completed = None
    try:
        for d in range(first_depth, last + 1):
            nodes += 1
            root_entry = trace_visit(0, -math.inf, math.inf, root_player) if tracer else None
            scores, line = root_pass(d, ranking)
            completed = (d, scores, line)
            best_score = max(v for _, v, _ in scores)
            if root_entry:
                root_entry["value"] = as_value(sign * best_score)
            deadline.report(depth=d, value=as_value(sign * best_score), move=line[0], pv=line, nodes=nodes,
                            seldepth=max_ply)
            ranking = [m for m, _, _ in sorted(scores, key=lambda ms: -ms[1])]  # stable: best first
            if outcome_game and abs(best_score) >= PROVEN:
                stats.stop_reason = SOLVED
                break
    except Timeout:
        timed_out = True
    tt.clear()                                         # on this search's time (TABLE_FREE_SECONDS_PER_ENTRY)

    stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits, stats.max_depth = (
        nodes, leaves, cutoffs, tt_hits, max_ply)
    if completed is None:
        fallback = first_move_fallback(game, state)
        return finish(game, state, stats, deadline, move=fallback.move, value=fallback.value, moves=[],
                      timed_out=True)
    d, scores, line = completed
    stats.depth_completed = d
    maximizing = sign == 1
    best_index = max(range(len(scores)), key=lambda i: (scores[i][1], -i))
    root_score = scores[best_index][1]
    # A win proven before the requested depth ends the deepening: the other moves' scores that are not
    # proven themselves are evaluations from a shallower search than asked for, estimates.
    cut_short = outcome_game and abs(root_score) >= PROVEN and not reaches_end(game, state, d)
    moves = [MoveValue(a, as_value(sign * v), ESTIMATE if cut_short and abs(v) < PROVEN
                       else b if maximizing else {UPPER: LOWER}.get(b, b))
             for a, v, b in scores]
    best = moves[best_index]
    outcome = plies = None
    if outcome_game and abs(root_score) >= PROVEN:
        outcome, plies = outcome_of(root_score), int(WIN - abs(root_score))
    elif reaches_end(game, state, d):
        outcome = exact_outcome(game, best.value)
        if outcome is not None:
            plies = draw_length(game, state, line)
    return finish(game, state, stats, deadline, move=best.move, value=best.value, moves=moves, pv=line,
                  outcome=outcome, plies_to_end=plies, trace=tracer.entries if tracer else None,
                  timed_out=timed_out)


def draw_length(game, state, line) -> int | None:
    """Plies to the end of a proven draw: along the principal variation when it reaches the end, else the
    game's bound (in tic-tac-toe and Connect Four a draw always fills the board)."""
    s = state
    for move in line:
        s = game.result(s, move)
    return len(line) if game.is_terminal(s) else game.plies_bound(state)
