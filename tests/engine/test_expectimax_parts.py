"""Expectimax's parts alone: Star1's window, the epsilon-greedy opponent, the valuation under a risk
attitude, the node kinds' fail-soft contracts, Star2's probe, and the kernel protocol."""
import math

import pytest

from engine.api import load
from engine.deadline import Deadline
from engine.errors import AlgorithmMismatch
from engine.game import Game
from engine.search import expectimax
from engine.search.expectimax import (KernelGame, Settings, Valuation, Walk, fast_kernel, greedy_distribution,
                                      star1_window)
from engine.search.utility import parse_utility
from engine.limits import Limits

CLOSE = {"rel_tol": 1e-12, "abs_tol": 1e-12}


def walk_of(tree, **settings):
    game, state = load("tree", tree)
    chosen = Settings(**settings)
    valuation = Valuation.of(game, chosen.utility, chosen.pruning)
    return game, state, Walk(game, state, chosen, valuation, Deadline(), None, None)


# A chance node over three leaves of 0, 10 and 4 (probabilities .5, .25, .25): worth 3.5; bounds [0, 10].
CHANCE = {"root": {"type": "max", "children": [
    {"move": "c", "type": "chance", "children": [
        {"value": 0, "p": 0.5}, {"value": 10, "p": 0.25}, {"value": 4, "p": 0.25}]}]}}


def test_star1_window_is_where_a_child_leaves_the_node_inside_alpha_beta():
    alpha, beta, p, seen, rest_low, rest_high = 1.0, 3.0, 0.25, 0.5, 0.0, 2.5
    low, high = star1_window(alpha, beta, p, seen, rest_low, rest_high)
    assert math.isclose(seen + p * low + rest_high, alpha, **CLOSE)   # at low, the node is alpha at best
    assert math.isclose(seen + p * high + rest_low, beta, **CLOSE)    # at high, the node is beta at worst
    assert (low, high) == ((1.0 - 0.5 - 2.5) / 0.25, (3.0 - 0.5 - 0.0) / 0.25)


def test_the_greedy_opponent_puts_the_rest_on_its_first_best_move():
    dist = greedy_distribution(["a", "b", "c", "d"], [1.0, 5.0, 5.0, -2.0], 0.2)
    assert [m for m, _ in dist] == ["a", "b", "c", "d"]
    assert [p for _, p in dist] == pytest.approx([0.05, 0.85, 0.05, 0.05])
    assert math.isclose(sum(p for _, p in dist), 1.0, **CLOSE)
    assert greedy_distribution(["x"], [0.0], 0.0) == [("x", 1.0)]


def test_a_linear_valuation_keeps_the_game_s_values_and_bounds():
    game, state = load("tree", CHANCE)
    linear = Valuation.of(game, parse_utility("linear"), pruning=True)
    assert linear.bounds == (-10, 10) and linear.utility == game.utility and linear.prizes is None
    assert linear.certain(3.5, -1) == 3.5
    assert Valuation.of(game, parse_utility("linear"), pruning=False).bounds is None


def test_a_risk_attitude_values_prizes_and_its_certainty_equivalent_inverts_it():
    game, state = load("2048", {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]})
    transform = parse_utility({"power": 0.5})
    valuation = Valuation.of(game, transform, pruning=True)
    v = game.evaluate(state, 0)
    utility = valuation.evaluate(state, 0)
    assert math.isclose(utility, transform(v / valuation.scale), **CLOSE)
    assert math.isclose(valuation.certain(utility, 1), v, **CLOSE)
    assert valuation.bounds == (transform(valuation.prizes[0]), transform(valuation.prizes[1]))


def test_a_risk_attitude_needs_bounded_values():
    game, _ = load("tree", {"root": {"type": "max", "children": [{"value": 1}]}})
    game.utility_bounds = None
    with pytest.raises(AlgorithmMismatch) as error:
        Valuation.of(game, parse_utility({"power": 0.5}), pruning=True)
    assert "algorithm.utility" in error.value.errors


