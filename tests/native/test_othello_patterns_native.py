"""Othello's pattern evaluation on the compiled core (native/src/games/othello_patterns.hpp) against the
Python core's (engine/games/othello/patterns.py): the tables it embedded are the file's (its checksum), the
same evaluations along random games, and the same searches at fixed depths (answer and node counts)."""
import random

from hypothesis import given, settings, strategies as st
import pytest

from engine.deadline import Deadline
from engine.games import othello
from engine.games.othello import patterns
from engine.search import alphabeta
from tests.native import equivalence
from tests.native.conftest import needs_native
from tests.native.equivalence import assert_same
from tests.native.test_othello_native import random_position

tn = pytest.importorskip("tactician_native")

GAME = othello.GAMES[othello.PATTERNS]


@pytest.fixture(autouse=True)
def _native():
    needs_native("othello")


def test_the_core_embeds_the_committed_tables():
    assert tn.othello_patterns_checksum() == patterns.committed().checksum


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 63), max_size=130))
def test_evaluations_along_random_games(picks):
    state = othello.initial_state()
    for pick in picks:
        for player in (0, 1):
            assert tn.othello_evaluate(GAME.native_state(state), player) == GAME.evaluate(state, player)
        if GAME.is_terminal(state):
            break
        moves = GAME.actions(state)
        state = GAME.result(state, moves[pick % len(moves)])


def test_a_state_naming_another_evaluation_is_refused():
    with pytest.raises(ValueError, match="evaluation"):
        tn.othello_evaluate((*othello.GAME.native_state(othello.initial_state()), "edax"), 0)


@pytest.mark.parametrize("seed, empty_squares, depth", [(1, 50, 4), (2, 40, 4), (3, 30, 3), (4, 24, 5)])
@pytest.mark.parametrize("enhanced", [True, False])
def test_searches_at_fixed_depths(seed, empty_squares, depth, enhanced):
    """The enhanced alpha-beta, and the textbook one (no ordering, no table)."""
    state = random_position(random.Random(seed), empty_squares)
    switches = {"move_ordering": enhanced, "transposition_table": enhanced}
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth, **switches), deadline=Deadline(None))
    assert_same(equivalence.native_search(GAME, state, depth=depth, **switches), python)
