"""Backgammon's compiled core (native/src/games/backgammon.hpp, search/expectiminimax.hpp) against the Python
reference (engine/games/backgammon.py, engine/search/expectimax.py): along random games, the same plays
(their positions, in the same order), the same move ordering, rolls, evaluation and utility for both
players; and the same expectimax (minimax opponent, Star1 and Star2, forward pruning, the probability
cut-off): at fixed depths and through the deepening, the same value, best move, every root move's value and
bound, and the same statistics.

Build the module first (see native/) and put it on the path: ``PYTHONPATH=build/dev``.
"""
import random
import time

from hypothesis import given, settings, strategies as st
import pytest

import engine.api
from engine.errors import AlgorithmMismatch, InvalidState
from engine.games import backgammon_net
from engine.games.backgammon import GAME, GAMES, LEARNED, START_JSON
from engine.limits import Limits
from tests.native.conftest import needs_native
from tests.native.equivalence import assert_same_results, expectimax_on_both

tn = pytest.importorskip("tactician_native")

OPENING = {**START_JSON, "dice": [3, 1]}
# A race (X bearing off, O all home), contact with a checker of each side on the bar, and its forced pass (6-6).
RACE = {"points": [0, 2, 2, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, -3, -3, -2, -2, -2],
        "off": {"X": 4, "O": 0}, "to_move": "O", "dice": [5, 2]}
BARS = {"points": [-2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, -5, 0, 0, 0, 0, -3, 0, -4, 0, 0, 0, 0, 0],
        "bar": {"X": 1, "O": 1}, "off": {"X": 2, "O": 0}, "to_move": "X", "dice": [2, 2]}
POSITIONS = [OPENING, RACE, BARS, {**BARS, "dice": [6, 6]}, {**START_JSON, "dice": [4, 4]}]


@pytest.fixture(autouse=True)
def built():
    needs_native("backgammon")


def random_game(seed: int, plies: int) -> list:
    """The states of a game of uniformly random rolls and plays from the start, at most ``plies`` long."""
    rng = random.Random(seed)
    state = engine.api.load("backgammon", START_JSON)[1]
    states = [state]
    while len(states) < plies and not GAME.is_terminal(state):
        state = GAME.result(state, rng.choice(GAME.actions(state)))
        states.append(state)
    return states


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(1, 400))
def test_rules_along_random_games(seed, plies):
    learned = GAMES[LEARNED]
    for state in random_game(seed, plies):
        n = GAME.native_state(state)
        assert tn.backgammon_is_terminal(n) == GAME.is_terminal(state)
        for player in (0, 1):
            assert tn.backgammon_evaluate(n, player) == GAME.evaluate(state, player)
            assert tn.backgammon_evaluate(learned.native_state(state), player) == learned.evaluate(state, player)
            assert tn.backgammon_utility(n, player) == GAME.utility(state, player)
        if GAME.is_terminal(state):
            continue
        if state.dice is None:
            assert tn.backgammon_outcomes(n) == [(GAME.native_state(GAME.result(state, roll)), p)
                                                 for roll, p in GAME.chance_outcomes(state)]
            continue
        plays = GAME.actions(state)
        assert tn.backgammon_children(n) == [GAME.native_state(GAME.result(state, play)) for play in plays]
        assert tn.backgammon_ordered(n) == [plays.index(play) for play in GAME.ordered_actions(state)]
        assert tn.backgammon_ordered(learned.native_state(state)) == [
            plays.index(play) for play in learned.ordered_actions(state)]


def test_the_core_embeds_the_nets_of_the_files():
    """The checksums the core computes over the numbers it embedded are the weights files' headers' (which
    the Python module verified against the numbers it read): both cores hold the same three nets."""
    files = [backgammon_net.WEIGHTS_FILE, backgammon_net.LEARNED_FILES["contact"], backgammon_net.LEARNED_FILES["race"]]
    assert tn.backgammon_net_checksums() == [backgammon_net.read_header(f.read_text())["checksum"] for f in files]


def test_a_native_state_names_a_known_evaluation():
    state = GAME.native_state(engine.api.load("backgammon", OPENING)[1])
    with pytest.raises(ValueError, match="evaluation"):
        tn.backgammon_evaluate((*state, "pubeval"), 0)


