"""``stats.cutoffs`` counts the cuts that prune something (issue 54): a cut after a node's last child
leaves nothing unsearched and is not counted. Checked by hand on small trees and, on random trees, against
the trace: the count is the number of visited inner nodes with a child the trace never visits."""
from hypothesis import given, settings

from engine.api import search
from tests.engine.strategies import game_trees
from tests.engine.strategies_chance import chance_trees

TEXTBOOK = {"name": "alphabeta", "move_ordering": False, "transposition_table": False}
ENHANCED = {"name": "alphabeta"}
# MAX chooses B, a MIN node with one leaf 3, or C, a MIN node with leaves 5 and 2.
B3_C52 = {"root": {"type": "max", "children": [{"id": "B", "type": "min", "children": [{"value": 3}]},
                                              {"id": "C", "type": "min", "children": [{"value": 5},
                                                                                     {"value": 2}]}]}}
FIGURE_5_2 = {"root": {"id": "A", "type": "max", "children": [
    {"id": "B", "type": "min", "children": [{"value": 3}, {"value": 12}, {"value": 8}]},
    {"id": "C", "type": "min", "children": [{"value": 2}, {"value": 4}, {"value": 6}]},
    {"id": "D", "type": "min", "children": [{"value": 14}, {"value": 5}, {"value": 2}]}]}}


def test_a_cut_at_the_last_child_is_not_counted():
    """C's 2 <= alpha = 3 ends C, but C has no child left: all 6 nodes are visited, nothing is pruned."""
    for algorithm in (TEXTBOOK, ENHANCED, {"name": "expectimax", "opponent_model": "minimax"}):
        r = search("tree", B3_C52, algorithm)
        assert (r.stats.nodes, r.stats.cutoffs) == (6, 0), algorithm


def test_figure_5_2_counts_the_one_cut_that_prunes():
    """C's first leaf, 2 <= 3, prunes C's 4 and 6; D's last leaf, 2, ends D with nothing left to prune."""
    r = search("tree", FIGURE_5_2, TEXTBOOK)
    assert (r.stats.nodes, r.stats.cutoffs) == (11, 1)


def unsearched_parents(tree: dict, trace: list) -> int:
    """The visited inner nodes of ``tree`` with at least one child (of nonzero probability, under a chance
    node) that the trace does not visit."""
    visited = {tuple(e["path"]) for e in trace}

    def label(node, k):
        return node.get("move", node.get("id", k))

    def walk(node, path):
        kids = node.get("children", [])
        if not kids or path not in visited:
            return 0
        paths = [path + (label(kid, k),) for k, kid in enumerate(kids)]
        searchable = [p for kid, p in zip(kids, paths) if kid.get("p", 1) > 0]  # chance never draws p = 0
        return any(p not in visited for p in searchable) + sum(walk(kid, p) for kid, p in zip(kids, paths))

    return walk(tree["root"], ())


@settings(max_examples=150, deadline=None)
@given(game_trees())
def test_alpha_beta_counts_a_cut_for_each_node_it_leaves_unfinished(tree):
    """The textbook search: one pass, each node visited once (the enhanced search deepens and re-searches,
    so that a node cut in one pass may be finished in the next)."""
    r = search("tree", tree, TEXTBOOK, trace=True)
    assert r.stats.cutoffs == unsearched_parents(tree, r.trace)


@settings(max_examples=150, deadline=None)
@given(chance_trees())
def test_expectimax_counts_a_cut_for_each_node_it_leaves_unfinished(tree):
    r = search("tree", tree, {"name": "expectimax"}, trace=True)
    assert r.stats.cutoffs == unsearched_parents(tree, r.trace)
