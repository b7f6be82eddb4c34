"""Backgammon through the service: both kinds of node, and bad input answered 422 naming the field."""
import pytest

from tests.service.test_bad_inputs import unprocessable

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]


def test_chance_node_then_player_node(client):
    chance = client.post("/v1/games/backgammon/legal-moves", json={"state": {}})
    assert chance.status_code == 200
    body = chance.get_json()
    assert body["to_move"] == "chance" and len(body["legal_moves"]) == 21 and "6-5" in body["legal_moves"]
    rolled = client.post("/v1/games/backgammon/apply", json={"state": {}, "move": "3-1"}).get_json()
    assert rolled["to_move"] == "X" and rolled["state"]["dice"] == [3, 1] and "8/5 6/5" in rolled["legal_moves"]
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


# --- issue 35: a board that animates ------------------------------------------------------------------

def test_legal_moves_give_each_play_its_steps_and_position(client):
    body = client.post("/v1/games/backgammon/legal-moves", json={"state": {"dice": [6, 5]}}).get_json()
    assert [p["move"] for p in body["plays"]] == body["legal_moves"]
    run = next(p for p in body["plays"] if p["move"] == "24/18 18/13")
    assert run["steps"] == [{"from": 23, "to": 17, "hit": False}, {"from": 17, "to": 12, "hit": False}]
    assert run["state"]["points"][23] == 1 and run["state"]["points"][12] == 6 and run["state"]["to_move"] == "O"
    # O's plays, written in O's numbering, step in X's indexing: O's 24 point is points[0]
    body = client.post("/v1/games/backgammon/legal-moves", json={"state": {"dice": [6, 5], "to_move": "O"}}).get_json()
    run = next(p for p in body["plays"] if p["move"] == "24/18 18/13")
    assert run["steps"] == [{"from": 0, "to": 6, "hit": False}, {"from": 6, "to": 11, "hit": False}]
    assert run["state"]["points"][11] == -6


def test_steps_mark_hits_and_name_the_bar_and_off(client):
    state = {"points": [1] + [0] * 17 + [-1] + [0] * 5, "bar": {"X": 1, "O": 0}, "off": {"X": 13, "O": 14},
             "to_move": "X", "dice": [6, 1]}
    body = client.post("/v1/games/backgammon/legal-moves", json={"state": state}).get_json()
    play = next(p for p in body["plays"] if p["move"] == "bar/19* 19/18")
    assert play["steps"] == [{"from": "bar", "to": 18, "hit": True}, {"from": 18, "to": 17, "hit": False}]
    assert play["state"]["bar"] == {"X": 0, "O": 1}
    home = {"points": [1, 1] + [0] * 10 + [-1] + [0] * 11, "off": {"X": 13, "O": 14}, "dice": [2, 1]}
    body = client.post("/v1/games/backgammon/legal-moves", json={"state": home}).get_json()
    play = next(p for p in body["plays"] if p["move"] == "2/off 1/off")
    assert sorted(play["steps"], key=str) == sorted([{"from": 1, "to": "off", "hit": False},
                                                     {"from": 0, "to": "off", "hit": False}], key=str)
    assert play["state"]["off"]["X"] == 15


@pytest.mark.parametrize("move", ["24/18* 18/13", "24/13*", "13/8* 13/7"])
def test_a_false_hit_mark_is_refused(client, move):
    messages = unprocessable(client.post("/v1/games/backgammon/apply", json={"state": {"dice": [6, 5]},
                                                                              "move": move}), "move")
    assert "hit" in messages[0]


@pytest.mark.parametrize("o_points, o_off, kind, points", [
    ({12: -15}, 0, "gammon", 2), ({0: -15}, 0, "backgammon", 3), ({12: -14}, 1, "single", 1)])
def test_a_finished_game_says_how_it_was_won(client, o_points, o_off, kind, points):
    board = [0] * 24
    for i, n in o_points.items():
        board[i] = n
    state = {"points": board, "off": {"X": 15, "O": o_off}}
    body = client.post("/v1/games/backgammon/legal-moves", json={"state": state}).get_json()
    assert body["terminal"] and body["result"] == {"winner": "X", "reason": None, "kind": kind, "points": points}
    assert body["utilities"] == {"X": float(points), "O": -float(points)}


def test_a_search_s_play_has_its_steps(client):
    body = client.post("/v1/search", json={"game": "backgammon", "state": {"dice": [3, 1]},
                                           "algorithm": {"name": "expectimax", "depth": 1}}).get_json()
    plays = client.post("/v1/games/backgammon/legal-moves", json={"state": {"dice": [3, 1]}}).get_json()["plays"]
    assert body["steps"] == next(p["steps"] for p in plays if p["move"] == body["move"])
