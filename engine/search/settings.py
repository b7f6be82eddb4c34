"""Algorithm settings: one frozen dataclass per algorithm, with its defaults and its validation.

A search module declares ``Settings`` (a subclass of :class:`AlgorithmSettings`); a request's settings
become one with :func:`settings_from`, and a misspelt or unknown setting is an error there, as it is for a
direct ``Settings(...)`` call (a dataclass takes no unknown keyword). Each check names the field at fault
(``algorithm.depth``), so that the service can answer 422 with it.
"""
from dataclasses import dataclass, fields
import math

from engine.errors import AlgorithmMismatch, UnknownSetting, unknown_setting_message


@dataclass(frozen=True)
class AlgorithmSettings:
    """Base of every algorithm's settings; subclasses validate their fields in ``__post_init__``."""

    @classmethod
    def names(cls) -> tuple:
        return tuple(f.name for f in fields(cls))


def settings_from(settings_class, name: str, values: dict):
    """``settings_class(**values)``, with an unknown setting reported by its field."""
    known = settings_class.names()
    for key in values:
        if key not in known:
            raise UnknownSetting(unknown_setting_message(name, key, known), field=f"algorithm.{key}")
    return settings_class(**values)


def is_integer(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_depth(depth, depth_rounds=None) -> None:
    """``depth`` (plies) and ``depth_rounds`` (rounds of every player's move): integers >= 1, at most
    one of the two."""
    if depth is not None and not (is_integer(depth) and depth >= 1):
        raise AlgorithmMismatch("depth must be an integer >= 1", field="algorithm.depth")
    if depth_rounds is not None:
        if not (is_integer(depth_rounds) and depth_rounds >= 1):
            raise AlgorithmMismatch("depth_rounds must be an integer >= 1", field="algorithm.depth_rounds")
        if depth is not None:
            raise AlgorithmMismatch("give depth (plies) or depth_rounds (rounds of every player's move), "
                                    "not both", field="algorithm.depth_rounds")


def depth_in_plies(settings, game) -> int | None:
    """The search depth in plies: ``settings.depth``, or ``settings.depth_rounds`` rounds of one move by
    every player (CS188's depth unit: depth 2 with two ghosts is 2 x 3 = 6 plies). Chance moves would make
    a round ambiguous, so a game with chance nodes takes ``depth`` only."""
    if settings.depth_rounds is None:
        return settings.depth
    if game.has_chance:
        raise AlgorithmMismatch("depth_rounds counts rounds of the players' moves, which chance moves make "
                                "ambiguous; give depth in plies", field="algorithm.depth_rounds")
    return settings.depth_rounds * game.n_players


def check_bool(value, name: str) -> None:
    if not isinstance(value, bool):
        raise AlgorithmMismatch(f"{name} is true or false", field=f"algorithm.{name}")


def check_finite(value, name: str, lo: float, hi: float = math.inf) -> None:
    if not (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and lo <= value <= hi):
        span = f">= {lo}" if hi == math.inf else f"in [{lo}, {hi}]"
        raise AlgorithmMismatch(f"{name} is a finite number {span}", field=f"algorithm.{name}")


@dataclass(frozen=True)
class DepthSettings(AlgorithmSettings):
    """Settings of a search whose only setting is its depth: plies, or None for no depth limit (or
    ``depth_rounds``, see :func:`depth_in_plies`)."""

    depth: int | None = None
    depth_rounds: int | None = None

    def __post_init__(self):
        check_depth(self.depth, self.depth_rounds)
