"""Expectimax (AIMA 5.5, EXPECTIMINIMAX) with Ballard's Star1 pruning at chance nodes.

The searcher is the player to move at the root; its nodes, and those of its side's other players (the
game's ``sides``: Pacman's ghosts are one side), are MAX nodes. A chance node is worth the
probability-weighted mean of its children. The nodes of every player of the other side (each of Pacman's
ghosts on its own ply, as CS188's expectimax has it) depend on ``opponent_model``:

- ``uniform``: the opponent is a chance node that picks each legal move with equal probability;
- ``epsilon_greedy``: with probability ``epsilon`` (default 0.1) a uniformly random move, otherwise the
  opponent's heuristic best: the move whose resulting state the opponent's own evaluation
  (``game.evaluate``, one ply ahead) rates highest, the first in natural order on ties; so each move has
  probability ``epsilon / n``, plus ``1 - epsilon`` for the greedy one;
- ``minimax``: the opponent minimises, as in AIMA's EXPECTIMINIMAX (MIN nodes of a backgammon-like tree).

The default is ``minimax`` in games that have chance nodes of their own (a typed tree with max, min and
chance nodes reads as the textbook's expectiminimax tree) and ``uniform`` in deterministic games, where
expectimax exists to model a fallible opponent (API.md). One-player games (2048) have no opponent.
Games of more than two players that are not two zero-sum sides need ``maxn``.

With ``pruning`` (the default) MAX and MIN nodes cut as alpha-beta does, and chance nodes as Star1 does
(Ballard 1983) when the game bounds its values: after some children, the node's value lies between what
they add up to plus the rest at the lowest and at the highest possible value, so a child's window is
narrowed to what could still move the node's value into (alpha, beta). The value is the same as without
pruning; only bounds are returned for what falls outside the window. Outcomes of probability 0 are never
searched.

Star2 (Ballard 1983; Hauk, Buro and Schaeffer 2004) adds a probing phase at the chance nodes of a game
that orders its moves (``MOVE_ORDERING``: a probe pays only if the first move is likely the best), when
the successors are not cut by the depth limit: the first move of each decision successor bounds it from
one side (a MAX successor is worth at least its first child, a MIN successor at most), the bounds may
settle the chance node before any successor is searched in full, and otherwise they narrow Star1's
windows. It pays even where the successors' moves are left unordered (one ply left: ordering would cost
a whole search there); bench/STRENGTH.md ("Backgammon") has the measurement.

Move ordering and forward pruning: at a MAX or MIN node with two or more plies left below it, a game
that orders its moves (``MOVE_ORDERING``) has them searched best first, and with ``forward_pruning`` k
only the first k are searched at all, as backgammon programs filter their candidate plays by a shallow
evaluation (the root included; pruned root moves are not reported). That is no longer exact
expectiminimax: it is off (0) unless asked for, except in games with chance nodes of their own that order
their moves, where the default keeps ``DEFAULT_FORWARD_PRUNING`` moves.

With ``probability_cutoff`` above 0, a state that the chance (and opponent-model) outcomes on its path
reach with a probability below it is valued by the evaluation, as a depth cut-off would (after the
published 2048 players, which cut at 0.0001): the search skips the improbable branches and goes deeper
along the likely ones in the same time. Values are then estimates even without a depth limit.
"""
from dataclasses import dataclass
import math

from engine.deadline import Deadline
from engine.errors import AlgorithmMismatch
from engine.game import CHANCE, EVALUATION, EXPECTIMAX_KERNEL, MOVE_ORDERING
from engine.result import EXACT, LOWER, UPPER, MoveValue, Stats
from engine.limits import Limits
from engine.search.common import (best_move, deepen, finish, first_move_fallback,
                                  player_bounds, require_decision_root, sides_of)
from engine.search.settings import BOOLEAN, INTEGER, NUMBER, STRING, UTILITY, DepthSettings, depth_in_plies, setting
from engine.search.utility import LINEAR, parse_utility, prize_scale, transformed_bounds
from engine.search.trace import Tracer

NAME = "expectimax"
UNIFORM, EPSILON_GREEDY, MINIMAX = "uniform", "epsilon_greedy", "minimax"
OPPONENT_MODELS = (UNIFORM, EPSILON_GREEDY, MINIMAX)
DEFAULT_EPSILON = 0.1
DEFAULT_FORWARD_PRUNING = 8   # moves kept at deep MAX/MIN nodes of chance games that order their moves
MAX_FORWARD_PRUNING = 1000
PROBE_PLIES = 1               # Star2 probes successors with at least this many plies left below them


