"""openapi.yaml agrees with the schemas the service generates from the engine's declarations (each
algorithm's Settings, the games' options): fields, required, types, enums, bounds, defaults; and every
request example in the spec passes both. Each check is a function of the spec, so that a spec that
disagrees is shown to fail it."""
import copy

import pytest
from marshmallow import RAISE, fields, validate
from openapi_schema_validator import OAS31Validator

import engine.api
from engine.registry import GAME_MODULES, all_option_names, game_types
from engine.search import ALGORITHM_MODULES, algorithm_module
from engine.search.native import CORES
from service.config import Settings
from service.fields import BoundedDict, JSONBoolean, JSONInteger, JSONNumber, JSONString, Move, State, Utility
from service.spec import load_spec
from service.schemas import (ALGORITHM_SCHEMAS, AlgorithmField, AnyAlgorithmSchema, ApplyRequestSchema,
                             BatchRequestSchema, ChanceOutcomeSchema, ClockSchema, GameOptionsSchema, ReviewRequestSchema,
                             SearchRequestSchema, StateRequestSchema)

SETTINGS = Settings()
MIRRORS = {
    "SearchRequest": SearchRequestSchema(SETTINGS.max_time_limit_ms),
    "Algorithm": AnyAlgorithmSchema(),
    "StateRequest": StateRequestSchema(),
    "ApplyRequest": ApplyRequestSchema(),
    "ChanceOutcome": ChanceOutcomeSchema(),
    "Clock": ClockSchema(),
    "GameOptions": GameOptionsSchema(),
    "ReviewRequest": ReviewRequestSchema(SETTINGS.max_time_limit_ms),
    "BatchRequest": BatchRequestSchema(SETTINGS.max_time_limit_ms),
}
# Each algorithm's own schema of ``algorithm``: its fields are some of the spec's Algorithm properties.
ALGORITHMS = {name: schema() for name, schema in ALGORITHM_SCHEMAS.items()}
SIMPLE_TYPES = {JSONInteger: "integer", JSONNumber: "number", JSONBoolean: "boolean", JSONString: "string",
                fields.Dict: "object", BoundedDict: "object"}


def resolve(spec, schema: dict) -> dict:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def validators_of(field, kind) -> list:
    return [v for v in field.validators if isinstance(v, kind)]


def bounds(field) -> tuple:
    """(min, max) from a marshmallow field's Range validators (None when unbounded)."""
    lo = hi = None
    for r in validators_of(field, validate.Range):
        lo = r.min if r.min is not None else lo
        hi = r.max if r.max is not None else hi
    return lo, hi


def spec_bounds(schema: dict) -> tuple:
    return schema.get("minimum"), schema.get("maximum")


def choices(field):
    found = validators_of(field, validate.OneOf)
    return set(found[0].choices) if found else None


def check_field(spec, name, field, prop):
    """One field against its property; returns nothing, asserts everything."""
    where = f"{name}: "
    if isinstance(field, AlgorithmField):
        assert prop == {"$ref": "#/components/schemas/Algorithm"}, where
        assert {n: type(s) for n, s in field.by_name.items()} == {n: type(s) for n, s in ALGORITHMS.items()}
        assert type(field.schema) is type(MIRRORS["Algorithm"]), where
        return
    if isinstance(field, fields.Nested):
        ref = prop["$ref"].rsplit("/", 1)[1]
        assert type(MIRRORS[ref]) is type(field.schema), where + ref
        return
    if isinstance(field, Move):
        assert prop == {"$ref": "#/components/schemas/Move"}, where
        assert resolve(spec, prop)["anyOf"] == [{"type": "integer"}, {"type": "string"},
                                                {"$ref": "#/components/schemas/ChanceOutcome"}], where
        assert type(field.chance_outcome) is type(MIRRORS["ChanceOutcome"]), where
        return
    if isinstance(field, State):
        assert prop == {"$ref": "#/components/schemas/State"}, where
        assert resolve(spec, prop)["type"] == ["object", "string"], where
        return
    if isinstance(field, Utility):
        assert prop == {"$ref": "#/components/schemas/Utility"}, where
        kinds = [option.get("enum") or option["required"] for option in resolve(spec, prop)["oneOf"]]
        assert kinds == [["linear"], ["power"], ["exponential"]], where
        return
    target = resolve(spec, prop)
    if isinstance(field, fields.List):
        assert target["type"] == "array", where
        length = validators_of(field, validate.Length)[0]
        expected = (length.equal, length.equal) if length.equal is not None else (length.min, length.max)
        assert expected == (target["minItems"], target["maxItems"]), where + "length"
        check_field(spec, f"{name}[]", field.inner, target["items"])
        return
    assert target["type"] == SIMPLE_TYPES[type(field)], where + "type"
    expected_enum = choices(field)
    assert (set(target["enum"]) if "enum" in target else None) == expected_enum, where + "enum"
    if isinstance(field, (JSONInteger, JSONNumber)):
        assert bounds(field) == spec_bounds(target), where + "bounds"
    if isinstance(field, fields.Dict) and field.value_field is not None:
        key_regexp = validators_of(field.key_field, validate.Regexp)[0]
        assert target["propertyNames"]["pattern"] == key_regexp.regex.pattern, where + "key pattern"
        assert type(field.value_field) is JSONNumber
        assert bounds(field.value_field) == spec_bounds(target["additionalProperties"]), where + "values"
        length = validators_of(field, validate.Length)[0]
        assert (length.min, length.max) == (target["minProperties"], target["maxProperties"]), where


