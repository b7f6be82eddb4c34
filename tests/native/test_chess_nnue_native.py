"""Chess's NNUE on the compiled core (native/src/games/chess_nnue.hpp) against the Python core
(engine/games/chess/nnue.py): the same centipawns and evaluations along random games, the accumulators
updated move by move (captures, promotions, castling, en passant), and the same searches at fixed depths
(nodes, move, value); a state naming a net the core does not hold is refused."""
import random

import chess
import pytest

from engine.deadline import Deadline
from engine.games.chess import NNUE, load, nnue
from engine.games.chess.position import BOARD, PLY
from engine.search import alphabeta

from tests.native import equivalence
from tests.native.conftest import needs_native
from tests.native.equivalence import assert_same
from tests.native.test_chess_native import FENS, SEARCHED, state_of
from tests.nnue_nets import BOUND

tn = pytest.importorskip("tactician_native")


@pytest.fixture(autouse=True)
def chess_core():
    needs_native("chess")


def nnue_game(install, seed=0, **shape):
    net = install(seed, **shape)
    return load(chess.STARTING_FEN, evaluation=NNUE)[0], net


def line_of(game, state, rng, plies):
    """The states and moves of a random game of up to ``plies`` plies from ``state``."""
    states, moves = [state], []
    for _ in range(plies):
        if game.is_terminal(state):
            break
        moves.append(rng.choice(game.actions(state)))
        state = game.result(state, moves[-1])
        states.append(state)
    return states, moves


def assert_line_alike(game, net, state, rng, plies=120):
    states, moves = line_of(game, state, rng, plies)
    native = tn.chess_nnue_line(game.native_state(state), moves)
    assert len(native) == len(states)
    for s, (cp, value) in zip(states, native):
        assert cp == nnue.centipawns(net, s[BOARD], bool(s[PLY] & 1))
        assert value == game.evaluate(s, s[PLY] & 1)


@pytest.mark.parametrize("shape", [{"hidden": 32}, {"hidden": 37, "w1": BOUND, "bias": (-BOUND, BOUND + 1)},
                                   {"hidden": 512, "w2": 4}])
@pytest.mark.parametrize("fen", FENS)
def test_incremental_evaluations_along_random_games(installed_net, shape, fen):
    """From every test position (promotions on both sides, en passant, castling, drawish material), random
    games of up to 120 plies: the accumulators the core updates at each move give Python's values from
    scratch; at the format's bounds too, and at the core's widest net."""
    game, net = nnue_game(installed_net, 7, **shape)
    for seed in range(3):
        assert_line_alike(game, net, state_of(fen), random.Random(seed))


def test_the_native_evaluation_from_scratch(installed_net):
    game, net = nnue_game(installed_net, 8)
    for fen in FENS:
        state = state_of(fen)
        for player in (0, 1):
            assert tn.chess_evaluate(game.native_state(state), player) == game.evaluate(state, player)


@pytest.mark.parametrize("fen", SEARCHED)
@pytest.mark.parametrize("depth", [1, 3])
def test_searches_at_fixed_depths(installed_net, fen, depth):
    """The enhanced alpha-beta (quiescence, null moves, reductions, futility by the net's values): the same
    answer and node counts."""
    game, _ = nnue_game(installed_net, 9, w2=40)
    state = state_of(fen)
    python = alphabeta.search(game, state, alphabeta.Settings(depth=depth), deadline=Deadline(None))
    assert_same(equivalence.native_search(game, state, depth=depth), python)


@pytest.mark.parametrize("fen, depth", [(SEARCHED[5], 4), (SEARCHED[2], 5)])
def test_deeper_searches(installed_net, fen, depth):
    game, _ = nnue_game(installed_net, 10, w2=40)
    state = state_of(fen)
    python = alphabeta.search(game, state, alphabeta.Settings(depth=depth), deadline=Deadline(None))
    assert_same(equivalence.native_search(game, state, depth=depth), python)


@pytest.mark.parametrize("fen", SEARCHED[:3])
def test_textbook_alphabeta(installed_net, fen):
    game, _ = nnue_game(installed_net, 11)
    state = state_of(fen)
    textbook = alphabeta.Settings(depth=2, move_ordering=False, transposition_table=False)
    python = alphabeta.search(game, state, textbook, deadline=Deadline(None))
    assert_same(equivalence.native_search(game, state, depth=2, move_ordering=False, transposition_table=False),
                python)


def test_a_state_naming_another_net_is_refused(installed_net):
    game, net = nnue_game(installed_net, 12)
    native = game.native_state(state_of(chess.STARTING_FEN))
    with pytest.raises(ValueError, match="holds chess NNUE"):
        tn.chess_evaluate((*native[:6], "0" * 64), 0)
    tn.chess_nnue_clear()
    with pytest.raises(ValueError, match="no chess NNUE"):
        tn.chess_evaluate(native, 0)