@dataclass(frozen=True)
class Settings(DepthSettings):
    """``depth`` in plies (None: iterative deepening) or ``depth_rounds``
    (:func:`~engine.search.settings.depth_in_plies`); ``opponent_model`` (None: ``minimax`` in a game
    with chance nodes, else ``uniform``) and its ``epsilon``; ``pruning``: Star1 and Star2 where the game
    bounds its utilities; ``forward_pruning``: the number of moves searched at MAX/MIN nodes with two or
    more plies left, best first by the game's move ordering (0: all; None: the default described in the
    module); ``utility``: the risk attitude (:mod:`engine.search.utility`), its JSON form here and a
    :class:`~engine.search.utility.Utility` once constructed. Whether the model fits the game is checked
    when the game is known."""

    opponent_model: str | None = setting(None, STRING, choices=(UNIFORM, EPSILON_GREEDY), engine_only=(MINIMAX,))
    epsilon: float | None = setting(None, NUMBER, minimum=0, maximum=1)
    pruning: bool = setting(True, BOOLEAN)
    forward_pruning: int | None = setting(None, INTEGER, minimum=0, maximum=MAX_FORWARD_PRUNING)
    utility: object = setting(LINEAR, UTILITY, echoed=True)
    probability_cutoff: float = setting(0.0, NUMBER, minimum=0, maximum=1)

    def check(self):
        super().check()
        object.__setattr__(self, "utility", parse_utility(self.utility))


def requires(game_type) -> str | None:
    """One number must describe a state: one player, or two zero-sum sides (the opponent becomes a
    chance node of the opponent model)."""
    if game_type.min_players > 1 and not game_type.zero_sum:
        return "expectimax values states with one number; use maxn for a general-sum game"
    return None


