"""Othello's learned evaluation: pattern tables, as in Buro's LOGISTELLO and Edax (issue 51).

A *pattern* is a line of squares (an edge with its two X-squares, a corner's 3 x 3 block, the second to
fourth rows, the diagonals of four to eight squares); its *instances* are its images under the board's eight
symmetries, all valued by one table. An instance's configuration is the ternary number of its squares in
order (0 empty, 1 the side to move's disc, 2 the other's); configurations that a symmetry of the instance
itself maps onto each other (an edge read left to right or right to left) share one entry, the *slot*.
Two more tables take the side to move's mobility advantage (its legal moves less the opponent's, clipped to
``±MOBILITY_CLIP``) and the parity of the empty squares.

The tables are anchored at :data:`ANCHORS` (numbers of empty squares); between two anchors a position is
valued by both, weighted linearly by its distance to each, and beyond the last by the nearest. Entries are
integers in units of ``1 / UNIT`` disc, so the estimate is exact integer arithmetic in both cores: the final
disc difference for the side to move, ``raw / (STEP * UNIT)``, squashed to ``d / (|d| + SQUASH)`` inside
(-1, 1), where the searches' proven results (+1, -1) lie beyond every estimate.

The weights are one text file beside this module (``othello_patterns.txt``), fitted by the learning pipeline
(``python -m learn othello``): a header line ``#! {json}`` (``format``, ``inputs`` (:data:`INPUTS_NAME`),
``shape`` (the anchors and each table's slots), the ``checksum`` of the numbers, and for people the data and
commit it came from), comment lines, then one table a line (anchor by anchor, the tables in
:data:`TABLES` order), numbers separated by spaces. The compiled core embeds the same file at build time
and verifies the same checksum (native/src/games/othello_patterns.hpp).
"""
from functools import cache
import json
from pathlib import Path
from typing import NamedTuple

from engine.games.othello.board import FULL, legal_moves
from engine.weights import fnv1a64

FORMAT = 1
INPUTS_NAME = "edax-lines-38"
WEIGHTS_FILE = Path(__file__).with_name("othello_patterns.txt")

ANCHORS = (48, 36, 24, 12)      # empty squares at which the tables are anchored, the opening's first
STEP = 12                       # empty squares between two anchors
UNIT = 32                       # table entries a disc
SQUASH = 32.0                   # discs at which the estimate is half of a proven win
MOBILITY_CLIP = 20

# The patterns, each a tuple of (row, column) squares (row 0 is row 1, the top; column 0 is a).
PATTERNS = {
    "edge_2x": tuple((0, c) for c in range(8)) + ((1, 1), (1, 6)),
    "corner_3x3": tuple((r, c) for r in range(3) for c in range(3)),
    "row_2": tuple((1, c) for c in range(8)),
    "row_3": tuple((2, c) for c in range(8)),
    "row_4": tuple((3, c) for c in range(8)),
    "diagonal_8": tuple((i, i) for i in range(8)),
    "diagonal_7": tuple((i, i + 1) for i in range(7)),
    "diagonal_6": tuple((i, i + 2) for i in range(6)),
    "diagonal_5": tuple((i, i + 3) for i in range(5)),
    "diagonal_4": tuple((i, i + 4) for i in range(4)),
}
TABLES = (*PATTERNS, "mobility", "parity")

SYMMETRIES = (lambda r, c: (r, c), lambda r, c: (r, 7 - c), lambda r, c: (7 - r, c), lambda r, c: (7 - r, 7 - c),
              lambda r, c: (c, r), lambda r, c: (c, 7 - r), lambda r, c: (7 - c, r), lambda r, c: (7 - c, 7 - r))


def orderings(squares: tuple) -> list:
    """The pattern's images under the eight symmetries, as tuples of square numbers, in symmetry order."""
    return [tuple(8 * r + c for r, c in (f(*sq) for sq in squares)) for f in SYMMETRIES]


def instances(squares: tuple) -> list:
    """The pattern's distinct instances: each square set once, read in the first ordering that reached it."""
    first: dict = {}
    for ordering in orderings(squares):
        first.setdefault(frozenset(ordering), ordering)
    return list(first.values())


def self_permutations(squares: tuple) -> list:
    """The permutations of positions that the pattern's own symmetries make: ``p`` such that reading the
    instance in another ordering of its squares reads position ``p[k]`` as position ``k``."""
    base = orderings(squares)[0]
    at = {sq: k for k, sq in enumerate(base)}
    return sorted({tuple(at[sq] for sq in o) for o in orderings(squares) if set(o) == set(base)})


