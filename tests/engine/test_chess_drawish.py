"""Drawish material (engine/games/chess/drawish.py): Fruit 2.1's multipliers, counted by hand, and the
evaluation that they scale."""
import chess
import pytest

from engine.games.chess import CENTIPAWNS_PER_UNIT, GAME, drawish, notation, unscaled_score


def counts(text):
    """(pawns, knights, bishops, rooks, queens) from a string of piece letters."""
    return tuple(text.count(p) for p in "PNBRQ")


@pytest.mark.parametrize("ours, theirs, expected", [
    ("N", "", 0),            # a minor piece alone cannot mate
    ("B", "PPP", 0),
    ("NN", "", 0),           # two knights, nothing to free them: no mate by force
    ("NN", "P", 1),          # two knights against a pawn: a mate may come once the pawn moves
    ("NN", "B", 0),
    ("BB", "N", 8),          # two bishops against a knight: barely drawish
    ("R", "B", 2),           # a minor piece ahead at most, no pawn
    ("RB", "R", 2),
    ("Q", "RB", 2),          # a queen (two majors) against a rook and a minor: within a minor piece
    ("R", "", 16),           # a rook ahead: wins
    ("RR", "R", 16),         # a rook ahead
    ("QR", "Q", 16),         # three majors
    ("PB", "B", 4),          # one pawn: the opponent gives the bishop for it, a bishop alone is left
    ("PNN", "N", 4),
    ("PR", "B", 16),         # the bishop for the pawn: a rook against nothing
    ("PR", "R", 16),         # the rook for the pawn: a rook against nothing
    ("PB", "", 16),          # nothing to give for the pawn
    ("PP", "", 16),          # two pawns: as it is
    ("PPN", "R", 16),
])
def test_fruit_s_multipliers(ours, theirs, expected):
    assert drawish.multiplier(counts(ours), counts(theirs)) == expected


@pytest.mark.parametrize("fen, factor", [
    ("4k3/8/2b5/8/8/8/8/4K2R w - - 0 1", 2),            # a rook against a bishop, the rook to move
    ("4k3/8/2b5/8/8/8/8/4K2R b - - 0 1", 2),            # the bishop's side to move, behind
    ("4k3/8/8/8/3NN3/8/8/4K3 w - - 0 1", 0),            # two knights
    ("4k3/8/8/8/8/8/4P3/4K2R w - - 0 1", 16),           # a rook and a pawn against a bare king
])
def test_the_evaluation_is_the_side_ahead_s_score_scaled(fen, factor):
    state = notation.from_board(chess.Board(fen))
    mover = GAME.to_move(state)
    assert GAME.evaluate(state, mover) * CENTIPAWNS_PER_UNIT == pytest.approx(unscaled_score(state) * factor / 16)
    assert GAME.evaluate(state, 1 - mover) == -GAME.evaluate(state, mover)
