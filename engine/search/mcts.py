"""Monte Carlo tree search: UCT (Kocsis and Szepesvari 2006) with MCTS-Solver (Winands et al. 2008).

Each iteration walks down the tree, at decision nodes to the child with the best upper confidence bound
``mean + exploration * sqrt(ln N(parent) / N(child))`` and at chance nodes to an outcome sampled by its
probability; adds one child (a decision node's next untried move, in natural order, or the sampled
outcome); plays a rollout from it to the end of the game; and adds the final utilities to the statistics
of every node on the path, each node counting the utility of the player who chose the move into it.
Utilities are scaled to [0, 1] by the game's bounds (without overflow, whatever finite numbers they are). So two-player zero-sum games, n-player games (each
player its own utility) and one-player games against chance (2048) are all searched alike.

Rollouts (``rollout``): ``random`` plays uniformly random moves; ``heuristic`` plays a move that wins at once
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
MCTS keeps no trace. Every ``PROGRESS_EVERY`` iterations it reports its progress to the deadline's listener,
if any (the tree's depth as ``depth``, the answer so far as ``move`` and ``pv``).
"""
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
import math
import random
from typing import Any

from engine.deadline import Deadline, Timeout
from engine.errors import AlgorithmMismatch
from engine.game import CANDIDATES, CHANCE, IMMEDIATE_WIN, RANDOM_PLAYOUT
from engine.result import ESTIMATE, EXACT, ITERATION_LIMIT, SOLVED, MoveValue, Stats
from engine.limits import Limits
from engine.search.settings import INTEGER, NUMBER, STRING, AlgorithmSettings, setting
from engine.search.common import (first_move_fallback, finish, outcome_of, player_bounds, require_decision_root,
                                  unit_interval)
from engine.search.endgame import scored_outcome

NAME = "mcts"
RANDOM, HEURISTIC = "random", "heuristic"
MAX_EXPLORATION = 100.0
MAX_SEED = 2**64 - 1
ROLLOUT_EPSILON = 0.1
TERMINAL = -2          # the mover of a terminal node
PROGRESS_EVERY = 1024  # iterations between two progress reports (a power of two)
PROGRESS_MASK = PROGRESS_EVERY - 1


@dataclass(frozen=True)
class Settings(AlgorithmSettings):
    """``iterations``: a cap (None: the time limit alone); ``exploration``: the UCT constant;
    ``seed``: the random stream (same seed and iterations, same answer); ``rollout``: ``random`` or
    ``heuristic`` (epsilon-greedy on the game's evaluation)."""

    iterations: int | None = setting(None, INTEGER, minimum=1)
    exploration: float = setting(math.sqrt(2), NUMBER, minimum=0, maximum=MAX_EXPLORATION)
    seed: int | None = setting(None, INTEGER, minimum=0, maximum=MAX_SEED)
    rollout: str = setting(RANDOM, STRING, choices=(RANDOM, HEURISTIC))


def requires(game_type) -> str | None:
    """Monte Carlo tree search needs only the rules: it fits every game."""
    return None


def require_budget(settings: Settings, deadline: Deadline) -> None:
    """MCTS stops at its iteration cap or its deadline: a search without either is an error."""
    if settings.iterations is None and deadline.end is None:
        raise AlgorithmMismatch("mcts needs a budget: a time limit or algorithm.iterations",
                                field="algorithm.iterations")


