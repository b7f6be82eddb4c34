"""Backgammon's linear contact evaluation: the engine's until the network of engine/games/backgammon_net.py
replaced it (issue 30), kept here as the model that bench/backgammon_fit.py fits (bench/backgammon_features.py)
and as the bench's baseline beside the network (bench/backgammon_net.py). The code as it was in
engine/games/backgammon.py, the weights as last fitted.
"""
from functools import lru_cache
import math

from engine.games.backgammon import BAR, OFF, pips

# Direct and indirect shots: of the 36 rolls, how many hit a blot at distance d (1..24) in an open board.
SHOTS = (0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1)
# Contact weights, in units of the logistic score (about 0.5 equity per unit near even). FITTED to the outputs
# of gnubg's neural net (gnubg-nn 1.1.0a11, 0-ply cubeless equity), not set by hand: `python -m
# bench.backgammon_fit --games 1000 --seed 5 --steps 2000 --choices 2000 --train-choices 8000` at commit
# db265b8 (bench/STRENGTH.md, "Backgammon"): on held-out games the equity's mean error fell from 0.331 to
# 0.248 and the equity the 1-ply play loses by gnubg's judgement from 0.0465 to 0.0401 a play.
W_PIPS = 0.0123         # a pip of race lead (and 8 pips for the roll's tempo)
# A made point (two or more checkers), by the side's own point number: the home board and the bar point
# (1..7), the outer boards (8..18), anchors in the opponent's home board (19..24).
W_POINT = (0.0, -0.0918, 0.0548, 0.1668, 0.2773, 0.3655, 0.4935, 0.186, 0.1673, 0.1764, 0.1427, 0.0926,
           0.127, 0.0859, 0.1366, 0.0869, 0.0984, 0.0948, 0.1273, 0.3063, 0.3459, 0.2296, 0.1727, 0.0409,
           -0.0483, 0.0)
W_PRIME = (0.0, 0.5729, 0.5777, 0.6405, 0.7589, 0.8762, 1.0058)   # by the longest run of made points
W_BLOT_RISK = 0.8957    # times the chance of being hit and the share of the race lost
W_BAR = -0.1713         # per checker on the bar (its 25 pips are already counted), plus the closed board below
W_CLOSED_VS_BAR = 0.2678  # per closed home point, per opponent checker on the bar
W_BACK = 0.118          # per checker still in the opponent's home board
W_OFF = 0.3166          # per checker borne off (in contact: the gammon is saved)
W_STACK = 0.0338        # per checker beyond three on a point


def exposure(me, op) -> float:
    """The chance (0..1) that ``op`` hits one of ``me``'s blots with its next roll, times the share of
    the race the hit checker loses, summed over the blots and capped: blots ahead of none of the
    opponent's checkers are safe."""
    blots = [p for p in range(1, 25) if me[p] == 1]
    if not blots:
        return 0.0
    # op moves towards me's higher points: its checker on op's point j (25: the bar) is on me's 25 - j
    # and hits a blot on me's point p from distance p - (25 - j).
    behind = [25 - j for j in range(1, 26) if op[j]]
    risk = 0.0
    for p in blots:
        best = max((SHOTS[p - q] for q in behind if q < p), default=0)
        risk += best * (25 - p)
    return min(risk / (36.0 * 24.0), 1.0)


@lru_cache(maxsize=1 << 16)
def own_terms(side) -> tuple:
    """What one side's evaluation needs of its own checkers alone (so it is computed once for the many
    positions in a search where that side has not moved): ``(pips, positional score, closed home
    points, checkers back)``; the score counts made points, the longest prime, checkers back in the
    opponent's home board, borne off and stacked (logistic units)."""
    made = [n > 1 for n in side]
    score = sum(w for w, m in zip(W_POINT, made) if m)
    runs = "".join("1" if m else "0" for m in made[1:25]).split("0")
    score += W_PRIME[min(max(map(len, runs)), 6)]
    back = sum(side[19:25])
    score -= W_BACK * back
    score += W_OFF * side[OFF]
    score -= W_STACK * sum(n - 3 for n in side[1:25] if n > 3)
    return pips(side), score, sum(made[1:7]), back + side[BAR]


def contact_equity(on_roll, other) -> float:
    """Equity (points) of the side on roll while the sides are in contact: a logistic of the pip lead,
    the roll's tempo and each side's points, primes, anchors, bar and borne-off terms (a checker on the
    bar costs more against a closed board), less the risk to the blots of the side that has just moved
    (the one on roll moves before it can be hit); gammons scale the result up when one side is far
    ahead with the other still back."""
    pips_r, score_r, closed_r, back_r = own_terms(on_roll)
    pips_o, score_o, closed_o, back_o = own_terms(other)
    score = W_PIPS * (pips_o - pips_r + 8.0) + score_r - score_o
    score -= (on_roll[BAR] * (W_BAR + W_CLOSED_VS_BAR * closed_o)
              - other[BAR] * (W_BAR + W_CLOSED_VS_BAR * closed_r))
    score += W_BLOT_RISK * exposure(other, on_roll)
    p = 1.0 / (1.0 + math.exp(-score))
    gammon_risk = min(back_r / 8.0, 1.0) if not on_roll[OFF] else 0.0
    gammon_threat = min(back_o / 8.0, 1.0) if not other[OFF] else 0.0
    return (2.0 * p - 1.0) + gammon_threat * p * p - gammon_risk * (1 - p) * (1 - p)
