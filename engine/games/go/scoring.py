"""Area scoring after Tromp and Taylor: a colour's points are its stones plus the empty regions that reach
its stones only; komi goes to White. The count is of the board as it stands (nothing is taken off as dead),
which is what two passes agree to under these rules."""
import math

from engine.games.go.board import BLACK, EMPTY, WHITE


def owners(board: bytes, near) -> list[int]:
    """Every point's owner by the count: +1 black (a black stone, or empty and reaching black alone), -1
    white, 0 neither (empty, reaching both colours or none)."""
    owner = [1 if v == BLACK else -1 if v == WHITE else 0 for v in board]
    done = [v != EMPTY for v in board]
    for p in range(len(board)):
        if done[p]:
            continue
        region, stack, reaches = [p], [p], 0        # reaches: bit 1 black, bit 2 white
        done[p] = True
        while stack:
            q = stack.pop()
            for r in near[q]:
                v = board[r]
                if v == EMPTY:
                    if not done[r]:
                        done[r] = True
                        region.append(r)
                        stack.append(r)
                else:
                    reaches |= v
        if reaches in (BLACK, WHITE):
            sign = 1 if reaches == BLACK else -1
            for q in region:
                owner[q] = sign
    return owner


def margin(board: bytes, near, komi: float) -> float:
    """Black's area minus White's, less ``komi``: positive when Black wins."""
    return sum(owners(board, near)) - komi


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


def estimate(lead: float, size: int) -> float:
    """A heuristic value in (-0.9, 0.9) for Black of a position whose count gives Black ``lead``: the
    count's margin in units of the board's side, squashed."""
    return 0.9 * math.tanh(lead / size)
