"""Issue 35: every kind of problem has a type URI of its own (RFC 9457), documented in openapi.yaml and the
README, and an unknown setting is said in the engine's words whichever check finds it."""
import json
from pathlib import Path

import pytest

from service.admission import admission
from service.errors import PROBLEM_BASE, PROBLEM_KINDS
from service.spec import load_spec
from tests.service.support import ValidatingClient, make_app
from tests.service.test_client_limits import holding, post

ROOT = Path(__file__).resolve().parents[2]
TTT = {"board": ["...", "...", "..."]}


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def kind_of(response, status):
    assert response.status_code == status and response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["type"].startswith(PROBLEM_BASE), body
    return body["type"][len(PROBLEM_BASE):]


def test_every_kind_is_documented():
    described = load_spec()["components"]["schemas"]["Problem"]["properties"]["type"]["description"]
    readme = (ROOT / "README.md").read_text()
    for kind in PROBLEM_KINDS:
        assert f"`{kind}`" in described and f"| `{kind}` |" in readme


def test_the_kinds_of_the_app_s_problems(client):
    assert kind_of(client.post("/v1/search", data="{", content_type="application/json"), 400) == "bad-json"
    assert kind_of(client.post("/v1/search", data="x", content_type="text/plain"), 415) == "unsupported-media-type"
    assert kind_of(client.get("/v1/nowhere"), 404) == "not-found"
    assert kind_of(client.get("/v1/games/nope"), 404) == "not-found"
    assert kind_of(client.get("/v1/search"), 405) == "method-not-allowed"
    assert kind_of(client.post("/v1/search", json={"game": "tictactoe"}), 422) == "validation"
    over = {"board": ["XXX", "OO.", "..."]}
    assert kind_of(client.post("/v1/search", json={"game": "tictactoe", "state": over,
                                                   "algorithm": {"name": "minimax"}}), 422) == "game-over"
    assert kind_of(client.post("/v1/games/tictactoe/apply", json={"state": over, "move": 8}), 422) == "game-over"


def test_a_body_too_large():
    client = ValidatingClient(make_app(MAX_CONTENT_LENGTH=100))
    response = client.post("/v1/search", data=json.dumps({"x": "y" * 200}), content_type="application/json")
    assert kind_of(response, 413) == "body-too-large"


def test_an_unknown_setting_is_said_in_the_engine_s_words_by_both_checks(client):
    """The schema knows no field "dept"; the engine knows that mcts takes no "depth": one style, one kind."""
    schema = client.post("/v1/search", json={"game": "tictactoe", "state": TTT,
                                             "algorithm": {"name": "mcts", "dept": 3}})
    assert kind_of(schema, 422) == "unknown-setting"
    (message,) = schema.get_json()["errors"]["algorithm.dept"]
    assert message.startswith("mcts takes no setting 'dept'; it takes [") and "'iterations'" in message
    engine = client.post("/v1/search", json={"game": "tictactoe", "state": TTT,
                                             "algorithm": {"name": "mcts", "depth": 3}})
    assert kind_of(engine, 422) == "unknown-setting"
    (message,) = engine.get_json()["errors"]["algorithm.depth"]
    assert message.startswith("mcts takes no setting 'depth'; it takes [") and "'iterations'" in message
    option = client.post("/v1/games/2048/legal-moves", json={"state": {"board": [[2, 0, 0, 0]] + [[0] * 4] * 3},
                                                             "options": {"tiles": 1}})
    assert kind_of(option, 422) == "unknown-setting"
    assert option.get_json()["errors"]["options.tiles"][0].startswith("2048 has no option 'tiles'; its options: [")
    mixed = client.post("/v1/search", json={"game": "tictactoe", "state": TTT,
                                            "algorithm": {"name": "mcts", "dept": 3, "iterations": 0}})
    assert kind_of(mixed, 422) == "validation"


def test_the_two_429s_differ():
    app = make_app(MAX_SEARCHES_PER_CLIENT=1)
    client = ValidatingClient(app)
    with holding(app):
        assert kind_of(post(client), 429) == "too-many-searches"
    app = make_app(SEARCH_SECONDS_PER_CLIENT_MINUTE=1)
    client = ValidatingClient(app)
    with holding(app, time_limit_ms=1000):
        assert kind_of(post(client), 429) == "search-time-spent"


def test_busy_and_shutting_down():
    app = make_app()
    client = ValidatingClient(app)
    gate = admission(app)
    gate.tickets = gate.capacity
    try:
        assert kind_of(post(client), 503) == "busy"
    finally:
        gate.tickets = 0
    gate.drain()  # this app is the test's own: it stays drained
    assert kind_of(post(client), 503) == "shutting-down"
    assert kind_of(client.get("/readyz"), 503) == "shutting-down"
