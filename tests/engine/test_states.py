"""Games whose rules read a state by field name (``state.turn``) build every state as their ``State`` named
tuple: a plain tuple from one path (a load, a move, a chance outcome) would break the first rule that
reads it. Connect Four, Othello, checkers and Pac-Man keep plain tuples read by index constants (a named
tuple's constructor costs them too much: bench/RESULTS.md)."""
import importlib
import random

import pytest

from engine.api import load
from engine.game import CHANCE
from engine.registry import GAME_MODULES

NAMED = ("tictactoe", "backgammon")


def reached(game, state, rng, plies: int):
    """The states along one random game from ``state`` (at most ``plies`` moves and chance outcomes)."""
    yield state
    for _ in range(plies):
        if game.is_terminal(state):
            return
        if game.to_move(state) == CHANCE:
            outcomes = [o for o, _ in game.chance_outcomes(state)]
            state = game.result(state, rng.choice(outcomes))
        else:
            state = game.result(state, rng.choice(game.actions(state)))
        yield state


@pytest.mark.parametrize("game_id", NAMED)
def test_every_state_is_the_games_named_tuple(game_id):
    module = importlib.import_module(GAME_MODULES[game_id])
    rng = random.Random(game_id)
    for state_json in (module.GAME_TYPE.initial_state, *module.GAME_TYPE.sample_states):
        game, state = load(game_id, state_json)
        for _ in range(3):
            for seen in reached(game, state, rng, 80):
                assert type(seen) is module.State, (state_json, seen)
