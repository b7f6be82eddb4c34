"""The exact solver of win/draw/loss games, after Pascal Pons' Connect Four solver.

It proves the game-theoretic result and its distance: a binary search of null-window probes over the
possible results, each probe a fail-soft negamax to the end of the game with a table of proven bounds.
"""
from bisect import bisect_left, bisect_right
from itertools import islice
import math
from typing import Any, Protocol, runtime_checkable

from engine.deadline import Deadline, Timeout
from engine.game import IMMEDIATE_WIN, OUTCOME_BOUNDS, SAFE_CHILDREN
from engine.result import EXACT, LOWER, SOLVED, UPPER, MoveValue, Stats
from engine.search.common import count_node, declares, finish, outcome_of
from engine.search.scores import MAX_ID_DEPTH, TABLE_SECONDS_PER_ENTRY, WIN
from engine.search.scores import as_value, narrowed, tightened


@runtime_checkable
class ImmediateWin(Protocol):
    """Outcome games with a cheap test for a move that wins at once; capability
    :data:`~engine.game.IMMEDIATE_WIN`. Searches that use it (this solver, the principal-variation search,
    MCTS) skip generating the winning child."""

    def immediate_win(self, state):
        """A move that wins at once for the player to move, or None."""


@runtime_checkable
class SafeChildren(Protocol):
    """Outcome games with a cheap threat test, after Pons' Connect Four solver; capability
    :data:`~engine.game.SAFE_CHILDREN`."""

    def safe_children(self, state) -> list:
        """For a ``state`` whose player to move cannot win at once, ``(score, move, child)`` for the moves
        after which the opponent cannot win at once either, the likeliest best first (the game's ordering
        score, higher first, comes along as the sort left it). Every other move lets the opponent win on
        the next ply, so an exact solver may search only these (an empty list: the player to move loses
        in two plies) and need not test their children for an immediate win. The children come along
        because ordering the moves often builds them anyway."""

    def has_safe_move(self, state) -> bool:
        """Whether :meth:`safe_children` would list any move: a solver that only needs to know (a safe
        move puts off any loss by two plies, and that may settle its window) asks this cheaper
        question."""


@runtime_checkable
class OutcomeBounds(Protocol):
    """Outcome games with a cheap strategy argument (Connect Four's claimeven); capability
    :data:`~engine.game.OUTCOME_BOUNDS`."""

    def outcome_bounds(self, state) -> tuple | None:
        """``(lowest, highest)``, utilities between which the result of ``state`` for the player to move is
        known to lie however the game goes on (a win, draw or loss bound says nothing of when the game
        ends), or None when nothing is known. They hold for every state, so the solver checks them where
        they pay: once a position, before its moves are searched."""


def can_solve(game) -> bool:
    """Whether :func:`exact_solve` is correct for ``game``: win/draw/loss utilities, players that
    alternate (its windows count a player's next chance two plies on) and keys that fix the ply (its
    table stores scores counted from its root), as the game's type declares."""
    return game.outcome_game and declares(game, "alternating") and declares(game, "key_fixes_ply")


def exact_solve(game, state, deadline, ordering: bool, tt_capacity: int, tracer, ranking: list, stats: Stats):
    """The exact result of an outcome game, after Pascal Pons' Connect Four solver: the
    :class:`SearchResult`, or None when the deadline passed first. ``stats`` holds what the shallow
    iterations counted; the solve adds to it, finished or not.

    The root score is found by a binary search of null-window probes over the possible results (win or
    loss in so many plies, or a draw: :class:`RootBisection`), each probe a fail-soft negamax to the end
    of the game with a table of proven bounds (:class:`Prover`). This assumes that the players alternate,
    which :func:`can_solve` checks in the game's declarations. The solve frees its table before it
    returns.
    """
    prover = Prover(game, state, deadline, ordering, tt_capacity, tracer, stats)
    root = RootBisection(prover, state, root_ranking(game, state, ranking, prover.immediate_win))
    try:
        root_score = root.solve()
    except Timeout:
        return None
    finally:
        prover.tt.clear()                              # on this search's time (TABLE_FREE_SECONDS_PER_ENTRY)
    stats.depth_completed = prover.end
    stats.stop_reason = SOLVED
    best = root.ranking[0]
    sign = 1 if game.to_move(state) == prover.perspective else -1
    moves = []
    for a in game.actions(state):
        if root.lower[a] == root.upper[a] or a == best:
            moves.append(MoveValue(a, as_value(sign * root_score if a == best else sign * root.lower[a]), EXACT))
        elif root.upper[a] < math.inf:
            moves.append(MoveValue(a, as_value(sign * root.upper[a]), UPPER if sign == 1 else LOWER))
    plies = prover.end if root_score == 0 else int(WIN - abs(root_score))
    return finish(game, state, stats, deadline, move=best, value=as_value(sign * root_score), moves=moves,
                  pv=[best], outcome=outcome_of(root_score), plies_to_end=plies,
                  trace=tracer.entries if tracer else None)


