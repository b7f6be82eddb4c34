"""Expectimax: textbook chance trees by hand, the opponent models, Star1 against plain expectimax and an
independent reference on random trees, and the anytime behaviour on real games."""
import math
import time

from hypothesis import given, settings, strategies as st
import pytest

from engine.api import Limits, load, search
from engine.errors import AlgorithmMismatch, InvalidState, TraceTooLarge
from tests.engine import reference_chance as reference
from tests.engine.strategies_chance import chance_trees

# AIMA 3rd ed. fig. 5.12: MAX chooses a1 or a2; chance picks .9/.1; MIN nodes below. Expectiminimax
# values 2.1 and 1.3, so a1; after an order-preserving change of the leaves, 21 and 40.9, so a2.
def figure_5_12(leaves):
    def min_node(v):
        return {"type": "min", "children": [{"value": v}, {"value": v}]}
    a, b, c, d = leaves
    return {"root": {"type": "max", "children": [
        {"move": "a1", "type": "chance", "children": [dict(min_node(a), p=0.9), dict(min_node(b), p=0.1)]},
        {"move": "a2", "type": "chance", "children": [dict(min_node(c), p=0.9), dict(min_node(d), p=0.1)]}]}}


FIGURE_5_2 = {"root": {"id": "A", "type": "max", "eval": 0, "children": [
    {"id": "B", "type": "min", "eval": 0, "children": [{"value": 3}, {"value": 12}, {"value": 8}]},
    {"id": "C", "type": "min", "eval": 0, "children": [{"value": 2}, {"value": 4}, {"value": 6}]},
    {"id": "D", "type": "min", "eval": 0, "children": [{"value": 14}, {"value": 5}, {"value": 2}]}]}}

CLOSE = {"rel_tol": 1e-9, "abs_tol": 1e-9}


def move_values(r):
    return {m.move: m.value for m in r.moves}


def test_figure_5_12_expectiminimax():
    r = search("tree", figure_5_12([2, 3, 1, 4]), {"name": "expectimax", "pruning": False})
    assert r.move == "a1" and r.value == pytest.approx(2.1)
    assert move_values(r) == {"a1": pytest.approx(2.1), "a2": pytest.approx(1.3)}
    r = search("tree", figure_5_12([20, 30, 1, 400]), {"name": "expectimax"})
    assert r.move == "a2" and r.value == pytest.approx(40.9)


def test_opponent_models_on_figure_5_2():
    r = search("tree", FIGURE_5_2, {"name": "expectimax", "pruning": False})  # uniform by default here
    assert r.move == "B" and move_values(r) == pytest.approx({"B": 23 / 3, "C": 4, "D": 7})
    r = search("tree", FIGURE_5_2, {"name": "expectimax", "opponent_model": "minimax"})
    assert (r.move, r.value) == ("B", 3)
    r = search("tree", FIGURE_5_2, {"name": "expectimax", "opponent_model": "epsilon_greedy", "epsilon": 0.1,
                                    "pruning": False})
    # MIN's greedy reply is its best leaf: B = .9 * 3 + .1 * 23/3, C = .9 * 2 + .1 * 4, D = .9 * 2 + .1 * 7
    assert move_values(r) == {"B": pytest.approx(2.7 + 2.3 / 3), "C": pytest.approx(2.2),
                              "D": pytest.approx(2.5)}
    for epsilon, same_as in ((0.0, "minimax"), (1.0, "uniform")):
        greedy = search("tree", FIGURE_5_2, {"name": "expectimax", "opponent_model": "epsilon_greedy",
                                             "epsilon": epsilon, "pruning": False})
        other = search("tree", FIGURE_5_2, {"name": "expectimax", "opponent_model": same_as, "pruning": False})
        assert move_values(greedy) == pytest.approx(move_values(other))