def search(game, state, settings: Settings = Settings(), *, deadline: Deadline, trace: bool = False,
           limits: Limits = Limits()):
    """Run UCT iterations until the budget is spent or the root is proven; see the module docstring.

    Node ``i``'s statistics are ``visits[i]`` and ``wins[i]``, the sum of the scaled utilities of
    ``owner[i]``, the player who moved into it (the root's owner is the root mover). A proof
    ``proof[i]`` is the proven utility (+1, 0, -1) of ``owner[i]``.
    """
    require_decision_root(game, state)
    iterations, exploration, seed, rollout = (settings.iterations, settings.exploration, settings.seed,
                                              settings.rollout)
    require_budget(settings, deadline)
    uniform = random.Random(seed).random  # the one source of randomness: a float in [0, 1)
    to_move, actions, result, chance_outcomes = game.to_move, game.actions, game.result, game.chance_outcomes
    is_terminal, utilities, evaluate = game.is_terminal, game.utilities, game.evaluate
    immediate_win = game.immediate_win if IMMEDIATE_WIN in game.capabilities else None
    candidates = game.candidate_actions if CANDIDATES in game.capabilities else None
    playout = (game.random_playout if rollout == RANDOM
               and RANDOM_PLAYOUT in game.capabilities else None)
    solver = game.outcome_game and not game.has_chance and game.n_players == 2
    lo, hi = player_bounds(game) or (0.0, 1.0)
    to_unit, from_unit = unit_interval(lo, hi)
    mask = Deadline.CHECK_MASK
    capacity = limits.tt_max_entries  # the tree stops growing here; iterations then roll out from its leaves
    sqrt, log = math.sqrt, math.log

    # The tree, one entry per node in each list.
    states, parent, owner, mover = [state], [-1], [to_move(state)], [to_move(state)]
    # Per node: None until the node is first expanded, then its moves (or outcomes), children and cumulative
    # probabilities.
    moves: list[Any] = [None]
    kids: list[Any] = [None]
    cumulative: list[Any] = [None]
    visits, wins, proof = [0], [0.0], [None]
    nodes = leaves = max_ply = done = 0

    def scaled(us):
        return [to_unit(u) for u in us]

    def proven_reward(i):
        """The scaled utilities of a proven node (two players, zero-sum)."""
        me, v = owner[i], proof[i]
        reward = [0.0, 0.0]
        reward[me], reward[1 - me] = to_unit(v), to_unit(-v)
        return reward

    def add_node(i, k):
        """Node ``i``'s child through its ``k``-th move or outcome. Its owner is whoever moves at ``i`` (at
        a chance node: ``i``'s owner, whose statistics there nobody compares)."""
        s = result(states[i], moves[i][k])
        c = len(states)
        states.append(s)
        parent.append(i)
        owner.append(owner[i] if mover[i] == CHANCE else mover[i])
        mover.append(TERMINAL if is_terminal(s) else to_move(s))
        moves.append(None)
        kids.append(None)
        cumulative.append(None)
        visits.append(0)
        wins.append(0.0)
        proof.append(None)
        if mover[i] == CHANCE:
            kids[i][k] = c
        else:
            kids[i].append(c)  # decision nodes grow their children in natural order: k == len(kids[i])
        if solver and mover[c] == TERMINAL:
            proof[c] = utilities(s)[owner[c]]
            prove_ancestors(c)
        return c

    def expand(i):
        s = states[i]
        if mover[i] == CHANCE:
            outcomes = chance_outcomes(s)
            moves[i] = [o for o, _ in outcomes]
            cumulative[i] = list(accumulate(p for _, p in outcomes))
            kids[i] = [-1] * len(outcomes)
        else:
            moves[i] = actions(s)
            kids[i] = []

    def prove_ancestors(i):
        """Back a new proof at ``i`` up the tree while it decides its parent."""
        while parent[i] >= 0:
            j = parent[i]
            if proof[i] == 1:
                best = proof[i]
            elif len(kids[j]) == len(moves[j]) and all(proof[k] is not None for k in kids[j]):
                best = max(proof[k] for k in kids[j])
            else:
                return
            proof[j] = best if owner[j] == mover[j] else -best
            i = j

    def select_child(i):
        """The child with the best upper confidence bound, skipping children proven lost."""
        log_n = log(visits[i])
        best, best_score = -1, -math.inf
        for c in kids[i]:
            if solver and proof[c] == -1:
                continue
            n = visits[c]
            score = wins[c] / n + exploration * sqrt(log_n / n)
            if score > best_score:
                best, best_score = c, score
        return best

    def sample(outcomes):
        r, acc = uniform(), 0.0
        for o, p in outcomes:
            acc += p
            if r < acc:
                return o
        return outcomes[-1][0]

    def heuristic_move(s, m, legal):
        if immediate_win:
            win = immediate_win(s)
            if win is not None:
                return win
        if uniform() < ROLLOUT_EPSILON:
            return legal[int(uniform() * len(legal))]
        return greedy(s, m, candidates(s)[0] if candidates else legal)  # a wide game's few moves worth a look

    def greedy(s, m, legal):
        """The move whose result ``m`` evaluates highest, the first on ties; every state it looks at
        counts as a visited node (with a costly evaluation, they are most of the work)."""
        nonlocal nodes
        best, best_value = None, -math.inf
        for a in legal:
            nodes += 1
            if not nodes & mask:
                deadline.check()
            v = evaluate(result(s, a), m)
            if v > best_value:
                best, best_value = a, v
        return best

    def simulate(s):
        """Play to the end of the game from ``s``; the final utilities, scaled. Every state passed
        through before the end counts as a visited node, whether the game plays out or this loop does."""
        nonlocal nodes
        if playout:
            final, plies = playout(s, uniform)
            nodes += plies
            deadline.check()  # the count jumped past the every-16-nodes poll: poll once for the playout
            return scaled(final)
        while not is_terminal(s):
            nodes += 1
            if not nodes & mask:
                deadline.check()
            m = to_move(s)
            if m == CHANCE:
                s = result(s, sample(chance_outcomes(s)))
            else:
                legal = actions(s)
                s = result(s, legal[int(uniform() * len(legal))] if rollout == RANDOM
                           else heuristic_move(s, m, legal))
        return scaled(utilities(s))

    def iterate():
        nonlocal nodes, leaves, max_ply
        i, path = 0, [0]
        while True:
            nodes += 1
            if not nodes & mask:
                deadline.check()
            if proof[i] is not None:
                reward = proven_reward(i)
                break
            if mover[i] == TERMINAL:
                reward = scaled(utilities(states[i]))
                break
            if moves[i] is None:
                expand(i)
            if mover[i] == CHANCE:
                k = min(bisect_right(cumulative[i], uniform() * cumulative[i][-1]), len(moves[i]) - 1)
                c = kids[i][k]
                if c < 0:
                    if len(states) >= capacity:
                        reward = simulate(states[i])
                        break
                    c = add_node(i, k)
                    path.append(c)
                    reward = simulate(states[c])
                    break
            elif len(kids[i]) < len(moves[i]):
                if len(states) >= capacity:
                    reward = simulate(states[i])
                    break
                c = add_node(i, len(kids[i]))
                path.append(c)
                reward = proven_reward(c) if proof[c] is not None else simulate(states[c])
                break
            else:
                c = select_child(i)
            path.append(c)
            i = c
        leaves += 1
        if len(path) - 1 > max_ply:
            max_ply = len(path) - 1
        for j in path:
            visits[j] += 1
            wins[j] += reward[owner[j]]

    sign = 1 if game.perspective(state) == mover[0] else -1

    def mean(c):
        """The root mover's utility of root child ``c``: proven, or the mean of its rollouts."""
        return proof[c] if proof[c] is not None else from_unit(wins[c] / visits[c])

    def decision():
        """The root moves tried so far, each with its value and visits, and the index of the answer
        among them (None when none was tried)."""
        tried = [(k, c) for k, c in enumerate(kids[0] or []) if visits[c] or proof[c] is not None]
        listed = [MoveValue(moves[0][k], sign * mean(c), bound=EXACT if proof[c] is not None else ESTIMATE,
                            visits=visits[c]) for k, c in tried]
        if not tried:
            return listed, None
        won = [i for i, (_, c) in enumerate(tried) if proof[c] == 1]
        alive = [i for i, (_, c) in enumerate(tried) if proof[c] != -1]
        candidates = won or alive or range(len(tried))
        return listed, max(candidates, key=lambda i: (visits[tried[i][1]], mean(tried[i][1])))  # first on ties

    def report():
        listed, chosen = decision()
        if chosen is not None:
            best = listed[chosen]
            deadline.report(depth=max_ply, value=best.value, move=best.move, pv=[best.move], nodes=nodes,
                            seldepth=max_ply, iterations=done)

    stop, timed_out = None, False
    listening = deadline.on_progress is not None
    try:
        while True:
            if proof[0] is not None:
                stop = SOLVED
                break
            if done == iterations:
                stop = ITERATION_LIMIT
                break
            iterate()
            done += 1
            if listening and not done & PROGRESS_MASK:
                report()
    except Timeout:
        timed_out = True

    listed, chosen = decision()
    stats = Stats(nodes=nodes, leaves=leaves, max_depth=max_ply, iterations=done)
    if stop:
        stats.stop_reason = stop
    if chosen is None:
        fallback = first_move_fallback(game, state)
        return finish(game, state, stats, deadline, move=fallback.move, value=0.0, moves=[],
                      timed_out=timed_out)
    best = listed[chosen]
    outcome = None if proof[0] is None else outcome_of(sign * proof[0])
    answer = finish(game, state, stats, deadline, move=best.move, value=best.value, moves=listed,
                    outcome=outcome, timed_out=timed_out)
    return scored_outcome(game, state, answer, deadline, True, limits.tt_max_entries)
