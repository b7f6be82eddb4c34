"""learn.features against python-chess's own reading of the board."""
import random

import chess
from hypothesis import given, settings, strategies as st

from learn import features


def reference(fen: str) -> tuple:
    board = chess.Board(fen)
    mover = 0 if board.turn == chess.WHITE else 1

    def index(perspective, square, piece):
        colour = 0 if piece.color == chess.WHITE else 1
        kind = piece.piece_type - 1      # python-chess: PAWN = 1 ... KING = 6
        seen = square if perspective == 0 else chess.square_mirror(square)
        return (colour != perspective) * 384 + kind * 64 + seen

    pieces = board.piece_map().items()
    return (sorted(index(mover, s, p) for s, p in pieces), sorted(index(1 - mover, s, p) for s, p in pieces))


def random_fen(seed: int) -> str:
    rng, board = random.Random(seed), chess.Board()
    for _ in range(rng.randint(0, 80)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board.fen()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_features_match_python_chess(seed):
    fen = random_fen(seed)
    ours, theirs = features.fen_features(fen)
    assert (sorted(ours), sorted(theirs)) == reference(fen)


def test_the_start_position_from_each_side():
    ours, theirs = features.fen_features(chess.STARTING_FEN)
    assert features.feature(0, 0, 5, 4) in ours           # White's king on e1, White's own view
    assert 384 + 5 * 64 + (4 ^ 56) in theirs              # the same king, an enemy on e8 from Black's view (flipped)
    assert 384 + 5 * 64 + 60 in ours                      # Black's king on e8, as White sees it (unflipped)


def test_encode_pads_each_list():
    ours, theirs = features.encode(["4k3/8/8/8/8/8/8/4K3 b - - 0 1"])
    assert ours.shape == (1, features.MAX_PIECES)
    assert sorted(ours[0, :2].tolist()) == sorted(features.fen_features("4k3/8/8/8/8/8/8/4K3 b - - 0 1")[0])
    assert set(ours[0, 2:].tolist()) == {features.PAD} and set(theirs[0, 2:].tolist()) == {features.PAD}
