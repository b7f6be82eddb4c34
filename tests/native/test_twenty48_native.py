"""2048's compiled core (native/src/games/twenty48.hpp, search/expectimax.hpp) against the Python reference
(engine/games/twenty48/ and its expectimax kernel, kernel.py): the same moves,
spawns (states, probabilities and order), evaluation and utility along random games, and the same
expectimax: at fixed depths and through the deepening, the same value, best move, every root move's value
and bound, and the same statistics (nodes, leaves, table hits, deepest ply, depth completed).

Build the module first (see native/) and put it on the path: ``PYTHONPATH=build/dev``.
"""
import random
import time

from hypothesis import given, settings, strategies as st
import pytest

import engine.api
from engine.errors import AlgorithmMismatch, InvalidState
from engine.games.twenty48 import CHANCE_FLAG, MOVES
from engine.limits import Limits
from tests.native.conftest import needs_native
from tests.native.equivalence import assert_same_results, expectimax_on_both

tn = pytest.importorskip("tactician_native")

TILES = [{"2": 0.9, "4": 0.1}, {"2": 1.0}, {"2": 0.5, "8": 0.25, "32": 0.25}]
OPEN = {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]}
BOARDS = [OPEN,
          {"board": [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2, 4], [8, 16, 0, 2]]},
          {"board": [[0, 0, 2, 2], [4, 16, 8, 4], [64, 32, 16, 4], [256, 128, 64, 8]]},
          {"board": [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}]


@pytest.fixture(autouse=True)
def built():
    needs_native("2048")


def play(seed, tiles, moves):
    """The states of a random game: uniformly random legal moves, spawns drawn by their probabilities."""
    rng = random.Random(seed)
    game, state = engine.api.load("2048", {"board": [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]},
                                  tile_probabilities=tiles)
    states = [state]
    for _ in range(moves):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
        states.append(state)
        outcomes = game.chance_outcomes(state)
        state = game.result(state, rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        states.append(state)
    return game, states


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32), st.sampled_from(TILES), st.integers(0, 400))
def test_rules_along_random_games(seed, tiles, moves):
    game, states = play(seed, tiles, moves)
    for state in states:
        n = game.native_state(state)
        assert tn.twenty48_is_terminal(n) == game.is_terminal(state)
        assert tn.twenty48_evaluate(n) == game.evaluate(state)
        assert tn.twenty48_utility(n) == game.utility(state)
        if game.is_terminal(state):
            continue
        if state & CHANCE_FLAG:
            expected = [(game.native_state(game.result(state, o))[:2], p) for o, p in game.chance_outcomes(state)]
            assert tn.twenty48_outcomes(n) == expected
        else:
            assert [MOVES[m] for m in tn.twenty48_actions(n)] == game.actions(state)
            for m in tn.twenty48_actions(n):
                assert tn.twenty48_result(n, m) == game.native_state(game.result(state, MOVES[m]))[:2]


def both(state_json, tiles=None, limits=Limits(), seconds=None, **options):
    game, state = engine.api.load("2048", state_json, tile_probabilities=tiles)
    return expectimax_on_both(game, state, limits, seconds, **options)


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("depth", [1, 2, 3, 5])
@pytest.mark.parametrize("cutoff", [0.0, 0.01, 0.1])
def test_fixed_depth_expectimax(board, depth, cutoff):
    assert_same_results(*both(board, depth=depth, probability_cutoff=cutoff))


@pytest.mark.parametrize("tiles", TILES[1:])
def test_other_tiles(tiles):
    assert_same_results(*both(OPEN, tiles, depth=3))


@pytest.mark.parametrize("capacity", [0, 1, 50])
def test_a_full_table_starts_afresh_as_pythons(capacity):
    assert_same_results(*both(BOARDS[2], limits=Limits(tt_max_entries=capacity), depth=5))


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("cutoff", [0.01, 0.05])
def test_the_deepening_as_pythons(board, cutoff):
    """Without a depth, passes of 1, 3, 5, ... plies until one is cut nowhere by the depth."""
    python, compiled = both(board, probability_cutoff=cutoff)
    assert not python.stats.timed_out and python.stats.depth_completed > 1
    assert_same_results(python, compiled)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 300), st.sampled_from([1, 2, 3]))
def test_expectimax_along_random_games(seed, moves, depth):
    game, states = play(seed, TILES[0], moves)
    state = states[-1] & ~CHANCE_FLAG if states[-1] & CHANCE_FLAG else states[-1]
    if game.is_terminal(state) or not game.actions(state):
        return
    board = game.state_to_json(state)
    assert_same_results(*both(board, depth=depth, probability_cutoff=0.01))


@pytest.mark.parametrize("limit_ms", [20, 100])
def test_a_time_limited_search_answers_in_time(limit_ms):
    """Within the limit and some milliseconds: the margin is the shared machine's (it descheduled a
    search for 26 ms under a load of 18); a search that missed its polls would take seconds."""
    engine.api.load("2048", OPEN)
    start = time.perf_counter()
    result = engine.api.search("2048", BOARDS[2], {"name": "expectimax", "core": "native"}, time_limit_ms=limit_ms)
    wall = (time.perf_counter() - start) * 1000
    assert result.stats.core == "native" and result.stats.timed_out and result.stats.depth_completed >= 1
    assert result.stats.time_ms <= limit_ms + 50 and wall <= limit_ms + 150
    assert result.move in {m.move for m in result.moves}


def test_auto_runs_on_the_compiled_core():
    result = engine.api.search("2048", OPEN, {"name": "auto"}, time_limit_ms=100)
    assert result.stats.core == "native" and result.move in MOVES
    assert result.certainty_equivalent == result.value


@pytest.mark.parametrize("algorithm", [
    {"name": "expectimax", "depth": 2, "utility": {"power": 0.5}},
    {"name": "expectimax", "depth": 2, "opponent_model": "uniform"},
    {"name": "mcts", "iterations": 20},
])
def test_what_the_core_does_not_run_goes_to_python(algorithm):
    assert engine.api.search("2048", OPEN, algorithm, time_limit_ms=1000).stats.core == "python"
    with pytest.raises(AlgorithmMismatch) as raised:
        engine.api.search("2048", OPEN, {**algorithm, "core": "native"}, time_limit_ms=1000)
    assert list(raised.value.errors) == ["algorithm.core"]


def test_a_bad_opponent_setting_is_still_named():
    with pytest.raises(AlgorithmMismatch) as raised:
        engine.api.search("2048", OPEN, {"name": "expectimax", "depth": 2, "epsilon": 0.5}, time_limit_ms=1000)
    assert list(raised.value.errors) == ["algorithm.epsilon"]


def test_a_chance_root_is_refused_naming_the_state():
    with pytest.raises(InvalidState) as raised:
        engine.api.search("2048", {**OPEN, "to_move": "chance"}, {"name": "expectimax", "depth": 2},
                          time_limit_ms=1000)
    assert list(raised.value.errors) == ["state"]
