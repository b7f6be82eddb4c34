"""The exact solver of win/draw/loss games, after Pascal Pons' Connect Four solver.

It proves the game-theoretic result and its distance: a binary search of null-window probes over the
possible results, each probe a fail-soft negamax to the end of the game with a table of proven bounds.
"""
from bisect import bisect_left, bisect_right
from itertools import islice
import math

from engine.deadline import Deadline, Timeout
from engine.game import IMMEDIATE_WIN, OUTCOME_BOUNDS, SAFE_CHILDREN
from engine.result import EXACT, LOWER, SOLVED, UPPER, MoveValue, Stats
from engine.search.common import declares, finish, outcome_of
from engine.search.scores import MAX_ID_DEPTH, TABLE_FREE_SECONDS_PER_ENTRY, TABLE_SECONDS_PER_ENTRY, WIN
from engine.search.scores import as_value


def can_solve(game) -> bool:
    """Whether :func:`exact_solve` is correct for ``game``: win/draw/loss utilities, players that
    alternate (its windows count a player's next chance two plies on) and keys that fix the ply (its
    table stores scores counted from its root), as the game's type declares."""
    return game.outcome_game and declares(game, "alternating") and declares(game, "key_fixes_ply")


def exact_solve(game, state, deadline, ordering: bool, tt_capacity: int, tracer, ranking: list, stats: Stats):
    """The exact result of an outcome game, after Pascal Pons' Connect Four solver: the
    :class:`SearchResult`, or None when the deadline passed first. ``stats`` holds what the shallow
    iterations counted; the solve adds to it.

    ``probe(s, alpha, beta, ply, may_win)`` is the negamax score of ``s`` for its player to move, searched
    to the end of the game, fail-soft, with the scores of :func:`enhanced` (``WIN - p`` for a win at ply
    ``p``): every score is a proven win, draw (0) or loss, so the table needs no depth. The root score is
    found by a binary search of null-window probes over the possible results (win or loss in so many
    plies, or a draw): see ``next_probe`` for the order. Each node narrows its window before searching:
    a player who cannot win at once (``immediate_win``) wins at best two plies later, and a player with a
    safe move (``safe_children``: the opponent cannot win at once after it) loses at the earliest four
    plies later, so only safe moves are searched, and their children skip the immediate-win test
    (``may_win`` false). This assumes that the players alternate, which :func:`can_solve` checks in the
    game's declarations. Before a position's moves are searched, the game may
    bound its result by a strategy argument (``Game.outcome_bounds``, Connect Four's claimeven): at least
    a draw, at most a draw, a win or a loss by the end of the board.

    The table keeps a lower and an upper bound per position and the move that set the better one, which
    is searched first when the position comes again. The bounds are stored as they are, not relative to
    the node: the table lives for one solve, and a key determines how many moves were played (the
    game declares ``key_fixes_ply``), so a position always comes at the same ply. A full table (``tt_capacity`` entries)
    drops its older half rather than everything: about a sixth fewer nodes on a long solve (Test_L1_R2's
    ``7357561511``) than clearing it. The solve frees its table before it returns.
    """
    perspective = game.perspective(state)
    to_move, result, is_terminal, utility = game.to_move, game.result, game.is_terminal, game.utility
    key_of, plies_bound = game.key, game.plies_bound
    moves_of = game.ordered_actions if ordering else game.actions
    safe_of = game.safe_children if ordering and SAFE_CHILDREN in game.capabilities else None
    has_safe_move = game.has_safe_move
    bounds_of = game.outcome_bounds if OUTCOME_BOUNDS in game.capabilities else None
    has_win_test = IMMEDIATE_WIN in game.capabilities
    immediate_win = game.immediate_win if has_win_test else None
    next_win = 3 if has_win_test else 1        # a player who cannot win at once wins this many plies later
    mask = Deadline.CHECK_MASK
    inf = math.inf
    end = plies_bound(state) or MAX_ID_DEPTH      # the game is over by this ply
    # The window a node starts from, by ply: a win comes next_win plies later at the soonest, a loss two
    # (four once a safe move is known); neither once the board is full.
    ceiling_at = [WIN - p - next_win if p + next_win <= end else 0 for p in range(end + 1)]
    floor_at = [p + 2 - WIN if p + 2 <= end else 0 for p in range(end + 1)]
    safe_floor_at = [p + 4 - WIN if p + 4 <= end else 0 for p in range(end + 1)]
    child_may_win = not safe_of
    tt: dict[object, tuple] = {}  # key -> (low, high, best move)
    nodes, leaves, cutoffs, tt_hits, max_ply = (stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits,
                                                 stats.max_depth)

    def probe(s, alpha, beta, ply, may_win):
        nonlocal nodes, leaves, cutoffs, tt_hits, max_ply
        nodes += 1
        if not nodes & mask:
            deadline.check_room(len(tt) * TABLE_FREE_SECONDS_PER_ENTRY)
        if ply > max_ply:
            max_ply = ply
        if is_terminal(s):
            leaves += 1
            return utility(s, to_move(s)) * (WIN - ply)
        if may_win and immediate_win and immediate_win(s) is not None:
            leaves += 1
            return WIN - ply - 1
        ceiling, floor = ceiling_at[ply], floor_at[ply]
        table_move = hit = None
        if tt_capacity:
            key = key_of(s)
            hit = tt.get(key)
            if hit is not None:
                tt_hits += 1
                low, high, table_move = hit
                if low > floor:
                    floor = low
                if high < ceiling:
                    ceiling = high
        if floor >= beta:
            return floor
        if ceiling <= alpha:
            return ceiling
        if floor > alpha:
            alpha = floor
        if ceiling < beta:
            beta = ceiling
        if alpha >= beta:                              # floor == ceiling: the exact score
            return alpha
        alpha0, best, best_move = alpha, -inf, None
        if safe_of:
            if not has_safe_move(s):                  # every move lets the opponent win next
                leaves += 1
                return -(WIN - ply - 2)
            floor = safe_floor_at[ply]
            if floor >= beta:                         # (a sixth of the nodes: no move need be searched)
                return floor
            if floor > alpha:
                alpha = floor
        if bounds_of and hit is None:                 # once a position: then the table holds what they gave
            known = bounds_of(s)
            if known is not None:
                lowest, highest = known
                if lowest >= 0:
                    floor = 0 if lowest == 0 else WIN - end
                    if floor >= beta:
                        return floor
                    if floor > alpha:
                        alpha = floor
                if highest <= 0:
                    ceiling = 0 if highest == 0 else -(WIN - end)
                    if ceiling <= alpha:
                        return ceiling
                    if ceiling < beta:
                        beta = ceiling
        if table_move is not None:                     # the table's move first, before ordering the rest
            if tracer:
                tracer.move(ply, table_move)
            best = -node(result(s, table_move), -beta, -alpha, ply + 1, child_may_win)
            best_move = table_move
            if best > alpha:
                alpha = best
        if best < beta:
            children = safe_of(s) if safe_of else [(0, a, None) for a in moves_of(s)]
            if tt_capacity and safe_of and len(children) > 1:
                # Enhanced transposition cut-off: a child whose table entry already refutes the
                # opponent's reply cuts at once, counted as a visit (a table hit) of that child. A lone
                # child's own probe reads the same entry first.
                for _, a, child in children:
                    hit_c = tt.get(key_of(child))
                    if hit_c is not None and -hit_c[1] >= beta:
                        nodes += 1
                        tt_hits += 1
                        best, best_move = -hit_c[1], a
                        break
            for _, a, child in (children if best < beta else ()):
                if a == table_move:
                    continue
                if tracer:
                    tracer.move(ply, a)
                v = -node(child if child is not None else result(s, a), -beta, -alpha, ply + 1, child_may_win)
                if v > best:
                    best, best_move = v, a
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
        if best >= beta:
            cutoffs += 1
        if tt_capacity:
            if len(tt) >= tt_capacity:
                # Full: keep the newer half (a dict keeps the order of first insertion). ``hit`` stays
                # valid: its bounds are proven whether or not its entry survives.
                deadline.check_room(len(tt) * TABLE_SECONDS_PER_ENTRY)
                newer = list(islice(tt.items(), len(tt) // 2, None))
                tt.clear()
                tt.update(newer)
            low, high = (-inf, inf) if hit is None else (hit[0], hit[1])
            if best > alpha0:
                low = best
            if best < beta:
                high = best
            tt[key] = (low, high, best_move if best > alpha0 or hit is None else hit[2])
        return best

    def traced_probe(s, alpha, beta, ply, may_win):
        player = to_move(s)
        entry = trace_visit(ply, alpha, beta, player)
        v = probe(s, alpha, beta, ply, may_win)
        if entry:
            entry["value"] = as_value(v if player == perspective else -v)
        return v

    node = traced_probe if tracer else probe

    def trace_visit(ply, alpha, beta, player):
        if player == perspective:
            return tracer.visit(ply, as_value(alpha), as_value(beta))
        return tracer.visit(ply, as_value(-beta), as_value(-alpha))

    # --- the root: a binary search over the possible results, one null-window probe each ---
    root_player = to_move(state)
    # A proof covers every move: the caller's ranking first (a pruning search's candidates may be only
    # some of them), then the rest in the game's order.
    ranking = list(ranking) + [a for a in game.actions(state) if a not in ranking]
    win = immediate_win(state) if immediate_win else None
    if win is not None:                               # search the winning move first
        ranking = [win] + [a for a in ranking if a != win]

    # The possible results for the player to move, worst first: losses on even plies (the opponent's
    # moves), the latest last, a draw, then wins on odd plies, the soonest last.
    results = ([-(WIN - k) for k in range(2, end + 1, 2)] + [0]
               + [WIN - k for k in range(end - (1 - end % 2), 0, -2)])
    draw = len(results) - 1 - (end + 1) // 2
    # Each root move's proven bounds, always possible results: a probe's fail-soft bound is rounded to
    # the result it implies (above a fail-high, below a fail-low).
    lower = {a: results[0] for a in ranking}
    upper = {a: inf for a in ranking}

    def rank_of(score, upper: bool):
        """The index in ``results`` that ``score`` bounds: the last result <= it when it is an upper
        bound, else the first result >= it."""
        return bisect_right(results, score) - 1 if upper else bisect_left(results, score)

    def root_probe(alpha, beta):
        """Search the root moves with the window (alpha, beta) until one fails high; the best score."""
        nonlocal nodes, ranking
        nodes += 1
        best = -inf
        for a in ranking:
            if tracer:
                tracer.visit(0, as_value(alpha), as_value(beta))
                tracer.move(0, a)
            v = -node(result(state, a), -beta, -alpha, 1, True)
            if v > best:
                best = v
            if v >= beta:
                lower[a] = max(lower[a], results[rank_of(v, upper=False)])
                ranking = [a] + [m for m in ranking if m != a]
                return best
            upper[a] = min(upper[a], results[rank_of(v, upper=True)])
        return best

    def next_probe(low, high, probes):
        """The index in ``results`` to probe next (is the score above it?), the true score's index being
        in ``[low, high]`` after ``probes`` probes. Bisect, but (Pons) nearer the extremes first: whether
        a win or a loss comes soon is cheap to decide. After those two probes, the draw boundary: a win
        at all, else at least a draw. Against Pons' order alone this visits 28% fewer nodes on the drawn
        positions of Test_L2_R2 and 3% fewer over all 1000 (of the orders tried: also a mid-distance win
        or loss first, or at least a draw before a win)."""
        if probes >= 2 and low < draw <= high:
            return draw if high > draw else draw - 1
        med = low + (high - low) // 2
        if med <= draw and draw - (draw - low) // 2 < med:
            return draw - (draw - low) // 2
        if med >= draw and draw + (high - draw) // 2 > med:
            return draw + (high - draw) // 2
        return med

    low, high, probes = 0, len(results) - 1, 0
    try:
        while low < high:
            med = next_probe(low, high, probes)
            probes += 1
            alpha = results[med]
            v = root_probe(alpha, alpha + 1)
            if v <= alpha:
                high = rank_of(v, upper=True)
            else:
                low = rank_of(v, upper=False)
        # The move that last failed high (first in the ranking) is proven to reach the root score: the
        # bisection's lower end is its rounded bound. With no fail-high, every move loses at once.
        root_score = results[low]
    except Timeout:
        return None
    finally:                                          # what the solve visited counts, finished or not
        stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits, stats.max_depth = (
            nodes, leaves, cutoffs, tt_hits, max_ply)
        tt.clear()                                    # on this search's time (TABLE_FREE_SECONDS_PER_ENTRY)
    stats.depth_completed = end
    stats.stop_reason = SOLVED
    best = ranking[0]
    sign = 1 if root_player == perspective else -1
    moves = []
    for a in game.actions(state):
        if lower[a] == upper[a] or a == best:
            moves.append(MoveValue(a, as_value(sign * root_score if a == best else sign * lower[a]), EXACT))
        elif upper[a] < inf:
            moves.append(MoveValue(a, as_value(sign * upper[a]), UPPER if sign == 1 else LOWER))
    outcome = outcome_of(root_score)
    plies = end if root_score == 0 else int(WIN - abs(root_score))
    return finish(game, state, stats, deadline, move=best, value=as_value(sign * root_score), moves=moves,
                  pv=[best], outcome=outcome, plies_to_end=plies,
                  trace=tracer.entries if tracer else None)
