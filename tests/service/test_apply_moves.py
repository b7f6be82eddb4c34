"""apply with a list of moves, answered in the request's form with its history kept (issue 35)."""
import pytest

from tests.service.test_bad_inputs import unprocessable


def apply(client, game, body):
    response = client.post(f"/v1/games/{game}/apply", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


@pytest.mark.parametrize("game, state, moves", [
    ("connect4", {"moves": "44"}, [4, 2, 3]),
    ("connect4", {"board": ["......."] * 6}, [3, 3]),
    ("tictactoe", {"board": ["...", "...", "..."]}, [4, 0, 8]),
    ("2048", {"board": [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}, ["left", {"cell": [3, 3], "tile": 2}]),
    ("othello", {"to_move": "B"}, ["d3", "c3"]),
    ("checkers", {}, ["11-15", "23-19", "8-11"]),
    ("chess", {"moves": "e4"}, ["e5", "Nf3"]),
    ("backgammon", {"dice": [6, 5]}, ["24/13", "3-1"]),
])
def test_a_list_of_moves_is_the_moves_one_by_one(client, game, state, moves):
    together = apply(client, game, {"state": state, "moves": moves})
    step = {"state": state}
    for move in moves:
        step = apply(client, game, {"state": step["state"], "move": move})
    assert together == step


def test_connect4_keeps_its_moves_string_through_a_list(client):
    body = apply(client, "connect4", {"state": {"moves": "44"}, "moves": [4, 2, 3]})
    assert body["state"]["moves"] == "44534" and len(body["state"]["board"]) == 6


def test_chess_keeps_its_history_through_captures(client):
    body = apply(client, "chess", {"state": {"moves": ["e2e4", "d7d5"]}, "moves": ["exd5", "Qxd5", "Nc3"]})
    assert body["state"]["moves"] == ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"] and body["played_san"] == "Nc3"


@pytest.mark.parametrize("game, body, field", [
    ("connect4", {"state": {"moves": "44"}, "moves": [4, 9]}, "moves[1]"),
    ("tictactoe", {"state": {"board": ["...", "...", "..."]}, "moves": [4, 4]}, "moves[1]"),
    ("tictactoe", {"state": {"board": ["XX.", "OO.", "..."]}, "moves": [2, 5]}, "moves[1]"),   # over after 2
    ("2048", {"state": {"board": [[2, 0, 0, 0]] + [[0] * 4] * 3}, "moves": ["right", {"cell": [0, 3], "tile": 2}]},
     "moves[1]"),
    ("connect4", {"state": {}, "moves": [3, None]}, "moves[1]"),
    ("2048", {"state": {}, "moves": [{"cell": [0, "x"], "tile": 2}]}, "moves[0].cell[1]"),
])
def test_a_bad_move_of_a_list_names_its_index(client, game, body, field):
    unprocessable(client.post(f"/v1/games/{game}/apply", json=body), field)
