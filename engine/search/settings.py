"""Algorithm settings: one frozen dataclass per algorithm, each setting declared once on its field.

A search module declares ``Settings`` (a subclass of :class:`AlgorithmSettings`) whose fields are made by
:func:`setting`: the default, and how a request gives the value (a :class:`Setting`: its JSON type, its
bounds, its choices). That one declaration is checked here, when the dataclass is made (the engine's own
callers), and it is what the service's request schemas are generated from (``engine.api.request_settings``).
A subclass adds in ``check`` only the rules between settings (``solve`` with a ``depth``).

A request's settings become a dataclass with :func:`settings_from`, and a misspelt or unknown setting is
an error there, as it is for a direct ``Settings(...)`` call (a dataclass takes no unknown keyword). Each
check names the field at fault (``algorithm.depth``), so that the service can answer 422 with it.
"""
from dataclasses import dataclass, field, fields
import math
from typing import Any

from engine.errors import AlgorithmMismatch, UnknownSetting, unknown_setting_message

# A setting's JSON type (JSON Schema's names); UTILITY: an expectimax risk attitude (engine.search.utility).
INTEGER, NUMBER, BOOLEAN, STRING, UTILITY = "integer", "number", "boolean", "string", "utility"
SETTING = "setting"  # the key of a field's metadata that holds its Setting
# The deepest search a request may ask for, in plies or in rounds: longer than any game played here lasts
# in practice (a tree is at most 2,000 plies deep), so that a search this deep goes to the end, and well
# within the compiled core's int (2**31 and beyond were a std::bad_cast there, a 500).
MAX_DEPTH = 10_000
UTILITY_REF = "#/components/schemas/Utility"


@dataclass(frozen=True)
class Setting:
    """How a request gives one setting: ``type`` (:data:`INTEGER`, :data:`NUMBER`, :data:`BOOLEAN`,
    :data:`STRING` or :data:`UTILITY`), ``minimum`` and ``maximum`` (numbers, inclusive), ``choices`` (a
    string's values a request may send) and ``engine_only`` (further values the engine's own callers may
    pass, not a request: expectimax's ``minimax`` opponent). ``echoed``: a search's answer echoes the
    setting's default when the request leaves it out. None is always accepted where the default is None."""

    type: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[Any, ...] | None = None
    engine_only: tuple[Any, ...] = ()
    echoed: bool = False

    def schema(self, default: Any = None) -> dict[str, Any]:
        """The setting's JSON Schema (openapi.yaml's property), ``default`` included unless None."""
        if self.type == UTILITY:
            return {"$ref": UTILITY_REF}
        out: dict[str, Any] = {"type": self.type}
        if self.choices is not None:
            out["enum"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if default is not None:
            out["default"] = default
        return out

    def check(self, value, name: str) -> None:
        """An :class:`AlgorithmMismatch` on ``algorithm.<name>`` unless ``value`` is one this setting takes
        (a utility's JSON form is checked where it is parsed: :func:`engine.search.utility.parse_utility`)."""
        if self.type == UTILITY:
            return
        if self.type == BOOLEAN:
            if not isinstance(value, bool):
                raise AlgorithmMismatch(f"{name} is true or false", field=f"algorithm.{name}")
        elif self.type == STRING:
            allowed = (self.choices or ()) + self.engine_only
            if value not in allowed:
                raise AlgorithmMismatch(f"{name} is one of {list(allowed)}", field=f"algorithm.{name}")
        elif not (self.in_type(value) and self.in_bounds(value)):
            raise AlgorithmMismatch(f"{name} is {self.describe()}", field=f"algorithm.{name}")

    def in_type(self, value) -> bool:
        if self.type == INTEGER:
            return is_integer(value)
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)

    def in_bounds(self, value) -> bool:
        return ((self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum))

    def describe(self) -> str:
        """``an integer >= 1``, ``a finite number in [0, 1]``."""
        kind = "an integer" if self.type == INTEGER else "a finite number"
        if self.maximum is None:
            return kind if self.minimum is None else f"{kind} >= {self.minimum}"
        return f"{kind} in [{self.minimum}, {self.maximum}]"


def setting(default: Any, type: str, **how: Any) -> Any:
    """A settings dataclass field: its ``default`` and its :class:`Setting` (``type`` and ``how``). Typed
    ``Any``, as ``dataclasses.field`` is, so that the field's annotation is the setting's own type."""
    return field(default=default, metadata={SETTING: Setting(type, **how)})


@dataclass(frozen=True)
class AlgorithmSettings:
    """Base of every algorithm's settings: each field declared with :func:`setting` is checked against its
    declaration when the dataclass is made; :meth:`check` adds the rules between settings."""

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if not (value is None and f.default is None):
                f.metadata[SETTING].check(value, f.name)
        self.check()

    def check(self) -> None:
        """The rules between settings (none by default); an error names the field at fault."""

    @classmethod
    def names(cls) -> tuple:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def declared(cls) -> dict:
        """``{name: (Setting, default)}`` for every setting, in declaration order."""
        return {f.name: (f.metadata[SETTING], f.default) for f in fields(cls)}


def settings_from(settings_class, name: str, values: dict, accepted=None):
    """``settings_class(**values)``, with an unknown setting reported by its field, naming what the
    ``algorithm`` object accepts: ``accepted``, or by default the class's settings."""
    known = settings_class.names()
    for key in values:
        if key not in known:
            raise UnknownSetting(unknown_setting_message(name, key, accepted or known), field=f"algorithm.{key}")
    return settings_class(**values)


def is_integer(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


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


@dataclass(frozen=True)
class DepthSettings(AlgorithmSettings):
    """Settings of a search whose only setting is its depth: plies, or None for no depth limit (or
    ``depth_rounds``, see :func:`depth_in_plies`); at most one of the two."""

    depth: int | None = setting(None, INTEGER, minimum=1, maximum=MAX_DEPTH)
    depth_rounds: int | None = setting(None, INTEGER, minimum=1, maximum=MAX_DEPTH)

    def check(self):
        if self.depth is not None and self.depth_rounds is not None:
            raise AlgorithmMismatch("give depth (plies) or depth_rounds (rounds of every player's move), "
                                    "not both", field="algorithm.depth_rounds")