def both(state, limits=Limits(), seconds=None, **options):
    return expectimax_on_both(GAME, state, limits, seconds, **options)


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("options", [
    {"depth": 1}, {"depth": 2}, {"depth": 3}, {"depth": 3, "pruning": False}, {"depth": 3, "forward_pruning": 0},
    {"depth": 3, "forward_pruning": 3}, {"depth": 4, "probability_cutoff": 0.05},
])
def test_fixed_depth_expectimax(position, options):
    assert_same_results(*both(engine.api.load("backgammon", position)[1], **options))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(1, 300), st.sampled_from([1, 2, 3]), st.booleans())
def test_expectimax_along_random_games(seed, plies, depth, pruning):
    state = random_game(seed, plies)[-1]
    if GAME.is_terminal(state):
        return
    if state.dice is None:
        state = GAME.result(state, GAME.chance_outcomes(state)[seed % 21][0])
    assert_same_results(*both(state, depth=depth, pruning=pruning))


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("options", [{"depth": 2}, {"depth": 3}, {"depth": 4, "probability_cutoff": 0.05}])
def test_the_learned_evaluation_searches_alike(position, options):
    """The learned nets (contact and race) on both cores: the same search, value for value, and not the
    default evaluation's."""
    state = engine.api.load("backgammon", position)[1]
    python, compiled = expectimax_on_both(GAMES[LEARNED], state, Limits(), None, **options)
    assert_same_results(python, compiled)
    assert compiled.value != both(state, **options)[1].value


def test_the_deepening_as_pythons():
    """Without a depth, passes of 1, 2, 3, ... plies until one is cut nowhere by the depth: with the
    probability cut-off at 0.02 every branch ends after the second roll (a roll is 1/36 or 2/36), so the
    deepening ends by itself, here after the pass of depth 6 (Star2's probes look past the node where the
    cut-off stops a line), on both cores alike."""
    state = engine.api.load("backgammon", BARS)[1]
    python, compiled = both(state, probability_cutoff=0.02)
    assert not python.stats.timed_out and python.stats.depth_completed == 6
    assert_same_results(python, compiled)


@pytest.mark.parametrize("limit_ms", [20, 100])
def test_a_time_limited_search_answers_in_time(limit_ms):
    """Within the limit and some milliseconds (the shared machine's margin); a search that missed its polls
    would take seconds."""
    start = time.perf_counter()
    result = engine.api.search("backgammon", OPENING, {"name": "expectimax", "core": "native"}, time_limit_ms=limit_ms)
    wall = (time.perf_counter() - start) * 1000
    assert result.stats.core == "native" and result.stats.timed_out and result.stats.depth_completed >= 1
    assert result.stats.time_ms <= limit_ms + 50 and wall <= limit_ms + 150
    assert result.move in {m.move for m in result.moves}


def test_auto_runs_on_the_compiled_core():
    result = engine.api.search("backgammon", OPENING, {"name": "auto"}, time_limit_ms=200)
    assert result.stats.core == "native" and result.stats.depth_completed >= 2
    assert result.certainty_equivalent == result.value
    assert result.move in {m.move for m in result.moves}


@pytest.mark.parametrize("algorithm", [
    {"name": "expectimax", "depth": 2, "utility": {"power": 0.5}},
    {"name": "expectimax", "depth": 2, "opponent_model": "uniform"},
    {"name": "mcts", "iterations": 20},
    {"name": "expectimax", "depth": 2, "multi_pv": 3},
])
def test_what_the_core_does_not_run_goes_to_python(algorithm):
    assert engine.api.search("backgammon", OPENING, algorithm, time_limit_ms=1000).stats.core == "python"
    with pytest.raises(AlgorithmMismatch) as raised:
        engine.api.search("backgammon", OPENING, {**algorithm, "core": "native"}, time_limit_ms=1000)
    assert list(raised.value.errors) == ["algorithm.core"]


def test_a_chance_root_is_refused_naming_the_state():
    with pytest.raises(InvalidState) as raised:
        engine.api.search("backgammon", START_JSON, {"name": "expectimax", "depth": 2}, time_limit_ms=1000)
    assert list(raised.value.errors) == ["state"]
