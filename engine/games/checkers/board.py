"""The checkers board on bitboards: squares, the step and jump tables, and move generation.

Bitboards (after the "ghost square" layout of checkers programs): square ``n`` (row ``r``) is bit
``n - 1 + r // 2``, so that bits 8, 17 and 26 are never used and every diagonal step is a shift by 4 or 5
(down the board: ``<<``, up: ``>>``), and every jump a shift by 8 or 10, from every square: a shift that
would leave the board lands on an unused bit, which is neither a piece nor empty.

A move is ``(from, to, captured, path)``: one-bit boards of the moving piece's square and its landing
square, the captured pieces, and for a multi-jump the squares it lands on (``None`` otherwise).
"""

BLACK, WHITE = 0, 1
SQUARES = range(1, 33)


def bit_of(square: int) -> int:
    """The one-bit board of square ``square`` (1-32)."""
    s = square - 1
    return 1 << (s + (s // 4) // 2)


def row_col(square: int) -> tuple:
    """The row (0 at the top) and column (0 at the left) of a square on the 8 x 8 diagram."""
    r, k = divmod(square - 1, 4)
    return r, 2 * k + (1 if r % 2 == 0 else 0)


BIT = {n: bit_of(n) for n in SQUARES}
SQUARE = {b: n for n, b in BIT.items()}
AT = {row_col(n): n for n in SQUARES}
ON_BOARD = sum(BIT.values())
COORD = {BIT[n]: row_col(n) for n in SQUARES}


def squares_of(board: int) -> list:
    """The squares of a bitboard, in ascending order."""
    return [SQUARE[b] for b in bits_of(board)]


def rows(*numbers) -> int:
    """The squares of the given rows (0 at the top) as a bitboard."""
    return sum(BIT[n] for r in numbers for n in SQUARES if row_col(n)[0] == r)


CROWN = (rows(7), rows(0))             # where each side's men are crowned
BACK_RANK = (rows(0), rows(7))         # each side's own back row
DOUBLE_CORNERS = sum(BIT[n] for n in (1, 5, 28, 32))
CENTRE = sum(BIT[n] for n in (10, 11, 14, 15, 18, 19, 22, 23))
# Men's advancement: a man past his side's first three rows counts once, in the two rows before his crown
# twice (Black's rows 3-6 and 5-6 from the top, White's 4-1 and 2-1).
ADVANCED = ((rows(3, 4, 5, 6), rows(5, 6)), (rows(4, 3, 2, 1), rows(2, 1)))


def neighbour(square: int, dr: int, dc: int, distance: int = 1):
    """The square ``distance`` diagonal steps away in direction ``(dr, dc)``, or None off the board."""
    r, c = row_col(square)
    return AT.get((r + dr * distance, c + dc * distance))


DOWN, UP = ((1, -1), (1, 1)), ((-1, -1), (-1, 1))
# Per side: the directions of its men (Black's men move down, White's up); a king has all four.
MAN_DIRECTIONS = (DOWN, UP)
KING_DIRECTIONS = UP + DOWN


def step_table(directions: tuple[tuple[int, int], ...]) -> dict:
    """For each square's bit: the bits one step away in ``directions``, ascending."""
    return {BIT[n]: tuple(sorted(BIT[t] for d in directions if (t := neighbour(n, *d)) is not None))
            for n in SQUARES}


def jump_table(directions: tuple[tuple[int, int], ...]) -> dict:
    """For each square's bit: ``(over, land)`` bit pairs of the jumps in ``directions``, by landing square."""
    table = {}
    for n in SQUARES:
        pairs = [(BIT[o], BIT[t]) for d in directions
                 if (o := neighbour(n, *d)) is not None and (t := neighbour(n, *d, distance=2)) is not None]
        table[BIT[n]] = tuple(sorted(pairs, key=lambda p: p[1]))
    return table


MAN_STEPS = tuple(step_table(d) for d in MAN_DIRECTIONS)
KING_STEPS = step_table(KING_DIRECTIONS)
MAN_JUMPS = tuple(jump_table(d) for d in MAN_DIRECTIONS)
KING_JUMPS = jump_table(KING_DIRECTIONS)

# For each side, men on these masks count 1, 2, ... 7 rows from their crowning row: a bitboard per
# distance d holding the squares at least d rows away.
ROWS_TO_GO = (tuple(rows(*range(0, 8 - d)) for d in range(1, 8)), tuple(rows(*range(d, 8)) for d in range(1, 8)))
START = (sum(BIT[n] for n in range(1, 13)), sum(BIT[n] for n in range(21, 33)))


# --- set-wise tests: does a side have a move, a capture, how many steps -----------------------------

def down_steps(pieces: int, empty: int) -> int:
    """The empty squares one step down the board from ``pieces`` (each counted once per direction)."""
    return ((pieces << 4) & empty).bit_count() + ((pieces << 5) & empty).bit_count()


def up_steps(pieces: int, empty: int) -> int:
    return ((pieces >> 4) & empty).bit_count() + ((pieces >> 5) & empty).bit_count()


def movers(me: int, kings: int, turn: int) -> tuple:
    """``(down, up)``: the side's pieces that move down the board (to higher squares) and those that
    move up. Black's men and kings go down, his kings also up; White's the other way round."""
    return (me, me & kings) if turn == BLACK else (me & kings, me)


def jumpers(me: int, opp: int, kings: int, turn: int, empty: int) -> int:
    """The pieces of the side with pieces ``me`` (moving ``turn``'s way) that can jump ``opp``: walking
    back from the empty landing squares over an enemy piece."""
    down, up = movers(me, kings, turn)
    return ((((empty >> 4) & opp) >> 4 | ((empty >> 5) & opp) >> 5) & down
            | (((empty << 4) & opp) << 4 | ((empty << 5) & opp) << 5) & up)


def can_capture(me: int, opp: int, kings: int, turn: int, empty: int) -> bool:
    """Whether the side has a jump (captures are forced, so then it has only jumps)."""
    return jumpers(me, opp, kings, turn, empty) != 0


def step_count(me: int, kings: int, turn: int, empty: int) -> int:
    """The number of plain steps (no captures) the side has."""
    down, up = movers(me, kings, turn)
    return down_steps(down, empty) + up_steps(up, empty)


# --- move generation --------------------------------------------------------------------------------

def generate(black: int, white: int, kings: int, turn: int) -> list:
    """Every legal move of the side to move, by starting square, then by the squares landed on: the jumps
    if there are any (captures are forced), else the steps."""
    me, opp = (black, white) if turn == BLACK else (white, black)
    empty = ON_BOARD & ~(black | white)
    moves: list = []
    pieces = jumpers(me, opp, kings, turn, empty)
    if pieces:
        men_jumps, crown = MAN_JUMPS[turn], CROWN[turn]
        while pieces:
            b = pieces & -pieces
            pieces ^= b
            if b & kings:
                extend_jumps(b, b, 0, None, opp, empty | b, KING_JUMPS, 0, moves)
            else:
                extend_jumps(b, b, 0, None, opp, empty | b, men_jumps, crown, moves)
        return moves
    men_steps = MAN_STEPS[turn]
    down, up = movers(me, kings, turn)
    pieces = (empty >> 4 | empty >> 5) & down | (empty << 4 | empty << 5) & up   # those with a step
    while pieces:
        b = pieces & -pieces
        pieces ^= b
        for t in (KING_STEPS if b & kings else men_steps)[b]:
            if t & empty:
                moves.append((b, t, 0, None))
    return moves


def extend_jumps(start, at, captured, path, opp, empty, table, crown, moves) -> None:
    """Append to ``moves`` every complete jump sequence of the piece that left ``start`` and stands on
    ``at`` having captured ``captured`` (landing on ``path``, None before the second jump). ``opp`` are
    the opponent's pieces not yet captured; a captured piece cannot be jumped again, and no landing square
    can hold one (landing squares and jumped squares never share a diagonal parity). A man that lands on
    ``crown`` is crowned there and stops."""
    for over, land in table[at]:
        if over & opp and land & empty:
            taken = captured | over
            if path is not None:
                trail = path + (land,)
            else:
                trail = (start, at, land) if captured else None
            if land & crown:
                moves.append((start, land, taken, trail))
            else:
                before = len(moves)
                extend_jumps(start, land, taken, trail, opp ^ over, empty, table, crown, moves)
                if len(moves) == before:
                    moves.append((start, land, taken, trail))


def stuck(black: int, white: int, kings: int, turn: int) -> bool:
    """Whether the player to move has no legal move, neither a step nor a jump (and so has lost)."""
    me, opp = (black, white) if turn == BLACK else (white, black)
    empty = ON_BOARD & ~(black | white)
    down, up = movers(me, kings, turn)
    return not ((down << 4 | down << 5 | up >> 4 | up >> 5) & empty or can_capture(me, opp, kings, turn, empty))


def bits_of(board: int) -> list:
    """The one-bit boards of a bitboard's squares."""
    found = []
    while board:
        b = board & -board
        found.append(b)
        board ^= b
    return found
