"""Finite JSON numbers never overflow a search: every algorithm, on trees whose values and probabilities
reach the edges of the float range, answers with finite values inside the range of the tree's values
(and, where only comparisons are involved, with exactly the reference value)."""
import json
import math

from hypothesis import given, settings, strategies as st
import pytest

from engine.api import search
from engine.errors import EngineError
from tests.engine import reference
from tests.engine.strategies import BIGGEST, extreme_values, game_trees
from tests.engine.strategies_chance import chance_trees

# Chance weights that make some probabilities the smallest floats there are.
extreme_weights = st.lists(st.one_of(st.integers(0, 4), st.sampled_from([5e-324, 1e-300])), min_size=4, max_size=4)

TYPED = [{"name": "minimax"}, {"name": "alphabeta"},
         {"name": "alphabeta", "move_ordering": False, "transposition_table": False},
         {"name": "expectimax"}, {"name": "expectimax", "pruning": False}, {"name": "maxn"},
         {"name": "mcts", "iterations": 60, "seed": 3}]


def numbers(tree) -> list:
    """Every leaf value and eval in a JSON tree (vectors flattened)."""
    found, stack = [], [tree["root"]]
    while stack:
        node = stack.pop()
        for key in ("value", "eval"):
            if key in node:
                found.extend(node[key] if isinstance(node[key], list) else [node[key]])
        stack.extend(node.get("children", []))
    return found


def finite_within(result, lo, hi) -> None:
    """Every value the search reports is finite and within the range of the tree's values widened to its
    negation (MIN's utilities in a typed tree, and the bounds that pruning searches report for what falls
    outside their window, lie there); the trace's alpha and beta (windows) are finite. Averages (chance
    nodes, opponent models, MCTS's means on a [0, 1] scale of the range) may be off by rounding errors of
    the range. Exact values are checked by the callers where only comparisons are involved."""
    reported = [result.value] + [m.value for m in result.moves] + list(result.values or [])
    reported.extend(u for m in result.moves for u in m.values or [])
    for entry in result.trace or []:  # a number, or max^n's vector; MCTS: an iteration's result
        value = entry["utilities"] if "iteration" in entry else entry["value"]
        reported.extend(value if isinstance(value, list) else [] if value is None else [value])
    low, high = min(lo, -hi), max(hi, -lo)
    slack = 1e-12 * high
    for v in reported:
        assert math.isfinite(v) and low - slack <= v <= high + slack, (v, lo, hi)
    windows = [x for entry in result.trace or [] if "iteration" not in entry
               for x in (entry["alpha"], entry["beta"]) if x is not None]
    json.dumps([reported, windows, result.trace], allow_nan=False)  # MCTS's U and UCB values too


def run(tree, algorithm, **kwargs):
    """The search, or None when the algorithm refuses the tree (no eval where a depth limit cuts)."""
    try:
        return search("tree", tree, dict(algorithm), time_limit_ms=2000, **kwargs)
    except EngineError as error:
        assert any(field.endswith(".eval") for field in error.errors) or "algorithm" in str(error.errors), error
        return None


def test_the_defects_of_issue_17():
    """A leaf of 1e308 next to 0 made MCTS divide inf by inf; chance nodes of +-1.7e308 did too."""
    trees = [{"root": {"type": "max", "children": [{"value": 1e308}, {"value": 0}]}},
             {"root": {"type": "max", "children": [
                 {"type": "chance", "children": [{"value": 1.7e308}, {"value": -1.7e308}]}, {"value": 0}]}},
             {"root": {"player": 0, "children": [
                 {"type": "chance", "children": [{"value": [BIGGEST, -BIGGEST]}, {"value": [-BIGGEST, BIGGEST]}]},
                 {"value": [0, 0]}]}}]
    for tree in trees:
        for algorithm in TYPED:
            result = run(tree, algorithm, trace=True)
            if result is not None:
                finite_within(result, -BIGGEST, BIGGEST)
    mcts = search("tree", trees[0], {"name": "mcts", "iterations": 50, "seed": 1})
    assert (mcts.move, mcts.value) == (0, 1e308)


@settings(max_examples=60, deadline=None)
@given(game_trees(kinds=("max", "min"), max_leaves=30, values=extreme_values))
def test_deterministic_trees(tree):
    expected = reference.minimax(tree["root"])
    lo, hi = min(numbers(tree)), max(numbers(tree))
    for algorithm in TYPED:
        result = run(tree, algorithm, trace=True)
        finite_within(result, lo, hi)
        if algorithm["name"] in ("minimax", "alphabeta", "maxn"):
            assert result.value == expected, algorithm


@settings(max_examples=60, deadline=None)
@given(chance_trees(max_leaves=30, with_eval=True, values=extreme_values, weights=extreme_weights),
       st.sampled_from([None, 1, 2]))
def test_chance_trees(tree, depth):
    lo, hi = min(numbers(tree)), max(numbers(tree))
    for algorithm in TYPED[3:]:
        result = run(tree, dict(algorithm, **({} if depth is None or algorithm["name"] == "mcts"
                                              else {"depth": depth})), trace=True)
        if result is not None:
            finite_within(result, lo, hi)


@pytest.mark.parametrize("players", [2, 3])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_n_player_trees(players, data):
    tree = data.draw(chance_trees(kinds=(0, "chance"), n_players=players, max_leaves=25,
                                  values=extreme_values, weights=extreme_weights))
    lo, hi = min(numbers(tree)), max(numbers(tree))
    for algorithm in ({"name": "maxn"}, {"name": "mcts", "iterations": 60, "seed": 5}):
        finite_within(run(tree, algorithm, trace=True), lo, hi)
