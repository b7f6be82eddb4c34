"""Issue 53: a search may restrict its root to ``search_moves`` or leave out ``exclude_moves`` (UCI's
``go searchmoves``, KataGo's ``allowMoves``/``avoidMoves``; engine/root.py). Through the app and its served
spec (every answer is validated against it): the answer is the best allowed move's, and a move the state
does not allow, or a restriction that allows none, is a 422 naming the field and the move."""
import json

import pytest

from tests.service.support import ValidatingClient, make_app

CONNECT4 = {"game": "connect4", "state": {"moves": "4453"}, "algorithm": {"name": "alphabeta", "depth": 6}}
MATE = {"game": "chess", "state": "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "algorithm": {"name": "alphabeta", "depth": 3}}


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


@pytest.mark.parametrize("core", ["python", "native"])
def test_search_moves_restricts_the_root(client, core):
    body = {**CONNECT4, "algorithm": {**CONNECT4["algorithm"], "core": core}, "search_moves": [0, 6]}
    response = client.post("/v1/search", json=body)
    answer = response.get_json()
    assert response.status_code == 200, answer
    assert answer["move"] in (0, 6) and {m["move"] for m in answer["moves"]} == {0, 6}
    assert answer["pv"][0] == answer["move"]


@pytest.mark.parametrize("algorithm", [{"name": "minimax", "depth": 3}, {"name": "mcts", "iterations": 300},
                                       {"name": "alphabeta", "depth": 3}, {"name": "auto"}])
def test_exclude_moves_leaves_out_the_mate_in_every_algorithm(client, algorithm):
    free = client.post("/v1/search", json={**MATE, "algorithm": algorithm}).get_json()
    assert free["move"] == "a1a8"
    response = client.post("/v1/search", json={**MATE, "algorithm": algorithm, "exclude_moves": ["Ra8#"]})
    answer = response.get_json()
    assert response.status_code == 200, answer
    assert answer["move"] != "a1a8" and "a1a8" not in {m["move"] for m in answer["moves"]}


def test_a_restricted_search_answers_for_the_allowed_moves_alone(client):
    """Searching only f2f3 and h2h3 in the mate position: neither mates, so no win is claimed."""
    answer = client.post("/v1/search", json={**MATE, "search_moves": ["f2f3", "h3"]}).get_json()
    assert answer["move"] in ("f2f3", "h2h3") and answer["outcome"] is None


def test_a_single_allowed_move_is_answered_as_forced(client):
    answer = client.post("/v1/search", json={**CONNECT4, "search_moves": [2]}).get_json()
    assert answer["move"] == 2 and answer["stats"]["stop_reason"] == "forced"


@pytest.mark.parametrize("restriction, field, named", [
    ({"search_moves": [0, 9]}, "search_moves[1]", "9"),
    ({"exclude_moves": ["e4"]}, "exclude_moves[0]", "'e4'"),
    ({"search_moves": []}, "search_moves", None),
    ({"exclude_moves": list(range(7))}, "exclude_moves", None),
    ({"search_moves": [1], "exclude_moves": [1]}, "exclude_moves", None),
    ({"search_moves": 3}, "search_moves", None),
    ({"search_moves": [[1]]}, "search_moves[0]", None),
])
def test_a_bad_restriction_is_a_422_naming_its_field(client, restriction, field, named):
    response = client.post("/v1/search", json={**CONNECT4, **restriction})
    problem = response.get_json()
    assert response.status_code == 422 and response.mimetype == "application/problem+json", problem
    assert field in problem["errors"], problem
    if named is not None:
        assert named in " ".join(problem["errors"][field])


def test_an_illegal_chess_move_is_named(client):
    response = client.post("/v1/search", json={**MATE, "search_moves": ["a1a8", "e2e4"]})
    problem = response.get_json()
    assert response.status_code == 422 and "search_moves[1]" in problem["errors"], problem
    assert "e2e4" in problem["errors"]["search_moves[1]"][0]


def test_a_batch_search_and_a_stream_take_the_restriction(client):
    response = client.post("/v1/search/batch", json={"searches": [{**CONNECT4, "search_moves": [0, 6]},
                                                                  {**CONNECT4, "exclude_moves": [3]}]})
    first, second = response.get_json()["results"]
    assert response.status_code == 200 and first["move"] in (0, 6) and second["move"] != 3
    refused = client.post("/v1/search/batch", json={"searches": [CONNECT4, {**CONNECT4, "exclude_moves": [9]}]})
    assert refused.status_code == 422 and "searches[1].exclude_moves[0]" in refused.get_json()["errors"]
    stream = client.post("/v1/search/stream", json={**CONNECT4, "search_moves": [5]})
    final = json.loads([line for line in stream.get_data(as_text=True).split("\n")
                        if line.startswith("data: ")][-1][len("data: "):])
    assert final["move"] == 5
