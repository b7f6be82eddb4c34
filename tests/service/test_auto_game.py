"""A whole Connect Four game over HTTP against the real server, as a front end would play it: ``auto`` at
full strength against ``auto`` at level 1, using only ``/v1/search`` and ``/v1/games/connect4/apply``."""
import pytest
import requests

from engine.search.auto import LEVELS
from tests.service.test_gunicorn import server  # noqa: F401  (the fixture: a running gunicorn)

TIME_LIMIT_MS = 100
SIDES = ({"name": "auto"}, {"name": "auto", "level": 1, "seed": 5})


def post(url, body):
    reply = requests.post(url, json=body, timeout=30)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_auto_plays_a_full_game_against_level_1(server):  # noqa: F811
    base, _ = server
    state = {"moves": ""}
    position = {"terminal": False, "legal_moves": list(range(7))}     # the empty board
    plies = 0
    while not position["terminal"]:
        algorithm = SIDES[plies % 2]
        answer = post(f"{base}/v1/search", {"game": "connect4", "state": state, "algorithm": algorithm,
                                            "time_limit_ms": TIME_LIMIT_MS})
        assert answer["move"] in position["legal_moves"]
        assert answer["algorithm"]["name"] == "auto"
        assert answer["algorithm"]["chosen"]["name"] in ("alphabeta", "mcts")
        assert (answer["algorithm"]["handicap"] is None) == ("level" not in algorithm)
        position = post(f"{base}/v1/games/connect4/apply", {"state": state, "move": answer["move"]})
        state = position["state"]
        plies += 1
        assert plies <= 42
    assert set(position["utilities"]) == {"X", "O"}
    assert sorted(position["utilities"].values()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("algorithm, field", [
    ({"name": "auto", "level": 0}, "algorithm.level"),
    ({"name": "auto", "level": 11}, "algorithm.level"),
    ({"name": "auto", "level": "5"}, "algorithm.level"),
    ({"name": "alphabeta", "level": 5}, "algorithm.level"),      # a level belongs to auto only
    ({"name": "auto", "depth": 4}, "algorithm.depth"),
])
def test_a_bad_level_or_setting_is_a_422_naming_its_field(client, algorithm, field):
    response = client.post("/v1/search", json={"game": "connect4", "state": {"moves": "44"},
                                                "algorithm": algorithm, "time_limit_ms": 100})
    assert response.status_code == 422 and response.content_type == "application/problem+json"
    assert field in response.get_json()["errors"]


def test_the_response_says_what_auto_chose(client):
    response = client.post("/v1/search", json={"game": "connect4", "state": {"moves": "44"},
                                                "algorithm": {"name": "auto", "level": 3, "seed": 1},
                                                "time_limit_ms": 200})
    body = response.get_json()
    assert response.status_code == 200
    assert body["algorithm"]["name"] == "auto" and body["algorithm"]["level"] == 3
    assert body["algorithm"]["chosen"]["name"] == "alphabeta" and body["algorithm"]["chosen"]["depth"] == LEVELS[3].depth
    assert body["algorithm"]["handicap"]["level"] == 3