@cache
def slots(name: str) -> tuple:
    """``(slot of each configuration, number of slots)`` of a pattern: configurations equal under its own
    symmetries share the slot of the smallest, slots numbered in increasing order of that smallest."""
    n = len(PATTERNS[name])
    perms = self_permutations(PATTERNS[name])
    powers = [3 ** k for k in range(n)]
    smallest = []
    for idx in range(3 ** n):
        digits = [idx // p % 3 for p in powers]
        smallest.append(min(sum(digits[p[k]] * powers[k] for k in range(n)) for p in perms))
    numbering = {s: i for i, s in enumerate(sorted(set(smallest)))}
    return tuple(numbering[s] for s in smallest), len(numbering)


def table_sizes() -> tuple:
    return (*(slots(name)[1] for name in PATTERNS), 2 * MOBILITY_CLIP + 1, 2)


@cache
def instance_squares() -> tuple:
    """Every instance of every pattern, ``(table index, squares)``, patterns in :data:`PATTERNS` order."""
    return tuple((t, inst) for t, squares in enumerate(PATTERNS.values()) for inst in instances(squares))


def features(me: int, them: int, legal: int) -> list:
    """``(table index, slot)`` of each of the position's features, for the side to move (discs ``me``,
    legal squares ``legal``) against ``them``: the instances' configurations, then mobility and parity."""
    out = []
    names = list(PATTERNS)
    for t, squares in instance_squares():
        idx = 0
        for sq in reversed(squares):
            idx = 3 * idx + (1 if me >> sq & 1 else 2 if them >> sq & 1 else 0)
        out.append((t, slots(names[t])[0][idx]))
    mobility = legal.bit_count() - legal_moves(them, me).bit_count()
    out.append((len(PATTERNS), max(-MOBILITY_CLIP, min(MOBILITY_CLIP, mobility)) + MOBILITY_CLIP))
    out.append((len(PATTERNS) + 1, (FULL ^ (me | them)).bit_count() & 1))
    return out


def anchor_weights(empties: int) -> tuple:
    """``((anchor, weight), ...)``: the anchors valuing a position with ``empties`` empty squares and their
    integer weights, summing to :data:`STEP`."""
    if empties >= ANCHORS[0]:
        return ((0, STEP),)
    for j in range(len(ANCHORS) - 1):
        if empties > ANCHORS[j + 1]:
            t = ANCHORS[j] - empties
            return ((j, STEP - t), (j + 1, t)) if t else ((j, STEP),)
    return ((len(ANCHORS) - 1, STEP),)


class Weights(NamedTuple):
    tables: tuple      # tables[anchor][table][slot], integers
    checksum: str      # the header's, which the numbers match
    header: dict


def raw(weights: Weights, me: int, them: int, legal: int) -> int:
    """The estimate in units of ``1 / (STEP * UNIT)`` disc (see the module's docstring)."""
    found = features(me, them, legal)
    total = 0
    for anchor, share in anchor_weights(64 - (me | them).bit_count()):
        tables = weights.tables[anchor]
        total += share * sum(tables[t][slot] for t, slot in found)
    return total


def discs(weights: Weights, me: int, them: int, legal: int) -> float:
    """The estimated final disc difference for the side to move."""
    return raw(weights, me, them, legal) / (STEP * UNIT)


def evaluate_for_mover(weights: Weights, me: int, them: int, legal: int) -> float:
    """The estimate squashed into (-1, 1), for the side to move (a position that is not over)."""
    d = discs(weights, me, them, legal)
    return d / (abs(d) + SQUASH)


def flat(tables) -> list:
    return [x for anchor in tables for table in anchor for x in table]


def checksum(numbers) -> str:
    """FNV-1a (64 bits) over the numbers as little-endian int16, as 16 hex digits (the compiled core
    computes the same over the numbers it embedded)."""
    return fnv1a64(b"".join(int(x).to_bytes(2, "little", signed=True) for x in numbers))


def file_shape() -> dict:
    """The ``shape`` a weights file's header names: the anchors, the tables and each table's slots."""
    return {"anchors": list(ANCHORS), "tables": list(TABLES), "slots": list(table_sizes())}


def parse(text: str) -> Weights:
    """The weights of a file's text; ValueError when its header does not describe its numbers."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("#! "):
        raise ValueError("the first line is not the header \"#! {json}\"")
    header = json.loads(lines[0][3:])
    shape = file_shape()
    if header.get("format") != FORMAT or header.get("inputs") != INPUTS_NAME or header.get("shape") != shape:
        raise ValueError(f"the header names format {header.get('format')}, inputs {header.get('inputs')!r} and "
                         f"shape {header.get('shape')}; this engine reads format {FORMAT}, {INPUTS_NAME!r}, {shape}")
    rows = [list(map(int, line.split())) for line in lines[1:] if line and not line.startswith("#")]
    sizes = table_sizes()
    if [len(r) for r in rows] != list(sizes) * len(ANCHORS):
        raise ValueError("the tables' lengths are not the header's shape")
    if any(not -32768 <= x <= 32767 for r in rows for x in r):
        raise ValueError("an entry is outside int16")
    tables = tuple(tuple(tuple(r) for r in rows[a * len(sizes):(a + 1) * len(sizes)]) for a in range(len(ANCHORS)))
    if checksum(flat(tables)) != header.get("checksum"):
        raise ValueError(f"the numbers' checksum is {checksum(flat(tables))}, not the header's {header.get('checksum')}")
    return Weights(tables, header["checksum"], header)


def format_weights(tables, header: dict, comment: str = "") -> str:
    """The file's text for ``tables`` (``header``'s fields for people, the format's added)."""
    shape = file_shape()
    full = {"format": FORMAT, "inputs": INPUTS_NAME, "shape": shape, **header, "checksum": checksum(flat(tables))}
    lines = ["#! " + json.dumps(full)] + [f"# {line}" for line in comment.splitlines()]
    lines += [" ".join(map(str, table)) for anchor in tables for table in anchor]
    return "\n".join(lines) + "\n"


@cache
def committed() -> Weights:
    """The weights of :data:`WEIGHTS_FILE`, read once."""
    return parse(WEIGHTS_FILE.read_text())


def zero_tables() -> tuple:
    return tuple(tuple((0,) * n for n in table_sizes()) for _ in ANCHORS)

