"""MCTS's parts alone: the node, UCT selection, outcome sampling, MCTS-Solver's proofs,
backpropagation, the rollout evaluator, the final move choice, and the playout protocol."""
import math
import random

import pytest

from engine.api import load
from engine.deadline import Deadline
from engine.game import CHANCE, Game
from engine.search.common import unit_interval
from engine.search.mcts import (TERMINAL, UCT, Node, PlayoutGame, Rollout, backpropagate, prove_ancestors,
                                sampled_index, uct_child)


def node_with_children(stats, owner=0, mover=0):
    """A decision node whose children have ``(visits, wins, proof)``, visited as often as they were."""
    node = Node(None, None, owner, mover)
    node.moves = list(range(len(stats)))
    node.children = []
    for visits, wins, proof in stats:
        child = Node(None, node, mover, 1 - mover)
        child.visits, child.wins, child.proof = visits, wins, proof
        node.children.append(child)
    node.visits = sum(visits for visits, _, _ in stats)
    return node


def test_uct_picks_the_highest_upper_confidence_bound():
    node = node_with_children([(10, 6.0, None), (2, 1.0, None), (10, 5.0, None)])
    assert uct_child(node, 0.0, False) is node.children[0]            # no exploration: the best mean
    assert uct_child(node, 1.4, False) is node.children[1]            # the little-visited child
    scores = [c.wins / c.visits + 1.4 * math.sqrt(math.log(22) / c.visits) for c in node.children]
    assert node.children.index(uct_child(node, 1.4, False)) == scores.index(max(scores))


def test_uct_takes_the_first_on_ties_and_skips_children_proven_lost():
    node = node_with_children([(4, 2.0, None), (4, 2.0, None), (4, 4.0, -1)])
    assert uct_child(node, 1.0, False) is node.children[2]
    assert uct_child(node, 1.0, True) is node.children[0]
    assert uct_child(node_with_children([(1, 0.0, -1)]), 1.0, True) is None


def test_a_sampled_outcome_follows_the_running_probabilities():
    cumulative = [0.25, 0.5, 1.0]
    assert [sampled_index(cumulative, u) for u in (0.0, 0.2499, 0.25, 0.49, 0.5, 0.999999)] == [0, 0, 1, 1, 2, 2]
    assert sampled_index([0.5, 0.9999999], 0.99999999) == 1                # rounding never runs past the end


def test_one_child_won_proves_its_parent_won():
    root = node_with_children([(1, 0.0, None), (1, 0.0, None)])
    root.children[1].proof = 1
    prove_ancestors(root.children[1])
    assert root.proof == 1


def test_a_parent_is_proven_only_once_every_child_is():
    root = node_with_children([(1, 0.0, -1), (1, 0.0, None)])
    prove_ancestors(root.children[0])
    assert root.proof is None
    root.children[1].proof = 0
    prove_ancestors(root.children[1])
    assert root.proof == 0                                                 # the best of a loss and a draw
    unexpanded = node_with_children([(1, 0.0, -1)])
    unexpanded.moves = [0, 1]                                              # a move not tried yet
    prove_ancestors(unexpanded.children[0])
    assert unexpanded.proof is None


def test_a_proof_is_negated_for_a_parent_whose_owner_is_not_its_mover():
    grand = Node(None, None, 0, 0)
    parent = node_with_children([(1, 0.0, None)], owner=0, mover=1)
    parent.parent, grand.moves, grand.children = grand, [0, 1], [parent]
    parent.children[0].proof = 1                                           # won for player 1, who moves at parent
    prove_ancestors(parent.children[0])
    assert parent.proof == -1 and grand.proof is None                      # lost for player 0, who moved into it


def test_backpropagation_adds_each_owner_s_reward():
    a, b = Node(None, None, 0, 0), Node(None, None, 1, 0)
    backpropagate([a, b], [0.25, 0.75])
    backpropagate([a], [1.0, 0.0])
    assert (a.visits, a.wins, b.visits, b.wins) == (2, 1.25, 1, 0.75)


def test_a_chance_node_expands_into_its_outcomes():
    game, state = load("2048", {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]})
    after = game.result(state, "left")
    node = Node(after, None, 0, CHANCE)
    node.expand(game)
    outcomes = game.chance_outcomes(after)
    assert node.moves == [o for o, _ in outcomes] and node.children == [None] * len(outcomes)
    assert math.isclose(node.cumulative[-1], 1.0) and node.cumulative == sorted(node.cumulative)


def rollout(game_id, state_json, kind, seed):
    game, state = load(game_id, state_json)
    to_unit, _ = unit_interval(-1.0, 1.0)
    evaluator = Rollout(game, kind, random.Random(seed).random, Deadline(), to_unit)
    return game, state, evaluator


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_a_rollout_plays_to_the_end_and_scales_the_utilities(kind):
    game, state, evaluator = rollout("tictactoe", {"board": ["X..", ".O.", "..."]}, kind, 3)
    reward = evaluator(state)
    assert reward in ([1.0, 0.0], [0.5, 0.5], [0.0, 1.0]) and evaluator.nodes >= 3
    game, state, evaluator = rollout("tictactoe", {"board": ["XXX", "OO.", "..."]}, kind, 3)
    assert evaluator(state) == [1.0, 0.0] and evaluator.nodes == 0      # already over


def test_a_heuristic_rollout_takes_a_win_at_once():
    game, state, evaluator = rollout("connect4", {"moves": "121212"}, "heuristic", 0)
    assert evaluator.heuristic_move(state, 0, game.actions(state)) == 0


def without_playout(game, monkeypatch):
    """``game`` (a shared instance: put back after the test) as an instance of a subclass without the
    playout hook (a fresh class: isinstance checks of a protocol are cached by class)."""
    monkeypatch.setattr(game, "__class__", type("WithoutPlayout", (type(game),), {"random_playout": None}))
    return game


def test_a_random_rollout_uses_the_game_s_own_playout_where_it_has_one(monkeypatch):
    assert not hasattr(Game, "random_playout")
    game, state, evaluator = rollout("connect4", {"moves": "44"}, "random", 5)
    assert isinstance(game, PlayoutGame) and evaluator.playout is not None
    fast = (evaluator(state), evaluator.nodes)
    game, state, _ = rollout("connect4", {"moves": "44"}, "random", 5)
    to_unit, _ = unit_interval(-1.0, 1.0)
    evaluator = Rollout(without_playout(game, monkeypatch), "random", random.Random(5).random, Deadline(), to_unit)
    assert evaluator.playout is None and (evaluator(state), evaluator.nodes) == fast


def test_the_final_choice_prefers_a_proven_win_then_the_most_visited_not_lost():
    game, state = load("tictactoe", {"board": ["X..", ".O.", "..."]})
    to_unit, from_unit = unit_interval(-1.0, 1.0)
    tree = UCT(game, state, 1.0, random.Random(0).random,
               Rollout(game, "random", random.Random(0).random, Deadline(), to_unit), Deadline(), 100, from_unit)
    root = tree.root
    root.moves = game.actions(state)
    root.children = []
    for visits, wins, proof in [(30, 20.0, -1), (10, 5.0, None), (10, 6.0, None), (0, 0.0, None)]:
        child = Node(None, root, root.mover, TERMINAL)
        child.visits, child.wins, child.proof = visits, wins, proof
        root.children.append(child)
    listed, chosen = tree.root_moves()
    assert len(listed) == 3 and chosen == 2                                 # 10 visits, the higher mean
    assert listed[0].value == -1 and listed[0].bound == "exact" and listed[1].bound == "estimate"
    root.children[1].proof = 1
    assert tree.root_moves()[1] == 1
