"""Backgammon through the service: both kinds of node, and bad input answered 422 naming the field."""
import pytest

from tests.service.test_bad_inputs import unprocessable

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]


def test_chance_node_then_player_node(client):
    chance = client.post("/v1/games/backgammon/legal-moves", json={"state": {}})
    assert chance.status_code == 200
    body = chance.get_json()
    assert body["to_move"] == "chance" and len(body["moves"]) == 21 and "6-5" in body["moves"]
    rolled = client.post("/v1/games/backgammon/apply", json={"state": {}, "move": "3-1"}).get_json()
    assert rolled["to_move"] == "X" and rolled["state"]["dice"] == [3, 1] and "8/5 6/5" in rolled["moves"]
    played = client.post("/v1/games/backgammon/apply", json={"state": rolled["state"], "move": "8/5 6/5"})
    assert played.status_code == 200 and played.get_json()["to_move"] == "chance"
    search = client.post("/v1/search", json={"game": "backgammon", "state": rolled["state"],
                                              "algorithm": {"name": "expectimax", "depth": 1}})
    assert search.status_code == 200 and search.get_json()["move"] == "8/5 6/5"


def test_searching_a_chance_node_is_422(client):
    response = client.post("/v1/search", json={"game": "backgammon", "state": {},
                                                "algorithm": {"name": "expectimax", "depth": 1}})
    unprocessable(response, "state")


@pytest.mark.parametrize("state, field", [
    ({"points": [16] + START[1:]}, "state.points[0]"),                       # 16 checkers on one point
    ({"points": START, "bar": {"X": 1, "O": 0}}, "state.points"),            # 16 X checkers in all
    ({"points": [[2, -2]] + START[1:]}, "state.points[0]"),                  # both colours on one point
    ({"points": START, "dice": [7, 1]}, "state.dice[0]"),                    # a die out of 1-6
    ({"points": START, "dice": [1, 0]}, "state.dice[1]"),
    ({"points": START, "bar": {"X": -1, "O": 0}}, "state.bar.X"),
])
def test_bad_states(client, state, field):
    unprocessable(client.post("/v1/games/backgammon/legal-moves", json={"state": state}), field)


def test_bad_plays(client):
    rolled = {"points": START, "dice": [3, 1]}
    unprocessable(client.post("/v1/games/backgammon/apply", json={"state": rolled, "move": "24/18"}), "move")
    unprocessable(client.post("/v1/games/backgammon/apply", json={"state": rolled, "move": "pass"}), "move")
    # dice null: a chance node, where the moves are rolls
    unprocessable(client.post("/v1/games/backgammon/apply", json={"state": {"points": START},
                                                                  "move": "8/5 6/5"}), "move")


def test_forward_pruning_is_checked_by_the_schema(client):
    response = client.post("/v1/search", json={"game": "backgammon", "state": {"dice": [3, 1]},
                                                "algorithm": {"name": "expectimax", "forward_pruning": -1}})
    unprocessable(response, "algorithm.forward_pruning")
