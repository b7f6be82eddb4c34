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
from typing import Any, Callable, Protocol, runtime_checkable

from engine.deadline import Deadline
from engine.errors import AlgorithmMismatch
from engine.game import CHANCE, EVALUATION, MOVE_ORDERING
from engine.result import EXACT, LOWER, UPPER, MoveValue, Stats
from engine.limits import Limits
from engine.search.common import (Linked, RootMoves, best_move, chosen_line, deepen, finish, first_move_fallback,
                                  player_bounds, require_decision_root, sides_of, unlinked)
from engine.search.settings import BOOLEAN, INTEGER, NUMBER, STRING, UTILITY, DepthSettings, depth_in_plies, setting
from engine.search.utility import LINEAR, Utility, parse_utility, prize_scale, transformed_bounds
from engine.search.multipv import MultiPVSettings, best_lines, ranked, threshold
from engine.search.trace import Tracer

NAME = "expectimax"
UNIFORM, EPSILON_GREEDY, MINIMAX = "uniform", "epsilon_greedy", "minimax"
OPPONENT_MODELS = (UNIFORM, EPSILON_GREEDY, MINIMAX)
DEFAULT_EPSILON = 0.1
DEFAULT_FORWARD_PRUNING = 8   # moves kept at deep MAX/MIN nodes of chance games that order their moves
MAX_FORWARD_PRUNING = 1000
PROBE_PLIES = 1               # Star2 probes successors with at least this many plies left below them
MASK = Deadline.CHECK_MASK


@dataclass(frozen=True)
class Settings(DepthSettings, MultiPVSettings):
    """``depth`` in plies (None: iterative deepening) or ``depth_rounds``
    (:func:`~engine.search.settings.depth_in_plies`); ``opponent_model`` (None: ``minimax`` in a game
    with chance nodes, else ``uniform``) and its ``epsilon``; ``pruning``: Star1 and Star2 where the game
    bounds its utilities; ``forward_pruning``: the number of moves searched at MAX/MIN nodes with two or
    more plies left, best first by the game's move ordering (0: all; None: the default described in the
    module); ``multi_pv`` (:mod:`engine.search.multipv`): the number of best root moves valued exactly
    and listed in ``lines`` (each line is its move alone); ``utility``: the risk attitude (:mod:`engine.search.utility`), its JSON form here and a
    :class:`~engine.search.utility.Utility` once constructed. Whether the model fits the game is checked
    when the game is known."""

    opponent_model: str | None = setting(None, STRING, choices=(UNIFORM, EPSILON_GREEDY), engine_only=(MINIMAX,))
    epsilon: float | None = setting(None, NUMBER, minimum=0, maximum=1)
    pruning: bool = setting(True, BOOLEAN)
    forward_pruning: int | None = setting(None, INTEGER, minimum=0, maximum=MAX_FORWARD_PRUNING)
    utility: Any = setting(LINEAR, UTILITY, echoed=True)  # its JSON form, then a Utility (check)
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


class Kernel(Protocol):
    """A game's own valuation for expectimax (see :class:`KernelGame`)."""

    step: int  # the plies between the depths iterative deepening should try

    def value(self, state, ply: int, limit: float, reach: float) -> float:
        """What :meth:`Walk.value` gives without pruning at ``ply`` of a pass ``limit`` plies deep, for a
        state reached with probability ``reach``."""

    def counts(self) -> tuple:
        """``(nodes, leaves, leaves cut short by the depth or the cutoff, table hits, deepest ply)`` so far."""

    def close(self) -> None:
        """Free the kernel's tables."""


@runtime_checkable
class KernelGame(Protocol):
    """A one-player chance game with a fast valuation of its own (2048). Optional: a game has it by
    defining the method; the search asks once, in :func:`fast_kernel`."""

    def expectimax_kernel(self, deadline: Deadline, cutoff: float, prize, capacity: int) -> Kernel:
        """A :class:`Kernel` that values states below ``cutoff`` reach by the evaluation and leaves by
        ``prize`` of the game's value (None: the value itself), polls ``deadline`` and keeps at most
        ``capacity`` table entries."""


