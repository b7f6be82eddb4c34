"""service.schemas.load, the search request's loading without marshmallow's walk over the absent fields:
the same values, and the same errors, as marshmallow's full load of the same body."""
import pytest
from hypothesis import given, settings, strategies as st
from marshmallow import ValidationError, missing

import engine.api
from service import schemas
from service.schemas import AnyAlgorithmSchema, SearchRequestSchema, StrictSchema

SCHEMA = SearchRequestSchema(60_000)
VALUES = st.none() | st.booleans() | st.integers(-3, 70_000) | st.floats(-2, 2, allow_nan=False) | st.text(max_size=5) \
    | st.sampled_from(["alphabeta", "native", "python", "uniform", "random", "score"]) | st.just({}) | st.just([1])
# Values each setting takes (most of the time), so that many bodies are valid.
VALID = {"depth": st.integers(1, 5), "depth_rounds": st.integers(1, 3), "iterations": st.integers(1, 50),
         "seed": st.integers(0, 9), "exploration": st.floats(0, 1.5), "epsilon": st.floats(0, 1),
         "probability_cutoff": st.floats(0, 1), "forward_pruning": st.integers(0, 2), "level": st.integers(1, 3),
         "core": st.sampled_from(["native", "python"]), "rollout": st.sampled_from(["random", "heuristic"]),
         "opponent_model": st.sampled_from(["uniform", "epsilon_greedy"]),
         "evaluation": st.sampled_from(["score", "better"]), "no_progress_plies": st.integers(1, 40)}
SETTING_NAMES = sorted(AnyAlgorithmSchema._declared_fields) + ["bogus"]


@st.composite
def settings_of(draw):
    names = draw(st.sets(st.sampled_from(SETTING_NAMES), max_size=4))
    return {name: draw(VALID.get(name, st.booleans()) if draw(st.integers(0, 4)) else VALUES) for name in names}


@st.composite
def bodies(draw):
    algorithm = draw(settings_of())
    if draw(st.integers(0, 5)):
        algorithm["name"] = draw(st.sampled_from(schemas.ALGORITHMS))
    body = {"game": draw(st.sampled_from(schemas.GAMES)) if draw(st.integers(0, 9)) else draw(VALUES),
            "state": {"moves": ""} if draw(st.integers(0, 9)) else draw(VALUES),
            "algorithm": algorithm if draw(st.integers(0, 9)) else draw(VALUES)}
    if not draw(st.integers(0, 5)):
        del body[draw(st.sampled_from(["game", "state", "algorithm"]))]
    if draw(st.booleans()):
        body["time_limit_ms"] = draw(st.integers(1, 1000) if draw(st.integers(0, 4)) else VALUES)
    if draw(st.booleans()):
        body["trace"] = draw(st.booleans() if draw(st.integers(0, 4)) else VALUES)
    if not draw(st.integers(0, 9)):
        body["unknown"] = 1
    return body


def outcome(load, body):
    try:
        return "ok", load(body)
    except ValidationError as error:
        return "error", error.messages


@settings(max_examples=400, deadline=None)
@given(bodies())
def test_a_search_request_loads_as_marshmallows_full_load(body):
    assert outcome(lambda b: schemas.load(SCHEMA, b), body) == outcome(SCHEMA.load, body)


def test_a_complete_request_takes_the_partial_load():
    body = {"game": "connect4", "state": {"moves": ""}, "algorithm": {"name": "alphabeta"}, "time_limit_ms": 10}
    assert schemas.complete(SearchRequestSchema, body)
    assert not schemas.complete(SearchRequestSchema, {**body, "algorithm": {"depth": 3}})
    assert not schemas.complete(SearchRequestSchema, {"game": "connect4", "state": {}})
    assert schemas.load(SCHEMA, body) == SCHEMA.load(body)


def test_no_request_field_has_a_default():
    """A partial load leaves out an absent field's default: the two loads are the same only without any."""
    def schema_classes(cls):
        yield cls
        for sub in cls.__subclasses__():
            yield from schema_classes(sub)
    for cls in schema_classes(StrictSchema):
        for name, field in cls._declared_fields.items():
            assert field.load_default is missing, (cls, name)


def test_a_setting_two_algorithms_declare_unlike_cannot_be_merged():
    merged = engine.api.merged({"a": {"seed": {"type": "integer"}}, "b": {"seed": {"type": "integer"}}}.items(),
                               "setting")
    assert merged == {"seed": {"type": "integer"}}
    with pytest.raises(ValueError, match="seed"):
        engine.api.merged({"a": {"seed": {"type": "integer"}}, "b": {"seed": {"type": "number"}}}.items(), "setting")


def test_an_algorithm_s_schema_refuses_another_algorithm_s_setting():
    body = {"game": "connect4", "state": {"moves": ""}, "algorithm": {"name": "mcts", "depth": 3}}
    with pytest.raises(ValidationError) as error:
        schemas.load(SCHEMA, body)
    assert error.value.messages == {"algorithm": {"depth": ["Unknown field."]}}
    with pytest.raises(ValidationError) as error:   # no algorithm named: every setting is checked
        schemas.load(SCHEMA, {**body, "algorithm": {"depth": 0, "seed": 1}})
    assert set(error.value.messages["algorithm"]) == {"name", "depth"}
