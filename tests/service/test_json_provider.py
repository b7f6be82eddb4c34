"""The app's JSON responses (service/json_provider.py): written by orjson, they read back as the standard
encoder's, and what orjson would write otherwise (NaN as null, an integer beyond 64 bits, a date, a key
that is not a string) is written or refused as the standard encoder does."""
import datetime
import json
import math

from hypothesis import given, settings, strategies as st
import pytest

from service.app import create_app
from service.json_provider import written

APP = create_app()  # one for every generated example (a fixture's would not be renewed between them)

PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=30)


def standard(obj) -> bytes:
    """What the provider wrote before: the standard encoder, compact, and a newline."""
    return (json.dumps(obj, allow_nan=False, separators=(",", ":"), sort_keys=False) + "\n").encode()


@settings(max_examples=200, deadline=None)
@given(PLAIN)
def test_a_plain_response_reads_back_as_the_standard_encoders(obj):
    with APP.test_request_context():
        response = APP.json.response(obj)
    body = response.get_data()
    assert body.endswith(b"\n") and response.mimetype == "application/json"
    assert json.loads(body) == json.loads(standard(obj))


def test_the_keys_keep_their_order():
    with APP.test_request_context():
        body = APP.json.response({"move": 3, "value": 0.5, "algorithm": {"name": "x", "depth": 2}}).get_data()
    assert body == b'{"move":3,"value":0.5,"algorithm":{"name":"x","depth":2}}\n'


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_number_that_is_not_finite_is_refused_not_written_as_null(app, bad):
    with app.test_request_context(), pytest.raises(ValueError):
        app.json.response({"moves": [{"value": 1.0}, {"value": bad}]})


def test_what_orjson_would_write_otherwise_is_written_as_before(app):
    odd = {"big": 2**70, "when": datetime.date(2026, 11, 26), "keys": {1: "one", None: "none"}}
    with app.test_request_context():
        for obj in ({"big": 2**70}, {"when": datetime.date(2026, 11, 26)}, {"keys": {1: "one"}}, odd):
            assert json.loads(app.json.response(obj).get_data()) == json.loads(app.json.dumps(obj))


def test_orjson_writes_only_what_reads_back_as_the_value():
    assert written({"a": [1, 2.5, None, True, "x", {"b": -0.0}]}) == b'{"a":[1,2.5,null,true,"x",{"b":-0.0}]}'
    assert written({"a": [1, {"b": math.nan}]}) is None
    assert written([math.inf]) is None
    assert written({1: "a key that is not a string"}) is None
    assert written({"a": datetime.date(2026, 1, 1)}) is None
    assert written({"a": (1, 2)}) is None
    assert written(2**64) is None
