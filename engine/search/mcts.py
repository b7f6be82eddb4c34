"""Monte Carlo tree search: UCT (Kocsis and Szepesvari 2006) with MCTS-Solver (Winands et al. 2008).

Each iteration walks down the tree, at decision nodes to the child with the best upper confidence bound
``mean + exploration * sqrt(ln N(parent) / N(child))`` and at chance nodes to an outcome sampled by its
probability; adds one child (a decision node's next untried move, in natural order, or the sampled
outcome); plays a rollout from it to the end of the game; and adds the final utilities to the statistics
of every node on the path, each node counting the utility of the player who chose the move into it.
Utilities are scaled to [0, 1] by the game's bounds (without overflow, whatever finite numbers they are). So two-player zero-sum games, n-player games (each
player its own utility) and one-player games against chance (2048) are all searched alike.

Rollouts (``rollout``): ``random`` plays uniformly random moves, or the game's own random policy where it
has one (:class:`PolicyPlayout`: Go never fills its own eye), whose playouts' final owners of the board's
points the answer then reports (Go: ``ownership`` and ``score_lead``); ``heuristic`` plays a move that wins at once
when the game can tell (``immediate_win``), else with probability 0.1 a random move, else the move whose
result the mover's own evaluation rates highest (one ply, first on ties; among the game's
``candidate_actions`` when it prunes its moves, as a wide board does). Chance outcomes are sampled.

MCTS-Solver, in win/draw/loss games without chance: a terminal state's result is proven; a node is a
proven win for its mover as soon as one child is, and otherwise proven once every child is (the best of
their results). Proven nodes are not searched again (an iteration that reaches one scores its result) and
children proven lost are no longer selected. When the root is proven the search stops (``solved``) and
reports the outcome; MCTS does not prove distances, so ``plies_to_end`` stays null (except in a game with
an endgame solver of its own, Othello, whose solver then scores the position:
:func:`engine.search.endgame.scored_outcome`).

Budget: the deadline, and ``iterations`` if given. The search stops with ``time_limit`` (``timed_out``
true: for MCTS the normal end when no iteration cap is given), ``iteration_limit`` or ``solved``. The
answer is the root child proven a win if there is one; else, among the children not proven lost (all
of them, when every one is), the most visited, ties to the higher mean, then to the first in natural
order. Every root move tried is reported with its visits and its mean utility from the perspective
player's point of view; ``bound`` is ``exact`` for a proven move and ``estimate`` for a mean.
Same seed and same iteration cap give the same answer and the same visit counts; without a seed each
search draws a fresh one.

Memory: the tree holds at most ``limits.tt_max_entries`` nodes; when it is full, iterations still run
and roll out from the node where they would have added a child.

Statistics: ``nodes`` counts every state an iteration passes through (tree nodes from the root, rollout
states, and the states a heuristic rollout evaluates), ``leaves`` the iterations' end states,
``max_depth`` the depth of the tree (rollouts not included), ``iterations`` the iterations completed.

Trace (the Python core): one entry per iteration completed, at most ``MAX_TRACE_ENTRIES`` (more
``iterations`` asked for is an error, and so is a trace that would pass ``MAX_TRACE_BYTES``):
:class:`TracedUCT`. A traced search plays the same moves, draws the same random numbers and counts the
same nodes as the search without a trace. Every ``PROGRESS_EVERY`` iterations it reports its progress to the deadline's listener,
if any (the tree's depth as ``depth``, the answer so far as ``move`` and ``pv``).
"""
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
import math
import random
from typing import Any, Protocol, runtime_checkable

from engine import scale
from engine.deadline import Deadline, Timeout
from engine.errors import AlgorithmMismatch, TraceTooLarge
from engine.game import CANDIDATES, CHANCE, IMMEDIATE_WIN
from engine.result import ESTIMATE, EXACT, ITERATION_LIMIT, SOLVED, MoveValue, Stats
from engine.limits import Limits
from engine.search.settings import INTEGER, NUMBER, STRING, setting
from engine.search.common import (RootMoves, first_move_fallback, finish, outcome_of, player_bounds, require_decision_root,
                                  unit_interval)
