"""Max^n: the textbook three-player tree, chance averaging, agreement with an independent reference on
random n-player trees, and with minimax on two-player zero-sum games."""
import time

from hypothesis import given, settings, strategies as st
import pytest

from engine.api import search
from engine.errors import InvalidState
from tests.engine import reference_chance as reference
from tests.engine.strategies_chance import chance_trees

# AIMA 3rd ed. fig. 5.4: players A, B, C move in turn; C's choices, then B's, then A's.
LEAVES = [(1, 2, 6), (4, 2, 3), (6, 1, 2), (7, 4, 1), (5, 1, 1), (1, 5, 2), (7, 7, 1), (5, 4, 5)]
FIGURE_5_4 = {"root": {"player": 0, "children": [
    {"player": 1, "children": [
        {"player": 2, "children": [{"value": list(v)} for v in LEAVES[2 * i:2 * i + 2]]} for i in range(b, b + 2)]}
    for b in (0, 2)]}}


def test_figure_5_4():
    r = search("tree", FIGURE_5_4, {"name": "maxn"})
    assert r.values == [1.0, 2.0, 6.0] and r.value == 1.0 and r.perspective == "P0"
    assert r.move == 0  # both moves give A 1: the tie goes to the first
    assert [(m.move, m.values) for m in r.moves] == [(0, [1, 2, 6]), (1, [1, 5, 2])]
    assert r.stats.nodes == 15 and r.stats.leaves == 8 and r.stats.depth_completed == 3


def test_chance_nodes_average_the_vectors():
    tree = {"root": {"player": 1, "children": [
        {"type": "chance", "children": [{"p": 0.25, "value": [0, 8, 4]}, {"p": 0.75, "value": [4, 4, 0]}]},
        {"value": [9, 4.5, 9]}]}}
    r = search("tree", tree, {"name": "maxn"})  # .25 (0, 8, 4) + .75 (4, 4, 0) = (3, 5, 1): P1 gets 5 > 4.5
    assert (r.move, r.values, r.value, r.perspective) == (0, [3.0, 5.0, 1.0], 5.0, "P1")


def test_depth_limit_uses_the_evaluations():
    tree = {"root": {"player": 0, "children": [
        {"player": 1, "eval": [5, 0], "children": [{"value": [0, 9]}]},
        {"player": 1, "eval": [1, 1], "children": [{"value": [7, 0]}]}]}}
    assert search("tree", tree, {"name": "maxn", "depth": 1}).move == 0
    assert search("tree", tree, {"name": "maxn"}).move == 1


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 4).flatmap(lambda n: chance_trees(kinds=(0, "chance"), n_players=n, max_leaves=25)))
def test_maxn_equals_the_reference_on_n_player_trees(tree):
    r = search("tree", tree, {"name": "maxn"})
    expected = reference.maxn(tree)
    assert tuple(r.values) == expected
    assert r.value == expected[tree["root"]["player"]]


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 3).flatmap(lambda n: chance_trees(kinds=(0, "chance"), n_players=n, with_eval=True,
                                                        max_leaves=25)),
       st.integers(1, 3))
def test_depth_limited_maxn_equals_the_reference(tree, depth):
    assert tuple(search("tree", tree, {"name": "maxn", "depth": depth}).values) == reference.maxn(tree, depth)


@settings(max_examples=150, deadline=None)
@given(chance_trees(kinds=("max", "min", "chance")))
def test_on_typed_trees_maxn_is_expectiminimax(tree):
    r = search("tree", tree, {"name": "maxn"})
    assert r.value == reference.expectimax(tree, "minimax") == reference.maxn(tree)[0]


@pytest.mark.parametrize("board", [["X.O", "...", "..."], ["XO.", ".X.", "..O"], ["X..", "...", "..."]])
def test_two_player_tictactoe_equals_minimax(board):
    r = search("tictactoe", {"board": board}, {"name": "maxn"})
    m = search("tictactoe", {"board": board}, {"name": "alphabeta"})
    assert r.value == m.value and r.values == [r.value, -r.value]
    assert r.stats.stop_reason == "completed"


def test_maxn_answers_within_the_deadline():
    start = time.perf_counter()
    r = search("tictactoe", {"board": ["." * 7] * 7, "k": 4}, {"name": "maxn"}, time_limit_ms=100)
    assert r.stats.timed_out and r.stats.time_ms <= 110 and (time.perf_counter() - start) < 0.2
    assert r.move in {m.move for m in r.moves}


def test_chance_root_is_refused():
    with pytest.raises(InvalidState):
        search("tree", {"root": {"type": "chance", "children": [{"value": [1, 2]}, {"value": [2, 1]}]}},
               {"name": "maxn"})


def test_trace():
    """Every entry carries its node's whole vector (the watch view shows max^n's vectors, issue 31), as
    the API's TraceEntry says of n-player searches."""
    r = search("tree", FIGURE_5_4, {"name": "maxn"}, trace=True)
    assert len(r.trace) == 15 and r.trace[0]["value"] == [1.0, 2.0, 6.0]
    assert r.trace[3] == {"path": [0, 0, 0], "ply": 3, "alpha": None, "beta": None, "value": [1.0, 2.0, 6.0]}
    assert [e["value"] for e in r.trace if len(e["path"]) == 2] == [[1, 2, 6], [6, 1, 2], [1, 5, 2], [5, 4, 5]]
    assert [e["value"] for e in r.trace if len(e["path"]) == 1] == [[1, 2, 6], [1, 5, 2]]


def test_one_player_game_against_chance_equals_expectimax():
    state = {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]}
    r = search("2048", state, {"name": "maxn", "depth": 3})
    e = search("2048", state, {"name": "expectimax", "depth": 3, "pruning": False})
    assert (r.move, r.values) == (e.move, [e.value])
    assert [m.value for m in r.moves] == [m.value for m in e.moves]
