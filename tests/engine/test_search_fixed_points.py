"""The fixed points of API.md, and hand-computed textbook trees."""
import pytest

from engine.api import search
from engine.games.tree import FIGURE_5_2

EMPTY = {"board": ["...", "...", "..."]}
TEXTBOOK = {"name": "alphabeta", "move_ordering": False, "transposition_table": False}


def test_tictactoe_full_minimax_visits_every_node_of_the_game_tree():
    r = search("tictactoe", EMPTY, {"name": "minimax"})
    assert r.stats.nodes == 549_946
    assert (r.move, r.value, r.outcome, r.perspective) == (0, 0.0, "draw", "X")
    assert r.stats.depth_completed == 9 and not r.stats.timed_out


def test_tictactoe_textbook_alphabeta_visits_18297_nodes():
    r = search("tictactoe", EMPTY, TEXTBOOK)
    assert r.stats.nodes == 18_297
    assert (r.move, r.value, r.outcome) == (0, 0.0, "draw")


def test_aima_figure_5_2_alphabeta():
    r = search("tree", FIGURE_5_2, TEXTBOOK)
    assert (r.stats.nodes, r.value, r.move) == (11, 3.0, "B")
    assert [(m.move, m.value, m.bound) for m in r.moves] == [("B", 3, "exact"), ("C", 2, "upper"),
                                                              ("D", 2, "upper")]


@pytest.mark.parametrize("algorithm", [{"name": "alphabeta"}, {"name": "minimax"},
                                       {"name": "alphabeta", "transposition_table": False}])
def test_aima_figure_5_2_every_mode_agrees(algorithm):
    r = search("tree", FIGURE_5_2, algorithm)
    assert (r.value, r.move, r.pv[0]) == (3.0, "B", "B")


def test_aima_figure_5_2_minimax_visits_all_13_nodes():
    assert search("tree", FIGURE_5_2, {"name": "minimax"}).stats.nodes == 13


def test_min_root_is_valued_from_max_point_of_view():
    tree = {"root": {"type": "min", "children": [{"id": "a", "value": 5}, {"id": "b", "value": -2}]}}
    for algorithm in ({"name": "minimax"}, TEXTBOOK, {"name": "alphabeta"}):
        r = search("tree", tree, algorithm)
        assert (r.move, r.value, r.perspective) == ("b", -2.0, "MAX")


def test_consecutive_min_layers_one_max_against_two_ghosts():
    ghost = lambda *leaves: {"type": "min", "children": [{"value": v} for v in leaves]}
    tree = {"root": {"type": "max", "children": [
        {"id": "left", "type": "min", "children": [ghost(3, 9), ghost(4, 1)]},   # 1
        {"id": "right", "type": "min", "children": [ghost(6, 5), ghost(7, 8)]},  # 5
    ]}}
    for algorithm in ({"name": "minimax"}, TEXTBOOK, {"name": "alphabeta"}):
        r = search("tree", tree, algorithm)
        assert (r.move, r.value) == ("right", 5.0)


def test_trace_records_the_visit_order_with_windows():
    r = search("tree", FIGURE_5_2, TEXTBOOK, trace=True)
    assert len(r.trace) == 11
    assert [e["path"] for e in r.trace[:5]] == [[], ["B"], ["B", 0], ["B", 1], ["B", 2]]
    c = next(e for e in r.trace if e["path"] == ["C"])
    assert (c["alpha"], c["beta"], c["value"]) == (3.0, None, 2.0)
    assert r.trace[0]["value"] == 3.0


def test_depth_limited_tree_uses_eval_at_the_cutoff():
    tree = {"root": {"type": "max", "children": [
        {"id": "a", "type": "min", "eval": 1, "children": [{"value": 10}, {"value": 0}]},
        {"id": "b", "type": "min", "eval": 2, "children": [{"value": -5}, {"value": 8}]}]}}
    for algorithm in ({"name": "minimax", "depth": 1}, dict(TEXTBOOK, depth=1), {"name": "alphabeta", "depth": 1}):
        r = search("tree", tree, algorithm)
        assert (r.move, r.value, r.outcome) == ("b", 2.0, None)
    assert search("tree", tree, {"name": "alphabeta"}).value == 0.0