from engine.search.endgame import scored_lines
from engine.search.multipv import MultiPVSettings, best_lines
from engine.search.trace import Collector

NAME = "mcts"
RANDOM, HEURISTIC = "random", "heuristic"
MAX_EXPLORATION = 100.0
MAX_SEED = 2**64 - 1
# The most iterations a request may cap a search at: more than any time limit allows (a million a second
# for at most MAX_TIME_LIMIT_MS), within the compiled core's 64-bit count (2**63 was a std::bad_cast, a 500).
MAX_ITERATIONS = 10**9
ROLLOUT_EPSILON = 0.1
TERMINAL = -2          # the mover of a terminal node
PROGRESS_EVERY = 1024  # iterations between two progress reports (a power of two)
PROGRESS_MASK = PROGRESS_EVERY - 1
MASK = Deadline.CHECK_MASK


@dataclass(frozen=True)
class Settings(MultiPVSettings):
    """``iterations``: a cap (None: the time limit alone); ``exploration``: the UCT constant;
    ``seed``: the random stream (same seed and iterations, same answer); ``rollout``: ``random`` or
    ``heuristic`` (epsilon-greedy on the game's evaluation); ``multi_pv``
    (:mod:`engine.search.multipv`): the number of root moves listed in ``lines``, the most visited first
    (the move chosen's order), each with its mean value and its most visited line."""

    iterations: int | None = setting(None, INTEGER, minimum=1, maximum=MAX_ITERATIONS)
    exploration: float = setting(math.sqrt(2), NUMBER, minimum=0, maximum=MAX_EXPLORATION)
    seed: int | None = setting(None, INTEGER, minimum=0, maximum=MAX_SEED)
    rollout: str = setting(RANDOM, STRING, choices=(RANDOM, HEURISTIC))


def requires(game_type) -> str | None:
    """Monte Carlo tree search needs only the rules: it fits every game."""
    return None


def require_traceable(settings: Settings, limits: Limits) -> None:
    """A trace has one entry an iteration: more ``iterations`` than ``MAX_TRACE_ENTRIES`` is an error
    before any search (without a cap, the trace's own limits stop the search: :class:`Collector`)."""
    if settings.iterations is not None and settings.iterations > limits.max_trace_entries:
        raise TraceTooLarge(f"a trace has one entry an iteration, at most MAX_TRACE_ENTRIES "
                            f"({limits.max_trace_entries}): ask for fewer iterations or no trace",
                            field="algorithm.iterations")


def require_budget(settings: Settings, deadline: Deadline) -> None:
    """MCTS stops at its iteration cap or its deadline: a search without either is an error."""
    if settings.iterations is None and deadline.end is None:
        raise AlgorithmMismatch("mcts needs a budget: a time limit or algorithm.iterations",
                                field="algorithm.iterations")


@runtime_checkable
class PlayoutGame(Protocol):
    """A game with a short, cheap playout of its own (Connect Four, Othello). Optional: a game has it by
    defining the method; a random rollout asks once per search, in :class:`Rollout`."""

    def random_playout(self, state, uniform) -> tuple:
        """Uniformly random moves from ``state`` to the end of the game, the ``k``-th legal move in
        natural order where ``uniform()`` (a float in [0, 1)) times their number rounds down to ``k``,
        exactly as a rollout would play them with ``actions`` and ``result``; ``(utilities, plies)``: the
        final utilities and the number of moves played."""


