"""Request schemas: a hand-written mirror of ``openapi.yaml``'s request bodies.

``tests/service/test_spec_agreement.py`` proves the mirror faithful (fields, required, enums, bounds).
The schemas check shapes and numbers; the engine checks what only it knows (whether a state is legal,
whether an algorithm fits a game, which settings an algorithm takes).
"""
from collections.abc import Mapping
from functools import cache

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from engine.games.checkers import MAX_NO_PROGRESS_PLIES
from engine.registry import GAME_MODULES
from engine.search import ALGORITHM_MODULES
from engine.search.auto import LEVELS
from engine.search.expectimax import MAX_FORWARD_PRUNING
from engine.search.mcts import MAX_EXPLORATION, MAX_SEED
from engine.search.native import CORES
from service.fields import JSONBoolean, JSONInteger, JSONNumber, JSONString, Move, State, Utility

GAMES = tuple(GAME_MODULES)
ALGORITHMS = tuple(ALGORITHM_MODULES)
OPPONENT_MODELS = ("uniform", "epsilon_greedy")
ROLLOUTS = ("random", "heuristic")
EVALUATIONS = ("score", "better")
TILE_PATTERN = r"^[1-9][0-9]{0,5}$"
MAX_TILES = 16
MAX_APPLIED_MOVES = 1000      # the moves of one apply request


class StrictSchema(Schema):
    """Unknown fields are errors: a misspelt setting must not be silently ignored."""

    class Meta:
        unknown = RAISE


class GameOptionsSchema(StrictSchema):
    """The games' options (``GameOption``): ``options`` of every route (their canonical place), and, as
    before ``options`` existed, fields of a search's ``algorithm``."""

    evaluation = JSONString(validate=validate.OneOf(EVALUATIONS))
    tile_probabilities = fields.Dict(
        keys=JSONString(validate=validate.Regexp(TILE_PATTERN)),
        values=JSONNumber(validate=validate.Range(min=0, max=1)),
        validate=validate.Length(min=1, max=MAX_TILES))
    no_progress_plies = JSONInteger(validate=validate.Range(min=1, max=MAX_NO_PROGRESS_PLIES))
    man_move_resets = JSONBoolean()


class AlgorithmSchema(GameOptionsSchema):
    """``algorithm``: the name and the settings the client chose (absent settings stay absent), the game's
    options among them."""

    name = JSONString(required=True, validate=validate.OneOf(ALGORITHMS))
    depth = JSONInteger(validate=validate.Range(min=1))
    depth_rounds = JSONInteger(validate=validate.Range(min=1))
    move_ordering = JSONBoolean()
    transposition_table = JSONBoolean()
    strict_cutoffs = JSONBoolean()
    solve = JSONBoolean()
    opponent_model = JSONString(validate=validate.OneOf(OPPONENT_MODELS))
    epsilon = JSONNumber(validate=validate.Range(min=0, max=1))
    pruning = JSONBoolean()
    forward_pruning = JSONInteger(validate=validate.Range(min=0, max=MAX_FORWARD_PRUNING))
    utility = Utility()
    probability_cutoff = JSONNumber(validate=validate.Range(min=0, max=1))
    iterations = JSONInteger(validate=validate.Range(min=1))
    exploration = JSONNumber(validate=validate.Range(min=0, max=MAX_EXPLORATION))
    seed = JSONInteger(validate=validate.Range(min=0, max=MAX_SEED))
    rollout = JSONString(validate=validate.OneOf(ROLLOUTS))
    level = JSONInteger(validate=validate.Range(min=min(LEVELS), max=max(LEVELS)))
    core = JSONString(validate=validate.OneOf(CORES))
    forced_move_search = JSONBoolean()


class SearchRequestSchema(StrictSchema):
    """``POST /v1/search``. ``time_limit_ms`` is bounded by the server's setting, given at construction."""

    game = JSONString(required=True, validate=validate.OneOf(GAMES))
    state = State(required=True)
    algorithm = fields.Nested(AlgorithmSchema, required=True)
    options = fields.Nested(GameOptionsSchema)
    time_limit_ms = JSONInteger()  # bounded in __init__
    trace = JSONBoolean()

    def __init__(self, max_time_limit_ms: int, **kwargs):
        """The maximum is a server setting (MAX_TIME_LIMIT_MS), so it joins the range here."""
        super().__init__(**kwargs)
        self.fields["time_limit_ms"].validators = [validate.Range(min=1, max=max_time_limit_ms)]


class StateRequestSchema(StrictSchema):
    """``POST /v1/games/{game}/legal-moves``."""

    state = State(required=True)
    options = fields.Nested(GameOptionsSchema)


class ChanceOutcomeSchema(StrictSchema):
    """A move at a chance state of 2048: the tile that appears, and where."""

    cell = fields.List(JSONInteger(validate=validate.Range(min=0)), required=True,
                       validate=validate.Length(equal=2))
    tile = JSONInteger(required=True, validate=validate.Range(min=2))


class ApplyRequestSchema(StrictSchema):
    """``POST /v1/games/{game}/apply``."""

    state = State(required=True)
    move = Move(ChanceOutcomeSchema())
    moves = fields.List(Move(ChanceOutcomeSchema()), validate=validate.Length(min=1, max=MAX_APPLIED_MOVES))
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
        elif nested is not None and not complete(nested, data[key]):
            return False
    return True


@cache
def checked_fields(schema_class) -> tuple:
    """The fields of ``schema_class`` that :func:`complete` looks at: ``(key, required, nested schema
    class or None)`` for each required or nested one."""
    out = []
    for name, field in schema_class._declared_fields.items():
        nested = type(field.schema) if isinstance(field, fields.Nested) else None
        if field.required or nested is not None:
            out.append((field.data_key or name, field.required, nested))
    return tuple(out)
