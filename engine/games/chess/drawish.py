"""Drawish material after Fruit 2.1 (Fabien Letouzey, 2005: material.cpp's multipliers, the values as
published there; the code is ours): a side ahead with no pawn, or with one pawn that the opponent can give
a piece for, often cannot win, so the score of the side ahead is scaled by a multiplier in sixteenths.

For the side ahead, with ``majors`` = 2 x queens + rooks, ``minors`` = knights + bishops and its ``total``
= 2 x majors + minors (the same for the opponent):

- **no pawn:** one minor piece alone, 0 (it cannot mate); two knights, 0, or 1 when the opponent has pawns
  and nothing else (a mate may come once a pawn frees the knights); two bishops against a knight, 8; at
  most a minor piece ahead (``total - their total <= 1``) with at most two majors, 2;
- **one pawn:** the opponent gives a minor piece for it (else a rook; with neither, 16), and then: one
  minor piece or two knights, 4; at most a minor piece ahead with at most two majors, 8;
- else 16: the score as it is.

An integer multiplier, and the score times it over 16 in one order, so that the compiled core
(native/src/games/chess_eval.hpp) computes the same double.
"""
FULL = 16


def multiplier(ours: tuple, theirs: tuple) -> int:
    """The multiplier, in sixteenths, of a side whose pieces count ``ours`` (pawns, knights, bishops,
    rooks, queens) against the opponent's ``theirs``."""
    pawns, knights, bishops, rooks, queens = ours
    their_pawns, their_knights, their_bishops, their_rooks, their_queens = theirs
    if pawns > 1:
        return FULL
    majors, minors = 2 * queens + rooks, knights + bishops
    their_majors, their_minors = 2 * their_queens + their_rooks, their_knights + their_bishops
    if pawns == 1:                        # the opponent gives a piece for the lone pawn
        if their_minors:
            their_minors -= 1
        elif their_rooks:
            their_majors -= 1
        else:
            return FULL
    total, their_total = 2 * majors + minors, 2 * their_majors + their_minors
    if total == 1:
        return 0 if pawns == 0 else 4
    if total == 2 and knights == 2:
        if pawns == 1:
            return 4
        return 0 if their_total != 0 or their_pawns == 0 else 1
    if pawns == 0 and total == 2 and bishops == 2 and their_total == 1 and their_knights == 1:
        return 8
    if total - their_total <= 1 and majors <= 2:
        return 2 if pawns == 0 else 8
    return FULL


def scaled(score: float, board: str) -> float:
    """``score`` (centipawns, the mover's: the upper-case side of ``board``) times the multiplier of the
    side it favours, over 16."""
    if score == 0:
        return score
    ahead, behind = ("PNBRQ", "pnbrq") if score > 0 else ("pnbrq", "PNBRQ")
    if board.count(ahead[0]) > 1:         # (the common case, decided by one count)
        return score
    factor = multiplier(tuple(map(board.count, ahead)), tuple(map(board.count, behind)))
    return score if factor == FULL else score * factor / FULL
