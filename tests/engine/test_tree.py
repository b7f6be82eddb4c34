"""Parsing and validating explicit trees: every mistake is refused with the JSON path of the node."""
import time

from hypothesis import given, settings, strategies as st
import pytest

from engine.api import Limits, apply, legal_moves, load, search
from engine.errors import EngineError, GameOver, IllegalMove, InvalidState
from engine.game import EVALUATION
from engine.games.tree import FIGURE_5_2
from tests.engine.strategies import game_trees


def error_of(tree, limits=Limits()):
    with pytest.raises(InvalidState) as caught:
        load("tree", tree, limits)
    (field, messages), = caught.value.errors.items()
    return field, messages[0]


@pytest.mark.parametrize("root, field, words", [
    ({"type": "max", "children": []}, "state.root.children", "non-empty"),
    ({"type": "max"}, "state.root", "children or a value"),
    ({"type": "max", "children": [{"value": 1}, {"id": "x"}]}, "state.root.children[1]", "children or a value"),
    ({"type": "max", "children": [{"value": "1"}]}, "state.root.children[0].value", "finite number"),
    ({"type": "max", "children": [{"value": True}]}, "state.root.children[0].value", "finite number"),
    ({"type": "max", "children": [{"value": 1}, {"value": float("inf")}]}, "state.root.children[1].value",
     "finite number"),
    ({"type": "max", "children": [{"value": float("nan")}]}, "state.root.children[0].value", "finite number"),
    ({"type": "max", "children": [{"value": [1, 2]}]}, "state.root.children[0].value", "finite number"),
    ({"type": "maxi", "children": [{"value": 1}]}, "state.root.type", "max"),
    ({"type": "max", "children": [{"value": 1, "chlidren": []}]}, "state.root.children[0]", "unknown keys"),
    ({"type": "chance", "children": [{"value": 1, "p": 0.5}, {"value": 2, "p": 0.6}]},
     "state.root.children", "sum to"),
    ({"type": "chance", "children": [{"value": 1, "p": 1.5}, {"value": 2, "p": -0.5}]},
     "state.root.children[0].p", "[0, 1]"),
    ({"type": "chance", "children": [{"value": 1, "p": 1.0}, {"value": 2}]},
     "state.root.children[1].p", "every child"),
    ({"type": "max", "children": [{"value": 1, "p": 1.0}]}, "state.root.children[0].p", "chance"),
    ({"type": "max", "children": [{"id": "a", "value": 1}, {"id": "a", "value": 2}]},
     "state.root.children", "distinct"),
    ({"type": "max", "children": [{"id": "1", "value": 1}, {"id": 1, "value": 2}]},   # one label as shown
     "state.root.children", "distinct"),
    ({"player": 0, "children": [{"value": [1, 2]}, {"value": [1, 2, 3]}]},
     "state.root.children[1].value", "2 entries"),
    ({"player": 0, "children": [{"value": [0] * 65}]}, "state.root.children[0].value", "2 to 64"),
    ({"player": 0, "children": [{"value": [1, 2]}, {"value": 3}]}, "state.root.children[1].value", "list"),
    ({"type": "max", "children": [{"type": "min", "children": [{"value": 1}], "eval": "x"}]},
     "state.root.children[0].eval", "finite"),
])
def test_malformed_trees_name_the_node(root, field, words):
    got_field, message = error_of({"root": root})
    assert got_field == field and words in message


def test_caps_on_size_and_depth_hold_without_recursion():
    deep = {"value": 0}
    for _ in range(50_000):  # far deeper than the Python stack
        deep = {"type": "max", "children": [deep]}
    field, message = error_of({"root": deep})
    assert field == "state.root" and message == "the tree is 50000 plies deep; the limit is 1000 (MAX_TREE_DEPTH)"
    wide = {"root": {"type": "max", "children": [{"value": i} for i in range(20)]}}
    assert "more than 10 nodes" in error_of(wide, Limits(max_tree_nodes=10))[1]


def test_a_tree_at_the_depth_cap_searches_without_blowing_the_stack():
    node = {"value": 1}
    for i in range(1000):
        node = {"type": "max" if i % 2 else "min", "children": [node, {"value": 0}]}
    for algorithm in ({"name": "minimax"}, {"name": "alphabeta"},
                      {"name": "alphabeta", "move_ordering": False, "transposition_table": False}):
        assert search("tree", {"root": node}, algorithm).stats.max_depth >= 999