def test_star1_prunes_a_hand_computed_chance_node():
    """A = (2 + 4) / 2 = 3. At B, after the .9 outcome valued 0, B <= 0 + .1 * 10 = 1 < 3: the 10 is
    never looked at."""
    tree = {"root": {"type": "max", "children": [
        {"type": "chance", "children": [{"p": 0.5, "value": 2}, {"p": 0.5, "value": 4}]},
        {"type": "chance", "children": [{"p": 0.9, "value": 0}, {"p": 0.1, "value": 10}]}]}}
    plain = search("tree", tree, {"name": "expectimax", "pruning": False})
    star1 = search("tree", tree, {"name": "expectimax"})
    assert plain.value == star1.value == 3.0
    assert (plain.stats.nodes, plain.stats.cutoffs, star1.stats.nodes, star1.stats.cutoffs) == (7, 0, 6, 1)
    assert [m.bound for m in star1.moves] == ["exact", "upper"]
    assert star1.moves[1].value == pytest.approx(1.0)


def star1_preset():
    """The watch view's Star1 tree (service/static/play/presets.js, issue 31): MAX chooses a1 or a2;
    chance picks a MIN node, whose leaves lie in 1..10."""
    def min_node(p, a, b):
        return {"p": p, "type": "min", "children": [{"value": a}, {"value": b}]}
    return {"root": {"id": "A", "type": "max", "children": [
        {"id": "a1", "type": "chance", "children": [min_node(0.5, 3, 5), min_node(0.5, 4, 6)]},
        {"id": "a2", "type": "chance", "children": [min_node(0.8, 1, 2), min_node(0.2, 10, 9)]}]}}


def test_star1_prunes_the_watch_views_tree():
    """By hand: a1 = .5 min(3, 5) + .5 min(4, 6) = 3.5 and a2 = .8 min(1, 2) + .2 min(10, 9) = 2.6, so A =
    3.5 by a1. The utilities are bounded by 10 (the typed tree's range, widened to its negation: -10..10).
    With Star1, a2's first MIN node is searched in the window (1.875, 10): below 1.875, a2 would be at most
    .8 * 1.875 + .2 * 10 = 3.5 = alpha. Its first leaf, 1, cuts the MIN node (the 2 is pruned), and then a2
    is at most .8 * 1 + .2 * 10 = 2.8 <= 3.5: its second MIN node and both its leaves are pruned. 11 nodes
    against 15; the trace's root entry names the bounds Star1 used."""
    plain = search("tree", star1_preset(), {"name": "expectimax", "pruning": False}, trace=True)
    star1 = search("tree", star1_preset(), {"name": "expectimax"}, trace=True)
    assert (plain.move, star1.move) == ("a1", "a1") and plain.value == star1.value == 3.5
    assert move_values(plain) == {"a1": 3.5, "a2": pytest.approx(2.6)}
    assert (plain.stats.nodes, star1.stats.nodes, plain.stats.cutoffs, star1.stats.cutoffs) == (15, 11, 0, 2)
    assert [m.bound for m in star1.moves] == ["exact", "upper"] and star1.moves[1].value == pytest.approx(2.8)
    assert [e["path"] for e in star1.trace[-3:]] == [["a2"], ["a2", 0], ["a2", 0, 0]]
    assert star1.trace[-2]["alpha"] == pytest.approx(1.875) and star1.trace[-2]["beta"] == 10
    assert star1.trace[0]["bounds"] == [-10, 10] and "bounds" not in plain.trace[0]


def test_a_rounded_star1_cut_stays_a_bound():
    """Found by the property below: after the first move's 12.666..., the second chance node cuts after
    its first child (12 with p 2/3: at most 12 + 14/3 in all), a bound that rounds to a hair above alpha.
    It must stay an upper bound, not become an exact value that beats the first move."""
    def chance(last):
        return {"type": "chance", "children": [{"value": 12, "p": 2 / 3}, {"value": 0, "p": 0.0},
                                               {"value": 0, "p": 0.0}, {"value": last, "p": 1 / 3}]}
    tree = {"root": {"type": "max", "children": [chance(14), chance(0)]}}
    r = search("tree", tree, {"name": "expectimax", "opponent_model": "minimax"})
    assert r.move == 0 and r.value == pytest.approx(38 / 3)
    assert r.moves[1].bound == "upper" and r.moves[1].value >= 8.0


