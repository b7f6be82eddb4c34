"""Area scoring after Tromp and Taylor: a colour's points are its stones plus the empty points that reach
its stones only (through empty points); komi goes to White. The count is of the board as it stands
(nothing is taken off as dead), which is what two passes agree to under these rules.

The count floods on whole boards at once: a board's points as the bytes of one big integer (point ``p``
the byte ``p``, 1 where the point belongs to a set), so that a step of the flood is a few shifts and masks.
"""
from functools import lru_cache
import math

from engine.games.go.board import BLACK, EMPTY, WHITE

BLACK_POINTS = bytes(1 if v == BLACK else 0 for v in range(256))
WHITE_POINTS = bytes(1 if v == WHITE else 0 for v in range(256))
EMPTY_POINTS = bytes(1 if v == EMPTY else 0 for v in range(256))


@lru_cache(maxsize=None)
def edges(size: int) -> tuple[int, int, int]:
    """The sets (one byte a point) of a ``size`` board's points: not in the first column, not in the last
    column, and all of them."""
    first = sum(1 << 8 * p for p in range(size * size) if p % size)
    last = sum(1 << 8 * p for p in range(size * size) if p % size != size - 1)
    return first, last, (1 << 8 * size * size) - 1


INFLUENCE_STEPS = 4     # the estimate's reach: empty points this close to one colour only count for it


def flood(seed: int, through: int, size: int, steps: int = -1) -> int:
    """``seed`` with every point of ``through`` that a path of ``through`` points joins to it (at most
    ``steps`` points long; -1: any length)."""
    first, last, everything = edges(size)
    row = 8 * size
    reached = seed
    while steps:
        steps -= 1
        grown = reached | ((reached << 8 & first) | (reached >> 8 & last) | (reached << row & everything)
                           | reached >> row) & through
        if grown == reached:
            return reached
        reached = grown
    return reached


def areas(board: bytes, size: int, steps: int = -1) -> tuple[int, int]:
    """``(black's points, white's points)``, each one byte a point: its stones and the empty points that
    reach its stones only (within ``steps`` empty points; -1: the count, any distance)."""
    black = int.from_bytes(board.translate(BLACK_POINTS), "little")
    white = int.from_bytes(board.translate(WHITE_POINTS), "little")
    empty = int.from_bytes(board.translate(EMPTY_POINTS), "little")
    near_black, near_white = flood(black, empty, size, steps), flood(white, empty, size, steps)
    return black | near_black & ~near_white & empty, white | near_white & ~near_black & empty


def owners(board: bytes, size: int) -> list[int]:
    """Every point's owner by the count: +1 Black, -1 White, 0 neither (empty, reaching both colours or
    none)."""
    black, white = areas(board, size)
    n = size * size
    return [b - w for b, w in zip(black.to_bytes(n, "little"), white.to_bytes(n, "little"))]


def margin(board: bytes, size: int, komi: float) -> float:
    """Black's area minus White's, less ``komi``: positive when Black wins."""
    black, white = areas(board, size)
    return black.bit_count() - white.bit_count() - komi


def outcome(lead: float) -> float:
    """Black's utility for a final ``lead`` (:func:`margin`): +1, -1, or 0 for a tie."""
    return 1.0 if lead > 0 else -1.0 if lead < 0 else 0.0


def result_text(lead: float) -> str:
    """The result as SGF writes it: ``"B+3.5"``, ``"W+0.5"``, ``"0"`` for a draw."""
    if lead == 0:
        return "0"
    points = abs(lead)
    written = str(int(points)) if points == int(points) else repr(points)
    return ("B+" if lead > 0 else "W+") + written


def estimate(board: bytes, size: int, komi: float) -> float:
    """A heuristic value in (-0.9, 0.9) for Black: the margin of an influence count (the empty points
    within ``INFLUENCE_STEPS`` of one colour only count for it), in units of the board's side, squashed."""
    black, white = areas(board, size, INFLUENCE_STEPS)
    return 0.9 * math.tanh((black.bit_count() - white.bit_count() - komi) / size)
