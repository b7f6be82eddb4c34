"""Match arithmetic: wins, draws and losses, the score, and the Elo difference with its 95% interval.

The score is the mean points per game of the first player (a win 1, a draw 1/2, a loss 0). The Elo
difference of a score ``s`` is ``-400 log10(1/s - 1)`` (the logistic model: a player 400 points stronger
scores 10 to 1). Its 95% interval comes from the score's: ``s +- 1.96 * sd / sqrt(n)``, where ``sd`` is the
standard deviation of the points of single games (wins, draws and losses counted apart, so a match of
draws is tight), mapped through the same formula. A score of 0 or 1 has no finite Elo: None stands for
minus or plus infinity.
"""
from dataclasses import dataclass
import math

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


@dataclass(frozen=True)
class Tally:
    """Results from the first player's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, points: float) -> "Tally":
        """This tally with one more game worth ``points`` (1, 0.5 or 0) to the first player."""
        if points not in (0, 0.5, 1):
            raise ValueError(f"a game is worth 0, 0.5 or 1 point, not {points!r}")
        return Tally(self.wins + (points == 1), self.draws + (points == 0.5), self.losses + (points == 0))


def score(t: Tally) -> float:
    """Mean points per game; ValueError for no games."""
    if not t.games:
        raise ValueError("no games")
    return (t.wins + 0.5 * t.draws) / t.games


def elo(s: float) -> float | None:
    """The Elo difference that predicts score ``s`` (0..1); None when ``s`` is 0 or 1 (unbounded)."""
    if not 0.0 <= s <= 1.0:
        raise ValueError(f"a score lies in [0, 1], not {s!r}")
    if s in (0.0, 1.0):
        return None
    return -400.0 * math.log10(1.0 / s - 1.0)


def score_interval(t: Tally) -> tuple:
    """The 95% interval of the score (normal approximation), clipped to [0, 1]."""
    s, n = score(t), t.games
    variance = (t.wins * (1 - s) ** 2 + t.draws * (0.5 - s) ** 2 + t.losses * s ** 2) / n
    half = Z95 * math.sqrt(variance / n)
    return max(0.0, s - half), min(1.0, s + half)


def elo_interval(t: Tally) -> tuple:
    """``(low, high)`` Elo of the score's 95% interval; an end at score 0 or 1 is None (unbounded: minus
    infinity at 0, plus at 1). A match of only wins, only draws or only losses has no spread: its interval
    is a point, and says only that the sample is too small to show one."""
    lo, hi = score_interval(t)
    return elo(lo), elo(hi)


def fmt_elo(s: float) -> str:
    """The Elo of score ``s`` for a table: ``-inf`` at 0 and ``+inf`` at 1."""
    x = elo(s)
    if x is None:
        return "-inf" if s == 0 else "+inf"
    return f"{x:+.0f}"


def summary(t: Tally) -> dict:
    """The whole result as JSON-ready numbers (None for an unbounded Elo)."""
    lo, hi = elo_interval(t)
    return {"wins": t.wins, "draws": t.draws, "losses": t.losses, "games": t.games, "score": score(t),
            "elo": elo(score(t)), "elo_low": lo, "elo_high": hi}


def describe(t: Tally) -> str:
    """``+12 =3 -5, score 67.5%, Elo +127 [+20, +260]``."""
    s = score(t)
    lo, hi = score_interval(t)
    return f"+{t.wins} ={t.draws} -{t.losses}, score {100 * s:.1f}%, Elo {fmt_elo(s)} [{fmt_elo(lo)}, {fmt_elo(hi)}]"


LIKELIHOOD_DROP_95 = Z95 ** 2 / 2    # a 95% likelihood-ratio interval: the log-likelihood within this of its top


def rating(games) -> tuple:
    """``(rating, low, high)`` from games against opponents of known ratings (``(opponent's rating, points)``
    pairs): the rating under which the results are likeliest in the logistic model (a draw counted as half
    a win and half a loss), to the nearest point, and its 95% likelihood-ratio interval. An end is None
    where the likelihood rises without bound that way (only wins, or only losses); so is the rating then."""
    games = list(games)
    if not games:
        raise ValueError("no games")

    def log_likelihood(r):
        total = 0.0
        for opponent, points in games:
            p = 1.0 / (1.0 + 10.0 ** ((opponent - r) / 400.0))
            total += points * math.log(p) + (1.0 - points) * math.log(1.0 - p)
        return total

    lowest, highest = min(o for o, _ in games) - 1200, max(o for o, _ in games) + 1200
    grid = range(lowest, highest + 1)
    values = [log_likelihood(r) for r in grid]
    top = max(values)
    best = grid[values.index(top)]
    inside = [r for r, v in zip(grid, values) if top - v <= LIKELIHOOD_DROP_95]
    low, high = inside[0], inside[-1]
    unbounded_low, unbounded_high = low == lowest, high == highest
    return (None if unbounded_low or unbounded_high else best, None if unbounded_low else low,
            None if unbounded_high else high)
