"""One test per class of mistake: the status, a problem+json body, and the field named."""
import io
import json

import pytest

import engine.api

from tests.service.support import ValidatingClient, make_app

TICTACTOE = {"board": ["X.O", "...", "..."]}


def problem(response, status: int) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert body["status"] == status and body["title"] and body["detail"] and body["type"]
    return body


def unprocessable(response, field: str) -> list:
    """The messages for ``field`` in a 422."""
    body = problem(response, 422)
    assert field in body["errors"], body["errors"]
    return body["errors"][field]


def search_body(**changes):
    body = {"game": "tictactoe", "state": TICTACTOE, "algorithm": {"name": "alphabeta", "depth": 2}}
    return {**body, **changes}


def post_raw(client, data, content_type="application/json", path="/v1/search"):
    return client.post(path, data=data, content_type=content_type)


def test_malformed_json_is_400(client):
    problem(post_raw(client, '{"game": "tree",'), 400)


def test_json_nested_too_deeply_to_decode_is_400(client):
    problem(post_raw(client, "[" * 200_000), 400)


def test_nan_and_infinity_literals_are_not_json(client):
    problem(post_raw(client, '{"game": "tictactoe", "state": {}, "algorithm": {"name": "mcts", "exploration": NaN}}'), 400)


def test_invalid_utf8_is_400(client):
    problem(post_raw(client, b'{"game": "\xff\xfe\xfa"}'), 400)


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_body_that_is_not_json_is_415(client, content_type):
    response = client.post("/v1/search", data='{"game": "tree"}', content_type=content_type)
    problem(response, 415)


def test_a_body_over_max_content_length_is_413():
    client = ValidatingClient(make_app(MAX_CONTENT_LENGTH=1000))
    problem(client.post("/v1/search", json=search_body(state={"board": ["." * 19] * 19, "pad": "x" * 2000})), 413)


def test_an_unknown_route_is_404(client):
    problem(client.get("/v2/search"), 404)


def test_an_unknown_game_in_a_path_is_404(client):
    problem(client.get("/v1/games/no-such-game"), 404)
    problem(client.post("/v1/games/no-such-game/legal-moves", json={"state": {}}), 404)


@pytest.mark.parametrize("method, path, allowed", [("GET", "/v1/search", {"POST"}),
                                                    ("DELETE", "/v1/games", {"GET", "HEAD"}),
                                                    ("PUT", "/v1/games/tree/apply", {"POST"})])
def test_a_wrong_method_is_405_with_allow(client, method, path, allowed):
    response = client.open(path, method=method)
    problem(response, 405)
    assert allowed <= {m.strip() for m in response.headers["Allow"].split(",")}


def test_a_body_that_is_not_an_object_is_422(client):
    unprocessable(client.post("/v1/search", json=[1, 2]), "body")


@pytest.mark.parametrize("field", ["game", "state", "algorithm"])
def test_a_missing_required_field_is_named(client, field):
    body = search_body()
    del body[field]
    unprocessable(client.post("/v1/search", json=body), field)


def test_a_missing_algorithm_name_is_named(client):
    unprocessable(client.post("/v1/search", json=search_body(algorithm={"depth": 3})), "algorithm.name")


def test_an_unknown_field_is_named_not_ignored(client):
    unprocessable(client.post("/v1/search", json=search_body(algorithm={"name": "alphabeta", "dpeth": 3})),
                  "algorithm.dpeth")
    unprocessable(client.post("/v1/search", json=search_body(timeout=5)), "timeout")


@pytest.mark.parametrize("depth", [8.5, "8", True, None, [8], -1, 0])
def test_depth_must_be_an_integer_at_least_1(client, depth):
    unprocessable(client.post("/v1/search", json=search_body(algorithm={"name": "alphabeta", "depth": depth})),
                  "algorithm.depth")


