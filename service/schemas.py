"""Request schemas, generated from the engine's declarations: each algorithm's settings as its ``Settings``
dataclass declares them, and the game options as the games declare them (``engine.api.request_settings``,
``engine.api.option_schemas``); the bodies' other fields are written here.

``tests/service/test_spec_agreement.py`` proves ``openapi.yaml`` agrees with them (fields, required, enums,
bounds). The schemas check shapes and numbers; the engine checks what only it knows (whether a state is
legal, whether an algorithm fits a game, the rules between settings).
"""
from collections.abc import Mapping
from functools import cache
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validate, validates_schema

import engine.api
from engine.api import Clock
from service.fields import (BoundedDict, BoundedList, JSONBoolean, JSONInteger, JSONNumber, JSONString, Move, State,
                            Utility)

GAMES = tuple(engine.api.GAME_MODULES)
ALGORITHMS = tuple(engine.api.ALGORITHM_MODULES)
MAX_APPLIED_MOVES = 1000      # the moves of one apply request
UTILITY_REF = "#/components/schemas/Utility"   # openapi.yaml's expectimax risk attitude
SCALARS = {"integer": JSONInteger, "number": JSONNumber, "boolean": JSONBoolean, "string": JSONString}


def field_for(schema: dict) -> fields.Field:
    """The marshmallow field of a setting's or a game option's JSON Schema: a scalar (its ``enum``,
    ``minimum`` and ``maximum``), an object of numbers (``propertyNames``' pattern, ``minProperties``,
    ``maxProperties``) or the risk attitude (``$ref`` Utility). Its default stays the engine's: the field
    has none (:func:`load` relies on that)."""
    if schema.get("$ref") == UTILITY_REF:
        return Utility()
    if schema["type"] == "object":
        return BoundedDict(keys=JSONString(validate=validate.Regexp(schema["propertyNames"]["pattern"])),
                           values=field_for(schema["additionalProperties"]),
                           validate=validate.Length(min=schema.get("minProperties"), max=schema.get("maxProperties")))
    validators: list[validate.Validator] = []
    if "enum" in schema:
        validators.append(validate.OneOf(schema["enum"]))
    if "minimum" in schema or "maximum" in schema:
        validators.append(validate.Range(min=schema.get("minimum"), max=schema.get("maximum")))
    return SCALARS[schema["type"]](validate=validators)


class StrictSchema(Schema):
    """Unknown fields are errors: a misspelt setting must not be silently ignored."""

    class Meta:
        unknown = RAISE


def schema_class(base: type[Schema], name: str, declared: dict) -> Any:
    """A subclass ``name`` of ``base`` with a field for each ``{key: JSON Schema}`` of ``declared``."""
    return base.from_dict({key: field_for(schema) for key, schema in declared.items()}, name=name)


# The games' options (GameOption): ``options`` of every route (their canonical place), and, as before
# ``options`` existed, fields of a search's ``algorithm``.
GameOptionsSchema = schema_class(StrictSchema, "GameOptionsSchema", engine.api.option_schemas())


class AlgorithmNameSchema(GameOptionsSchema):  # type: ignore[misc, valid-type]  # a class made from the registry
    """``algorithm``: the name, and (in each subclass) the settings the client chose (absent settings stay
    absent), the game's options among them."""

    name = JSONString(required=True, validate=validate.OneOf(ALGORITHMS))


SETTINGS = engine.api.request_settings()
# ``algorithm`` as each algorithm takes it: its own settings, every algorithm's and the game options.
ALGORITHM_SCHEMAS = {name: schema_class(AlgorithmNameSchema, f"{name}AlgorithmSchema", declared)
                     for name, declared in SETTINGS.items()}
# ``algorithm`` naming no algorithm (or none that exists): every setting of any algorithm is checked (a
# setting two algorithms share, ``depth``, ``seed``, is declared alike by both).
AnyAlgorithmSchema = schema_class(AlgorithmNameSchema, "AnyAlgorithmSchema",
                                  engine.api.merged(SETTINGS.items(), "setting"))


