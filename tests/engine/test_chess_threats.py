"""Chess's threat terms (engine/games/chess/threats.py), each on a position counted by hand. The compiled core
computes the same numbers (tests/native/test_chess_native.py compares the two evaluations along random
games, and test_chess_activity_native.py on these positions)."""
import chess
import pytest

from engine.games.chess import notation
from engine.games.chess.activity import activity
from engine.games.chess.position import BOARD
from engine.games.chess.threats import (MINOR_BY_MINOR, MINOR_BY_PAWN, QUEEN_ATTACKED, ROOK_BY_LESSER,
                                        WEAK_MINOR_BY_MAJOR, WEAK_PAWN, threats)


def total(terms):
    return sum(t[0] for t in terms), sum(t[1] for t in terms)


# (FEN with White to move, the terms that cost White, those that cost Black).
COUNTED = {
    # The knight e4 stands attacked by the pawn d5 (which nothing of White's attacks).
    "a knight attacked by a pawn": ("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1", [MINOR_BY_PAWN], []),
    # Two pawns attack the knight d4: it costs once.
    "attacked twice, charged once": ("4k3/8/8/2p1p3/3N4/8/8/4K3 w - - 0 1", [MINOR_BY_PAWN], []),
    # The bishop d5 attacks the knight f3, which reaches neither it nor anything black.
    "a knight attacked by a bishop": ("4k3/8/8/3b4/8/5N2/8/4K3 w - - 0 1", [MINOR_BY_MINOR], []),
    # The rook a1 attacks the knight e1, which the king g2 does not guard ...
    "an unguarded knight attacked by a rook": ("4k3/8/8/8/8/8/6K1/r3N3 w - - 0 1", [WEAK_MINOR_BY_MAJOR], []),
    # ... and guarded by the king f1, it costs nothing.
    "a guarded knight attacked by a rook": ("4k3/8/8/8/8/8/8/r3NK2 w - - 0 1", [], []),
    # The knight b3 attacks the rook a1.
    "a rook attacked by a knight": ("4k3/8/8/8/8/1n6/8/R3K3 w - - 0 1", [ROOK_BY_LESSER], []),
    # The pawn d2 attacks the queen e1, which attacks the pawn, unguarded.
    "a queen attacked, an unguarded pawn": ("3k4/8/8/8/8/8/3p4/4QK2 w - - 0 1", [QUEEN_ATTACKED], [WEAK_PAWN]),
    # The pawns e4 and d5 attack each other, both unguarded ...
    "two unguarded pawns": ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", [WEAK_PAWN], [WEAK_PAWN]),
    # ... and with d5 guarded by e6, only White's is weak.
    "a guarded pawn": ("4k3/8/4p3/3p4/4P3/8/8/4K3 w - - 0 1", [WEAK_PAWN], []),
    # The rook a1's ray stops at the bishop c1 (attacked, unguarded): the knight e1 behind it is not attacked.
    "a ray stops at the first piece": ("4k3/8/8/8/8/8/6K1/r1B1N3 w - - 0 1", [WEAK_MINOR_BY_MAJOR], []),
}


def threats_of(fen):
    board = notation.from_board(chess.Board(fen))[BOARD]
    _, _, ours, theirs = activity(board, 0)
    return threats(board, ours, theirs)


@pytest.mark.parametrize("term", sorted(COUNTED))
def test_terms_counted_by_hand(term):
    fen, white, black = COUNTED[term]
    (white_mg, white_eg), (black_mg, black_eg) = total(white), total(black)
    expected = (black_mg - white_mg, black_eg - white_eg)
    assert threats_of(fen) == expected
    # The other side to move sees the same terms with the sign turned.
    assert threats_of(fen.replace(" w ", " b ")) == (-expected[0], -expected[1])


def test_every_term_weighs():
    """The hand counts above only tell the terms apart when each has a weight."""
    for term in (MINOR_BY_PAWN, MINOR_BY_MINOR, WEAK_MINOR_BY_MAJOR, ROOK_BY_LESSER, QUEEN_ATTACKED, WEAK_PAWN):
        assert term != (0, 0)