@runtime_checkable
class PolicyPlayout(Protocol):
    """A game whose random rollout follows a policy of its own rather than uniform moves (Go: never filling
    the mover's own eye, passing only when nothing else is left). Optional: a game has it by defining both
    methods; a ``random`` rollout then plays it instead of ``actions`` and ``result``."""

    def policy_playout(self, state, uniform, check, played=None) -> tuple:
        """A random playout from ``state`` to the end of the game by the game's policy, drawing from
        ``uniform()`` (a float in [0, 1)) and calling ``check()`` (which raises the search's
        :class:`~engine.deadline.Timeout` once its time is up) every few moves, so that a long playout
        keeps the deadline, each move appended to ``played`` when it is a list;
        ``(utilities, plies, owners)``: the final utilities, the moves played, and each point's owner at
        the end (+1 the first player, -1 the second, 0 neither)."""

    def playout_extras(self, state, owners: list) -> dict:
        """The answer's fields of the game's own from ``owners``, each point's mean final owner over the
        search's playouts from ``state``."""


def search(game, state, settings: Settings = Settings(), *, deadline: Deadline, trace: bool = False,
           limits: Limits = Limits(), root_moves: RootMoves = None):
    """Run UCT iterations until the budget is spent or the root is proven; see the module docstring. The
    root's children are the moves of ``root_moves`` alone, where given (engine.root).
    Values are reported from ``game.perspective(state)``; ``trace``: the iterations' trace
    (:class:`TracedUCT`), for at most ``limits.max_trace_entries`` iterations."""
    require_decision_root(game, state)
    require_budget(settings, deadline)
    if trace:
        require_traceable(settings, limits)
    uniform = random.Random(settings.seed).random  # the one source of randomness: a float in [0, 1)
    to_unit, from_unit = unit_interval(*(player_bounds(game) or (0.0, 1.0)))
    rollout = Rollout(game, settings.rollout, uniform, deadline, to_unit, recorded=trace)
    args = (game, state, settings.exploration, uniform, rollout, deadline, limits.tt_max_entries, from_unit,
            settings.multi_pv, root_moves)
    tree = TracedUCT(*args, tracer=Collector(game, limits, deadline)) if trace else UCT(*args)
    stop, timed_out = tree.run(settings.iterations)
    listed, chosen = tree.root_moves()
    stats = Stats(nodes=tree.nodes + rollout.nodes, leaves=tree.leaves, max_depth=tree.max_ply,
                  iterations=tree.iterations)
    if stop:
        stats.stop_reason = stop
    if chosen is None:
        fallback = first_move_fallback(game, state, root_moves)
        return finish(game, state, stats, deadline, move=fallback.move, value=0.0, moves=[],
                      timed_out=timed_out)
    best = listed[chosen]
    outcome = None if tree.root.proof is None else outcome_of(tree.sign * tree.root.proof)
    answer = finish(game, state, stats, deadline, move=best.move, value=best.value, moves=listed,
                    outcome=outcome, timed_out=timed_out,
                    trace=tree.tracer.entries if isinstance(tree, TracedUCT) else None)
    if settings.multi_pv > 1:
        answer.lines = tree.lines(settings.multi_pv)
    answer.value_scale = values_scale(game)
    if rollout.owned is not None and rollout.playouts:
        answer.move_extras = game.playout_extras(state, [o / rollout.playouts for o in rollout.owned])
    return scored_lines(game, state, answer, deadline, True, limits.tt_max_entries, root_moves is not None)


def values_scale(game) -> str | None:
    """The scale of MCTS's values where it differs from the game's (None: the game's): they are means of
    playout utilities, so in a game of win/draw/loss outcomes those of outcomes, in [-1, 1], a win rate
    (chess's among them: not pawns, as its other searches' values are)."""
    return scale.OUTCOME if game.outcome_game else None