class AlgorithmField(fields.Nested):
    """``algorithm``, loaded by the schema of the algorithm it names (``ALGORITHM_SCHEMAS``): a setting of
    another algorithm is an unknown field. An object that names no known algorithm is loaded by
    ``AnyAlgorithmSchema``, so that its other errors are found too."""

    def __init__(self, **kwargs):
        super().__init__(AnyAlgorithmSchema, **kwargs)
        self.by_name = {name: schema() for name, schema in ALGORITHM_SCHEMAS.items()}

    def schema_for(self, value) -> Schema:
        """The schema that loads ``value``."""
        name = value.get("name") if isinstance(value, Mapping) else None
        return self.by_name.get(name, self.schema) if isinstance(name, str) else self.schema

    def _load(self, value, partial=None):
        try:
            return self.schema_for(value).load(value, unknown=self.unknown, partial=partial)
        except ValidationError as error:
            raise ValidationError(error.messages, valid_data=error.valid_data) from error


class ChanceOutcomeSchema(StrictSchema):
    """A move at a chance state of 2048: the tile that appears, and where."""

    # 2048's board is 4 x 4, and its largest tile 32768 (engine/games/twenty48)
    cell = BoundedList(JSONInteger(validate=validate.Range(min=0, max=3)), required=True,
                       validate=validate.Length(equal=2))
    tile = JSONInteger(required=True, validate=validate.Range(min=2, max=32768))


MAX_ROOT_MOVES = 1000         # the moves of a search's search_moves or exclude_moves
MAX_CLOCK_MS = 86_400_000     # a day: the longest clock a request may carry
MAX_MOVES_TO_GO = 1000


class ClockSchema(StrictSchema):
    """A search's ``clock``: the mover's time left and increment, the moves to the next time control, the
    opponent's time left and the margin kept for the network (engine.clock.Clock); loads as a Clock."""

    remaining_ms = JSONNumber(required=True, validate=validate.Range(min=0, max=MAX_CLOCK_MS))
    increment_ms = JSONNumber(validate=validate.Range(min=0, max=MAX_CLOCK_MS))
    moves_to_go = JSONInteger(validate=validate.Range(min=1, max=MAX_MOVES_TO_GO))
    opponent_remaining_ms = JSONNumber(validate=validate.Range(min=0, max=MAX_CLOCK_MS))
    overhead_ms = JSONNumber(validate=validate.Range(min=0, max=MAX_CLOCK_MS))

    @post_load
    def to_clock(self, data, **kwargs) -> Clock:
        return Clock(**data)


class SearchRequestSchema(StrictSchema):
    """``POST /v1/search``. ``time_limit_ms`` is bounded by the server's setting, given at construction;
    ``clock`` comes instead of it (the engine allots the move's time from it)."""

    game = JSONString(required=True, validate=validate.OneOf(GAMES))
    state = State(required=True)
    algorithm = AlgorithmField(required=True)
    options = fields.Nested(GameOptionsSchema)
    time_limit_ms = JSONInteger()  # bounded in __init__
    clock = fields.Nested(ClockSchema)
    # The root moves the search may play (engine.root); their legality is the engine's to check.
    search_moves = BoundedList(Move(ChanceOutcomeSchema()), validate=validate.Length(min=1, max=MAX_ROOT_MOVES))
    exclude_moves = BoundedList(Move(ChanceOutcomeSchema()), validate=validate.Length(min=0, max=MAX_ROOT_MOVES))
    trace = JSONBoolean()

    def __init__(self, max_time_limit_ms: int, **kwargs):
        """The maximum is a server setting (MAX_TIME_LIMIT_MS), so it joins the range here."""
        super().__init__(**kwargs)
        self.fields["time_limit_ms"].validators = [validate.Range(min=1, max=max_time_limit_ms)]

    @validates_schema
    def one_time_control(self, data, **kwargs):
        if "clock" in data and "time_limit_ms" in data:
            raise ValidationError("send a clock or a time limit, not both: the clock allots the move's time",
                                  "clock")


class StateRequestSchema(StrictSchema):
    """``POST /v1/games/{game}/legal-moves``."""

    state = State(required=True)
    options = fields.Nested(GameOptionsSchema)


class ApplyRequestSchema(StrictSchema):
    """``POST /v1/games/{game}/apply``."""

    state = State(required=True)
    move = Move(ChanceOutcomeSchema())
    moves = BoundedList(Move(ChanceOutcomeSchema()), validate=validate.Length(min=1, max=MAX_APPLIED_MOVES))
    options = fields.Nested(GameOptionsSchema)

    @validates_schema
    def one_of_move_and_moves(self, data, **kwargs):
        """Exactly one of ``move`` and ``moves``."""
        if ("move" in data) == ("moves" in data):
            field = "moves" if "moves" in data else "move"
            raise ValidationError("exactly one of move (a move) and moves (a list of moves, applied in order)",
                                  field)


