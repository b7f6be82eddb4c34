"""Time management: how much of a clock one move may spend, as strong engines allot it.

A move gets a share of the time left, ``remaining / moves_to_go`` (``moves_to_go`` assumed from the game's
progress when the clock does not say), plus most of the increment, all after the ``overhead`` that the
network and the caller's own work take. That is the *soft* limit. The search runs under a *hard* limit
(a few soft limits, and never more than a part of the time left, so that the clock never falls), and after
each iteration of iterative deepening the :class:`TimeManager` decides whether to start another: it goes on
past the soft limit while the best move keeps changing or the score is falling, and stops early once one
move has stayed best for several iterations. A move that is the only legal one is answered at once by the
engine itself (engine.api's forced-move budget).
"""
from dataclasses import dataclass

DEFAULT_OVERHEAD_MS = 30.0
HARD_SHARE = 0.4          # of the time left (after the overhead) that one move may ever take
HARD_SOFT_RATIO = 4.0     # the hard limit at most this many soft limits
LAST_MOVE_SHARE = 0.8     # with moves_to_go 1, the share of the time left the move may take
NEXT_ITERATION = 0.6      # an iteration is not started past this share of the (scaled) soft limit
STABLE_ITERATIONS = 4     # a best move unchanged this long shortens the move
DROP = 0.3                # a fall of the score (in the value's unit; chess pawns) that lengthens it


@dataclass(frozen=True)
class Clock:
    """The mover's clock: milliseconds left, the increment a move, the moves to the next time control (None:
    sudden death), the opponent's time left (None: not known) and the margin kept for the network."""

    remaining_ms: float
    increment_ms: float = 0.0
    moves_to_go: int | None = None
    opponent_remaining_ms: float | None = None
    overhead_ms: float = DEFAULT_OVERHEAD_MS


@dataclass(frozen=True)
class Allotment:
    soft_ms: float     # the time the move should take
    hard_ms: float     # the time limit the search runs under


def expected_moves_left(ply: int) -> int:
    """Moves still to play in a sudden-death game, guessed from its progress: 40 at the start, 20 from move
    60 on."""
    return max(20, 40 - ply // 6)


def usable_ms(clock: Clock) -> float:
    """The time left once the network's margin is kept back (a millisecond at least)."""
    return max(1.0, clock.remaining_ms - clock.overhead_ms)


def hard_cap_ms(clock: Clock) -> float:
    """The most one move may ever take of ``clock``, whatever the game's progress: a part of the usable
    time (most of it for the last move before the time control). :func:`allot`'s hard limit never exceeds
    it, so a server may bound the search by it before the state is read."""
    return max(1.0, usable_ms(clock) * (LAST_MOVE_SHARE if clock.moves_to_go == 1 else HARD_SHARE))


def allot(clock: Clock, ply: int = 0) -> Allotment:
    """The move's soft and hard limits at ``ply`` (the plies played: the moves left are guessed from it
    when the clock does not say)."""
    moves = clock.moves_to_go or expected_moves_left(ply)
    soft = usable_ms(clock) / moves + 0.75 * clock.increment_ms
    if clock.opponent_remaining_ms is not None and clock.remaining_ms > 2 * clock.opponent_remaining_ms:
        soft *= 1.25   # far ahead on the clock: spend some of the lead
    hard = max(1.0, min(hard_cap_ms(clock), HARD_SOFT_RATIO * soft))
    return Allotment(soft_ms=min(soft, hard), hard_ms=hard)


class TimeManager:
    """Decides, after each completed iteration, whether to stop (``stop_after(progress)``), from the
    allotment and how the iterations' best move and value moved."""

    def __init__(self, allotment: Allotment):
        self.allotment = allotment
        self.best = None
        self.value: float | None = None
        self.stable = 0
        self.instability = 0.0

    def scale(self, move, value: float) -> float:
        """The factor on the soft limit that the last iteration's news calls for."""
        self.instability *= 0.5
        if self.best is not None and move != self.best:
            self.instability += 1.0
            self.stable = 0
        else:
            self.stable += 1
        factor = 1.0 + 0.6 * self.instability
        if self.value is not None and value < self.value - DROP:
            factor *= 1.4
        if self.stable >= STABLE_ITERATIONS:
            factor *= 0.6
        self.best, self.value = move, value
        return factor

    def stop_after(self, progress) -> bool:
        """Whether not to start another iteration, given the :class:`~engine.result.Progress` just
        reported (its ``time_ms`` counts from the search's start)."""
        limit = min(self.allotment.hard_ms, self.allotment.soft_ms * self.scale(progress.move, progress.value))
        return progress.time_ms >= NEXT_ITERATION * limit
