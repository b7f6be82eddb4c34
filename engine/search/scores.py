"""The scores of the enhanced alpha-beta searches (negamax form) and their transposition tables.

In win/draw/loss games a win reached at ply ``p`` scores ``WIN - p`` for the winner and a loss
``-(WIN - p)``, so that the winner hurries and the loser delays; evaluations stay far inside ``PROVEN``.
"""
import math

WIN = 1_000_000        # a win at ply p scores WIN - p for the winner (outcome games, enhanced mode)
PROVEN = WIN - 100_000  # scores beyond this are proven wins or losses; evaluations stay far inside
MAX_ID_DEPTH = 10_000  # iterative deepening's last resort when the game knows no bound on its length
TT_EXACT, TT_LOWER, TT_UPPER = 0, 1, 2
# Clearing or halving a full table cannot poll the deadline; it starts only with this much time per entry
# left (measured: 45 ms to clear a million entries, 145 ms to keep the newer half).
TABLE_SECONDS_PER_ENTRY = 2e-7
# A search frees its table before it returns (else the collector frees it later, in the middle of another
# search: up to 60 ms at once), so every deadline poll keeps this much time per entry in hand for it
# (measured: 120-270 ns an entry, a live table's entries lying scattered in memory).
TABLE_FREE_SECONDS_PER_ENTRY = 3e-7


def as_value(score: float, outcome_game: bool = True) -> float:
    """A score as the API reports values: proven wins and losses as the utilities +1 and -1."""
    if outcome_game and abs(score) >= PROVEN and not math.isinf(score):
        return math.copysign(1.0, score)
    return score


def to_table(score, ply):
    """A proven score made relative to the node at ``ply`` (wins counted from the node)."""
    if score >= PROVEN:
        return score + ply
    if score <= -PROVEN:
        return score - ply
    return score


def from_table(score, ply):
    if score >= PROVEN:
        return score - ply
    if score <= -PROVEN:
        return score + ply
    return score


def narrowed(low: float, high: float, alpha: float, beta: float) -> tuple[float, float, float | None]:
    """The window ``(alpha, beta)`` of a fail-soft negamax narrowed by a position's proven bounds ``low <=
    score <= high`` (a table's entry, what the game proves), and the score they settle, if they do:
    ``low`` when it reaches beta, ``high`` when it stays at or below alpha, else the narrowed alpha when the
    window closes; None otherwise (the position is to be searched in the narrowed window)."""
    if low >= beta:
        return alpha, beta, low
    if high <= alpha:
        return alpha, beta, high
    if low > alpha:
        alpha = low
    if high < beta:
        beta = high
    return alpha, beta, (alpha if alpha >= beta else None)


def tightened(low: float, high: float, best: float, alpha: float, beta: float) -> tuple[float, float]:
    """A position's proven bounds ``(low, high)`` tightened by ``best``, its fail-soft score searched in
    ``(alpha, beta)``: a lower bound if it beat alpha, an upper one if it stayed below beta."""
    return (best if best > alpha else low), (best if best < beta else high)
