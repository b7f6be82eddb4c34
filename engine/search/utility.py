"""Risk attitudes for expectimax: a utility transform of the prizes before they are averaged (CS188's
note on utilities). Minimax and alpha-beta only compare values, so a monotonic transform would change none
of their choices; they do not take one.

- ``"linear"``: U(x) = x, risk-neutral (the default);
- ``{"power": k}``, k > 0: U(x) = sign(x) |x|^k; k < 1 risk-averse, k > 1 risk-seeking. The odd extension
  makes it defined for negative prizes too;
- ``{"exponential": r}``, r != 0: U(x) = (1 - e^(-r x)) / r; r > 0 risk-averse, r < 0 risk-seeking.

Every transform is strictly increasing, so it maps the bounds of the prizes onto the bounds of the
utilities, and Star1 stays exact with the transformed bounds.

The prize is the searcher's value divided by ``scale``: 1 for explicit trees (their numbers are the
prizes), else the largest magnitude of the game's declared utility bounds, so that prizes lie in [-1, 1]
with the game's own zero (2048's values lie in [0, 1], backgammon's points in [-3, 3] become [-1, 1]).
The certainty equivalent, U^-1 of a utility times ``scale``, is in the game's own units. In floating point
the exponential's U(x) reaches its limit 1 / r once e^(-r x) is below the rounding of 1 (r x > 37 or so):
the inverse there is clamped to the range of the prizes, so that every value stays finite.
"""
from dataclasses import dataclass
import math

from engine.errors import AlgorithmMismatch

FIELD = "algorithm.utility"
LINEAR, POWER, EXPONENTIAL = "linear", "power", "exponential"


@dataclass(frozen=True)
class Utility:
    """A strictly increasing transform of prizes: ``kind`` and its parameter (unused by linear)."""

    kind: str = LINEAR
    parameter: float = 1.0

    def __call__(self, x: float) -> float:
        if self.kind == POWER:
            return math.copysign(abs(x) ** self.parameter, x)
        if self.kind == EXPONENTIAL:
            return -math.expm1(-self.parameter * x) / self.parameter
        return x

    def inverse(self, u: float, lo: float = -math.inf, hi: float = math.inf) -> float:
        """U^-1(u), clamped to ``[lo, hi]``, the range of the prizes: an expected utility's certainty
        equivalent lies there. Finite for every finite ``u`` once the range is. Where rounding has taken
        ``u`` to or past the transform's limit (the exponential's 1 / r, which U only approaches), the
        exact inverse is infinite and the clamp answers the end of the range on that side."""
        try:
            x = self._unclamped_inverse(u)
        except OverflowError:
            x = math.copysign(math.inf, u)
        return min(max(x, lo), hi)

    def _unclamped_inverse(self, u: float) -> float:
        if self.kind == POWER:
            return math.copysign(abs(u) ** (1.0 / self.parameter), u)
        if self.kind == EXPONENTIAL:
            r = self.parameter
            if -r * u <= -1.0:        # u at or past 1 / r: the prize goes to +inf (r > 0) or -inf (r < 0)
                return math.copysign(math.inf, r)
            return -math.log1p(-r * u) / r
        return u

    def to_json(self):
        return LINEAR if self.kind == LINEAR else {self.kind: self.parameter}


def parse_utility(value) -> Utility:
    """A :class:`Utility` from its JSON form; an error on ``algorithm.utility`` if it is not one."""
    if isinstance(value, Utility):
        return value
    if value == LINEAR:
        return Utility()
    if isinstance(value, dict) and len(value) == 1:
        (kind, parameter), = value.items()
        if kind in (POWER, EXPONENTIAL) and isinstance(parameter, (int, float)) \
                and not isinstance(parameter, bool) and math.isfinite(parameter):
            if kind == POWER and parameter <= 0:
                raise AlgorithmMismatch("a power utility needs k > 0 (k < 1 is risk-averse, k > 1 "
                                        "risk-seeking)", field=FIELD)
            if kind == EXPONENTIAL and parameter == 0:
                raise AlgorithmMismatch("an exponential utility needs r != 0 (r = 0 is the linear one)",
                                        field=FIELD)
            return Utility(kind, float(parameter))
    raise AlgorithmMismatch('utility is "linear", {"power": k} with k > 0 or {"exponential": r} with r != 0',
                            field=FIELD)


def prize_scale(game) -> float:
    """What a game value is divided by to make a prize (see the module docstring)."""
    declared = game.game_type.utility_bounds if game.game_type is not None else None
    if declared is None:
        return 1.0
    return max(abs(b) for b in declared) or 1.0


def transformed_bounds(utility: Utility, lo: float, hi: float) -> tuple:
    """``(U(lo), U(hi))``, the bounds of the utilities of prizes in ``[lo, hi]``; an error on
    ``algorithm.utility`` when one is not a finite number (the transform overflows on these prizes)."""
    try:
        bounds = (utility(lo), utility(hi))
    except OverflowError:
        bounds = (math.inf, math.inf)
    if not all(math.isfinite(b) for b in bounds):
        raise AlgorithmMismatch(f"this utility overflows on the game's prizes, which range over "
                                f"[{lo:g}, {hi:g}]", field=FIELD)
    return bounds