def search(game, state, settings: Settings = Settings(), *, deadline: Deadline, trace: bool = False,
           limits: Limits = Limits(), root_moves: RootMoves = None):
    """The expectimax value of every root move (of ``root_moves`` alone, where given: engine.root), ``depth`` plies deep (None: iterative deepening until a
    pass is cut nowhere by the depth, so that it saw the whole game or all that the probability cut-off
    lets any deeper pass see, or the deadline passes, answering with the last complete depth).

    The result and the trace report values from ``game.perspective(state)`` (internally they are the
    root mover's: they differ only at the MIN root of a typed tree). With Star1, the trace's root entry
    also has ``bounds``: the range of values its windows rest on. Each move's ``certainty_equivalent`` is
    its value in the game's units under the risk attitude.
    """
    require_fit(game)
    require_decision_root(game, state)
    depth = depth_in_plies(settings, game)
    valuation = Valuation.of(game, settings.utility, settings.pruning)
    kernel = fast_kernel(game, trace, deadline, settings.probability_cutoff, valuation, limits)
    tracer = Tracer(game, limits, deadline) if trace else None
    walk = Walk(game, state, settings, valuation, deadline, tracer, kernel, root_moves)
    moves, depth_completed, timed_out = deepen(game, depth, walk.root_pass, kernel.step if kernel else 1)
    best = best_move(moves, maximize=walk.sign == 1) if moves else first_move_fallback(game, state, root_moves)
    stats = walk.stats(depth_completed)
    for mv in moves:
        mv.certainty_equivalent = valuation.certain(mv.value, walk.sign)
    result = finish(game, state, stats, deadline, move=best.move, value=best.value, moves=moves,
                    pv=chosen_line(walk.passes, moves, best),
                    trace=tracer.entries if tracer else None, timed_out=timed_out)
    result.certainty_equivalent = valuation.certain(best.value, walk.sign) if moves else None
    if settings.multi_pv > 1:
        result.lines = walk.lines(moves)
    return result


@dataclass(frozen=True)
class Valuation:
    """How a search values states: ``utility`` and ``evaluate`` (``(state, player)`` to a number) in the
    searcher's utility, ``bounds`` ``(lo, hi)`` of every such number (None: unknown, or no pruning to use
    them). Under a risk attitude (``transform`` not linear) each is the utility of the game value's prize,
    the value over ``scale``, and ``prizes`` are the bounds of the prizes."""

    utility: Callable
    evaluate: Callable
    bounds: tuple | None
    transform: Utility
    scale: float
    prizes: tuple | None

    @classmethod
    def of(cls, game, transform, pruning: bool) -> "Valuation":
        """The valuation of ``game`` under ``transform``; an error on ``algorithm.utility`` when a transform
        is asked of a game whose values are unbounded."""
        bounds, scale = player_bounds(game), prize_scale(game)
        utility, evaluate, prizes = game.utility, game.evaluate, None
        if transform.kind != LINEAR:
            if bounds is None:
                raise AlgorithmMismatch("a utility transform needs a game whose values are bounded",
                                        field="algorithm.utility")
            prizes = (bounds[0] / scale, bounds[1] / scale)
            bounds = transformed_bounds(transform, *prizes)
            utility, evaluate = prized(utility, transform, scale), prized(evaluate, transform, scale)
        return cls(utility, evaluate, bounds if pruning else None, transform, scale, prizes)

    def certain(self, value: float, sign: int) -> float:
        """The certainty equivalent of a utility ``value`` reported with ``sign`` (-1: negated for the
        perspective player), in the game's units and the same perspective. A linear search's values are
        in the game's units already."""
        if self.transform.kind == LINEAR or self.prizes is None:  # prizes: set for every other transform
            return value
        return sign * self.transform.inverse(sign * value, *self.prizes) * self.scale


def star1_window(alpha: float, beta: float, p: float, seen: float, rest_low: float, rest_high: float) -> tuple:
    """Star1's window ``(low, high)`` for a chance node's child of probability ``p``, when the children
    searched so far add ``seen`` (probability-weighted) and the unsearched others can add at least
    ``rest_low`` and at most ``rest_high``: a child worth at most ``low`` leaves the node at most
    ``alpha`` however the rest turns out, and one worth at least ``high`` leaves it at least ``beta``."""
    return (alpha - seen - rest_high) / p, (beta - seen - rest_low) / p


def greedy_distribution(moves: list, values: list, epsilon: float) -> list:
    """The epsilon-greedy opponent's ``(move, probability)``: ``epsilon / n`` each, plus ``1 - epsilon``
    for the first of the highest ``values`` (the opponent's own rating of each move's result)."""
    share = 1.0 / len(moves)
    greedy, best = 0, -math.inf
    for i, v in enumerate(values):
        if v > best:
            greedy, best = i, v
    return [(a, epsilon * share + (1.0 - epsilon if i == greedy else 0.0)) for i, a in enumerate(moves)]