def search(game, state, settings: Settings = Settings(), *, deadline: Deadline, trace: bool = False,
           limits: Limits = Limits()):
    """The expectimax value of every root move, ``depth`` plies deep (None: iterative deepening until a
    pass is cut nowhere by the depth, so that it saw the whole game or all that the probability cut-off
    lets any deeper pass see, or the deadline passes, answering with the last complete depth).

    Internally every value is the searcher's (the root mover's) utility or evaluation; the result and the
    trace report them from ``game.perspective(state)``, which differs only at the MIN root of a typed tree.
    With Star1, the trace's root entry also has ``bounds``: the range of values its windows rest on.
    ``value(s, alpha, beta, ply, reach)`` (``reach``: the probability of the outcomes that lead to ``s``) is
    fail-soft: exact when the true value lies in ``(alpha, beta)``, else a
    bound beyond the window on the same side (at most ``alpha``, at least ``beta``).
    """
    require_fit(game)
    require_decision_root(game, state)
    depth, pruning, cutoff = depth_in_plies(settings, game), settings.pruning, settings.probability_cutoff
    model, epsilon = opponent_settings(game, settings.opponent_model, settings.epsilon)
    searcher = game.to_move(state)
    sides = sides_of(game)
    ours = sides[searcher]
    sign = 1 if sides[game.perspective(state)] == ours else -1
    to_move, actions, result, chance_outcomes = game.to_move, game.actions, game.result, game.chance_outcomes
    is_terminal, utility, evaluate = game.is_terminal, game.utility, game.evaluate
    transform, scale = parse_utility(settings.utility), prize_scale(game)  # Settings parsed it already
    bounds = player_bounds(game)
    if transform.kind != LINEAR:
        # Every prize (a value over ``scale``) goes through the transform: the searcher maximises its
        # expected utility, and the bounds of the utilities are the transformed bounds of the prizes.
        if bounds is None:
            raise AlgorithmMismatch("a utility transform needs a game whose values are bounded",
                                    field="algorithm.utility")
        prizes = (bounds[0] / scale, bounds[1] / scale)
        bounds = transformed_bounds(transform, *prizes)
        utility = prized(utility, transform, scale)
        evaluate = prized(evaluate, transform, scale)
    if not pruning:
        bounds = None
    lo, hi = bounds or (-math.inf, math.inf)
    kernel = fast_kernel(game, trace, deadline, cutoff, transform, scale, limits)
    ordering = MOVE_ORDERING in game.capabilities
    ordered_actions, keep = game.ordered_actions, forward_pruning_for(game, settings.forward_pruning)
    mask = Deadline.CHECK_MASK
    tracer = Tracer(game, limits, deadline) if trace else None
    inf = math.inf
    nodes = leaves = cutoffs = max_ply = 0
    limit, cut = inf, False  # the current pass's depth; whether it cut anywhere

    def value(s, alpha, beta, ply, reach, moves=None):
        """``reach``: the probability of the outcomes on the path; ``moves``: the node's moves when a
        Star2 probe has already listed them."""
        nonlocal nodes, leaves, max_ply, cut
        nodes += 1
        if not nodes & mask:
            deadline.check()
        if ply > max_ply:
            max_ply = ply
        entry = visit(ply, alpha, beta) if tracer else None
        if is_terminal(s):
            leaves += 1
            v = utility(s, searcher)
        elif ply >= limit or reach < cutoff:
            leaves += 1
            cut = cut or ply >= limit     # a probability cut-off is the same in every deeper pass
            v = evaluate(s, searcher)
        else:
            mover = to_move(s)
            if mover == searcher or mover >= 0 and sides[mover] == ours:
                v = max_value(s, alpha, beta, ply, reach, moves or decision_moves(s, ply))
            elif mover == CHANCE:
                if ordering and bounds is not None and limit - ply - 1 >= PROBE_PLIES:
                    v = probed_value(s, chance_outcomes(s), alpha, beta, ply, reach)
                else:
                    v = expected_value(s, chance_outcomes(s), alpha, beta, ply, reach)
            elif model == MINIMAX:
                v = min_value(s, alpha, beta, ply, reach, moves or decision_moves(s, ply))
            else:
                v = expected_value(s, opponent_outcomes(s, mover), alpha, beta, ply, reach)
        if entry:
            entry["value"] = sign * v
        return v

    def decision_moves(s, ply):
        """A MAX or MIN node's moves: best first, and at most ``keep`` of them, where two or more plies
        are left below the node (where one is, ordering would cost as much as the search)."""
        if not ordering or limit - ply < 2:
            return actions(s)
        deadline.check()          # ordering may evaluate hundreds of children (backgammon doubles)
        moves = ordered_actions(s)
        return moves[:keep] if keep else moves

    def max_value(s, alpha, beta, ply, reach, moves):
        nonlocal cutoffs
        v = -inf
        for a in moves:
            if tracer:
                tracer.move(ply, a)
            child = value(result(s, a), alpha, beta, ply + 1, reach)
            if child > v:
                v = child
                if v >= beta:
                    cutoffs += 1
                    break
                if pruning and v > alpha:
                    alpha = v
        return v

    def min_value(s, alpha, beta, ply, reach, moves):
        nonlocal cutoffs
        v = inf
        for a in moves:
            if tracer:
                tracer.move(ply, a)
            child = value(result(s, a), alpha, beta, ply + 1, reach)
            if child < v:
                v = child
                if v <= alpha:
                    cutoffs += 1
                    break
                if pruning and v < beta:
                    beta = v
        return v

    def expected_value(s, outcomes, alpha, beta, ply, reach):
        """The probability-weighted mean of the children; with Star1, child ``i`` of probability ``p`` is
        searched in the window that keeps the node's value inside ``(alpha, beta)`` whatever the unseen
        rest (probability ``rest``) turns out to be between ``lo`` and ``hi``."""
        nonlocal cutoffs
        total, rest = 0.0, 1.0
        for o, p in outcomes:
            if p <= 0.0:
                continue
            if tracer:
                tracer.move(ply, o)
            if bounds is None:
                total += p * value(result(s, o), -inf, inf, ply + 1, reach * p)
                continue
            rest -= p
            low = (alpha - total - rest * hi) / p   # a child at most this leaves the node at most alpha
            high = (beta - total - rest * lo) / p   # a child at least this leaves the node at least beta
            v = value(result(s, o), max(low, lo), min(high, hi), ply + 1, reach * p)
            total += p * v
            # A cut-off's bound is at most alpha (at least beta) exactly; in floating point it can land
            # a rounding error beyond it, where a caller would read it as an exact value. Clamp it.
            if v <= low:
                cutoffs += 1
                return min(total + rest * hi, alpha)
            if v >= high:
                cutoffs += 1
                return max(total + rest * lo, beta)
        return total

    def probed_value(s, outcomes, alpha, beta, ply, reach):
        """Star2 at a chance node of the game. Each successor's value lies in ``[lower, upper]``, at first
        ``[lo, hi]``. The probing phase searches the first move of every decision successor: its value is
        a lower bound of a MAX successor (searched in the window that could lift the node to ``beta``)
        or an upper bound of a MIN successor (the window that could sink it to ``alpha``), and the node
        is cut as soon as the bounds settle it. The search phase is Star1 with each successor's own
        bounds in place of ``lo`` and ``hi``, and the probe's move list handed on."""
        nonlocal cutoffs
        kids, up_total, low_total = [], 0.0, 0.0
        for o, p in outcomes:
            if p > 0.0:
                kids.append([o, p, result(s, o), lo, hi, None])   # outcome, p, child, lower, upper, moves
                up_total += p * hi
                low_total += p * lo
        for kid in kids:
            o, p, c, lower, upper, _ = kid
            mover = CHANCE if is_terminal(c) else to_move(c)
            maximizing = mover >= 0 and sides[mover] == ours
            if not maximizing and (mover == CHANCE or model != MINIMAX):
                continue
            kid[5] = moves = decision_moves(c, ply + 1)
            if tracer:
                tracer.move(ply, o)
                tracer.move(ply + 1, moves[0])
            if maximizing:
                high = (beta - (low_total - p * lower)) / p
                v = max(value(result(c, moves[0]), lo, min(high, hi), ply + 2, reach * p), lo)
                low_total += p * (v - lower)
                kid[3] = v
                if low_total >= beta:
                    cutoffs += 1
                    return max(low_total, beta)
            else:
                low = (alpha - (up_total - p * upper)) / p
                v = min(value(result(c, moves[0]), max(low, lo), hi, ply + 2, reach * p), hi)
                up_total += p * (v - upper)
                kid[4] = v
                if up_total <= alpha:
                    cutoffs += 1
                    return min(up_total, alpha)
        total, rest_up, rest_low = 0.0, up_total, low_total
        for o, p, c, lower, upper, moves in kids:
            rest_up -= p * upper
            rest_low -= p * lower
            low = (alpha - total - rest_up) / p     # as in Star1, with the unseen successors' own bounds
            high = (beta - total - rest_low) / p
            if upper <= low:                        # the bounds alone settle the node
                cutoffs += 1
                return min(total + p * upper + rest_up, alpha)
            if lower >= high:
                cutoffs += 1
                return max(total + p * lower + rest_low, beta)
            if tracer:
                tracer.move(ply, o)
            v = value(c, max(low, lower), min(high, upper), ply + 1, reach * p, moves)
            total += p * v
            if v <= low:
                cutoffs += 1
                return min(total + rest_up, alpha)
            if v >= high:
                cutoffs += 1
                return max(total + rest_low, beta)
        return total

    def opponent_outcomes(s, mover):
        """The opponent's moves as chance outcomes under the opponent model. The greedy model's one-ply
        look at every child counts as a visit (with a costly evaluation, it is much of the work)."""
        nonlocal nodes
        moves = actions(s)
        share = 1.0 / len(moves)
        if model == UNIFORM:
            return [(a, share) for a in moves]
        greedy, best = 0, -inf
        for i, a in enumerate(moves):
            nodes += 1
            if not nodes & mask:
                deadline.check()
            v = evaluate(result(s, a), mover)
            if v > best:
                greedy, best = i, v
        return [(a, epsilon * share + (1.0 - epsilon if i == greedy else 0.0)) for i, a in enumerate(moves)]

    def visit(ply, alpha, beta):
        assert tracer is not None  # visit is called when tracing only
        if sign == 1:
            return tracer.visit(ply, alpha, beta)
        return tracer.visit(ply, -beta, -alpha)

    def root_pass(d, moves):
        """Every root move ``d`` plies deep: the first exact, a later one exact when it beats the best so
        far and otherwise (pruning only) an upper bound on the searcher's value."""
        nonlocal nodes, limit, cut
        limit, cut = (inf if d is None else d), False
        nodes += 1
        entry = visit(0, -inf, inf) if tracer else None
        if entry and bounds is not None:  # Star1's range of values, which its cuts and windows rest on
            entry["bounds"] = [lo, hi] if sign == 1 else [-hi, -lo]
        alpha = -inf
        for a in decision_moves(state, 0) if keep else actions(state):
            if tracer:
                tracer.move(0, a)
            if kernel:
                horizon = kernel.counts()[2]
                v = kernel.value(result(state, a), 1, limit, 1.0)
                cut = cut or kernel.counts()[2] > horizon
            else:
                v = value(result(state, a), alpha, inf, 1, 1.0)
            exact = kernel or not pruning or not moves or v > alpha
            moves.append(MoveValue(a, sign * v, EXACT if exact else UPPER if sign == 1 else LOWER))
            if pruning and v > alpha:
                alpha = v
        best = best_move(moves, maximize=sign == 1)
        if entry:
            entry["value"] = best.value
        deadline.report(depth=d or max_ply, value=best.value, move=best.move, pv=[best.move], nodes=nodes,
                        seldepth=max_ply)
        return not cut

    moves, depth_completed, timed_out = deepen(game, depth, root_pass, kernel.step if kernel else 1)
    best = best_move(moves, maximize=sign == 1) if moves else first_move_fallback(game, state)
    tt_hits = 0
    if kernel:
        kernel_nodes, leaves, _, tt_hits, max_ply = kernel.counts()
        nodes += kernel_nodes
        kernel.close()
    stats = Stats(nodes=nodes, leaves=leaves, cutoffs=cutoffs, max_depth=max_ply, tt_hits=tt_hits,
                  depth_completed=max_ply if depth_completed is None else depth_completed)

    def certain(value):
        """The certainty equivalent of a perspective utility, in the game's units and perspective (a
        linear search's values are in the game's units already: nothing was divided by ``scale``)."""
        if transform.kind == LINEAR:
            return value
        return sign * transform.inverse(sign * value, *prizes) * scale

    for mv in moves:
        mv.certainty_equivalent = certain(mv.value)
    result = finish(game, state, stats, deadline, move=best.move, value=best.value, moves=moves,
                    trace=tracer.entries if tracer else None, timed_out=timed_out)
    result.certainty_equivalent = certain(best.value) if moves else None
    return result