@settings(max_examples=300, deadline=None)
@given(chance_trees(), st.sampled_from(["minimax", "uniform"]))
def test_star1_equals_plain_expectimax_and_the_reference(tree, model):
    expected = reference.expectimax(tree, model)
    plain = search("tree", tree, {"name": "expectimax", "opponent_model": model, "pruning": False})
    star1 = search("tree", tree, {"name": "expectimax", "opponent_model": model})
    assert plain.value == expected
    assert math.isclose(star1.value, expected, **CLOSE)
    assert star1.stats.nodes <= plain.stats.nodes
    assert all(m.bound == "exact" for m in plain.moves)
    exact = move_values(plain)
    for m in star1.moves:  # every pruned root move is a true bound (up to rounding)
        truth = exact[m.move]
        assert {"exact": math.isclose(truth, m.value, **CLOSE),
                "upper": truth <= m.value + 1e-9, "lower": truth >= m.value - 1e-9}[m.bound]
    best = exact[star1.move]
    assert math.isclose(best, max(exact.values()) if tree["root"]["type"] == "max" else min(exact.values()),
                        **CLOSE)


@settings(max_examples=150, deadline=None)
@given(chance_trees(with_eval=True), st.integers(1, 3), st.sampled_from([0.0, 0.3, 1.0]))
def test_depth_limited_and_epsilon_greedy_match_the_reference(tree, depth, epsilon):
    for model in ("minimax", "uniform", "epsilon_greedy"):
        settings_ = {"opponent_model": model, "depth": depth}
        if model == "epsilon_greedy":
            settings_["epsilon"] = epsilon
        expected = reference.expectimax(tree, model, epsilon, depth)
        plain = search("tree", tree, {"name": "expectimax", "pruning": False, **settings_})
        star1 = search("tree", tree, {"name": "expectimax", **settings_})
        assert plain.value == expected
        assert math.isclose(star1.value, expected, **CLOSE)


@settings(max_examples=100, deadline=None)
@given(chance_trees(with_eval=True))
def test_iterative_deepening_ends_with_the_full_value(tree):
    """Without a depth the search deepens until no node is cut: the value of the whole tree."""
    r = search("tree", tree, {"name": "expectimax", "opponent_model": "minimax"})
    assert math.isclose(r.value, reference.expectimax(tree, "minimax"), **CLOSE)
    assert r.stats.stop_reason == "completed" and not r.stats.timed_out


def test_default_model_depends_on_whether_the_game_has_chance():
    chance = figure_5_12([2, 3, 1, 4])
    assert search("tree", chance, {"name": "expectimax"}).value == pytest.approx(
        reference.expectimax(chance, "minimax"))
    assert search("tree", FIGURE_5_2, {"name": "expectimax"}).value == pytest.approx(
        reference.expectimax(FIGURE_5_2, "uniform"))


def test_min_root_reports_max_values_and_minimises():
    tree = {"root": {"type": "min", "children": [
        {"type": "max", "children": [{"value": 1}, {"value": 9}]},
        {"type": "max", "children": [{"value": 4}, {"value": 4}]}]}}
    r = search("tree", tree, {"name": "expectimax"})  # MAX is MIN's opponent: a uniform chance node
    assert (r.move, r.value, r.perspective) == (1, 4.0, "MAX")
    assert move_values(r) == {0: 5.0, 1: 4.0}


def test_trace_lists_every_visit_with_values_from_max():
    tree = figure_5_12([2, 3, 1, 4])
    r = search("tree", tree, {"name": "expectimax", "pruning": False}, trace=True)
    assert len(r.trace) == r.stats.nodes == 15
    assert r.trace[0] == {"path": [], "ply": 0, "alpha": None, "beta": None, "value": pytest.approx(2.1)}
    assert r.trace[1]["path"] == ["a1"] and r.trace[1]["value"] == pytest.approx(2.1)
    assert [e["ply"] for e in r.trace[:5]] == [0, 1, 2, 3, 3]
    pruned = search("tree", tree, {"name": "expectimax"}, trace=True)
    assert len(pruned.trace) == pruned.stats.nodes and any(e["alpha"] is not None for e in pruned.trace)


