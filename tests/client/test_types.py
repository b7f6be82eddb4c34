"""tactician.types mirrors openapi.yaml: each TypedDict has its schema's fields, required as the schema
requires them (allOf merged), so that a field added to the API without its type fails here."""
import typing

import pytest

import tactician
from tactician import types
from service.spec import load_spec

SCHEMAS = load_spec()["components"]["schemas"]
PAIRS = {"SearchResponse": types.SearchResponse, "MoveValue": types.MoveValue, "Stats": types.Stats,
         "SearchInfo": types.SearchInfo, "Line": types.Line, "Position": types.Position,
         "AppliedPosition": types.AppliedPosition, "Game": types.Game, "PlayerInfo": types.PlayerInfo,
         "GameList": types.GameList, "Problem": types.Problem, "ReviewResponse": types.ReviewResponse,
         "ReviewPly": types.ReviewPly, "ReviewSide": types.ReviewSide, "ReviewJudge": types.ReviewJudge,
         "ManyStats": types.ManyStats, "BatchResponse": types.BatchResponse}


def fields(schema: dict) -> tuple:
    """(every property, the required ones) of an object schema, through allOf and $ref."""
    if "$ref" in schema:
        return fields(SCHEMAS[schema["$ref"].split("/")[-1]])
    names, required = set(schema.get("properties", {})), set(schema.get("required", []))
    for part in schema.get("allOf", []):
        more, more_required = fields(part)
        names, required = names | more, required | more_required
    return names, required


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_each_typed_dict_has_its_schemas_fields(name):
    typed = PAIRS[name]
    names, required = fields(SCHEMAS[name])
    assert set(typing.get_type_hints(typed)) == names
    assert typed.__required_keys__ == required


def test_every_answer_schema_of_the_client_is_typed():
    assert set(PAIRS) <= set(tactician.__all__)


def literals(hint) -> set | None:
    """The values of a Literal (with None, for ``Literal[...] | None``); None if the hint is no Literal."""
    if typing.get_origin(hint) is typing.Literal:
        return set(typing.get_args(hint))
    if typing.get_origin(hint) in (typing.Union, __import__("types").UnionType):
        parts = [literals(arg) if arg is not type(None) else {None} for arg in typing.get_args(hint)]
        return set().union(*parts) if all(p is not None for p in parts) else None
    return None


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_each_literal_is_its_schemas_enum(name):
    properties = SCHEMAS[name].get("properties", {})
    for field, hint in typing.get_type_hints(PAIRS[name]).items():
        values = literals(hint)
        if values is not None:
            assert values == set(properties[field]["enum"]), field