def fast_kernel(game, trace, deadline, cutoff, transform, scale, limits):
    """The game's own valuation (:meth:`~engine.game.Game.expectimax_kernel`) where it lists one and no
    trace is asked for (the kernel records none), else None. Its values are the search's without
    pruning, which changes no value; the leaves' prizes go through the transform as here."""
    if EXPECTIMAX_KERNEL not in game.capabilities or trace:
        return None
    prize = None if transform.kind == LINEAR else lambda v: transform(v / scale)
    return game.expectimax_kernel(deadline, cutoff, prize, limits.tt_max_entries)


def prized(values_of, transform, scale):
    """``values_of(state, player)`` (a utility or an evaluation) as the utility of its prize."""
    return lambda s, player: transform(values_of(s, player) / scale)


def require_fit(game) -> None:
    if game.n_players > 1 and not game.zero_sum:
        raise AlgorithmMismatch(f"expectimax values states with one number, which needs one player or two "
                                f"zero-sum sides; use maxn for this {game.n_players}-player game")


def forward_pruning_for(game, setting) -> int:
    """The number of moves kept at deep MAX/MIN nodes (0: all): the setting, or by default
    :data:`DEFAULT_FORWARD_PRUNING` in a game with chance nodes of its own that orders its moves."""
    if MOVE_ORDERING not in game.capabilities:
        return 0
    if setting is None:
        return DEFAULT_FORWARD_PRUNING if game.has_chance else 0
    return setting


def opponent_settings(game, model, epsilon) -> tuple:
    """The opponent model and its epsilon, validated; the model defaults as the module describes."""
    if model is None:
        model = MINIMAX if game.has_chance else UNIFORM
    if model not in OPPONENT_MODELS:
        raise AlgorithmMismatch(f"opponent_model is one of {list(OPPONENT_MODELS)}",
                                field="algorithm.opponent_model")
    if model == EPSILON_GREEDY and EVALUATION not in game.capabilities:
        raise AlgorithmMismatch("the epsilon_greedy opponent rates its moves with the game's evaluation, "
                                "which this game lacks (a tree needs an eval on every inner node)",
                                field="algorithm.opponent_model")
    if epsilon is None:
        return model, DEFAULT_EPSILON
    if model != EPSILON_GREEDY:
        raise AlgorithmMismatch("epsilon applies to the epsilon_greedy opponent model only",
                                field="algorithm.epsilon")
    if not isinstance(epsilon, (int, float)) or isinstance(epsilon, bool) or not 0.0 <= epsilon <= 1.0:
        raise AlgorithmMismatch("epsilon is a probability, a number in [0, 1]", field="algorithm.epsilon")
    return model, float(epsilon)