class Node:
    """A node of the tree (OpenSpiel's SearchNode). ``owner`` is the player who moved into it (the root's:
    the root mover; a chance outcome's: its parent's owner, whose statistics there nobody compares);
    ``mover`` the player to move, :data:`CHANCE` or :data:`TERMINAL`. ``visits`` and ``wins`` (the sum
    of the owner's scaled utilities) are its statistics; ``proof`` the owner's proven utility (+1, 0,
    -1) or None. ``moves`` and ``children`` are None until the node is expanded; a decision node's
    children then grow in the natural order of its moves, a chance node's sit at their outcome's index
    (None until sampled), with ``cumulative`` the outcomes' running probabilities."""

    __slots__ = ("state", "parent", "owner", "mover", "moves", "children", "cumulative", "visits", "wins",
                 "proof")

    def __init__(self, state, parent: "Node | None", owner: int, mover: int):
        self.state, self.parent, self.owner, self.mover = state, parent, owner, mover
        # None until the node is expanded (:meth:`expand`), then lists.
        self.moves: Any = None
        self.children: Any = None
        self.cumulative: Any = None
        self.visits, self.wins = 0, 0.0
        self.proof: Any = None  # None, or the owner's proven value

    def expand(self, game) -> None:
        """List the node's moves, or at a chance node its outcomes and their running probabilities."""
        if self.mover == CHANCE:
            outcomes = game.chance_outcomes(self.state)
            self.moves = [o for o, _ in outcomes]
            self.cumulative = list(accumulate(p for _, p in outcomes))
            self.children = [None] * len(outcomes)
        else:
            self.moves = game.actions(self.state)
            self.children = []


def uct_child(node: Node, exploration: float, solver: bool) -> "Node | None":
    """Selection: the child with the highest upper confidence bound ``mean + exploration * sqrt(ln
    N(node) / N(child))``, the first on ties, skipping children proven lost for their owner when
    ``solver``; None when every child is skipped. Every child has been visited."""
    log_n = math.log(node.visits)
    sqrt = math.sqrt
    best, best_score = None, -math.inf
    for c in node.children:
        if solver and c.proof == -1:
            continue
        n = c.visits
        score = c.wins / n + exploration * sqrt(log_n / n)
        if score > best_score:
            best, best_score = c, score
    return best


def sampled_index(cumulative: list, u: float) -> int:
    """The index of the chance outcome that ``u`` (in [0, 1)) picks from the running probabilities."""
    return min(bisect_right(cumulative, u * cumulative[-1]), len(cumulative) - 1)


def prove_ancestors(node: Node) -> None:
    """MCTS-Solver: back a new proof at ``node`` up the tree while it decides the parent, which is won
    for its mover when one child is won for it, and otherwise proven once every child is (the best of
    their results). Two players, zero-sum, no chance."""
    while node.parent is not None:
        parent = node.parent
        if node.proof == 1:
            best = node.proof
        elif len(parent.children) == len(parent.moves) and all(c.proof is not None for c in parent.children):
            best = max(c.proof for c in parent.children)
        else:
            return
        parent.proof = best if parent.owner == parent.mover else -best
        node = parent


def backpropagate(path: list, reward: list) -> None:
    """Add one visit and its owner's scaled utility ``reward[owner]`` to every node on ``path``."""
    for node in path:
        node.visits += 1
        node.wins += reward[node.owner]