def test_probabilities_default_to_uniform_and_labels_to_ids_or_indices():
    game, root = load("tree", {"root": {"type": "chance", "children": [{"value": 1}, {"id": "b", "value": 2},
                                                                        {"move": "c", "value": 3}]}})
    assert [p for _, p in game.chance_outcomes(root)] == pytest.approx([1 / 3] * 3)
    assert [game.move_to_json(c) for c in game.actions(root)] == [0, "b", "c"]


def test_legal_moves_and_apply_walk_the_tree():
    assert legal_moves("tree", FIGURE_5_2)["legal_moves"] == ["B", "C", "D"]
    after = apply("tree", FIGURE_5_2, "C")
    assert after["to_move"] == "MIN" and after["legal_moves"] == [0, 1, 2]
    leaf = apply("tree", after["state"], 1)
    assert leaf["terminal"] and leaf["utilities"] == {"MAX": 4.0, "MIN": -4.0}
    with pytest.raises(IllegalMove):
        apply("tree", FIGURE_5_2, "E")
    with pytest.raises(GameOver):
        search("tree", leaf["state"], {"name": "minimax"})


def test_search_refuses_what_does_not_fit():
    chance = {"root": {"type": "chance", "children": [{"value": 1}, {"value": 2}]}}
    three = {"root": {"player": 0, "children": [{"value": [1, 2, 3]}, {"value": [3, 2, 1]}]}}
    for tree in (chance, three):
        for name in ("minimax", "alphabeta"):
            with pytest.raises(EngineError) as caught:
                search("tree", tree, {"name": name})
            assert "algorithm.name" in caught.value.errors
    with pytest.raises(EngineError) as caught:
        search("tree", FIGURE_5_2, {"name": "minimax", "depth": 1})
    assert list(caught.value.errors) == ["state.root.children[0].eval"]
    with pytest.raises(EngineError) as caught:
        search("tree", FIGURE_5_2, {"name": "minimax", "epsilon": 0.1})
    assert list(caught.value.errors) == ["algorithm.epsilon"]


def height(node) -> int:
    return 1 + max(height(child) for child in node["children"]) if "children" in node else 0


def all_evaluated(node) -> bool:
    return "children" not in node or ("eval" in node and all(all_evaluated(c) for c in node["children"]))


@settings(max_examples=150, deadline=None)
@given(st.one_of(game_trees(), game_trees(with_eval=True), game_trees(kinds=("max", "min", "chance"))))
def test_every_node_knows_its_height_and_the_tree_whether_it_can_evaluate(tree):
    """Reading settles each node's height (the plies to its deepest leaf) and the EVALUATION capability
    as it walks the tree, rather than in passes of their own."""
    game, root = load("tree", tree)
    nodes = [tree["root"]]
    for i in range(len(game.mover)):  # the game's nodes are the JSON's in pre-order
        node = nodes[i]
        assert game.plies_bound(i) == height(node)
        nodes[i + 1:i + 1] = node.get("children", [])
    assert (EVALUATION in game.capabilities) == all_evaluated(tree["root"])


def leaves_and_evals(node) -> list:
    """Every number of a typed tree's leaves and evals."""
    own = [node["value"]] if "value" in node else [node["eval"]] if "eval" in node else []
    return own + [x for child in node.get("children", []) for x in leaves_and_evals(child)]


@settings(max_examples=150, deadline=None)
@given(st.one_of(game_trees(), game_trees(with_eval=True), game_trees(kinds=("max", "min", "chance"))))
def test_every_leaf_is_read_as_a_float_and_the_bounds_hold_every_number(tree):
    """A typed tree's leaves are read in place (engine/games/tree.py): as floats, each at its node, the
    utility bounds the least and the greatest of the leaves and evals."""
    game, _ = load("tree", tree)
    nodes = [tree["root"]]
    for i in range(len(game.mover)):
        node = nodes[i]
        if "value" in node:
            assert type(game.leaf_value[i]) is float and game.leaf_value[i] == node["value"]
        nodes[i + 1:i + 1] = node.get("children", [])
    numbers = leaves_and_evals(tree["root"])
    assert game.utility_bounds == (min(numbers), max(numbers))


def test_a_wide_utility_vector_is_refused_before_it_is_read():
    """Issue 34: max^n on vectors 255,000 wide answered 3 MB after 336 ms at a 50 ms limit. The width is
    checked before the numbers: refusing costs microseconds."""
    wide = {"root": {"player": 0, "children": [{"value": [1.0] * 255_000}, {"value": [2.0] * 255_000}]}}
    started = time.perf_counter()
    field, message = error_of(wide)
    assert field == "state.root.children[0].value" and "2 to 64" in message
    assert time.perf_counter() - started < 0.05