def test_a_chance_node_is_its_mean_inside_the_window_and_a_bound_outside():
    game, state, walk = walk_of(CHANCE)
    node = game.result(state, game.actions(state)[0])
    outcomes = game.chance_outcomes(node)
    assert walk.expected_value(node, outcomes, -math.inf, math.inf, 1, 1.0) == 3.5
    assert walk.expected_value(node, outcomes, 3.0, 4.0, 1, 1.0) == 3.5
    high = walk.expected_value(node, outcomes, 0.0, 1.0, 1, 1.0)     # at least 1, but only the last leaf
    assert high >= 1.0 and walk.cutoffs == 0                          # tells: a cut that prunes nothing
    low = walk.expected_value(node, outcomes, 6.0, 9.0, 1, 1.0)      # the first 0 caps it at 5 <= 6
    assert low <= 6.0 and walk.cutoffs == 1


def test_max_and_min_nodes_cut_fail_soft():
    tree = {"root": {"type": "max", "children": [
        {"move": "m", "type": "min", "children": [{"value": 2}, {"value": 7}, {"value": 1}]}]}}
    game, state, walk = walk_of(tree, opponent_model="minimax")
    node = game.result(state, game.actions(state)[0])
    moves = game.actions(node)
    assert walk.min_value(node, -math.inf, math.inf, 1, 1.0, moves) == 1
    assert walk.min_value(node, 3.0, math.inf, 1, 1.0, moves) == 2 and walk.cutoffs == 1   # 2 <= alpha: cut
    assert walk.max_value(state, 0.5, math.inf, 0, 1.0, game.actions(state)) == 1


def test_star2_s_probe_settles_a_chance_node_from_the_first_moves_alone():
    """Both successors are MAX nodes whose first move is worth 8 (the tree's bounds: [-10, 10]): the node
    is worth at least 8 before any successor is searched in full, which settles it for beta = 5."""
    def max_node(p):
        return {"type": "max", "p": p, "children": [{"value": 8}, {"value": 0}, {"value": -10}, {"value": 10}]}
    tree = {"root": {"type": "max", "children": [
        {"move": "c", "type": "chance", "children": [max_node(0.5), max_node(0.5)]}]}}
    game, state, walk = walk_of(tree)
    walk.limit = math.inf
    node = game.result(state, game.actions(state)[0])
    kids = [expectimax.Successor(o, p, game.result(node, o), walk.lo, walk.hi)
            for o, p in game.chance_outcomes(node)]
    settled, upper, lower = walk.probe(kids, -math.inf, 5.0, 1, 1.0)
    assert settled >= 5.0 and lower == 8.0 and upper == 10.0
    assert [(kid.lower, kid.upper) for kid in kids] == [(8.0, 10.0), (8.0, 10.0)]
    assert all(len(kid.moves) == 4 for kid in kids)                 # handed on to the search phase
    settled, upper, lower = walk.probe([expectimax.Successor(k.outcome, k.p, k.state, walk.lo, walk.hi)
                                        for k in kids], -math.inf, 9.0, 1, 1.0)
    assert settled is None and lower == 8.0 and upper == 10.0       # not enough: the search phase goes on


def test_the_kernel_is_a_protocol_of_the_search_not_of_game():
    assert not hasattr(Game, "expectimax_kernel")
    game, state = load("2048", {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]})
    tree, _ = load("tree", CHANCE)
    assert isinstance(game, KernelGame) and not isinstance(tree, KernelGame)
    valuation = Valuation.of(game, parse_utility("linear"), True)
    kernel = fast_kernel(game, False, Deadline(), 0.0, valuation, Limits())
    assert kernel is not None and kernel.step >= 1
    kernel.close()
    assert fast_kernel(game, True, Deadline(), 0.0, valuation, Limits()) is None   # a trace: the Python walk
    assert fast_kernel(tree, False, Deadline(), 0.0, valuation, Limits()) is None


def test_the_kernel_capability_is_asked_once_per_search(monkeypatch):
    asked = []
    real = expectimax.fast_kernel

    def counting(game, *args):
        asked.append(game.id)
        return real(game, *args)
    monkeypatch.setattr(expectimax, "fast_kernel", counting)
    from engine.api import search
    r = search("2048", {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]},
               {"name": "expectimax", "depth": 3, "core": "python"})
    assert asked == ["2048"] and r.stats.nodes > 100