class Rollout:
    """The evaluator: plays a state out to the end of the game and returns the final utilities, each
    scaled to [0, 1] by ``to_unit``. ``random`` plays uniformly random moves (through the game's own
    playout when it has one, :class:`PlayoutGame`); ``heuristic`` the epsilon-greedy rollout of the module
    docstring. Chance outcomes are sampled. ``nodes`` counts the states it passes through before the end
    and those a heuristic rollout evaluates. ``recorded``: ``played`` lists the last playout's moves and
    chance outcomes (the game's own playout, which plays the same moves, is then not used; a policy
    playout records its moves itself). With a policy playout, ``owned`` sums the final owners of its
    ``playouts`` point by point."""

    def __init__(self, game, kind: str, uniform, deadline: Deadline, to_unit, recorded: bool = False):
        self.game, self.uniform, self.deadline, self.to_unit = game, uniform, deadline, to_unit
        self.random = kind == RANDOM
        self.policy = game.policy_playout if self.random and isinstance(game, PolicyPlayout) else None
        self.playout = (game.random_playout if self.random and isinstance(game, PlayoutGame) and not recorded
                        else None)
        self.owned: list | None = None
        self.playouts = 0
        self.played: list | None = [] if recorded else None
        self.immediate_win = game.immediate_win if IMMEDIATE_WIN in game.capabilities else None
        self.candidates = game.candidate_actions if CANDIDATES in game.capabilities else None
        self.nodes = 0

    def __call__(self, s) -> list:
        """The scaled final utilities of a playout from ``s``. Every state passed through before the end
        counts as a visited node, whether the game plays out or this loop does."""
        game, uniform = self.game, self.uniform
        if self.policy:
            if self.played is not None:
                self.played.clear()
            final, plies, owners = self.policy(s, uniform, self.deadline.check, self.played)
            self.nodes += plies
            self.deadline.check()
            self.playouts += 1
            self.owned = list(owners) if self.owned is None else [a + b for a, b in zip(self.owned, owners)]
            return self.scaled(final)
        if self.playout:
            final, plies = self.playout(s, uniform)
            self.nodes += plies
            self.deadline.check()  # the count jumped past the every-16-nodes poll: poll once for the playout
            return self.scaled(final)
        is_terminal, to_move, actions, result = game.is_terminal, game.to_move, game.actions, game.result
        played = self.played
        if played is not None:
            played.clear()
        while not is_terminal(s):
            self.nodes += 1
            if not self.nodes & MASK:
                self.deadline.check()
            m = to_move(s)
            if m == CHANCE:
                a = self.sample(game.chance_outcomes(s))
            else:
                legal = actions(s)
                a = legal[int(uniform() * len(legal))] if self.random else self.heuristic_move(s, m, legal)
            if played is not None:
                played.append(a)
            s = result(s, a)
        return self.scaled(game.utilities(s))

    def scaled(self, utilities) -> list:
        """Utilities scaled to [0, 1]."""
        return [self.to_unit(u) for u in utilities]

    def sample(self, outcomes: list):
        """A chance outcome drawn by its probability."""
        r, acc = self.uniform(), 0.0
        for o, p in outcomes:
            acc += p
            if r < acc:
                return o
        return outcomes[-1][0]

    def heuristic_move(self, s, m: int, legal: list):
        """A move that wins at once where the game can tell, else with probability ``ROLLOUT_EPSILON`` a
        random move, else the greedy move (among the game's candidates when it prunes its moves)."""
        if self.immediate_win:
            win = self.immediate_win(s)
            if win is not None:
                return win
        if self.uniform() < ROLLOUT_EPSILON:
            return legal[int(self.uniform() * len(legal))]
        return self.greedy(s, m, self.candidates(s)[0] if self.candidates else legal)

    def greedy(self, s, m: int, legal: list):
        """The move whose result ``m`` evaluates highest, the first on ties; every state it looks at
        counts as a visited node (with a costly evaluation, they are most of the work)."""
        evaluate, result = self.game.evaluate, self.game.result
        best, best_value = None, -math.inf
        for a in legal:
            self.nodes += 1
            if not self.nodes & MASK:
                self.deadline.check()
            v = evaluate(result(s, a), m)
            if v > best_value:
                best, best_value = a, v
        return best


