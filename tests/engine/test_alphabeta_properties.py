"""Alpha-beta against an independent reference, on thousands of random trees and board positions."""
import random

from hypothesis import given, settings, strategies as st

from engine.api import apply, load, search
from tests.engine import reference
from tests.engine.strategies import game_trees

TEXTBOOK = {"name": "alphabeta", "move_ordering": False, "transposition_table": False}
MODES = [TEXTBOOK, {"name": "alphabeta"}, {"name": "alphabeta", "move_ordering": False},
         {"name": "alphabeta", "transposition_table": False}, {"name": "minimax"}]


@settings(max_examples=400, deadline=None)
@given(game_trees(kinds=("max", "min")))
def test_every_mode_gives_the_minimax_value(tree):
    expected = reference.minimax(tree["root"])
    for algorithm in MODES:
        r = search("tree", tree, algorithm)
        assert r.value == expected, algorithm
        chosen = next(m for m in r.moves if m.move == r.move)
        assert chosen.value == expected and chosen.bound == "exact"


@settings(max_examples=400, deadline=None)
@given(game_trees(kinds=("max", "min")))
def test_textbook_alphabeta_visits_exactly_the_reference_nodes(tree):
    value, visited = reference.alphabeta_count(tree["root"])
    r = search("tree", tree, TEXTBOOK)
    assert (r.value, r.stats.nodes) == (value, visited)
    assert search("tree", tree, {"name": "minimax"}).stats.nodes == reference.count_nodes(tree["root"])


@settings(max_examples=300, deadline=None)
@given(game_trees(kinds=("max", "min"), with_eval=True), st.integers(1, 4))
def test_depth_limited_modes_give_the_h_minimax_value(tree, depth):
    expected = reference.minimax(tree["root"], depth)
    for algorithm in MODES:
        assert search("tree", tree, dict(algorithm, depth=depth)).value == expected, algorithm
    value, visited = reference.alphabeta_count(tree["root"], depth=depth)
    assert search("tree", tree, dict(TEXTBOOK, depth=depth)).stats.nodes == visited


@settings(max_examples=200, deadline=None)
@given(game_trees(kinds=("max", "min")))
def test_bounds_on_root_moves_hold(tree):
    """Every root move's reported value is exact, or a true bound on its minimax value."""
    r = search("tree", tree, TEXTBOOK)
    exact = {m.move: m.value for m in search("tree", tree, {"name": "minimax"}).moves}
    for m in r.moves:
        truth = exact[m.move]
        assert {"exact": truth == m.value, "upper": truth <= m.value, "lower": truth >= m.value}[m.bound]


def random_position(rng, rows=3, cols=3, k=3, min_marks=0):
    """A random non-terminal reachable tic-tac-toe position with at least ``min_marks`` marks."""
    while True:
        game, state = load("tictactoe", {"board": ["." * cols] * rows, "k": k})
        for _ in range(rng.randrange(min_marks, rows * cols)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state):
            return game.state_to_json(state)


def test_tictactoe_outcome_and_plies_to_end_match_brute_force():
    rng = random.Random(7)
    for _ in range(120):
        position = random_position(rng)
        result, plies = reference.solve_board(position["board"], 3)
        r = search("tictactoe", position, {"name": "alphabeta"})
        assert r.outcome == {1: "win", 0: "draw", -1: "loss"}[result], position
        assert r.plies_to_end == plies, position
        assert r.value == result
        for algorithm in MODES[:4]:
            assert search("tictactoe", position, algorithm).value == result


def test_proven_positions_on_a_4x4_board_with_k_3():
    rng = random.Random(11)
    for _ in range(15):
        position = random_position(rng, 4, 4, 3, min_marks=7)
        result, plies = reference.solve_board(position["board"], 3)
        r = search("tictactoe", position, {"name": "alphabeta"})
        assert (r.value, r.plies_to_end) == (result, plies), position


def test_minimax_proves_the_length_of_the_line_it_chooses():
    """Minimax keeps the first best root move; plies_to_end counts that move's line with the winner
    hurrying and the loser delaying from then on, checked against a brute-force solver."""
    rng = random.Random(5)
    for _ in range(60):
        position = random_position(rng)
        r = search("tictactoe", position, {"name": "minimax"})
        after = apply("tictactoe", position, r.move)
        plies = 1 if after["terminal"] else 1 + reference.solve_board(after["state"]["board"], 3)[1]
        assert r.plies_to_end == plies == len(r.pv), position
        assert r.outcome == {1: "win", 0: "draw", -1: "loss"}[int(r.value)], position


def tree_height(node) -> int:
    return 1 + max(map(tree_height, node["children"])) if "children" in node else 0


def test_figure_5_2_with_a_depth_and_no_evals():
    """Homework trees carry no eval: a depth that reaches the leaves must not cut at an inner node."""
    from engine.games.tree import FIGURE_5_2
    for depth in (2, 3):
        r = search("tree", FIGURE_5_2, {"name": "alphabeta", "depth": depth})
        assert (r.move, r.value) == ("B", 3.0)


@settings(max_examples=200, deadline=None)
@given(game_trees(kinds=("max", "min")), st.integers(0, 2))
def test_alphabeta_at_the_tree_s_depth_or_deeper_is_minimax_without_evals(tree, extra):
    depth = tree_height(tree["root"]) + extra
    expected = search("tree", tree, {"name": "minimax", "depth": depth})
    for algorithm in MODES:
        r = search("tree", tree, dict(algorithm, depth=depth))
        assert (r.move, r.value) == (expected.move, expected.value), algorithm
