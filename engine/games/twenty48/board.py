"""The 2048 board as a 64-bit int, its slides and its evaluation, table-driven (after Robert Xiao's
expectimax player, nneonneo/2048-ai).

Cell ``(r, c)`` is nibble ``4 * r + c`` and holds the tile's exponent (0 empty, ``k`` for the tile
``2 ** k``), so a row is a 16-bit number and a move is four lookups in a table precomputed for all 65,536
rows. Left and right use row tables; up and down transpose the board and use column tables, whose
entries put the moved row back as a column. The evaluation adds up per-line values looked up the same
way, for the four rows and (transposed) the four columns.

Cells hold at most 2 ** 15 = 32768: two such tiles merge into one 32768 (the game is practically never
played that far).
"""
from itertools import product
import math

MAX_EXPONENT = 15
CHANCE_FLAG = 1 << 64
BOARD_MASK = CHANCE_FLAG - 1
ROW_MASK = 0xFFFF

# The evaluation of a row or column: the published heuristic of nneonneo/2048-ai (Robert Xiao's expectimax
# player, which reaches 8192 in most games), with its tuned weights. Over tile exponents r: empty cells and
# adjacent equal tiles (merges) are good; a line that is not monotonic costs the smaller of its rises and
# falls, each measured as r ** 4; and large tiles cost sum(r ** 3.5), which rewards merging them.
EMPTY_WEIGHT, MERGE_WEIGHT = 270.0, 700.0
MONOTONICITY_WEIGHT, MONOTONICITY_POWER = 47.0, 4.0
SUM_WEIGHT, SUM_POWER = 11.0, 3.5
MONOTONIC = [r ** MONOTONICITY_POWER for r in range(16)]
SUMMED = [r ** SUM_POWER for r in range(16)]


def row_cells(row: int) -> list:
    return [row >> (4 * c) & 0xF for c in range(4)]


def slide_left(a0, a1, a2, a3) -> tuple:
    """A row of cells ``a0..a3`` (wall side first) moved to the wall, as a 16-bit row, and the number of
    merges: equal tiles merge, each at most once, the pair nearer the wall first ([2, 2, 2, 2] becomes
    [4, 4, 0, 0] with two merges)."""
    out = shift = pending = merges = 0
    for e in (a0, a1, a2, a3):
        if not e:
            continue
        if e == pending:
            out |= (e + 1 if e < MAX_EXPONENT else e) << shift
            shift += 4
            pending = 0
            merges += 1
        else:
            if pending:
                out |= pending << shift
                shift += 4
            pending = e
    return out | pending << shift, merges


def line_points(*line) -> int:
    """The points a line of cells (wall side first) scores when it slides to the wall: each merge scores
    the tile it makes, as :func:`slide_left` merges ([2, 2, 2, 2] scores 4 + 4)."""
    points = pending = 0
    for e in line:
        if not e:
            continue
        if e == pending:
            points += 1 << (e + 1 if e < MAX_EXPONENT else e)
            pending = 0
        else:
            pending = e
    return points


def slide_points(b: int, move: str) -> int:
    """The points the slide ``move`` (``up``, ``down``, ``left``, ``right``) scores on board ``b``."""
    rows = [row_cells(b >> (16 * r) & ROW_MASK) for r in range(4)]
    lines = {"left": rows, "right": [row[::-1] for row in rows],
             "up": [list(column) for column in zip(*rows)], "down": [list(column)[::-1] for column in zip(*rows)]}
    return sum(line_points(*line) for line in lines[move])


def row_heuristic(*line) -> float:
    """One line's share of the evaluation (nneonneo/2048-ai's ``heur_score_table``, without its constant)."""
    empty = merges = run = previous = 0
    for r in line:
        if not r:
            empty += 1
            continue
        if r == previous:
            run += 1
        elif run:
            merges, run = merges + 1 + run, 0
        previous = r
    if run:
        merges += 1 + run
    p0, p1, p2, p3 = (MONOTONIC[r] for r in line)
    d1, d2, d3 = p1 - p0, p2 - p1, p3 - p2
    rises = (d1 > 0 and d1) + (d2 > 0 and d2) + (d3 > 0 and d3)
    falls = rises - d1 - d2 - d3
    return (EMPTY_WEIGHT * empty + MERGE_WEIGHT * merges - MONOTONICITY_WEIGHT * min(falls, rises)
            - SUM_WEIGHT * (SUMMED[line[0]] + SUMMED[line[1]] + SUMMED[line[2]] + SUMMED[line[3]]))


