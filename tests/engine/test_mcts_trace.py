"""The MCTS trace (issue 54): each iteration's selection with its UCB values, expansion, playout and
back-propagation, checked against a hand-computed example, and bounded as the other traces are."""
import pytest

from engine.api import Limits, load, search
from engine.errors import TraceTooLarge

# MAX chooses among three leaves worth 2, -2 and 0. The tree's utilities lie in [-2, 2], so the scaled
# rewards (0: the lowest, 1: the highest) are 1, 0 and 0.5.
THREE_LEAVES = {"root": {"type": "max", "children": [{"id": "B", "value": 2}, {"id": "C", "value": -2},
                                                    {"id": "D", "value": 0}]}}


def traced(game, state, **settings):
    return search(game, state, {"name": "mcts", **settings}, trace=True)


def test_the_first_iterations_expand_each_move_in_turn():
    trace = traced("tree", THREE_LEAVES, iterations=3, seed=0).trace
    assert [e["path"] for e in trace] == [["B"], ["C"], ["D"]]
    assert all(e["selection"] == [] and e["expanded"] and e["end"] == "terminal" for e in trace)
    assert [e["utilities"] for e in trace] == [[2.0, -2.0], [-2.0, 2.0], [0.0, 0.0]]
    assert [e["reward"] for e in trace] == [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
    # the root adds up every reward: 1, then 1 + 0, then 1 + 0 + 0.5
    assert [(e["backpropagation"][0]["u"], e["backpropagation"][0]["n"]) for e in trace] == [
        (1.0, 1), (1.0, 2), (1.5, 3)]


def test_the_ucb_values_are_the_formula_s_worked_by_hand():
    """UCB(n) = U(n)/N(n) + C sqrt(ln N(parent) / N(n)), C = sqrt 2 = 1.414214.
    Iteration 4: N(root) = 3, each child once: sqrt(2 ln 3) = sqrt(2.197225) = 1.482304, so B 1 + 1.482304,
    C 0 + 1.482304, D 0.5 + 1.482304. Iteration 5: N(root) = 4, B twice (U 2): 1 + sqrt(2 ln 4 / 2) =
    1 + 1.177410; C and D once: sqrt(2 ln 4) = 1.665109, so C 1.665109 and D 2.165109."""
    trace = traced("tree", THREE_LEAVES, iterations=5, seed=0).trace
    fourth, fifth = trace[3], trace[4]
    (step,) = fourth["selection"]
    assert (step["ply"], step["n"], step["kind"], step["player"], step["chosen"]) == (0, 3, "ucb", "MAX", "B")
    assert [(c["move"], c["u"], c["n"]) for c in step["children"]] == [("B", 1.0, 1), ("C", 0.0, 1),
                                                                      ("D", 0.5, 1)]
    assert [c["ucb"] for c in step["children"]] == pytest.approx([2.482304, 1.482304, 1.982304], abs=1e-6)
    assert not fourth["expanded"] and fourth["end"] == "terminal" and fourth["playout"] is None
    assert [(b["ply"], b["u"], b["n"]) for b in fourth["backpropagation"]] == [(0, 2.5, 4), (1, 2.0, 2)]
    (step,) = fifth["selection"]
    assert [c["ucb"] for c in step["children"]] == pytest.approx([2.177410, 1.665109, 2.165109], abs=1e-6)
    assert step["chosen"] == "B" and step["n"] == 4


def test_a_lower_exploration_constant_changes_the_bounds():
    (step,) = traced("tree", THREE_LEAVES, iterations=4, seed=0, exploration=0.5).trace[3]["selection"]
    # 0.5 * sqrt(ln 3) = 0.5 * 1.048147
    assert [c["ucb"] for c in step["children"]] == pytest.approx([1.524073, 0.524073, 1.024073], abs=1e-6)


def test_a_playout_replayed_from_the_expanded_node_ends_in_its_result():
    game, state = load("connect4", {"moves": "4453"})
    for entry in traced("connect4", {"moves": "4453"}, iterations=30, seed=5).trace:
        assert entry["end"] == "playout" and entry["expanded"]
        s = state
        for move in entry["path"] + entry["playout"]:
            s = game.result(s, game.move_from_json(move, s))
        assert game.is_terminal(s) and list(game.utilities(s)) == entry["utilities"]
        assert entry["backpropagation"][-1]["n"] == 1 and len(entry["backpropagation"]) == len(entry["path"]) + 1
        assert [step["ply"] for step in entry["selection"]] == list(range(len(entry["path"]) - 1))


@pytest.mark.parametrize("game, state", [
    ("connect4", {"moves": "4453"}),                               # the game's own playout, when untraced
    ("tictactoe", {"board": ["X.O", "...", "..."]}),
    ("2048", {"board": [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]}),
])
def test_a_trace_changes_nothing_in_the_search_and_a_seed_repeats_it(game, state):
    settings = {"name": "mcts", "iterations": 6 if game == "2048" else 60, "seed": 11}
    plain = search(game, state, settings)
    first, again = (search(game, state, settings, trace=True) for _ in range(2))
    assert (first.move, first.stats.nodes, [(m.move, m.visits) for m in first.moves]) == (
        plain.move, plain.stats.nodes, [(m.move, m.visits) for m in plain.moves])
    assert first.trace == again.trace and len(first.trace) == first.stats.iterations


def test_a_chance_node_s_step_names_the_outcome_drawn():
    tree = {"root": {"type": "max", "children": [{"id": "a", "type": "chance", "children": [
        {"id": "x", "p": 0.5, "value": 1}, {"id": "y", "p": 0.5, "value": 3}]}]}}
    trace = traced("tree", tree, iterations=6, seed=2).trace
    chance = [s for e in trace for s in e["selection"] if s["kind"] == "chance"]
    assert chance and all(s["chosen"] in ("x", "y") for s in chance)
    for entry in trace:
        assert [s["chosen"] for s in entry["selection"]] == entry["path"][:len(entry["selection"])]


def test_more_iterations_than_the_trace_holds_is_refused_before_the_search():
    with pytest.raises(TraceTooLarge) as error:
        search("tree", THREE_LEAVES, {"name": "mcts", "iterations": 11}, trace=True,
               limits=Limits(max_trace_entries=10))
    assert "MAX_TRACE_ENTRIES (10)" in error.value.errors["algorithm.iterations"][0]


@pytest.mark.parametrize("settings, field, limit", [
    ({"name": "mcts", "iterations": 50}, "trace", "MAX_TRACE_BYTES (4096"),
    ({"name": "minimax"}, "trace", "MAX_TRACE_BYTES (4096"),
])
def test_a_trace_past_its_bytes_is_an_error_not_a_trace_cut_short(settings, field, limit):
    with pytest.raises(TraceTooLarge) as error:
        search("tictactoe", {"board": ["...", "...", "..."]}, settings, trace=True,
               limits=Limits(max_trace_bytes=4096))
    assert limit in error.value.errors[field][0]


def test_a_depth_first_trace_past_its_entries_is_an_error():
    with pytest.raises(TraceTooLarge) as error:
        search("tictactoe", {"board": ["X..", "...", "..."]}, {"name": "alphabeta"}, trace=True,
               limits=Limits(max_trace_entries=100))
    assert "MAX_TRACE_ENTRIES (100)" in error.value.errors["trace"][0]
