"""MCTS: tactics at a short budget, reproducibility, the solver's proofs against alpha-beta, chance and
n-player trees, budgets and stop reasons."""
import random
import time

import pytest

from engine.api import Limits, load, search
from engine.errors import AlgorithmMismatch, InvalidState
from engine.deadline import Deadline
from engine.games.connect4 import Connect4
from engine.search import mcts as mcts_search

ROLLOUTS = ["random", "heuristic"]


def mcts(game, state, time_limit_ms=200, **settings):
    return search(game, state, {"name": "mcts", **settings}, time_limit_ms=time_limit_ms)


@pytest.mark.parametrize("rollout", ROLLOUTS)
@pytest.mark.parametrize("game, state, expected", [
    ("tictactoe", {"board": ["XX.", "OO.", "..."]}, {2}),          # X wins at once
    ("tictactoe", {"board": ["XX.", "OO.", "X.."]}, {5}),          # O wins rather than block
    ("tictactoe", {"board": ["XX.", "O..", "..."]}, {2}),          # O blocks
    ("tictactoe", {"board": ["X..", ".O.", "..X"]}, {1, 3, 5, 7}),  # O must not take a corner
    ("connect4", {"moves": "121212"}, {0}),                       # X completes the column
    ("connect4", {"moves": "12121"}, {0}),                        # O blocks the column
    ("connect4", {"moves": "445566"}, {2, 6}),                    # X completes the row
    ("connect4", {"moves": "4455"}, {2, 5}),                      # X makes an open three
])
def test_takes_wins_and_blocks_losses_at_200_ms(game, state, expected, rollout):
    r = mcts(game, state, rollout=rollout)
    assert r.move in expected, [(m.move, m.visits, m.value) for m in r.moves]


def test_an_immediate_win_is_proven_and_stops_the_search():
    r = mcts("tictactoe", {"board": ["XX.", "OO.", "..."]})
    assert (r.move, r.value, r.outcome, r.stats.stop_reason, r.stats.timed_out) == (2, 1.0, "win", "solved",
                                                                                  False)
    assert r.plies_to_end is None  # MCTS proves results, not distances


@pytest.mark.parametrize("rollout", ROLLOUTS)
def test_same_seed_and_iterations_give_the_same_search(rollout):
    state = {"board": [".......", ".......", ".......", ".......", "...O...", "...X..."]}
    runs = [mcts("connect4", state, 10_000, seed=42, iterations=300, rollout=rollout) for _ in range(2)]
    a, b = ([(m.move, m.visits, m.value) for m in r.moves] for r in runs)
    assert a == b and runs[0].move == runs[1].move and runs[0].stats.nodes == runs[1].stats.nodes
    assert runs[0].stats.iterations == 300 and runs[0].stats.stop_reason == "iteration_limit"
    assert sum(m.visits for m in runs[0].moves) == 300


def test_2048_is_reproducible_too():
    state = {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]}
    a, b = (mcts("2048", state, 10_000, seed=7, iterations=40) for _ in range(2))
    assert [(m.move, m.visits, m.value) for m in a.moves] == [(m.move, m.visits, m.value) for m in b.moves]
    assert a.move in ("up", "down", "left", "right") and a.stats.iterations == 40
    assert all(0.0 <= m.value <= 1.0 and m.bound == "estimate" for m in a.moves)


def test_proven_outcomes_agree_with_alphabeta():
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        game, state = load("tictactoe", {"board": ["...", "...", "..."]})
        for _ in range(rng.randrange(2, 7)):
            state = game.result(state, rng.choice(game.actions(state)))
            if game.is_terminal(state):
                break
        if game.is_terminal(state):
            continue
        board = game.state_to_json(state)
        r = mcts("tictactoe", board, 5_000, seed=1, iterations=3000)
        if r.outcome is not None:
            checked += 1
            truth = search("tictactoe", board, {"name": "alphabeta"})
            assert (r.outcome, r.value) == (truth.outcome, truth.value), board
            proven = {m.move: m.value for m in r.moves if m.bound == "exact"}
            assert r.move in proven and proven[r.move] == r.value
    assert checked >= 10


def test_chance_tree_prefers_the_higher_expectation():
    tree = {"root": {"type": "max", "children": [
        {"move": "steady", "type": "chance", "children": [{"p": 0.9, "value": 4}, {"p": 0.1, "value": 4}]},
        {"move": "gamble", "type": "chance", "children": [{"p": 0.5, "value": 10}, {"p": 0.5, "value": 0}]}]}}
    r = mcts("tree", tree, 10_000, seed=3, iterations=2000)
    assert r.move == "gamble" and r.value == pytest.approx(5.0, abs=0.6)
    assert r.outcome is None