def as_column(row: int) -> int:
    """A row's four cells placed in column 0 (cell ``c`` of the row goes to row ``c``)."""
    return (row & 0xF) | (row >> 4 & 0xF) << 16 | (row >> 8 & 0xF) << 32 | (row >> 12) << 48


def build_tables():
    """For every row: the row moved left and right, the same as columns moved up and down, the row's
    heuristic value and its empty cells."""
    cells = [c[::-1] for c in product(range(16), repeat=4)]  # (a0, a1, a2, a3) of rows 0, 1, ..., 0xFFFF
    slid = [slide_left(*c) for c in cells]
    left = [row for row, _ in slid]
    heuristic = [row_heuristic(*c) for c in cells]
    reverse = [(r & 0xF) << 12 | (r >> 4 & 0xF) << 8 | (r >> 8 & 0xF) << 4 | r >> 12 for r in range(1 << 16)]
    right = [reverse[left[reverse[r]]] for r in range(1 << 16)]
    empties = [tuple(i for i in range(4) if not c[i]) for c in cells]
    return left, right, [as_column(r) for r in left], [as_column(r) for r in right], heuristic, empties


ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN, ROW_HEURISTIC, ROW_EMPTIES = build_tables()
# Bounds of the raw evaluation (four rows and four columns) over every board.
RAW_LO, RAW_HI = 8 * min(ROW_HEURISTIC), 8 * max(ROW_HEURISTIC)
# A live board's value, EVAL_BASE + EVAL_SCALE * raw, maps [RAW_LO, RAW_HI] onto [0.5, 1].
EVAL_SCALE = 0.5 / (RAW_HI - RAW_LO)
EVAL_BASE = 0.5 - EVAL_SCALE * RAW_LO
FULL_BOARD_SUM_LOG2 = 20  # a board's tile sum is below 16 * 2 ** 15 = 2 ** 19


def transpose(b: int) -> int:
    """Swap cell (r, c) with cell (c, r)."""
    a1 = b & 0xF0F00F0FF0F00F0F
    a2 = b & 0x0000F0F00000F0F0
    a3 = b & 0x0F0F00000F0F0000
    a = a1 | (a2 << 12) | (a3 >> 12)
    b1 = a & 0xFF00FF0000FF00FF
    b2 = a & 0x00FF00FF00000000
    b3 = a & 0x00000000FF00FF00
    return b1 | (b2 >> 24) | (b3 << 24)


def move_left(b: int) -> int:
    return (ROW_LEFT[b & ROW_MASK] | ROW_LEFT[b >> 16 & ROW_MASK] << 16
            | ROW_LEFT[b >> 32 & ROW_MASK] << 32 | ROW_LEFT[b >> 48 & ROW_MASK] << 48)


def move_right(b: int) -> int:
    return (ROW_RIGHT[b & ROW_MASK] | ROW_RIGHT[b >> 16 & ROW_MASK] << 16
            | ROW_RIGHT[b >> 32 & ROW_MASK] << 32 | ROW_RIGHT[b >> 48 & ROW_MASK] << 48)


def move_up(b: int) -> int:
    t = transpose(b)  # row c of t is column c of b
    return (COL_UP[t & ROW_MASK] | COL_UP[t >> 16 & ROW_MASK] << 4
            | COL_UP[t >> 32 & ROW_MASK] << 8 | COL_UP[t >> 48 & ROW_MASK] << 12)


def move_down(b: int) -> int:
    t = transpose(b)
    return (COL_DOWN[t & ROW_MASK] | COL_DOWN[t >> 16 & ROW_MASK] << 4
            | COL_DOWN[t >> 32 & ROW_MASK] << 8 | COL_DOWN[t >> 48 & ROW_MASK] << 12)


def tile_sum(b: int) -> int:
    return sum(1 << (b >> (4 * i) & 0xF) for i in range(16) if b >> (4 * i) & 0xF)


def utility_of(b: int) -> float:
    """A finished board's value (:meth:`Twenty48.utility`)."""
    return math.log2(tile_sum(b)) / (2 * FULL_BOARD_SUM_LOG2)