def check_mirror(spec, name: str, mirror, partial: bool = False) -> None:
    """``mirror`` is the spec's schema ``name``: the same fields (``partial``: some of them, as each
    algorithm's schema is of Algorithm), the same required ones, each field as its property says."""
    schema = spec["components"]["schemas"][name]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert mirror.opts.unknown == RAISE
    if partial:
        assert set(mirror.fields) <= set(schema["properties"]), name
    else:
        assert set(mirror.fields) == set(schema["properties"]), name
    assert {n for n, f in mirror.fields.items() if f.required} == set(schema.get("required", [])), name
    for field_name, field in mirror.fields.items():
        check_field(spec, f"{name}.{field_name}", field, schema["properties"][field_name])


def check_declarations(spec) -> None:
    """Each setting's and each game option's JSON Schema, as the engine declares it, is its property in
    the spec (but for the description, and for a default the engine leaves to the game: opponent_model)."""
    props = spec["components"]["schemas"]["Algorithm"]["properties"]
    declared = [(f"{name}.{key}", key, schema) for name, settings in engine.api.request_settings().items()
                for key, schema in settings.items()]
    declared += [(f"options.{key}", key, schema) for key, schema in engine.api.option_schemas().items()]
    for where, key, schema in declared:
        written = {k: v for k, v in props[key].items() if k != "description"}
        if "default" not in schema:
            written.pop("default", None)
        assert written == schema, where


def check_spec(spec) -> None:
    """Every check of the spec against the generated schemas."""
    for name, mirror in MIRRORS.items():
        check_mirror(spec, name, mirror)
    for mirror in ALGORITHMS.values():
        check_mirror(spec, "Algorithm", mirror, partial=True)
    check_declarations(spec)


@pytest.mark.parametrize("name", sorted(MIRRORS))
def test_the_schema_mirrors_the_spec(spec, name):
    check_mirror(spec, name, MIRRORS[name])


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_each_algorithm_s_schema_is_part_of_the_spec_s_algorithm(spec, name):
    check_mirror(spec, "Algorithm", ALGORITHMS[name], partial=True)


def test_the_spec_s_settings_and_options_are_the_engine_s_declarations(spec):
    check_declarations(spec)


def test_each_algorithm_s_schema_takes_its_settings_alone():
    """A setting of another algorithm is an unknown field of the algorithm's schema; every setting is
    some algorithm's."""
    options = set(engine.api.option_schemas())
    for name, mirror in ALGORITHMS.items():
        assert set(mirror.fields) == {"name", *engine.api.request_settings()[name], *options}, name
    assert set(MIRRORS["Algorithm"].fields) == set().union(*(m.fields for m in ALGORITHMS.values()))


def altered(path: tuple, change):
    """The spec with ``change`` applied to the dict at ``path`` under components.schemas."""
    spec = copy.deepcopy(load_spec())
    target = spec["components"]["schemas"]
    for key in path:
        target = target[key]
    change(target)
    return spec