def load(schema: Schema, data):
    """``schema.load(data)``, sooner. marshmallow deserialises every field a body lacks, as missing: a
    search request's 29 fields, most of them absent, took 357k instructions, as much as a trivial search's
    engine work. A body that has every field the schema requires (its nested schemas' included) is loaded
    with ``partial=True``, which skips the absent fields instead: with the required ones present and no
    field having a default (tests/service/test_schemas.py checks both), the same load. A body with any
    error is loaded again in full, so that the errors are marshmallow's own, every one of them."""
    if complete(type(schema), data):
        try:
            return schema.load(data, partial=True)
        except ValidationError:
            pass
    return schema.load(data)


def complete(schema_class, data) -> bool:
    """Whether ``data`` is an object with every field ``schema_class`` requires, and each of its nested
    objects every field its schema requires."""
    if not isinstance(data, Mapping):
        return False
    for key, required, nested in checked_fields(schema_class):
        if key not in data:
            if required:
                return False
        elif nested is not None and not complete(type(nested_schema(nested, data[key])), data[key]):
            return False
    return True


def nested_schema(field: fields.Nested, value) -> Schema:
    """The schema that ``field`` loads ``value`` with."""
    return field.schema_for(value) if isinstance(field, AlgorithmField) else field.schema


@cache
def checked_fields(schema_class) -> tuple:
    """The fields of ``schema_class`` that :func:`complete` looks at: ``(key, required, nested field or
    None)`` for each required or nested one."""
    out = []
    for name, field in schema_class._declared_fields.items():
        nested = field if isinstance(field, fields.Nested) else None
        if field.required or nested is not None:
            out.append((field.data_key or name, field.required, nested))
    return tuple(out)


# A review's bounds: the plies of one game, and the time of the whole review (spread over its searches), at
# most this many times a search's (MAX_TIME_LIMIT_MS).
MAX_REVIEW_PLIES = 300
REVIEW_TIME_FACTOR = 12
MAX_PGN_CHARS = 100_000
# The positions of one batch.
MAX_BATCH_SEARCHES = 32


# A review's judge when the request names none: the strongest, auto at its full strength.
DEFAULT_REVIEW_ALGORITHM = {"name": "auto"}


class ReviewRequestSchema(StrictSchema):
    """``POST /v1/review``: a game played, as ``state`` and ``moves`` (each game's notation, chance
    outcomes included), or for chess as ``pgn``; the algorithm that judges it, and the time of the whole
    review."""

    game = JSONString(required=True, validate=validate.OneOf(GAMES))
    state = State()
    moves = BoundedList(Move(ChanceOutcomeSchema()), validate=validate.Length(min=1, max=MAX_REVIEW_PLIES))
    pgn = JSONString(validate=validate.Length(min=1, max=MAX_PGN_CHARS))
    algorithm = AlgorithmField()  # default DEFAULT_REVIEW_ALGORITHM
    options = fields.Nested(GameOptionsSchema)
    time_limit_ms = JSONInteger()  # bounded in __init__

    def __init__(self, max_time_limit_ms: int, **kwargs):
        """A review's time is at most ``REVIEW_TIME_FACTOR`` times a search's maximum (MAX_TIME_LIMIT_MS)."""
        super().__init__(**kwargs)
        self.fields["time_limit_ms"].validators = [validate.Range(min=1, max=REVIEW_TIME_FACTOR * max_time_limit_ms)]

    @validates_schema
    def the_game_played(self, data, **kwargs):
        """``state`` and ``moves``, or (chess) ``pgn`` alone."""
        if "pgn" in data:
            if data.get("game") != "chess":
                raise ValidationError("a PGN is a chess game's: send state and moves for the other games", "pgn")
            for other in ("state", "moves"):
                if other in data:
                    raise ValidationError("the PGN gives the start position and the moves: send one or the other",
                                          other)
            return
        for needed in ("state", "moves"):
            if needed not in data:
                raise ValidationError(f"{needed} is required (or, for chess, pgn)", needed)


class BatchRequestSchema(StrictSchema):
    """``POST /v1/search/batch``: searches, each a ``POST /v1/search`` body (its ``time_limit_ms`` bounded
    by the server's setting, given at construction)."""

    searches = BoundedList(fields.Nested(StrictSchema), required=True,
                           validate=validate.Length(min=1, max=MAX_BATCH_SEARCHES))

    def __init__(self, max_time_limit_ms: int, **kwargs):
        super().__init__(**kwargs)
        self.fields["searches"].inner.nested = SearchRequestSchema(max_time_limit_ms)  # type: ignore[attr-defined]
