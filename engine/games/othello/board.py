"""Othello's rules on bitboards: legal moves by shift-and-mask flood fill, flips by precomputed rays.

A board is two ints of 64 bits, the discs of the player to move (``me``) and of the other (``them``).
Square ``8 * row + column`` is bit ``8 * row + column``: row 0 is row "1" (the top), column 0 is "a", so
``"d3"`` is bit 19. These functions know nothing of colours, JSON or searches: the game
(:mod:`engine.games.othello`), its evaluation and its endgame solver all build on them.
"""
from engine.bits import cells_of as squares  # noqa: F401  (for the endgame solver) the set squares, lowest first

FULL = (1 << 64) - 1
NOT_A = 0xFEFEFEFEFEFEFEFE          # every square but column a (a shift east must not wrap into it)
NOT_H = 0x7F7F7F7F7F7F7F7F          # every square but column h
INNER_COLUMNS = NOT_A & NOT_H       # the discs a horizontal or diagonal line can run through
CORNERS = 1 << 0 | 1 << 7 | 1 << 56 | 1 << 63
CENTRE = 1 << 27 | 1 << 28 | 1 << 35 | 1 << 36   # d4, e4, d5, e5: filled at the start, never emptied
START_BLACK = 1 << 28 | 1 << 35                  # e4, d5
START_WHITE = 1 << 27 | 1 << 36                  # d4, e5
PASS = 64                                        # the move of a player without a legal square (OpenSpiel's too)

# The eight directions as (row step, column step).
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def ray(square: int, dr: int, dc: int) -> int:
    """The squares strictly beyond ``square`` in direction ``(dr, dc)``, up to the edge."""
    r, c = divmod(square, 8)
    bits = 0
    r, c = r + dr, c + dc
    while 0 <= r < 8 and 0 <= c < 8:
        bits |= 1 << (8 * r + c)
        r, c = r + dr, c + dc
    return bits


# For every square, ``(nearest square, ray)`` for its rays of two squares or more (a shorter one
# brackets nothing) towards higher bits (the nearest square is the ray's lowest bit) and towards lower
# bits (its highest bit).
RAYS_UP = [tuple((b & -b, b) for b in (ray(s, dr, dc) for dr, dc in DIRECTIONS if 8 * dr + dc > 0)
                 if b.bit_count() >= 2) for s in range(64)]
RAYS_DOWN = [tuple((1 << (b.bit_length() - 1), b) for b in (ray(s, dr, dc) for dr, dc in DIRECTIONS
                                                             if 8 * dr + dc < 0) if b.bit_count() >= 2)
             for s in range(64)]


def legal_moves(me: int, them: int) -> int:
    """The empty squares where the player with discs ``me`` may play: for each direction, the runs of
    ``them`` that start next to one of ``me`` (a flood fill of at most six steps), one step further.
    Shifts with a horizontal part use ``them`` without columns a and h, so that no run wraps a row."""
    empty = FULL ^ (me | them)
    inner = them & INNER_COLUMNS
    moves = 0
    for shift, run in ((1, inner), (8, them), (7, inner), (9, inner)):
        t = (me << shift) & run                               # towards higher bits
        t |= (t << shift) & run
        t |= (t << shift) & run
        t |= (t << shift) & run
        t |= (t << shift) & run
        t |= (t << shift) & run
        moves |= (t << shift) & empty
        t = (me >> shift) & run                               # towards lower bits
        t |= (t >> shift) & run
        t |= (t >> shift) & run
        t |= (t >> shift) & run
        t |= (t >> shift) & run
        t |= (t >> shift) & run
        moves |= (t >> shift) & empty
    return moves


def flips(me: int, them: int, square: int) -> int:
    """The discs of ``them`` that a disc of ``me`` on the empty ``square`` turns over (0: not a legal
    move): along each ray, the run of ``them`` next to the square when one of ``me`` closes it."""
    flipped = 0
    for near, line in RAYS_UP[square]:
        if near & them:                                       # (most rays end here)
            stop = line & ~them                               # the nearest square that is not theirs
            stop &= -stop
            if stop & me:
                flipped |= line & (stop - 1)
    for near, line in RAYS_DOWN[square]:
        if near & them:
            stop = line & ~them
            if stop:
                stop = 1 << (stop.bit_length() - 1)
                if stop & me:
                    flipped |= line & -(stop << 1)
    return flipped


def neighbours(bits: int) -> int:
    """The squares next to any of ``bits`` in the eight directions (``bits`` themselves included when
    adjacent to one another)."""
    return ((bits << 1 & NOT_A) | (bits >> 1 & NOT_H) | (bits << 8 & FULL) | (bits >> 8)
            | (bits << 9 & NOT_A & FULL) | (bits >> 9 & NOT_H) | (bits << 7 & NOT_H & FULL) | (bits >> 7 & NOT_A))


def final_score(me: int, them: int) -> int:
    """The disc difference for ``me`` at the end of a game, empty squares going to the winner (none to
    either side in a draw), as the standard endgame test sets score it."""
    mine, theirs = me.bit_count(), them.bit_count()
    if mine > theirs:
        return 64 - 2 * theirs
    if mine < theirs:
        return 2 * mine - 64
    return 0
