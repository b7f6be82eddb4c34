"""Multi-PV on the compiled core: its alpha-beta lines (textbook and enhanced) are the Python core's, move
for move, value for value, line for line, with the same proofs and node counts, at a fixed depth and to
the end, and its expectimax (2048) and seeded MCTS lines too."""
import random

import pytest

import engine.api
from tests.native.conftest import needs_native

TEXTBOOK = {"name": "alphabeta", "move_ordering": False, "transposition_table": False}
ENHANCED = {"name": "alphabeta"}
STATS = ("nodes", "leaves", "cutoffs", "tt_hits", "max_depth", "depth_completed", "stop_reason")


def random_positions(game_id, start, count, seed, max_plies):
    """``count`` positions reached from ``start`` by random moves (not over), as JSON states."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game, state = engine.api.load(game_id, start)
        for _ in range(rng.randrange(max_plies)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state):
            out.append(game.state_to_json(state))
    return out


def both(game_id, state, algorithm):
    return [engine.api.search(game_id, state, {**algorithm, "core": core}) for core in ("native", "python")]


def assert_same_lines(native, python):
    assert native.stats.core == "native" and python.stats.core == "python"
    assert [(line.move, line.value, line.bound, line.pv, line.outcome, line.plies_to_end) for line in native.lines] == \
        [(line.move, line.value, line.bound, line.pv, line.outcome, line.plies_to_end) for line in python.lines]
    assert (native.move, native.value, native.outcome, native.plies_to_end, native.pv) == \
        (python.move, python.value, python.outcome, python.plies_to_end, python.pv)
    assert [(m.move, m.value, m.bound) for m in native.moves] == [(m.move, m.value, m.bound) for m in python.moves]
    assert {f: getattr(native.stats, f) for f in STATS} == {f: getattr(python.stats, f) for f in STATS}


@pytest.mark.parametrize("algorithm", [TEXTBOOK, ENHANCED, {"name": "alphabeta", "transposition_table": False}])
@pytest.mark.parametrize("n", [2, 3, 7])
def test_connect4_lines_at_a_fixed_depth_are_the_python_core_s(algorithm, n):
    needs_native("connect4")
    for state in random_positions("connect4", {"moves": ""}, 6, n, 20):
        assert_same_lines(*both("connect4", state, {**algorithm, "depth": 5, "multi_pv": n}))


@pytest.mark.parametrize("algorithm", [TEXTBOOK, ENHANCED])
def test_tictactoe_lines_to_the_end_are_the_python_core_s(algorithm):
    needs_native("tictactoe")
    for state in random_positions("tictactoe", {"board": ["...", "...", "..."]}, 12, 4, 6):
        assert_same_lines(*both("tictactoe", state, {**algorithm, "multi_pv": 3}))


@pytest.mark.parametrize("game_id", ["othello", "checkers", "chess"])
def test_other_games_lines_at_a_fixed_depth_are_the_python_core_s(game_id):
    needs_native(game_id)
    start = engine.api.describe_game(game_id)["initial_state"]
    for state in random_positions(game_id, start, 3, 1, 12):
        assert_same_lines(*both(game_id, state, {**ENHANCED, "depth": 3, "multi_pv": 3}))


def test_each_iteration_reports_the_same_lines_on_both_cores():
    needs_native("connect4")
    reports = {}
    for core in ("native", "python"):
        seen = reports[core] = []
        engine.api.search("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 5, "multi_pv": 3,
                                                          "core": core}, on_progress=seen.append)
    assert [[(line.move, line.value, line.pv) for line in p.lines] for p in reports["native"]] == \
        [[(line.move, line.value, line.pv) for line in p.lines] for p in reports["python"]]
    assert len(reports["native"]) == 5


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_2048_expectimax_lines_are_the_python_core_s(depth):
    """2048's expectimax values every root move exactly on both cores (no pruning): the same lines, each
    its move alone, the same node counts."""
    needs_native("2048")
    for state in [{"board": [[2, 2, 0, 0], [0, 4, 0, 0], [0] * 4, [0, 0, 0, 2]]},
                  {"board": [[2, 4, 8, 16], [4, 8, 16, 32], [0, 0, 2, 0], [0, 0, 0, 4]]}]:
        native, python = both("2048", state, {"name": "expectimax", "depth": depth, "multi_pv": 3})
        assert [(line.move, line.value, line.pv) for line in native.lines] == \
            [(line.move, line.value, line.pv) for line in python.lines]
        assert len(native.lines) == min(3, len(native.moves)) and native.stats.nodes == python.stats.nodes


@pytest.mark.parametrize("game_id, start", [("connect4", {"moves": ""}),
                                            ("tictactoe", {"board": ["...", "...", "..."]})])
def test_seeded_mcts_lines_are_the_python_core_s(game_id, start):
    """The same seed and iterations: the same tree on both cores, so the same lines (order, means, visits,
    proofs and the most visited line of each)."""
    needs_native(game_id)
    for seed, state in enumerate(random_positions(game_id, start, 4, 9, 6)):
        native, python = both(game_id, state, {"name": "mcts", "iterations": 400, "seed": seed, "multi_pv": 4})
        assert [(line.move, line.value, line.bound, line.pv, line.outcome, line.visits) for line in native.lines] == \
            [(line.move, line.value, line.bound, line.pv, line.outcome, line.visits) for line in python.lines]
        assert native.lines[0].move == native.move