class UCT:
    """The search (OpenSpiel's MCTSBot): the tree from ``root``, grown by iterations of selection
    (:func:`uct_child`), expansion (one child), evaluation (``rollout``, or a proof) and
    :func:`backpropagate`, with MCTS-Solver's proofs in win/draw/loss games of two players without
    chance. The tree holds at most ``capacity`` nodes; a full tree's iterations evaluate the node where
    they would have added a child. ``nodes`` counts the tree nodes the iterations pass through (the
    rollout counts its own), ``leaves`` the iterations, ``max_ply`` the tree's depth. With ``allowed``
    (engine.root), the root is expanded at once with those moves alone."""

    def __init__(self, game, state, exploration: float, uniform, rollout: Rollout, deadline: Deadline,
                 capacity: int, from_unit, multi_pv: int = 1, allowed: RootMoves = None):
        self.game, self.exploration, self.uniform, self.rollout = game, exploration, uniform, rollout
        self.multi_pv = multi_pv
        self.deadline, self.capacity, self.from_unit = deadline, capacity, from_unit
        self.solver = game.outcome_game and not game.has_chance and game.n_players == 2
        self.root = Node(state, None, game.to_move(state), game.to_move(state))
        if allowed is not None:
            self.root.expand(game)
            self.root.moves = list(allowed)
        self.sign = 1 if game.perspective(state) == self.root.mover else -1
        self.size = 1
        self.nodes = self.leaves = self.max_ply = self.iterations = 0

    def run(self, iterations: int | None) -> tuple:
        """Iterate until the root is proven, ``iterations`` are done (None: no cap) or the deadline
        passes, reporting progress every ``PROGRESS_EVERY`` iterations to a listener. ``(stop_reason,
        timed_out)``: :data:`SOLVED`, :data:`ITERATION_LIMIT` or None (the deadline)."""
        listening = self.deadline.on_progress is not None
        try:
            while True:
                if self.root.proof is not None:
                    return SOLVED, False
                if self.iterations == iterations:
                    return ITERATION_LIMIT, False
                self.iterate()
                self.iterations += 1
                if listening and not self.iterations & PROGRESS_MASK:
                    self.report()
        except Timeout:
            return None, True

    def iterate(self) -> tuple:
        """One iteration: down the tree to a new or final node, its evaluation added along the path;
        ``(path, reward)`` as :meth:`descend` found them."""
        path, reward = self.descend()
        self.leaves += 1
        if len(path) - 1 > self.max_ply:
            self.max_ply = len(path) - 1
        backpropagate(path, reward)
        return path, reward

    def descend(self) -> tuple:
        """Selection and expansion: ``(path, reward)``, the nodes from the root to where the iteration
        ends (a proven or terminal node, or a new child) and that node's scaled utilities."""
        node, path = self.root, [self.root]
        while True:
            self.nodes += 1
            if not self.nodes & MASK:
                self.deadline.check()
            if node.proof is not None:
                return path, self.proven_reward(node)
            if node.mover == TERMINAL:
                return path, self.rollout.scaled(self.game.utilities(node.state))
            if node.moves is None:
                node.expand(self.game)
            if node.mover == CHANCE:
                k = self.sample(node)
                child = node.children[k]
                if child is None:
                    return self.grow(node, k, path)
            elif len(node.children) < len(node.moves):
                return self.grow(node, len(node.children), path)
            else:
                child = self.select(node)
            path.append(child)
            node = child

    def select(self, node: Node) -> "Node | None":
        """Selection at a decision node whose moves have all been tried: :func:`uct_child`."""
        return uct_child(node, self.exploration, self.solver)

    def sample(self, node: Node) -> int:
        """Selection at a chance node: the index of an outcome drawn by its probability."""
        return sampled_index(node.cumulative, self.uniform())

    def grow(self, node: Node, k: int, path: list) -> tuple:
        """Expansion and evaluation: ``node``'s child through its ``k``-th move or outcome joins the
        tree and ``path``, valued by its proof or a rollout; a full tree rolls out from ``node``."""
        if self.size >= self.capacity:
            return path, self.rollout(node.state)
        child = self.add_child(node, k)
        path.append(child)
        return path, self.proven_reward(child) if child.proof is not None else self.rollout(child.state)

    def add_child(self, node: Node, k: int) -> Node:
        """``node``'s child through its ``k``-th move or outcome; a terminal child is proven at once."""
        game = self.game
        s = game.result(node.state, node.moves[k])
        chance = node.mover == CHANCE
        child = Node(s, node, node.owner if chance else node.mover,
                     TERMINAL if game.is_terminal(s) else game.to_move(s))
        self.size += 1
        if chance:
            node.children[k] = child
        else:
            node.children.append(child)  # k == len(node.children): children grow in natural order
        if self.solver and child.mover == TERMINAL:
            child.proof = game.utilities(s)[child.owner]
            prove_ancestors(child)
        return child

    def proven_reward(self, node: Node) -> list:
        """The scaled utilities of a proven node (two players, zero-sum)."""
        to_unit, me, v = self.rollout.to_unit, node.owner, node.proof
        reward = [0.0, 0.0]
        reward[me], reward[1 - me] = to_unit(v), to_unit(-v)
        return reward

    def mean(self, child: Node) -> float:
        """The root mover's utility of a root child: proven, or the mean of its rollouts."""
        return child.proof if child.proof is not None else self.from_unit(child.wins / child.visits)

    def root_moves(self) -> tuple:
        """The final move choice: the root moves tried so far, each with its value from the perspective
        and its visits, and the index of the answer among them (None when none was tried): the first of
        :meth:`ranking`."""
        listed, order, _ = self.ranking()
        return listed, order[0] if order else None

    def ranking(self) -> tuple:
        """``(listed, order, tried)``: the root moves tried so far (as :meth:`root_moves` lists them), the
        indices of all of them best first, and their ``(k, child)`` pairs. Best: proven won, then not
        proven lost, then the most visited, ties to the higher mean, then to the first in natural order."""
        root = self.root
        tried = [(k, c) for k, c in enumerate(root.children or []) if c.visits or c.proof is not None]
        listed = [MoveValue(root.moves[k], self.sign * self.mean(c),
                            bound=EXACT if c.proof is not None else ESTIMATE, visits=c.visits) for k, c in tried]
        order = sorted(range(len(tried)), reverse=True,  # a stable sort: the first on ties
                       key=lambda i: (tried[i][1].proof == 1, tried[i][1].proof != -1, tried[i][1].visits,
                                      self.mean(tried[i][1])))
        return listed, order, tried

    def lines(self, n: int) -> list:
        """The ``n`` best root moves (:meth:`ranking`) as :class:`~engine.result.Line`: each its mean (or
        proven) value, its visits, its line down the most visited children to the next chance node or the
        end of the tree, and its outcome where the MCTS-Solver proved it."""
        listed, order, tried = self.ranking()

        def line(i):
            node, pv = tried[i][1], [listed[i].move]
            while node.mover >= 0 and node.children:
                k, node = max(enumerate(node.children), key=lambda kc: kc[1].visits)  # the first on ties
                pv.append(node.parent.moves[k])
            return pv

        def proof(i):
            proven = tried[i][1].proof
            return (None if proven is None else outcome_of(self.sign * proven)), None

        return best_lines(listed, order[:n], line, proof)

    def report(self) -> None:
        """The answer so far, to the deadline's listener."""
        listed, chosen = self.root_moves()
        if chosen is not None:
            best = listed[chosen]
            self.deadline.report(depth=self.max_ply, value=best.value, value_scale=values_scale(self.game),
                                 move=best.move, pv=[best.move],
                                 nodes=self.nodes + self.rollout.nodes, seldepth=self.max_ply,
                                 iterations=self.iterations,
                                 lines=self.lines(self.multi_pv) if self.multi_pv > 1 else None)


