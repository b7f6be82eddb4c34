"""Go's random playout for MCTS: random plays that never fill the mover's own eye, a pass only when no
other play is left, on one board changed in place (much faster than states).

An eye of a colour here is an empty point whose neighbours are all that colour's stones and whose
diagonal points hold at most one opponent stone (none on the edge): filling it could only harm its owner.
Superko is not checked in a playout (a repetition is rare and costs only a cap on the length): after
``MAX_PLIES_PER_POINT`` times the points in plies the playout is scored where it stands.
"""
from functools import lru_cache

from engine.games.go.board import BLACK, EMPTY, WHITE, neighbours, place
from engine.games.go import scoring

MAX_PLIES_PER_POINT = 3
CHECK_EVERY = 16                 # plies between two calls of the deadline's check (a power of two)
CHECK_MASK = CHECK_EVERY - 1
STONES = (BLACK, WHITE)


@lru_cache(maxsize=None)
def diagonals(size: int) -> tuple[tuple[tuple[int, ...], bool], ...]:
    """For every point, its diagonal points and whether it lies on the edge."""
    out = []
    for p in range(size * size):
        row, col = divmod(p, size)
        near = tuple((row + dr) * size + col + dc for dr in (-1, 1) for dc in (-1, 1)
                     if 0 <= row + dr < size and 0 <= col + dc < size)
        out.append((near, row in (0, size - 1) or col in (0, size - 1)))
    return tuple(out)


def is_eye(board, near, diagonal, p: int, colour: int) -> bool:
    """Whether the empty ``p`` is an eye of ``colour`` (see the module docstring)."""
    for q in near[p]:
        if board[q] != colour:
            return False
    corners, edge = diagonal[p]
    other = BLACK + WHITE - colour
    enemies = 0
    for q in corners:
        if board[q] == other:
            enemies += 1
    return enemies == 0 if edge else enemies <= 1


def play_out(start: bytes, size: int, komi: float, player: int, passes: int, uniform, check,
             played=None) -> tuple:
    """A random playout from ``start`` with ``player`` to move after ``passes`` passes in a row, drawing
    from ``uniform()`` (a float in [0, 1)) and calling ``check()`` every ``CHECK_EVERY`` plies (the search's
    deadline, which may raise): each ply a point drawn uniformly among the empty points not yet
    tried, drawn again while it is the mover's own eye or suicide, a pass when none is left; two passes
    in a row, or the length cap, end it. ``played``: a list the moves' codes are appended to, if given.
    ``(utilities, plies, owners)``: the players' utilities by the final count, the plies played, and every
    point's owner at the end (:func:`scoring.owners`: +1 Black, -1 White)."""
    board, near, diagonal = bytearray(start), neighbours(size), diagonals(size)
    empty = [p for p in range(size * size) if board[p] == EMPTY]     # in any order; where[p]: p's index
    where = [0] * (size * size)
    for i, p in enumerate(empty):
        where[p] = i
    plies, cap, pass_move = 0, MAX_PLIES_PER_POINT * size * size, size * size
    while passes < 2 and plies < cap:
        if not plies & CHECK_MASK:
            check()
        colour = STONES[player]
        move, untried = pass_move, len(empty)
        while untried:
            k = int(uniform() * untried)
            p = empty[k]
            untried -= 1
            q = empty[untried]                       # the tried point goes behind the untried ones
            empty[k], empty[untried], where[q], where[p] = q, p, k, untried
            if is_eye(board, near, diagonal, p, colour):
                continue
            captured = place(board, near, p, colour)
            if captured is None:
                continue
            move = p
            last = empty.pop()                       # p leaves the empty points, the last one takes its place
            if last != p:
                empty[where[p]], where[last] = last, where[p]
            for r in captured:
                where[r] = len(empty)
                empty.append(r)
            break
        passes = passes + 1 if move == pass_move else 0
        if played is not None:
            played.append(move)
        player = 1 - player
        plies += 1
    owner = scoring.owners(bytes(board), size)
    u = scoring.outcome(sum(owner) - komi)
    return (u, -u), plies, owner
