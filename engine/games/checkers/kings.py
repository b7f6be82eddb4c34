"""Two kings against one in English checkers, solved by retrograde analysis: the positions the two
kings win, each with the plies the win takes against the best defence.

A lone king in a double corner holds out against two kings unless they know the technique, which lies
deeper than a search at a second a move sees; the table hands the search the exact distance instead.

Kings move the same way for either colour, so the table is built with the two kings Black's and turned
to the other colour by swapping the sides. A win is proven the usual way, backwards from the ends: the
two kings win where the lone king, to move, cannot move, or where they capture him; a position of theirs
is won in ``n + 1`` plies if some move leads to a position won in ``n``, one of his if every move does
(the largest ``n``). Where he captures a king instead, the one king against one that is left counts as
no win, so every win the table claims is a real one; positions it does not list are left to the
evaluation. No win in the table repeats a position (the distance falls every ply) and none captures
before its last ply, so it counts towards the no-progress draw only its own length.
"""
from functools import lru_cache

from engine.games.checkers.board import BIT, SQUARES, generate

STRONG, WEAK = 0, 1       # the side to move in a table position: the two kings (Black) or the lone one


# (kings of the two, king of the one, side to move)
Position = tuple[int, int, int]


@lru_cache(maxsize=1)
def table() -> dict[Position, int]:
    """``{(kings of the two, king of the one, side to move): plies to the win}`` for every position the
    two kings win (built once, in about a second)."""
    squares = [BIT[n] for n in SQUARES]
    children: dict[Position, int] = {}  # a position not yet decided -> its moves not yet proven lost
    parents: dict[Position, list[Position]] = {}
    won: dict[Position, int] = {}
    for i, a in enumerate(squares):
        for b in squares[i + 1:]:
            two = a | b
            for one in squares:
                if one & two:
                    continue
                for turn in (STRONG, WEAK):
                    position = (two, one, turn)
                    moves = generate(two, one, two | one, turn)
                    if turn == STRONG and any(m[2] for m in moves):
                        won[position] = 1                  # a capture takes the lone king
                        continue
                    if turn == WEAK and not moves:
                        won[position] = 0                  # the lone king cannot move: he has lost
                        continue
                    if turn == WEAK and moves[0][2]:
                        continue                           # he must capture: one king against one
                    if turn == STRONG:
                        after = [(two ^ m[0] ^ m[1], one, WEAK) for m in moves]
                    else:
                        after = [(two, one ^ m[0] ^ m[1], STRONG) for m in moves]
                    children[position] = len(after)
                    for child in after:
                        parents.setdefault(child, []).append(position)
    by_distance: dict[int, list[Position]] = {}
    for position, n in won.items():
        by_distance.setdefault(n, []).append(position)
    n = 0
    while n <= max(by_distance):                           # in increasing distance: first is shortest
        for position in by_distance.get(n, ()):
            for parent in parents.get(position, ()):
                if parent in won:
                    continue
                if parent[2] == WEAK:
                    children[parent] -= 1
                    if children[parent]:
                        continue                           # he still has a move not yet proven lost
                won[parent] = n + 1                        # his last such move is the longest defence
                by_distance.setdefault(n + 1, []).append(parent)
        n += 1
    return won


def plies_to_win(black: int, white: int, kings: int, turn: int):
    """``(winner, plies)`` when the position is two kings against one (no men) and the two win it with
    best play in ``plies``; None otherwise (other material, or no win the table proves)."""
    if (black | white) & ~kings:
        return None
    counts = black.bit_count(), white.bit_count()
    if counts == (2, 1):
        winner, two, one = 0, black, white
    elif counts == (1, 2):
        winner, two, one = 1, white, black
    else:
        return None
    plies = table().get((two, one, STRONG if turn == winner else WEAK))
    return None if plies is None else (winner, plies)