class Walk:
    """The depth-first tree walk of one search, pass after pass.

    Every value is the searcher's (the root mover's) utility or evaluation. ``value(s, alpha, beta, ply,
    reach)`` (``reach``: the probability of the chance and opponent-model outcomes on the path to ``s``)
    is fail-soft: exact when the true value lies in ``(alpha, beta)``, else a bound beyond the window on
    the same side (at most ``alpha``, at least ``beta``). Without pruning every window is unbounded and
    every value exact. The counts (``nodes``, ``leaves``, ``cutoffs``, ``max_ply``) add up over passes.
    ``pv[ply]``: the line (``(move, rest)`` pairs) below the node last valued at that depth, each MAX or
    MIN node's choice down to a leaf or a chance node (whose outcome no one chooses); ``passes``: the last
    two passes' root moves, each with the lines of its moves; ``allowed``: the root moves it may play
    (engine.root; None: all).
    """

    def __init__(self, game, state, settings: Settings, valuation: Valuation, deadline: Deadline,
                 tracer: Tracer | None, kernel: Kernel | None, allowed: RootMoves = None):
        self.game, self.root, self.deadline, self.tracer, self.kernel = game, state, deadline, tracer, kernel
        self.allowed = allowed
        self.model, self.epsilon = opponent_settings(game, settings.opponent_model, settings.epsilon)
        self.pruning, self.cutoff = settings.pruning, settings.probability_cutoff
        self.keep = forward_pruning_for(game, settings.forward_pruning)
        self.multi_pv = settings.multi_pv
        self.ordering = MOVE_ORDERING in game.capabilities
        self.searcher = game.to_move(state)
        self.sides = sides_of(game)
        self.ours = self.sides[self.searcher]
        self.maximizes = tuple(side == self.ours for side in self.sides)  # by player: a MAX node's mover
        self.sign = 1 if self.sides[game.perspective(state)] == self.ours else -1
        self.to_move, self.actions, self.result = game.to_move, game.actions, game.result
        self.is_terminal, self.chance_outcomes = game.is_terminal, game.chance_outcomes
        self.utility, self.evaluate, self.bounds = valuation.utility, valuation.evaluate, valuation.bounds
        self.lo, self.hi = self.bounds or (-math.inf, math.inf)
        self.nodes = self.leaves = self.cutoffs = self.max_ply = 0
        self.limit, self.cut = math.inf, False  # the current pass's depth; whether it cut anywhere
        self.pv: dict[int, Linked] = {}
        self.passes: list[tuple[list, list]] = []

    # --- the nodes -------------------------------------------------------------------------------

    def value(self, s, alpha: float, beta: float, ply: int, reach: float, moves=None) -> float:
        """The node's value, a leaf's from the utility (terminal) or the evaluation (at the depth limit
        or below the probability cut-off), an inner node's from its kind; ``moves``: a decision node's
        moves when a Star2 probe has listed them already."""
        nodes = self.nodes = self.nodes + 1
        if not nodes & MASK:
            self.deadline.check(nodes)
        if ply > self.max_ply:
            self.max_ply = ply
        entry = self.visit(ply, alpha, beta) if self.tracer else None
        self.pv[ply] = None
        if self.is_terminal(s):
            self.leaves += 1
            v = self.utility(s, self.searcher)
        elif ply >= self.limit or reach < self.cutoff:
            self.leaves += 1
            self.cut = self.cut or ply >= self.limit  # a probability cut-off is the same in every deeper pass
            v = self.evaluate(s, self.searcher)
        else:
            mover = self.to_move(s)
            if mover >= 0 and self.maximizes[mover]:
                v = self.max_value(s, alpha, beta, ply, reach, moves or self.decision_moves(s, ply))
            elif mover == CHANCE:
                outcomes = self.chance_outcomes(s)
                if self.ordering and self.bounds is not None and self.limit - ply - 1 >= PROBE_PLIES:
                    v = self.probed_value(s, outcomes, alpha, beta, ply, reach)
                else:
                    v = self.expected_value(s, outcomes, alpha, beta, ply, reach)
            elif self.model == MINIMAX:
                v = self.min_value(s, alpha, beta, ply, reach, moves or self.decision_moves(s, ply))
            else:
                v = self.expected_value(s, self.opponent_outcomes(s, mover), alpha, beta, ply, reach)
        if entry:
            entry["value"] = self.sign * v
        return v

    def max_value(self, s, alpha: float, beta: float, ply: int, reach: float, moves: list) -> float:
        """A MAX node (the searcher's side): the highest child, cut at ``beta`` (alpha-beta, fail-soft)."""
        value, result, tracer, pruning, pv = self.value, self.result, self.tracer, self.pruning, self.pv
        v, last = -math.inf, len(moves) - 1
        for i, a in enumerate(moves):
            if tracer:
                tracer.move(ply, a)
            child = value(result(s, a), alpha, beta, ply + 1, reach)
            if child > v:
                v = child
                pv[ply] = (a, pv[ply + 1])
                if v >= beta:
                    self.cutoffs += i < last  # a cut after the last child prunes nothing
                    break
                if pruning and v > alpha:
                    alpha = v
        return v

    def min_value(self, s, alpha: float, beta: float, ply: int, reach: float, moves: list) -> float:
        """A MIN node (the minimax opponent model): the lowest child, cut at ``alpha``."""
        value, result, tracer, pruning, pv = self.value, self.result, self.tracer, self.pruning, self.pv
        v, last = math.inf, len(moves) - 1
        for i, a in enumerate(moves):
            if tracer:
                tracer.move(ply, a)
            child = value(result(s, a), alpha, beta, ply + 1, reach)
            if child < v:
                v = child
                pv[ply] = (a, pv[ply + 1])
                if v <= alpha:
                    self.cutoffs += i < last
                    break
                if pruning and v < beta:
                    beta = v
        return v

    def expected_value(self, s, outcomes: list, alpha: float, beta: float, ply: int, reach: float) -> float:
        """A chance node (of the game, or the opponent model's): the probability-weighted mean of the
        children. With bounds (Star1), each child is searched in :func:`star1_window`, the unseen rest
        taken between ``lo`` and ``hi``, and the node is cut, fail-soft, as soon as one child falls
        outside its window."""
        lo, hi, value, result, tracer, bounded = self.lo, self.hi, self.value, self.result, self.tracer, self.bounds
        total, rest, last = 0.0, 1.0, len(outcomes) - 1
        while last > 0 and outcomes[last][1] <= 0.0:  # a cut after the last outcome searched prunes nothing
            last -= 1
        for i, (o, p) in enumerate(outcomes):
            if p <= 0.0:
                continue
            if tracer:
                tracer.move(ply, o)
            if bounded is None:
                total += p * value(result(s, o), -math.inf, math.inf, ply + 1, reach * p)
                continue
            rest -= p
            low, high = star1_window(alpha, beta, p, total, rest * lo, rest * hi)
            v = value(result(s, o), max(low, lo), min(high, hi), ply + 1, reach * p)
            total += p * v
            # A cut-off's bound is at most alpha (at least beta) exactly; in floating point it can land
            # a rounding error beyond it, where a caller would read it as an exact value. Clamp it.
            if v <= low:
                self.cutoffs += i < last
                return min(total + rest * hi, alpha)
            if v >= high:
                self.cutoffs += i < last
                return max(total + rest * lo, beta)
        return total

    def probed_value(self, s, outcomes: list, alpha: float, beta: float, ply: int, reach: float) -> float:
        """Star2 at a chance node of the game (needs bounds): :meth:`probe` bounds each successor and may
        settle the node; otherwise the search phase is Star1 with each successor's own bounds in place
        of ``lo`` and ``hi``, the probe's move list handed on."""
        kids = [Successor(o, p, self.result(s, o), self.lo, self.hi) for o, p in outcomes if p > 0.0]
        settled, rest_up, rest_low = self.probe(kids, alpha, beta, ply, reach)
        if settled is not None:
            return settled
        total, last = 0.0, len(kids) - 1
        for i, kid in enumerate(kids):
            p, lower, upper = kid.p, kid.lower, kid.upper
            rest_up -= p * upper
            rest_low -= p * lower
            low, high = star1_window(alpha, beta, p, total, rest_low, rest_up)
            if upper <= low:                        # the bounds alone settle the node
                self.cutoffs += 1
                return min(total + p * upper + rest_up, alpha)
            if lower >= high:
                self.cutoffs += 1
                return max(total + p * lower + rest_low, beta)
            if self.tracer:
                self.tracer.move(ply, kid.outcome)
            v = self.value(kid.state, max(low, lower), min(high, upper), ply + 1, reach * p, kid.moves)
            total += p * v
            if v <= low:
                self.cutoffs += i < last  # a cut after the last successor prunes nothing
                return min(total + rest_up, alpha)
            if v >= high:
                self.cutoffs += i < last
                return max(total + rest_low, beta)
        return total

    def probe(self, kids: list, alpha: float, beta: float, ply: int, reach: float) -> tuple:
        """Star2's probing phase over a chance node's successors (:class:`Successor`, bounds at first
        ``[lo, hi]``): the first move of every decision successor is searched, and its value is a lower
        bound of a MAX successor (searched in the window that could lift the node to ``beta``) or an
        upper bound of a MIN successor (the window that could sink it to ``alpha``). Returns ``(settled,
        upper, lower)``: the node's fail-soft bound as soon as the successors' bounds settle it (else
        None), and the probability-weighted sums of their upper and lower bounds."""
        lo, hi = self.lo, self.hi
        up_total = low_total = 0.0
        for kid in kids:
            up_total += kid.p * kid.upper
            low_total += kid.p * kid.lower
        whole = True  # every successor so far searched in full by its probe (a cut then may prune nothing)
        for i, kid in enumerate(kids):
            c, p = kid.state, kid.p
            terminal = self.is_terminal(c)
            mover = CHANCE if terminal else self.to_move(c)
            maximizing = mover >= 0 and self.sides[mover] == self.ours
            if not maximizing and (mover == CHANCE or self.model != MINIMAX):
                whole = whole and terminal
                continue
            kid.moves = moves = self.decision_moves(c, ply + 1)
            whole = whole and len(moves) == 1
            pruned = not whole or i < len(kids) - 1
            if self.tracer:
                self.tracer.move(ply, kid.outcome)
                self.tracer.move(ply + 1, moves[0])
            first = self.result(c, moves[0])
            if maximizing:
                high = (beta - (low_total - p * kid.lower)) / p
                v = max(self.value(first, lo, min(high, hi), ply + 2, reach * p), lo)
                low_total += p * (v - kid.lower)
                kid.lower = v
                if low_total >= beta:
                    self.cutoffs += pruned
                    return max(low_total, beta), up_total, low_total
            else:
                low = (alpha - (up_total - p * kid.upper)) / p
                v = min(self.value(first, max(low, lo), hi, ply + 2, reach * p), hi)
                up_total += p * (v - kid.upper)
                kid.upper = v
                if up_total <= alpha:
                    self.cutoffs += pruned
                    return min(up_total, alpha), up_total, low_total
        return None, up_total, low_total

    def decision_moves(self, s, ply: int) -> list:
        """A MAX or MIN node's moves: best first, and at most ``keep`` of them, where two or more plies
        are left below the node (where one is, ordering would cost as much as the search)."""
        if not self.ordering or self.limit - ply < 2:
            return self.actions(s)
        self.deadline.check()  # ordering may evaluate hundreds of children (backgammon doubles)
        moves = self.game.ordered_actions(s)
        return moves[:self.keep] if self.keep else moves

    def root_moves(self, root) -> list:
        """The root's moves: a decision node's (:meth:`decision_moves`, where forward pruning applies), or
        where the root is restricted the ``allowed`` moves alone, every one, in the order the root would
        search them without forward pruning."""
        if self.allowed is None:
            return self.decision_moves(root, 0) if self.keep else self.actions(root)
        ordered = self.keep and self.ordering and self.limit >= 2
        return [a for a in (self.game.ordered_actions(root) if ordered else self.actions(root)) if a in self.allowed]

    def opponent_outcomes(self, s, mover: int) -> list:
        """The opponent's moves as chance outcomes ``(move, probability)`` under the opponent model."""
        moves = self.actions(s)
        if self.model == UNIFORM:
            share = 1.0 / len(moves)
            return [(a, share) for a in moves]
        return greedy_distribution(moves, [self.rating(s, a, mover) for a in moves], self.epsilon)

    def rating(self, s, a, mover: int) -> float:
        """The greedy opponent's one-ply look at move ``a``: ``mover``'s evaluation of its result. It
        counts as a visit (with a costly evaluation, it is much of the work)."""
        self.nodes += 1
        if not self.nodes & MASK:
            self.deadline.check()
        return self.game.evaluate(self.result(s, a), mover)

    def visit(self, ply: int, alpha: float, beta: float) -> dict | None:
        """The trace entry of a node searched in ``(alpha, beta)``, its window from the perspective."""
        assert self.tracer is not None  # visit is called when tracing only
        if self.sign == 1:
            return self.tracer.visit(ply, alpha, beta)
        return self.tracer.visit(ply, -beta, -alpha)

    # --- the root and the passes -----------------------------------------------------------------

    def root_pass(self, d: int | None, moves: list) -> bool:
        """Every root move ``d`` plies deep (None: no depth limit), appended to ``moves`` from the
        perspective: the first exact, a later one exact when it beats the best so far and otherwise
        (pruning only) a bound on the root mover's value. Reports progress to the deadline; returns
        whether the depth cut nowhere (:func:`~engine.search.common.deepen`)."""
        self.limit, self.cut = (math.inf if d is None else d), False
        self.nodes += 1
        entry = self.visit(0, -math.inf, math.inf) if self.tracer else None
        if entry and self.bounds is not None:  # Star1's range of values, which its cuts and windows rest on
            entry["bounds"] = [self.lo, self.hi] if self.sign == 1 else [-self.hi, -self.lo]
        kernel, state = self.kernel, self.root
        del self.passes[:-1]
        self.passes.append((moves, []))
        lines = self.passes[-1][1]
        exact_values: list[float] = []  # the root mover's exact values so far
        for i, a in enumerate(self.root_moves(state)):
            if self.tracer:
                self.tracer.move(0, a)
            # Pruning: the window rests on the multi_pv-th best value so far (the best, by default).
            alpha = threshold(exact_values, self.multi_pv) if self.pruning else -math.inf
            if kernel:
                horizon = kernel.counts()[2]
                v = kernel.value(self.result(state, a), 1, self.limit, 1.0)
                self.cut = self.cut or kernel.counts()[2] > horizon
            else:
                v = self.value(self.result(state, a), alpha, math.inf, 1, 1.0)
            lines.append([a] if kernel else [a, *unlinked(self.pv[1])])  # the kernel's games: chance next
            exact = kernel or not self.pruning or i < self.multi_pv or v > alpha
            moves.append(MoveValue(a, self.sign * v, EXACT if exact else UPPER if self.sign == 1 else LOWER))
            if exact:
                exact_values.append(v)
        best = best_move(moves, maximize=self.sign == 1)
        if entry:
            entry["value"] = best.value
        self.deadline.report(depth=d or self.max_ply, value=best.value, move=best.move,
                             pv=lines[moves.index(best)],
                             nodes=self.nodes, seldepth=self.max_ply,
                             lines=self.lines(moves) if self.multi_pv > 1 else None)
        return not self.cut

    def lines(self, moves: list) -> list:
        """The ``multi_pv`` best of a pass's root ``moves`` as :class:`~engine.result.Line`, each its move
        alone as its line (the next ply is chance's)."""
        return best_lines(moves, ranked(moves, self.multi_pv, self.sign == 1), lambda i: [])

    def stats(self, depth_completed: int | None) -> Stats:
        """The search's counts, the kernel's added in (and the kernel closed) when there is one."""
        nodes, leaves, max_ply, tt_hits = self.nodes, self.leaves, self.max_ply, 0
        if self.kernel:
            kernel_nodes, leaves, _, tt_hits, max_ply = self.kernel.counts()
            nodes += kernel_nodes
            self.kernel.close()
        return Stats(nodes=nodes, leaves=leaves, cutoffs=self.cutoffs, max_depth=max_ply, tt_hits=tt_hits,
                     depth_completed=max_ply if depth_completed is None else depth_completed)


class Successor:
    """A chance node's successor in Star2: its ``outcome`` of probability ``p``, its ``state``, the bounds
    ``[lower, upper]`` known of its value, and its move list once a probe has listed it."""

    __slots__ = ("outcome", "p", "state", "lower", "upper", "moves")

    def __init__(self, outcome, p: float, state, lower: float, upper: float):
        self.outcome, self.p, self.state, self.lower, self.upper, self.moves = outcome, p, state, lower, upper, None


def fast_kernel(game, trace: bool, deadline: Deadline, cutoff: float, valuation: Valuation,
                limits: Limits) -> Kernel | None:
    """The game's own valuation (:class:`KernelGame`) where it has one and no trace is asked for (the
    kernel records none), else None. Its values are the search's without pruning, which changes no
    value; the leaves' prizes go through the risk attitude as here."""
    if trace or not isinstance(game, KernelGame):
        return None
    transform, scale = valuation.transform, valuation.scale
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
