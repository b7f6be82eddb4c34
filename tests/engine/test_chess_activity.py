"""Chess's piece activity and king safety terms (engine/games/chess/activity.py, after Fruit 2.1), each on a
position counted by hand. The compiled core computes the same numbers (tests/native/test_chess_native.py
compares the two evaluations along random games, and test_chess_activity_native.py on these positions)."""
import chess
import pytest

from engine.games.chess import notation
from engine.games.chess.activity import (BISHOP_PAIR, KING_ATTACK, MOBILITY, SEVENTH, STORM, WEAK_BACK_RANK,
                                         activity, shelter)
from engine.games.chess.position import BOARD, RIGHTS

# (FEN, the mover's (mg, eg) minus the opponent's), the sums written out term by term.
COUNTED = {
    # Bishops c1 and f1, each reaching 7 squares (unit 6): mobility 5 each, and the pair.
    "bishop pair": ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", (5 + 5 + 50, 5 + 5 + 50)),
    # The rook a1 reaches a2..a8 and b1..d1 (10, unit 7: 3 x (2, 4)); an open file: -10 + 10 + 10.
    "rook on an open file": ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (6 + 10, 12 + 10)),
    # An enemy pawn on a5: the rook reaches a2..a5 and b1..d1 (7: no mobility); a semi-open file: 0.
    "rook on a semi-open file": ("4k3/8/8/p7/8/8/8/R3K3 w - - 0 1", (0, 0)),
    # A pawn of its own on a2 closes the file: the rook reaches b1..d1 (3: 4 short), -10 for the file.
    # (Black: its pawn a5 and king alone: nothing.)
    "rook on a closed file": ("4k3/8/8/p7/8/8/P7/R3K3 w - - 0 1", (-8 - 10, -16 - 10)),
    # The rook a7 reaches a8, a6..a1 and b7..h7 (14: 7 x (2, 4)), an open file, and the seventh rank with
    # the enemy king on the eighth.
    "rook on the seventh": ("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", (14 + 10 + 20, 28 + 10 + 40)),
    # Queen h5 and knight g5 against the king g8: both reach its zone (f7, h7, h8): 2 attackers, units 4 + 1,
    # 5 x 20 x 128 / 256 = 50. Mobility: the knight 6 squares (2 x 4), the queen 14 (1 x (1, 2)). The
    # black king has no pawn before it (f, g twice, h: 4 x 36), and White the queen and another piece.
    "king attack": ("6k1/8/8/6NQ/8/8/8/6K1 w - - 0 1", (8 + 1 + 50 + 144, 8 + 2)),
    # Queen a1 and rook g1 against the king f8: the rook (12 squares: 5 x (2, 4)) on an open file beside the
    # king's (+10), reaching g8 and g7; the queen (19 squares: 6 x (1, 2)) reaching g7: units 2 + 4, 60.
    # Black's king has no shelter (e, f twice, g: 144).
    "rook beside the king's file": ("5k2/8/8/8/8/8/8/Q5RK w - - 0 1",
                                    (10 + 10 + 10 + 6 + 60 + 144, 20 + 10 + 12)),
}


def state_of(fen):
    return notation.from_board(chess.Board(fen))


def activity_of(fen):
    state = state_of(fen)
    return activity(state[BOARD], state[RIGHTS])[:2]


@pytest.mark.parametrize("term", sorted(COUNTED))
def test_terms_counted_by_hand(term):
    fen, expected = COUNTED[term]
    assert activity_of(fen) == expected
    # The other side to move sees the same terms with the sign turned.
    assert activity_of(fen.replace(" w ", " b ")) == (-expected[0], -expected[1])


def test_the_published_values_are_those_counted():
    """The hand counts above use Fruit 2.1's values: a change of a value must change them too."""
    assert BISHOP_PAIR == (50, 50) and KING_ATTACK == 20 and WEAK_BACK_RANK == 11
    assert MOBILITY == {"N": (4, 4), "B": (5, 5), "R": (2, 4), "Q": (1, 2)}
    assert SEVENTH == {"R": (20, 40), "Q": (10, 20)} and STORM == {4: 10, 5: 30, 6: 60}


@pytest.mark.parametrize("fen, penalty", [
    ("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", WEAK_BACK_RANK),        # an intact shield: only the back rank
    ("6k1/8/8/8/8/6P1/5P1P/6K1 w - - 0 1", 2 * (36 - 5 * 5)),    # g3: 11 on the king's file, twice
    ("6k1/8/8/8/6p1/8/5P1P/6K1 w - - 0 1", 2 * 36 + 30),          # no g-pawn (36, twice), Black's g4 storms
    ("1k6/8/8/8/8/8/5PPP/6K1 b - - 0 1", 36 * 4),                 # Black's king b8 without any pawn
])
def test_the_pawn_shelter_of_a_king(fen, penalty):
    board = state_of(fen)[BOARD]
    assert shelter(board, board.index("K")) == penalty


def test_a_castling_right_counts_the_shelter_it_could_reach():
    """The king e1 has no pawn before it (d, e, f: 36 + 72 + 0 = 108); castling short would put it behind
    f2, g2, h2 (11). With the right, the penalty is the mean (108 + 11) // 2 = 59; the enemy has a queen
    and a rook, so the shelter counts."""
    with_right = activity_of("qr2k3/8/8/8/8/8/5PPP/4K2R w K - 0 1")
    without = activity_of("qr2k3/8/8/8/8/8/5PPP/4K2R w - - 0 1")
    assert (with_right[0] - without[0], with_right[1] - without[1]) == (108 - 59, 0)


def test_the_shelter_counts_only_against_a_queen_and_another_piece():
    """White's king e1 without pawns (d 36, e 2 x 36, f 36: 144). Against Black's queen a8 alone (17
    squares: (4, 8)) it costs nothing. Add Black's rook b8 and it costs 144; the queen then reaches 14 squares
    (1, 2), the rook 9 (2 x (2, 4)) on an open file (+10, +10), and neither reaches the zone of e1."""
    assert activity_of("q3k3/8/8/8/8/8/8/4K3 w - - 0 1") == (-4, -8)
    assert activity_of("qr2k3/8/8/8/8/8/8/4K3 w - - 0 1") == (-144 - (1 + 4 + 10), -(2 + 8 + 10))