def root_ranking(game, state, ranking, immediate_win) -> list:
    """The root's moves in the order the solve searches them: a move that wins at once first, then the
    caller's ``ranking`` (a pruning search's candidates may be only some of the moves: a proof covers
    every move), then the rest in the game's order."""
    ranking = list(ranking) + [a for a in game.actions(state) if a not in ranking]
    win = immediate_win(state) if immediate_win else None
    if win is not None:
        ranking = [win] + [a for a in ranking if a != win]
    return ranking


class Prover:
    """The solve's node search: :meth:`probe` and its table of proven bounds, counting into ``stats``.

    Every score is a proven win, draw (0) or loss, with the scores of the principal-variation search
    (``WIN - p`` for a win at ply ``p``), so the table needs no depth. Each node narrows its window before
    searching: a player who cannot win at once (``immediate_win``) wins at best two plies later, and a
    player with a safe move (``safe_children``: the opponent cannot win at once after it) loses at the
    earliest four plies later, so only safe moves are searched, and their children skip the immediate-win
    test (``may_win`` false). Before a position's moves are searched, the game may bound its result by a
    strategy argument (:class:`OutcomeBounds`): at least a draw, at most a draw, a win or a loss by the
    end of the board.

    The table keeps a lower and an upper bound per position and the move that set the better one, which
    is searched first when the position comes again. The bounds are stored as they are, not relative to
    the node: the table lives for one solve, and a key determines how many moves were played (the game
    declares ``key_fixes_ply``), so a position always comes at the same ply. A full table
    (``tt_capacity`` entries) drops its older half rather than everything: about a sixth fewer nodes on a
    long solve (Test_L1_R2's ``7357561511``) than clearing it."""

    def __init__(self, game, state, deadline: Deadline, ordering: bool, tt_capacity: int, tracer, stats: Stats):
        self.game, self.deadline, self.tt_capacity, self.tracer, self.stats = (
            game, deadline, tt_capacity, tracer, stats)
        self.perspective = game.perspective(state)
        # (The rules, bound once: a probe calls them at every node.)
        self.is_terminal, self.utility, self.to_move, self.result, self.key_of = (
            game.is_terminal, game.utility, game.to_move, game.result, game.key)
        self.moves_of = game.ordered_actions if ordering else game.actions
        self.safe_of = game.safe_children if ordering and SAFE_CHILDREN in game.capabilities else None
        self.has_safe_move: Any = game.has_safe_move if self.safe_of else None
        self.bounds_of = game.outcome_bounds if OUTCOME_BOUNDS in game.capabilities else None
        self.immediate_win: Any = game.immediate_win if IMMEDIATE_WIN in game.capabilities else None
        next_win = 3 if self.immediate_win else 1  # a player who cannot win at once wins this many plies later
        self.end = end = game.plies_bound(state) or MAX_ID_DEPTH  # the game is over by this ply
        # The window a node starts from, by ply: a win comes next_win plies later at the soonest, a loss two
        # (four once a safe move is known); neither once the board is full.
        self.ceiling_at = [WIN - p - next_win if p + next_win <= end else 0 for p in range(end + 1)]
        self.floor_at = [p + 2 - WIN if p + 2 <= end else 0 for p in range(end + 1)]
        self.safe_floor_at = [p + 4 - WIN if p + 4 <= end else 0 for p in range(end + 1)]
        self.child_may_win = not self.safe_of
        self.tt: dict[Any, Any] = {}
        self.node = self.traced_probe if tracer else self.probe

    def probe(self, s, alpha: float, beta: float, ply: int, may_win: bool) -> float:
        """The negamax score of ``s`` for its player to move, searched to the end of the game, fail-soft
        in ``(alpha, beta)``: ``<= alpha`` an upper bound, ``>= beta`` a lower bound, else exact. With
        ``may_win`` false the caller knows the player cannot win at once."""
        stats = self.stats
        count_node(stats, ply, self.deadline, self.tt)
        if self.is_terminal(s):
            stats.leaves += 1
            return self.utility(s, self.to_move(s)) * (WIN - ply)
        if may_win and self.immediate_win and self.immediate_win(s) is not None:
            stats.leaves += 1
            return WIN - ply - 1
        ceiling, floor = self.ceiling_at[ply], self.floor_at[ply]
        key = table_move = hit = None
        if self.tt_capacity:
            key = self.key_of(s)
            hit = self.tt.get(key)
            if hit is not None:
                stats.tt_hits += 1
                low, high, table_move = hit
                if low > floor:
                    floor = low
                if high < ceiling:
                    ceiling = high
        alpha, beta, settled = narrowed(floor, ceiling, alpha, beta)
        if settled is not None:                        # (a closed window: floor == ceiling, the exact score)
            return settled
        alpha0 = alpha
        if self.safe_of:
            if not self.has_safe_move(s):              # every move lets the opponent win next
                stats.leaves += 1
                return -(WIN - ply - 2)
            floor = self.safe_floor_at[ply]
            if floor >= beta:                          # (a sixth of the nodes: no move need be searched)
                return floor
            if floor > alpha:
                alpha = floor
        if self.bounds_of and hit is None:             # once a position: then the table holds what they gave
            known = self.bounds_of(s)
            if known is not None:
                alpha, beta = self.strategy_window(known, alpha, beta)
                if alpha >= beta:
                    return alpha
        best, best_move = self.expand(s, alpha, beta, ply, table_move)
        if self.tt_capacity:
            self.store(key, hit, best, best_move, alpha0, beta)
        return best

    def strategy_window(self, known, alpha, beta) -> tuple:
        """The window narrowed by the game's ``(lowest, highest)`` bounds (:class:`OutcomeBounds`): at least
        a draw (or a win by the end of the board), at most a draw (or a loss by the end). A window that
        closes (``alpha >= beta``) has its score in ``alpha``: a lower bound that reaches beta, or an
        upper bound at or below alpha."""
        lowest, highest = known
        end = self.end
        if lowest >= 0:
            floor = 0 if lowest == 0 else WIN - end
            if floor >= beta:
                return floor, floor
            if floor > alpha:
                alpha = floor
        if highest <= 0:
            ceiling = 0 if highest == 0 else -(WIN - end)
            if ceiling <= alpha:
                return ceiling, ceiling
            if ceiling < beta:
                beta = ceiling
        return alpha, beta

    def expand(self, s, alpha, beta, ply, table_move) -> tuple:
        """Search the moves of ``s``: the table's move first, then an enhanced transposition cut-off, then
        the others (only the safe ones where the game lists them). ``(best, best_move)``, fail-soft. A cut
        that leaves at least one of those moves unsearched counts in ``stats.cutoffs``."""
        result, tracer, node, may_win, stats = self.result, self.tracer, self.node, self.child_may_win, self.stats
        best, best_move = -math.inf, None
        if table_move is not None:                     # the table's move first, before ordering the rest
            if tracer:
                tracer.move(ply, table_move)
            best = -node(result(s, table_move), -beta, -alpha, ply + 1, may_win)
            best_move = table_move
            if best > alpha:
                alpha = best
        children = self.safe_of(s) if self.safe_of else [(0, a, None) for a in self.moves_of(s)]
        if best >= beta:
            stats.cutoffs += len(children) > 1
            return best, best_move
        if self.tt_capacity and self.safe_of and len(children) > 1:
            cut = self.transposition_cutoff(children, beta)
            if cut is not None:
                stats.cutoffs += 1
                return cut
        for i, (_, a, child) in enumerate(children):
            if a == table_move:
                continue
            if tracer:
                tracer.move(ply, a)
            v = -node(child if child is not None else result(s, a), -beta, -alpha, ply + 1, may_win)
            if v > best:
                best, best_move = v, a
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        stats.cutoffs += any(b != table_move for _, b, _ in children[i + 1:])
                        break
        return best, best_move

    def transposition_cutoff(self, children, beta):
        """Enhanced transposition cut-off: ``(score, move)`` of the first child whose table entry already
        refutes the opponent's reply (reaches ``beta`` from this side), counted as a visit (a table hit) of
        that child, or None. (A lone child's own probe reads the same entry first.)"""
        key_of, tt, stats = self.key_of, self.tt, self.stats
        for _, a, child in children:
            hit = tt.get(key_of(child))
            if hit is not None and -hit[1] >= beta:
                stats.nodes += 1
                stats.tt_hits += 1
                return -hit[1], a
        return None

    def store(self, key, hit, best, best_move, alpha0, beta) -> None:
        """Tighten the position's proven bounds with ``best`` (searched in ``(alpha0, beta)``): a lower bound
        if it beat ``alpha0``, an upper one if it stayed below ``beta``; the move kept is the one that set
        the better bound. A full table first drops its older half (a dict keeps the order of first
        insertion); ``hit`` stays valid: its bounds are proven whether or not its entry survives."""
        tt = self.tt
        if len(tt) >= self.tt_capacity:
            self.deadline.check_room(len(tt) * TABLE_SECONDS_PER_ENTRY)
            newer = list(islice(tt.items(), len(tt) // 2, None))
            tt.clear()
            tt.update(newer)
        low, high = (-math.inf, math.inf) if hit is None else (hit[0], hit[1])
        low, high = tightened(low, high, best, alpha0, beta)
        tt[key] = (low, high, best_move if best > alpha0 or hit is None else hit[2])

    def traced_probe(self, s, alpha, beta, ply, may_win):
        """:meth:`probe`, traced: the visit's window and value from the perspective player's side."""
        player = self.to_move(s)
        entry = self.trace_visit(ply, alpha, beta, player)
        v = self.probe(s, alpha, beta, ply, may_win)
        entry["value"] = as_value(v if player == self.perspective else -v)
        return v

    def trace_visit(self, ply, alpha, beta, player):
        if player == self.perspective:
            return self.tracer.visit(ply, as_value(alpha), as_value(beta))
        return self.tracer.visit(ply, as_value(-beta), as_value(-alpha))


def possible_results(end: int) -> tuple:
    """The possible results for the player to move when the game is over by ply ``end``, worst first:
    losses on even plies (the opponent's moves), the latest last, a draw, then wins on odd plies, the
    soonest last; and the draw's index."""
    results = ([-(WIN - k) for k in range(2, end + 1, 2)] + [0]
               + [WIN - k for k in range(end - (1 - end % 2), 0, -2)])
    return results, len(results) - 1 - (end + 1) // 2


def next_probe(low: int, high: int, probes: int, draw: int) -> int:
    """The index in the possible results to probe next (is the score above it?), the true score's index
    being in ``[low, high]`` after ``probes`` probes, ``draw`` the draw's index. Bisect, but (Pons) nearer
    the extremes first: whether a win or a loss comes soon is cheap to decide. After those two probes,
    the draw boundary: a win at all, else at least a draw. Against Pons' order alone this visits 28% fewer
    nodes on the drawn positions of Test_L2_R2 and 3% fewer over all 1000 (of the orders tried: also a
    mid-distance win or loss first, or at least a draw before a win)."""
    if probes >= 2 and low < draw <= high:
        return draw if high > draw else draw - 1
    med = low + (high - low) // 2
    if med <= draw and draw - (draw - low) // 2 < med:
        return draw - (draw - low) // 2
    if med >= draw and draw + (high - draw) // 2 > med:
        return draw + (high - draw) // 2
    return med


class RootBisection:
    """The root of the solve: a binary search over the possible results (:func:`possible_results`), one
    null-window probe each, keeping each root move's proven bounds (``lower``, ``upper``: always
    possible results, a probe's fail-soft bound rounded to the result it implies) and the ``ranking``
    of the moves, the one that last failed high first."""

    def __init__(self, prover: Prover, state, ranking: list):
        self.prover, self.state, self.ranking = prover, state, ranking
        self.results, self.draw = possible_results(prover.end)
        self.lower = {a: self.results[0] for a in ranking}
        self.upper = {a: math.inf for a in ranking}

    def solve(self) -> float:
        """The root score for the player to move; :class:`~engine.deadline.Timeout` when the deadline
        passes first."""
        results = self.results
        low, high, probes = 0, len(results) - 1, 0
        while low < high:
            med = next_probe(low, high, probes, self.draw)
            probes += 1
            alpha = results[med]
            v = self.probe(alpha, alpha + 1)
            if v <= alpha:
                high = self.rank_of(v, upper=True)
            else:
                low = self.rank_of(v, upper=False)
        # The move that last failed high (first in the ranking) is proven to reach the root score: the
        # bisection's lower end is its rounded bound. With no fail-high, every move loses at once.
        return results[low]

    def rank_of(self, score: float, upper: bool) -> int:
        """The index in the possible results that ``score`` bounds: the last result <= it when it is an
        upper bound, else the first result >= it."""
        return bisect_right(self.results, score) - 1 if upper else bisect_left(self.results, score)

    def probe(self, alpha: float, beta: float) -> float:
        """Search the root moves with the window ``(alpha, beta)`` until one fails high (it moves to the
        front of the ranking); the best score, fail-soft."""
        prover, tracer, results = self.prover, self.prover.tracer, self.results
        prover.stats.nodes += 1
        best = -math.inf
        for a in self.ranking:
            if tracer:
                tracer.visit(0, as_value(alpha), as_value(beta))
                tracer.move(0, a)
            v = -prover.node(prover.game.result(self.state, a), -beta, -alpha, 1, True)
            if v > best:
                best = v
            if v >= beta:
                self.lower[a] = max(self.lower[a], results[self.rank_of(v, upper=False)])
                self.ranking = [a] + [m for m in self.ranking if m != a]
                return best
            self.upper[a] = min(self.upper[a], results[self.rank_of(v, upper=True)])
        return best