@pytest.mark.parametrize("field, value", [("epsilon", 1.5), ("epsilon", "0.1"), ("exploration", -1),
                                          ("exploration", True), ("seed", -1), ("seed", 2**64),
                                          ("iterations", 0), ("iterations", 10.5)])
def test_numbers_are_checked_against_their_bounds_and_types(client, field, value):
    algorithm = {"name": "mcts" if field != "epsilon" else "expectimax", field: value}
    unprocessable(client.post("/v1/search", json=search_body(algorithm=algorithm)), f"algorithm.{field}")


def test_a_number_too_large_to_be_finite_is_named(client):
    response = post_raw(client, '{"game": "tree", "state": {"root": {"value": 1e400}}, "algorithm": {"name": "minimax"}}')
    assert unprocessable(response, "state.root.value") == ["Must be a finite number."]


@pytest.mark.parametrize("value", [10_001, 10_000.5, 0, "1000", False])
def test_a_time_limit_that_is_not_an_integer_in_range_is_named(client, value):
    unprocessable(client.post("/v1/search", json=search_body(time_limit_ms=value)), "time_limit_ms")


def test_the_time_limit_maximum_is_the_server_setting():
    client = ValidatingClient(make_app(MAX_TIME_LIMIT_MS=500, DEFAULT_TIME_LIMIT_MS=200))
    unprocessable(client.post("/v1/search", json=search_body(time_limit_ms=501)), "time_limit_ms")
    assert client.post("/v1/search", json=search_body(time_limit_ms=500)).status_code == 200


@pytest.mark.parametrize("field, value", [("name", "negamax"), ("opponent_model", "minimax"),
                                          ("rollout", "greedy"), ("move_ordering", "yes"), ("pruning", 1)])
def test_enums_and_booleans_are_strict(client, field, value):
    algorithm = {"name": "expectimax", field: value}
    unprocessable(client.post("/v1/search", json=search_body(algorithm=algorithm)), f"algorithm.{field}")


def test_an_unknown_game_in_the_body_is_named(client):
    unprocessable(client.post("/v1/search", json=search_body(game="no-such-game")), "game")


def test_a_setting_of_another_algorithm_is_named(client):
    messages = unprocessable(client.post("/v1/search", json=search_body(
        algorithm={"name": "minimax", "move_ordering": False})), "algorithm.move_ordering")
    assert "minimax" in messages[0]


def test_tile_probabilities_belong_to_2048(client):
    unprocessable(client.post("/v1/search", json=search_body(
        algorithm={"name": "alphabeta", "tile_probabilities": {"2": 1.0}})), "algorithm.tile_probabilities")


def test_tile_probabilities_are_checked_for_shape(client):
    response = client.post("/v1/search", json=search_body(
        game="2048", algorithm={"name": "expectimax", "tile_probabilities": {"two": 2}}))
    body = problem(response, 422)
    assert any(k.startswith("algorithm.tile_probabilities") for k in body["errors"])


def test_an_algorithm_that_does_not_fit_the_game_is_named(client):
    response = client.post("/v1/search", json={"game": "tree", "algorithm": {"name": "alphabeta"}, "state": {
        "root": {"type": "chance", "children": [{"value": 1}, {"value": 2}]}}})
    unprocessable(response, "algorithm.name")


def test_an_inconsistent_state_is_named(client):
    response = client.post("/v1/search", json=search_body(state={"board": ["XXX", "X..", "..."]}))
    assert any(k.startswith("state") for k in problem(response, 422)["errors"])


def test_a_malformed_tree_node_is_named_by_its_path(client, figure_5_2):
    figure_5_2["root"]["children"][1]["children"][2]["value"] = "six"
    unprocessable(client.post("/v1/search", json=search_body(game="tree", state=figure_5_2)),
                  "state.root.children[1].children[2].value")


def test_a_state_that_is_not_an_object_is_named(client):
    unprocessable(client.post("/v1/search", json=search_body(state=["X.O", "...", "..."])), "state")


