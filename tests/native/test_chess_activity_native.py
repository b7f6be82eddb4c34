"""The compiled core's piece activity, king safety and threat terms (native/src/games/chess_activity.hpp and
chess_threats.hpp) against the Python reference (engine/games/chess/activity.py and threats.py) on positions
chosen for each term: the evaluation, a double, is the same bit for bit, for both players and both sides to
move."""
import chess
import pytest

from engine.games.chess import GAME, notation

from tests.engine.test_chess_activity import COUNTED
from tests.engine.test_chess_threats import COUNTED as THREATENED
from tests.native.conftest import needs_native

tn = pytest.importorskip("tactician_native")

FENS = [fen for fen, _ in COUNTED.values()] + [fen for fen, _, _ in THREATENED.values()] + [
    "qr2k3/8/8/8/8/8/5PPP/4K2R w K - 0 1",                              # a castling right's shelter
    "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 1",                  # rights on both wings, both colours
    "r1bq1rk1/ppp2ppp/2n5/3np3/2B5/2NP1N2/PPP2PPP/R2QK2R w KQ - 0 1",  # attacks on the castled king
    "6k1/R4ppp/8/8/8/8/4rPPP/6K1 w - - 0 1",                           # a rook on each side's seventh
    "2kr3r/ppp2q2/2n1b3/3pPp1p/3P1Pp1/2P1B1P1/PP1Q2BP/R4RK1 b - - 0 1",  # pawn storms on both wings
]


@pytest.mark.parametrize("fen", FENS)
@pytest.mark.parametrize("turn", ["w", "b"])
def test_the_same_evaluation_as_python(fen, turn):
    needs_native("chess")
    fields = fen.split()
    fields[1] = turn
    board = chess.Board(" ".join(fields))
    assert board.is_valid()
    state = notation.from_board(board)
    native = GAME.native_state(state)
    for player in (0, 1):
        assert tn.chess_evaluate(native, player) == GAME.evaluate(state, player)