DISAGREEMENTS = {
    "a bound": (("Algorithm", "properties", "depth"), lambda p: p.update(minimum=2)),
    "a maximum": (("Algorithm", "properties", "seed"), lambda p: p.update(maximum=2**63)),
    "an enum": (("Algorithm", "properties", "rollout"), lambda p: p.update(enum=["random"])),
    "a type": (("Algorithm", "properties", "pruning"), lambda p: p.update(type="integer")),
    "a default": (("Algorithm", "properties", "exploration"), lambda p: p.update(default=1)),
    "a missing setting": (("Algorithm", "properties"), lambda p: p.pop("iterations")),
    "an extra setting": (("Algorithm", "properties"), lambda p: p.update(width={"type": "integer"})),
    "an option's bound": (("GameOptions", "properties", "no_progress_plies"), lambda p: p.update(maximum=99)),
    "a required field": (("SearchRequest",), lambda s: s["required"].remove("state")),
}


@pytest.mark.parametrize("what", sorted(DISAGREEMENTS))
def test_a_spec_that_disagrees_fails_the_checks(what):
    check_spec(load_spec())          # the spec as written passes
    with pytest.raises(AssertionError):
        check_spec(altered(*DISAGREEMENTS[what]))


def test_the_server_maximum_and_default_time_limits_are_the_spec_s(spec):
    prop = spec["components"]["schemas"]["SearchRequest"]["properties"]["time_limit_ms"]
    assert (prop["default"], prop["maximum"]) == (SETTINGS.default_time_limit_ms, SETTINGS.max_time_limit_ms)
    assert (spec["components"]["schemas"]["SearchRequest"]["properties"]["trace"]["default"]) is False


def test_the_echoed_defaults_are_the_spec_s(spec):
    props = spec["components"]["schemas"]["Algorithm"]["properties"]
    alphabeta = engine.api.echoed_defaults("alphabeta")
    assert alphabeta == {"move_ordering": True, "transposition_table": True}
    assert {k: props[k]["default"] for k in alphabeta} == alphabeta
    assert engine.api.echoed_defaults("expectimax") == {"utility": "linear"}


def request_examples(spec):
    """(schema name, example) for every request example in the spec."""
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            media = operation["requestBody"]["content"]["application/json"]
            ref = media["schema"]["$ref"].rsplit("/", 1)[1]
            for key, example in media.get("examples", {}).items():
                yield f"{method.upper()} {path} {key}", ref, example["value"]


def test_there_are_examples_for_every_request_body(spec):
    assert {ref for _, ref, _ in request_examples(spec)} == {"SearchRequest", "StateRequest", "ApplyRequest",
                                                               "ReviewRequest", "BatchRequest"}


@pytest.mark.parametrize("where, ref, example", list(request_examples(load_spec())))
def test_every_request_example_passes_the_spec_and_the_schemas(spec, where, ref, example):
    OAS31Validator({"$ref": f"#/components/schemas/{ref}", "components": spec["components"]}).validate(example)
    MIRRORS[ref].load(example)


def test_the_spec_s_games_algorithms_and_settings_are_the_engine_s(spec):
    """The spec's enums and settings are the registries': every game, every algorithm, every field of
    every algorithm's Settings dataclass, every declared game option and the choice of core, and nothing
    else."""
    schemas = spec["components"]["schemas"]
    assert schemas["GameId"]["enum"] == list(GAME_MODULES)
    assert schemas["AlgorithmName"]["enum"] == list(ALGORITHM_MODULES)
    taken = {"name", *engine.api.EverySettings.names(), *all_option_names()}
    assert schemas["Algorithm"]["properties"]["core"]["enum"] == list(CORES)
    for name in ALGORITHM_MODULES:
        taken |= set(algorithm_module(name).Settings.names())
    assert taken == set(schemas["Algorithm"]["properties"])
    assert taken == set(MIRRORS["Algorithm"].fields)


def test_the_spec_s_game_options_are_the_registry_s(spec):
    """A game option's schema in the spec is the one its game declares (a string option two games declare
    takes both games' values: engine.api.option_schemas), in the algorithm and in the rules routes' options
    alike; the options are the declared ones, and nothing else."""
    schemas = spec["components"]["schemas"]
    assert set(schemas["GameOptions"]["properties"]) == all_option_names() == set(GameOptionsSchema().fields)
    merged = engine.api.option_schemas()
    for props in (schemas["Algorithm"]["properties"], schemas["GameOptions"]["properties"]):
        for game in game_types():
            for option in game.options:
                declared = {k: v for k, v in props[option.name].items() if k != "description"}
                assert declared == merged[option.name], (game.id, option.name)
                if declared != option.schema:
                    assert set(option.schema["enum"]) < set(declared["enum"]), (game.id, option.name)