def test_a_trace_past_its_cap_is_an_error_not_a_trace_cut_short():
    with pytest.raises(TraceTooLarge) as error:
        search("tree", figure_5_12([2, 3, 1, 4]), {"name": "expectimax"}, trace=True,
               limits=Limits(max_trace_entries=4))
    assert "MAX_TRACE_ENTRIES (4)" in error.value.errors["trace"][0]


def test_refusals():
    three = {"root": {"player": 0, "children": [{"value": [1, 2, 3]}, {"value": [3, 2, 1]}]}}
    with pytest.raises(AlgorithmMismatch):
        search("tree", three, {"name": "expectimax"})
    with pytest.raises(InvalidState):
        search("tree", {"root": {"type": "chance", "children": [{"value": 1}]}}, {"name": "expectimax"})
    with pytest.raises(AlgorithmMismatch) as error:  # the greedy opponent needs evals
        search("tree", {"root": {"type": "max", "children": [{"type": "min", "children": [{"value": 1}]}]}},
               {"name": "expectimax", "opponent_model": "epsilon_greedy"})
    assert "algorithm.opponent_model" in error.value.errors
    for bad, field in (({"opponent_model": "random"}, "opponent_model"), ({"epsilon": 0.5}, "epsilon"),
                       ({"opponent_model": "epsilon_greedy", "epsilon": 2}, "epsilon"),
                       ({"pruning": "yes"}, "pruning"), ({"depth": 0}, "depth")):
        with pytest.raises(AlgorithmMismatch) as error:
            search("tictactoe", {"board": ["...", "...", "..."]}, {"name": "expectimax", **bad})
        assert f"algorithm.{field}" in error.value.errors


def test_tictactoe_uniform_opponent_to_the_end():
    r = search("tictactoe", {"board": ["X.O", "...", "..."]}, {"name": "expectimax"})
    assert r.stats.stop_reason == "completed" and r.stats.depth_completed == 7
    assert -1.0 <= r.value <= 1.0 and r.outcome is None
    greedy = search("tictactoe", {"board": ["XX.", "OO.", "..."]},
                    {"name": "expectimax", "opponent_model": "epsilon_greedy", "epsilon": 0.2, "depth": 2})
    assert greedy.move == 2 and greedy.value == 1.0


@pytest.mark.parametrize("game, state", [
    ("2048", {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]}),
    ("tictactoe", {"board": ["." * 7] * 7, "k": 4}),
    ("connect4", {"board": ["......."] * 6}),
])
def test_unbounded_search_answers_within_the_deadline(game, state):
    load(game, state)  # build the game's tables before the clock starts
    start = time.perf_counter()
    r = search(game, state, {"name": "expectimax"}, time_limit_ms=100)
    wall = (time.perf_counter() - start) * 1000
    assert r.stats.timed_out and r.stats.stop_reason == "time_limit"
    assert r.stats.time_ms <= 110 and wall <= 200
    assert r.move in {m.move for m in r.moves} and r.stats.depth_completed >= 1


def test_2048_expectimax_plays_its_best_valued_move():
    """Every legal move is valued (up cannot move this row), a live board within (0.5, 1], and the answer is
    the best of them. (Which move the evaluation prefers is measured in bench/, not asserted here.)"""
    r = search("2048", {"board": [[4, 4, 2, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]},
               {"name": "expectimax", "depth": 3, "pruning": False})
    assert sorted(m.move for m in r.moves) == ["down", "left", "right"]
    assert r.move == max(r.moves, key=lambda m: m.value).move and 0.5 <= r.value <= 1.0
    assert r.stats.depth_completed == 3 and r.stats.max_depth == 3
