"""Max^n and expectimax report their whole principal line, as minimax does (issue 54: ``pv`` was the
first move alone): each mover's choice down to a leaf, or to the first chance node."""
from hypothesis import given, settings

from engine.api import load, search
from tests.engine.strategies import game_trees
from tests.engine.test_maxn import FIGURE_5_4
from tests.engine.test_honest_cutoffs import FIGURE_5_2


def test_figure_5_4_s_line_goes_down_to_the_leaf_of_its_vector():
    """A's 0, then B's 0 (2 > 1 for B), then C's 0 ((1, 2, 6): 6 > 3 for C)."""
    r = search("tree", FIGURE_5_4, {"name": "maxn"})
    assert r.pv == [0, 0, 0] and r.values == [1.0, 2.0, 6.0]


def test_figure_5_2_s_line_is_minimax_s():
    lines = {name: search("tree", FIGURE_5_2, {"name": name}).pv for name in ("minimax", "maxn")}
    lines["expectimax"] = search("tree", FIGURE_5_2, {"name": "expectimax", "opponent_model": "minimax"}).pv
    assert lines == {"minimax": ["B", 0], "maxn": ["B", 0], "expectimax": ["B", 0]}


def test_a_line_stops_at_a_chance_node():
    tree = {"root": {"type": "max", "children": [
        {"id": "safe", "type": "min", "children": [{"id": "s1", "value": 3}, {"id": "s2", "value": 5}]},
        {"id": "risky", "type": "chance", "children": [{"p": 0.5, "value": 0}, {"p": 0.5, "value": 10}]}]}}
    assert search("tree", tree, {"name": "expectimax"}).pv == ["risky"]
    assert search("tree", tree, {"name": "expectimax", "pruning": False}).pv == ["risky"]


def leaf_of(tree: dict, line: list) -> dict:
    node = tree["root"]
    for move in line:
        node = next(kid for k, kid in enumerate(node["children"]) if kid.get("move", kid.get("id", k)) == move)
    return node


@settings(max_examples=100, deadline=None)
@given(game_trees(n_players=3))
def test_a_max_n_line_ends_at_the_leaf_whose_vector_is_the_value(tree):
    r = search("tree", tree, {"name": "maxn"})
    assert r.pv[0] == r.move and leaf_of(tree, r.pv)["value"] == r.values


@settings(max_examples=100, deadline=None)
@given(game_trees())
def test_an_expectimax_line_ends_at_the_leaf_of_its_value(tree):
    """Typed trees of MAX and MIN nodes, MIN a minimizer (else it is the opponent model's chance node):
    with pruning or without, the line is of exact values."""
    for pruning in (True, False):
        r = search("tree", tree, {"name": "expectimax", "opponent_model": "minimax", "pruning": pruning})
        assert r.pv[0] == r.move and leaf_of(tree, r.pv)["value"] == r.value


def test_pacman_s_max_n_line_plays_every_agent_s_move():
    state = {"layout": ["%%%%%%%", "%P G G%", "%%%%%%%"], "to_move": "Ghost1"}
    r = search("pacman", state, {"name": "maxn", "depth": 4})
    game, s = load("pacman", state)
    assert len(r.pv) == 4 and r.pv[0] == r.move == "West"
    for move in r.pv:
        s = game.result(s, game.move_from_json(move, s))


def test_a_search_out_of_time_before_its_first_root_move_answers_that_move_without_a_line():
    """The CI's schemathesis run found max^n answering a 500 here (its line was looked for among the
    valued moves, which the fallback is not of); expectimax shares the code."""
    from engine.deadline import Deadline
    from engine.search import expectimax, maxn

    game, state = load("connect4", {"moves": "441"})
    for module in (maxn, expectimax):
        late = Deadline(1.0)
        late.end -= 10.0                                             # expired ten seconds ago
        r = module.search(game, state, module.Settings(depth=6), deadline=late)
        assert r.value is None and r.moves == [] and r.pv == [r.move] and r.stats.timed_out