class TracedUCT(UCT):
    """UCT that writes a trace entry (collected by ``tracer``) for each iteration it completes, in the
    course's four steps:

    - ``iteration``: its number, from 1; ``path``: the moves from the root to the node where it ended;
    - ``selection``: one step per node it left by selection (``ply``: the node's place on ``path``), with
      ``n``, the node's visits N(parent) before this iteration; at a decision node whose moves have all
      been tried (``kind`` ``ucb``), the ``player`` to move and every child's ``move``, ``u`` (U: the sum
      of its owner's scaled utilities), ``n`` (N) and ``ucb`` (``u / n + exploration * sqrt(ln N(parent)
      / n)``; null for a child proven lost, which is skipped), and the move ``chosen``; at a chance node
      (``kind`` ``chance``), the outcome ``chosen`` by its probability;
    - ``expanded``: whether the node where it ended was added to the tree by this iteration;
    - ``end``: ``playout`` (moves played out from there: ``playout``, the moves and chance outcomes),
      ``terminal`` (the game is over there) or ``proven`` (MCTS-Solver's proof there);
    - ``reward``: the result, each player's utility scaled to [0, 1] (0: the game's lowest, 1: its
      highest), in player order, and ``utilities``, the same in the game's units;
    - ``backpropagation``: every node on ``path`` from the root, after the update: its ``ply``, the
      ``player`` who moved into it (whose utility it adds up), the ``reward`` added, and its new ``u``
      and ``n``."""

    def __init__(self, *args, tracer: Collector):
        super().__init__(*args)
        self.tracer = tracer
        self.to_json, self.players = self.game.move_to_json, self.game.players
        self.steps: list[dict] = []
        self.path_moves: list = []

    def iterate(self) -> tuple:
        """:meth:`UCT.iterate`, then its trace entry."""
        self.tracer.room()
        self.steps, self.path_moves = [], []
        size = self.size
        path, reward = super().iterate()
        last = path[-1]
        expanded = self.size > size
        if last.mover == TERMINAL:
            end = "terminal"
        elif last.proof is not None:
            end = "proven"
        else:
            end = "playout"
        players = self.players
        self.tracer.add({
            "iteration": self.iterations + 1, "path": self.path_moves, "selection": self.steps,
            "expanded": expanded, "end": end,
            "playout": [self.to_json(m) for m in self.rollout.played or ()] if end == "playout" else None,
            "reward": list(reward), "utilities": [self.from_unit(r) for r in reward],
            "backpropagation": [{"ply": ply, "player": players[node.owner], "reward": reward[node.owner],
                                 "u": node.wins, "n": node.visits} for ply, node in enumerate(path)]})
        return path, reward

    def select(self, node: Node) -> "Node | None":
        """:meth:`UCT.select`, written down with every child's bound."""
        child = super().select(node)
        log_n, c = math.log(node.visits), self.exploration
        self.step(node, child, {
            "kind": "ucb", "player": self.players[node.mover],
            "children": [{"move": self.to_json(m), "u": ch.wins, "n": ch.visits,
                          "ucb": None if self.solver and ch.proof == -1 else
                          ch.wins / ch.visits + c * math.sqrt(log_n / ch.visits)}
                         for m, ch in zip(node.moves, node.children)]})
        return child

    def sample(self, node: Node) -> int:
        """:meth:`UCT.sample`, written down."""
        k = super().sample(node)
        if node.children[k] is not None:  # else the outcome is expanded: :meth:`add_child` writes it
            self.step(node, node.children[k], {"kind": "chance"})
        else:
            self.steps.append({"ply": len(self.path_moves), "n": node.visits, "kind": "chance",
                               "chosen": self.to_json(node.moves[k])})
        return k

    def step(self, node: Node, child: "Node | None", written: dict) -> None:
        """A selection step from ``node`` to ``child``, and the move into it on the path."""
        move = self.to_json(node.moves[node.children.index(child)])
        self.steps.append({"ply": len(self.path_moves), "n": node.visits, **written, "chosen": move})
        self.path_moves.append(move)

    def add_child(self, node: Node, k: int) -> Node:
        """:meth:`UCT.add_child`, its move on the path."""
        self.path_moves.append(self.to_json(node.moves[k]))
        return super().add_child(node, k)
