"""Othello's heuristic evaluation, for depth-limited searches: the classic features of Rosenbloom's IAGO
and Buro's LOGISTELLO, hand-weighted by the game's phase.

- mobility: the legal moves of each side;
- potential mobility: the empty squares next to the opponent's discs (where moves may come later);
- corners, and the X- and C-squares next to an empty corner (they hand the corner over);
- stability: discs that can never be turned over (edges and lines anchored on corners, or full lines);
- parity near the end: the side that will fill the last empty square;
- discs, which count only towards the end.
"""
from engine.games.othello.board import (CORNERS, FULL, NOT_A, NOT_H, legal_moves, neighbours)

# Static square weights (move ordering): corners best, the X-squares diagonal to them worst.
_QUADRANT = (100, -20, 10, 5,
             -20, -50, -2, -2,
             10, -2, -1, -1,
             5, -2, -1, -1)
SQUARE_WEIGHTS = [_QUADRANT[4 * min(r, 7 - r) + min(c, 7 - c)] for r in range(8) for c in range(8)]

# Each corner with its X-square (diagonal) and its C-squares (beside it on the edges).
CORNER_REGIONS = tuple((1 << corner, 1 << x, 1 << c1 | 1 << c2) for corner, x, c1, c2 in (
    (0, 9, 1, 8), (7, 14, 6, 15), (56, 49, 57, 48), (63, 54, 62, 55)))

ROW_1, ROW_8 = 0xFF, 0xFF << 56
COLUMN_A, COLUMN_H = 0x0101010101010101, 0x8080808080808080
EDGES = ROW_1 | ROW_8 | COLUMN_A | COLUMN_H


def _line(r: int, c: int, dr: int, dc: int) -> int:
    """The whole line through (r, c) in direction (dr, dc), both ways."""
    bits = 0
    for sign in (1, -1):
        rr, cc = r, c
        while 0 <= rr < 8 and 0 <= cc < 8:
            bits |= 1 << (8 * rr + cc)
            rr, cc = rr + sign * dr, cc + sign * dc
    return bits


# The lines of each axis (rows, columns, the two diagonal directions), as sets of bitboards.
AXIS_LINES = tuple(tuple(sorted({_line(r, c, dr, dc) for r in range(8) for c in range(8)}))
                   for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)))


def full_lines(occupied: int) -> tuple:
    """Per axis, the squares whose line along it is full (no disc on it can be turned over along it)."""
    out = []
    for lines in AXIS_LINES:
        full = 0
        for line in lines:
            if occupied & line == line:
                full |= line
        out.append(full)
    return tuple(out)


def stable_discs(discs: int, full: tuple) -> int:
    """The discs of ``discs`` that can never be turned over, found by a fixed point: a disc is stable when
    along each of the four axes its line is full or one neighbour on it is the edge or a stable disc of the
    same colour. (Sound, not complete: some stable discs are missed.)"""
    horizontal, vertical, diagonal, anti = full
    stable = 0
    while True:
        h = horizontal | COLUMN_A | COLUMN_H | (stable << 1 & NOT_A) | (stable >> 1 & NOT_H)
        v = vertical | ROW_1 | ROW_8 | (stable << 8 & FULL) | (stable >> 8)
        d = diagonal | EDGES | (stable << 9 & NOT_A & FULL) | (stable >> 9 & NOT_H)
        a = anti | EDGES | (stable << 7 & NOT_H & FULL) | (stable >> 7 & NOT_A)
        grown = discs & h & v & d & a
        if grown == stable:
            return stable
        stable = grown


def ratio(mine: int, theirs: int) -> float:
    """A feature difference scaled into [-1, 1]."""
    return (mine - theirs) / (mine + theirs + 2)


def evaluate_for_mover(me: int, them: int, legal: int) -> float:
    """The heuristic value, in (-1, 1), of a position that is not over, for the player to move (discs
    ``me``, legal squares ``legal``) against ``them``: a weighted sum of the features above, the weights
    moving from the opening (mobility and potential mobility) to the end (stability, parity, discs) with
    the number of discs on the board, squashed by ``x / (|x| + 400)``."""
    occupied = me | them
    empty = FULL ^ occupied
    empties = empty.bit_count()
    late = (60 - empties) / 60                                # 0 at the start, 1 on a full board
    my_moves, their_moves = legal.bit_count(), legal_moves(them, me).bit_count()
    score = (80 - 40 * late) * ratio(my_moves, their_moves)
    if not my_moves:
        score -= 30                                           # a pass to come
    score += (60 - 50 * late) * ratio((neighbours(them) & empty).bit_count(), (neighbours(me) & empty).bit_count())
    for corner, x, c in CORNER_REGIONS:
        if me & corner:
            score += 35
        elif them & corner:
            score -= 35
        else:
            if them & x:                                      # the X- and C-squares of an empty corner
                score += 25
            if me & x:
                score -= 25
            score += 8 * ((them & c).bit_count() - (me & c).bit_count())
    if occupied & CORNERS:
        full = full_lines(occupied)
        score += 12 * (stable_discs(me, full).bit_count() - stable_discs(them, full).bit_count())
    if empties <= 14:
        score += 12 if empties & 1 else -12                  # the player to move fills the last square
    score += 60 * late * late * ratio(me.bit_count(), them.bit_count())
    return score / (abs(score) + 400)