def test_searching_a_finished_game_is_422(client):
    unprocessable(client.post("/v1/search", json=search_body(state={"board": ["XXX", "OO.", "..."]})), "state")


def test_an_illegal_move_is_named(client):
    unprocessable(client.post("/v1/games/tictactoe/apply", json={"state": TICTACTOE, "move": 0}), "move")
    unprocessable(client.post("/v1/games/tictactoe/apply", json={"state": TICTACTOE, "move": 1.5}), "move")
    unprocessable(client.post("/v1/games/tictactoe/apply", json={"state": TICTACTOE}), "move")


def test_a_tree_over_the_node_cap_is_refused():
    client = ValidatingClient(make_app(MAX_TREE_NODES=10))
    leaves = [{"value": i} for i in range(20)]
    response = client.post("/v1/search", json=search_body(game="tree", state={"root": {"type": "max", "children": leaves}}))
    assert any(k.startswith("state") for k in problem(response, 422)["errors"])


def test_a_tree_over_the_depth_cap_is_refused():
    client = ValidatingClient(make_app(MAX_TREE_DEPTH=50))
    node = {"value": 1}
    for _ in range(60):
        node = {"type": "max", "children": [node]}
    response = client.post("/v1/search", json=search_body(game="tree", state={"root": node}))
    assert any(k.startswith("state") for k in problem(response, 422)["errors"])


def test_a_server_fault_is_500_without_a_stack_trace(client, monkeypatch, fresh_search_pools):
    def broken(*args, **kwargs):
        raise RuntimeError("secret internals /work/main/engine/api.py line 1")

    monkeypatch.setattr(engine.api.Search, "run", broken)
    body = problem(client.post("/v1/search", json=search_body()), 500)
    text = str(body)
    assert "secret" not in text and "Traceback" not in text and "api.py" not in text


@pytest.mark.parametrize("move, field", [({"cell": [0], "tile": 2}, "move.cell"),
                                         ({"cell": [0, 1], "tile": 2, "p": 1}, "move.p"),
                                         ({"cell": [0, 1]}, "move.tile"), ([0, 1], "move")])
def test_a_malformed_chance_move_is_named(client, move, field):
    state = {"board": [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], "to_move": "chance"}
    unprocessable(client.post("/v1/games/2048/apply", json={"state": state, "move": move}), field)


def test_a_chunked_body_over_max_content_length_is_413():
    app = make_app(MAX_CONTENT_LENGTH=1000)
    body = json.dumps(search_body(state={"board": ["." * 19] * 19, "pad": "x" * 2000})).encode()
    response = app.test_client().post("/v1/search", input_stream=io.BytesIO(body),
                                      headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
                                      environ_overrides={"wsgi.input_terminated": True})
    problem(response, 413)


@pytest.mark.parametrize("game, state", [("tictactoe", '{"board": %s}'), ("connect4", '{"moves": %s}'),
                                         ("2048", '{"board": %s}'), ("tree", '{"root": {"value": %s}}'),
                                         ("tree", '{"root": %s}')])
def test_deep_json_that_decodes_is_still_only_a_422(client, game, state):
    deep = "[" * 15_000 + "]" * 15_000
    body = '{"game": "%s", "algorithm": {"name": "minimax"}, "state": %s}' % (game, state % deep)
    assert any(k.startswith("state") for k in problem(post_raw(client, body), 422)["errors"])


@pytest.mark.parametrize("number", ["1e400", "-1E+309", "1" + "0" * 400, "-" + "9" * 320, "1" + "0" * 301 + "e10",
                                    "1" + "0" * 5000, "-" + "9" * 5000])   # beyond Python's 4300 digits (issue 34)
def test_a_number_beyond_the_floats_is_named(client, number):
    body = '{"game": "tree", "state": {"root": {"type": "max", "children": [{"value": %s}, {"value": 1}]}}, ' \
           '"algorithm": {"name": "minimax"}}' % number
    assert unprocessable(post_raw(client, body), "state.root.children[0].value") == ["Must be a finite number."]
