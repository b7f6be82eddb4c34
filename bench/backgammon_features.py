"""The linear contact evaluation (bench/backgammon_linear.py) as a model linear in its weights, for fitting them.

``contact_equity`` is a logistic of a score that is a weighted sum: ``score = weights() . features(on_roll,
other)``, the weights packed in the order of :data:`NAMES` (W_PIPS, W_POINT[0..25], W_PRIME[0..6],
W_BLOT_RISK, W_BAR, W_CLOSED_VS_BAR, W_BACK, W_OFF, W_STACK), then the gammon terms on the win probability
(:func:`equity_from_score`). tests/bench/test_backgammon_fit.py checks the model equal to
backgammon_linear's ``contact_equity`` on positions of random games, so that weights fitted here mean the same there.
"""
import numpy as np

from bench import backgammon_linear as linear
from engine.games import backgammon as bg

NAMES = (("W_PIPS",) + tuple(f"W_POINT[{i}]" for i in range(26)) + tuple(f"W_PRIME[{i}]" for i in range(7))
         + ("W_BLOT_RISK", "W_BAR", "W_CLOSED_VS_BAR", "W_BACK", "W_OFF", "W_STACK"))
# The weights a fit leaves as they are: a made "point" borne off or on the bar (the engine's 0) and the
# prime of length 0 (no made point at all: the reference of the prime's one-hot).
FIXED = ("W_POINT[0]", "W_POINT[25]", "W_PRIME[0]")


def weights(module=linear) -> np.ndarray:
    """The linear evaluation's weights (or another module's of the same names) packed in the order of :data:`NAMES`."""
    return np.array([module.W_PIPS, *module.W_POINT, *module.W_PRIME, module.W_BLOT_RISK, module.W_BAR,
                     module.W_CLOSED_VS_BAR, module.W_BACK, module.W_OFF, module.W_STACK], dtype=float)


def own(side) -> tuple:
    """One side's own counts: made points (26 indicators), the longest prime's one-hot (7), checkers
    back in the opponent's home board, borne off, stacked beyond three, on the bar; closed home points."""
    made = np.array([n > 1 for n in side], dtype=float)
    runs = "".join("1" if m else "0" for m in made[1:25]).split("0")
    prime = np.zeros(7)
    prime[min(max(map(len, runs)), 6)] = 1.0
    stacked = sum(n - 3 for n in side[1:25] if n > 3)
    return made, prime, sum(side[19:25]), side[bg.OFF], stacked, side[bg.BAR], made[1:7].sum()


def features(on_roll, other) -> np.ndarray:
    """The score's features of the side on roll against ``other``, signed as ``contact_equity`` adds
    each weight's term."""
    made_r, prime_r, back_r, off_r, stack_r, bar_r, closed_r = own(on_roll)
    made_o, prime_o, back_o, off_o, stack_o, bar_o, closed_o = own(other)
    return np.concatenate((
        [bg.pips(other) - bg.pips(on_roll) + 8.0], made_r - made_o, prime_r - prime_o,
        [linear.exposure(other, on_roll), bar_o - bar_r, bar_o * closed_r - bar_r * closed_o,
         back_o - back_r, off_r - off_o, stack_o - stack_r]))


def gammon_terms(on_roll, other) -> tuple:
    """``(gammon threat, gammon risk)`` of the side on roll, as ``contact_equity`` weighs them."""
    threat = min((sum(other[19:25]) + other[bg.BAR]) / 8.0, 1.0) if not other[bg.OFF] else 0.0
    risk = min((sum(on_roll[19:25]) + on_roll[bg.BAR]) / 8.0, 1.0) if not on_roll[bg.OFF] else 0.0
    return threat, risk


def equity_from_score(score, threat, risk):
    """``contact_equity`` from its score: the win probability's logistic and the gammon terms (arrays)."""
    p = 1.0 / (1.0 + np.exp(-score))
    return (2.0 * p - 1.0) + threat * p * p - risk * (1.0 - p) * (1.0 - p)


def equity_gradient(score, threat, risk):
    """The derivative of :func:`equity_from_score` with respect to the score."""
    p = 1.0 / (1.0 + np.exp(-score))
    return (2.0 + 2.0 * threat * p + 2.0 * risk * (1.0 - p)) * p * (1.0 - p)