def test_n_player_tree_each_player_maximises_its_own_utility():
    """Under X, P1 takes (0, 5, 5) over (9, 1, 1), leaving P0 0; under Y, P1 takes (4, 2, 2): P0 plays Y."""
    tree = {"root": {"player": 0, "children": [
        {"move": "X", "player": 1, "children": [{"value": [9, 1, 1]}, {"value": [0, 5, 5]}]},
        {"move": "Y", "player": 1, "children": [{"value": [5, 1, 1]}, {"value": [4, 2, 2]}]}]}}
    r = mcts("tree", tree, 10_000, seed=11, iterations=2000)
    assert r.move == "Y" and r.perspective == "P0"


def test_min_root_of_a_typed_tree_reports_max_values():
    tree = {"root": {"type": "min", "children": [{"move": "a", "value": 3}, {"move": "b", "value": -2}]}}
    r = mcts("tree", tree, 10_000, seed=0, iterations=500)
    assert r.move == "b" and r.value == pytest.approx(-2.0) and r.perspective == "MAX"


@pytest.mark.parametrize("game, state", [
    ("2048", {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]}),
    ("connect4", {"moves": ""}),
    ("tictactoe", {"board": ["." * 9] * 9, "k": 5}),
])
def test_answers_within_the_deadline(game, state):
    load(game, state)  # build the game's tables before the clock starts
    start = time.perf_counter()
    r = mcts(game, state, 100, rollout="heuristic")
    assert r.stats.stop_reason == "time_limit" and r.stats.timed_out
    assert r.stats.time_ms <= 110 and (time.perf_counter() - start) < 0.2
    assert r.move in {m.move for m in r.moves} and r.stats.iterations >= 1


def test_settings_are_validated():
    state = {"board": ["...", "...", "..."]}
    for bad, field in (({"iterations": 0}, "iterations"), ({"exploration": -1}, "exploration"),
                       ({"seed": "x"}, "seed"), ({"rollout": "greedy"}, "rollout"), ({"depth": 3}, "depth")):
        with pytest.raises(AlgorithmMismatch) as error:
            mcts("tictactoe", state, **bad)
        assert f"algorithm.{field}" in error.value.errors
    with pytest.raises(AlgorithmMismatch):  # no budget at all
        search("tictactoe", state, {"name": "mcts"})
    with pytest.raises(InvalidState):
        mcts("2048", {"board": [[2, 0, 0, 0]] + [[0] * 4] * 3, "to_move": "chance"})


def test_the_tree_stops_growing_at_its_capacity():
    r = search("connect4", {"moves": ""}, {"name": "mcts", "seed": 2, "iterations": 400},
               limits=Limits(tt_max_entries=8))
    assert r.stats.iterations == 400 and sum(m.visits for m in r.moves) == 400
    assert len(r.moves) == 7 and r.stats.max_depth == 1


def step_by_step_playout(game, state, uniform):
    """The reference for a game's random_playout: actions and result, one move at a time."""
    plies = 0
    while not game.is_terminal(state):
        legal = game.actions(state)
        state = game.result(state, legal[int(uniform() * len(legal))])
        plies += 1
    return game.utilities(state), plies


def test_connect4_random_playout_plays_the_moves_a_step_by_step_playout_would():
    rng = random.Random(3)
    game, start = load("connect4", {"moves": ""})
    for trial in range(300):
        state = start
        for _ in range(rng.randrange(0, 42)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        fast = game.random_playout(state, random.Random(trial).random)
        assert fast == step_by_step_playout(game, state, random.Random(trial).random), game.state_to_json(state)


def test_a_games_own_playout_changes_nothing_but_the_speed(monkeypatch):
    settings = mcts_search.Settings(iterations=300, seed=4)
    game, state = load("connect4", {"moves": "4453"})
    assert isinstance(game, mcts_search.PlayoutGame)
    fast = mcts_search.search(game, state, settings, deadline=Deadline())
    # A fresh class (isinstance is cached by class), on the shared game until the test ends.
    monkeypatch.setattr(game, "__class__", type("WithoutPlayout", (Connect4,), {"random_playout": None}))
    assert not isinstance(game, mcts_search.PlayoutGame)
    slow = mcts_search.search(game, state, settings, deadline=Deadline())
    assert [(m.move, m.visits, m.value) for m in fast.moves] == [(m.move, m.visits, m.value) for m in slow.moves]
    assert (fast.move, fast.stats.nodes, fast.stats.leaves) == (slow.move, slow.stats.nodes, slow.stats.leaves)
