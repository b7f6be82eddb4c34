"""Go's board: points, vertices, groups, captures and the legality of a play, knowing nothing of JSON or
searches.

A board of side ``size`` is ``bytes`` of ``size * size`` points, point ``p = row * size + col``: row 0 is
the bottom row (GTP's row 1), col 0 column A. Each byte is :data:`EMPTY`, :data:`BLACK` or :data:`WHITE`.
The pass is the code ``size * size``. These are the move codes of the engine and of the compiled core.
"""
from functools import lru_cache

EMPTY, BLACK, WHITE = 0, 1, 2
MIN_SIZE, MAX_SIZE = 2, 19
COLUMNS = "ABCDEFGHJKLMNOPQRST"        # GTP's columns: no I
PASS_NAME = "pass"


@lru_cache(maxsize=None)
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For every point of a ``size`` board, the points next to it (up to four)."""
    out = []
    for p in range(size * size):
        row, col = divmod(p, size)
        near = []
        if row > 0:
            near.append(p - size)
        if row < size - 1:
            near.append(p + size)
        if col > 0:
            near.append(p - 1)
        if col < size - 1:
            near.append(p + 1)
        out.append(tuple(near))
    return tuple(out)


def vertex(p: int, size: int) -> str:
    """The GTP vertex of move code ``p`` (``"E5"``, or ``"pass"`` for ``size * size``)."""
    if p == size * size:
        return PASS_NAME
    row, col = divmod(p, size)
    return f"{COLUMNS[col]}{row + 1}"


def parse_vertex(text, size: int) -> int:
    """The move code of GTP vertex ``text`` (any case; ``"pass"``) on a ``size`` board; ValueError saying
    why it is none (not a string, the letter I, off the board)."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a vertex: a move is a string, a column letter A-T without I then "
                         "the row from 1 at the bottom (\"E5\"), or \"pass\"")
    word = text.strip().upper()
    if word == "PASS":
        return size * size
    letter, digits = word[:1], word[1:]
    if letter == "I":
        raise ValueError(f"{text!r}: Go's columns skip the letter I (H is followed by J)")
    if not letter.isalpha() or letter not in COLUMNS or not digits.isdigit() or len(digits) > 2:
        raise ValueError(f"{text!r} is not a vertex: a column letter A-T without I then the row from 1 at "
                         "the bottom (\"E5\"), or \"pass\"")
    col, row = COLUMNS.index(letter), int(digits) - 1
    if col >= size or not 0 <= row < size:
        raise ValueError(f"{text!r} is off the {size} x {size} board: columns A-{COLUMNS[size - 1]}, rows 1-{size}")
    return row * size + col


def dead_group(board, near, p: int):
    """The stones of the group on ``p`` when it has no liberty (a set of points), else None."""
    colour = board[p]
    seen, stack = {p}, [p]
    while stack:
        q = stack.pop()
        for r in near[q]:
            v = board[r]
            if v == EMPTY:
                return None
            if v == colour and r not in seen:
                seen.add(r)
                stack.append(r)
    return seen


def play(board: bytes, near, p: int, colour: int):
    """``colour``'s stone on the empty point ``p`` of ``board`` (``near``: :func:`neighbours`):
    ``(board after, number of stones captured)``, the opponent's groups left without a liberty removed;
    None when the play is suicide (its own group would have no liberty and it captures nothing)."""
    after = bytearray(board)
    captured = place(after, near, p, colour)
    return None if captured is None else (bytes(after), len(captured))


def place(board: bytearray, near, p: int, colour: int):
    """Play ``colour`` on the empty ``p`` of ``board`` in place, removing the groups it captures: the
    points it captured (a list, maybe empty), or None (and ``board`` as it was) when the play is suicide."""
    board[p] = colour
    other = BLACK + WHITE - colour
    free = False
    captured: list[int] = []
    for q in near[p]:
        v = board[q]
        if v == EMPTY:
            free = True
        elif v == other:
            dead = dead_group(board, near, q)
            if dead:
                for r in dead:
                    board[r] = EMPTY
                captured.extend(dead)
    if free or captured or dead_group(board, near, p) is None:
        return captured
    board[p] = EMPTY
    return None


def rows(board: bytes, size: int) -> list[str]:
    """The board as text, the top row first: ``X`` black, ``O`` white, ``.`` empty."""
    marks = ".XO"
    return ["".join(marks[board[row * size + col]] for col in range(size)) for row in range(size - 1, -1, -1)]
