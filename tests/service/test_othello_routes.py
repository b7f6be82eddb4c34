"""Othello through the service: the rules routes, a solved endgame and the 422s, each naming its field
(every response is checked against the spec by the validating client)."""
import pytest

from tests.service.test_bad_inputs import unprocessable

START = ["........", "........", "........", "...WB...", "...BW...", "........", "........", "........"]
ENDGAME = {"board": ["WWWWWWWW", "WBBBBBWW", "WBWBWWBW", "WBBWBWBW", "WBWBBBWW", "WBBBWB..", "W.BBBB..",
                     "WWWWWW.W"], "to_move": "B"}


def test_legal_moves_and_apply_speak_squares(client):
    response = client.post("/v1/games/othello/legal-moves", json={"state": {}})
    assert response.status_code == 200
    assert response.get_json() == {"to_move": "B", "players": ["B", "W"], "legal_moves": ["d3", "c4", "f5", "e6"],
                                   "terminal": False, "utilities": None, "result": None}
    response = client.post("/v1/games/othello/apply", json={"state": {}, "move": "f5"})
    body = response.get_json()
    assert response.status_code == 200 and body["to_move"] == "W"
    assert body["state"] == {"board": START[:4] + ["...BBB..", "........", "........", "........"],
                             "to_move": "W"}


def test_a_solved_endgame_reports_the_disc_difference(client):
    response = client.post("/v1/search", json={"game": "othello", "state": ENDGAME,
                                               "algorithm": {"name": "alphabeta"}, "time_limit_ms": 5000})
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["move"] in ("g6", "h6") and body["perspective"] == "B"
    assert body["value"] == -44 and body["outcome"] == "loss"
    assert body["plies_to_end"] == len(body["pv"]) and body["stats"]["stop_reason"] == "solved"


def test_a_depth_limited_search_from_the_start(client):
    response = client.post("/v1/search", json={"game": "othello", "state": {"to_move": "B"},
                                               "algorithm": {"name": "alphabeta", "depth": 3}})
    body = response.get_json()
    assert response.status_code == 200 and body["move"] in ("d3", "c4", "f5", "e6")
    assert -1 < body["value"] < 1 and body["outcome"] is None


@pytest.mark.parametrize("state, field", [
    ({"board": ["........"] * 8, "to_move": "B"}, "state.board"),                         # no discs at all
    ({"board": START[:3] + ["...WB...."] + START[4:], "to_move": "B"}, "state.board[3]"),  # a row of 9
    ({"board": START[:4] + ["...bw..."] + START[5:], "to_move": "B"}, "state.board[4]"),  # not B, W or .
    ({"board": START[:7], "to_move": "B"}, "state.board"),                                # 7 rows
    ({"board": START, "to_move": "black"}, "state.to_move"),
    ({"board": START}, "state.to_move"),
])
def test_bad_states_are_422_naming_the_field(client, state, field):
    for route, body in (("/v1/games/othello/legal-moves", {"state": state}),
                        ("/v1/search", {"game": "othello", "state": state, "algorithm": {"name": "mcts"}})):
        unprocessable(client.post(route, json=body), field)


@pytest.mark.parametrize("move, message", [
    ("pass", "may not pass"),            # a pass while a move exists
    ("d9", "is not a move"),             # malformed
    ("e4", "not a legal move"),          # occupied
    ("a1", "not a legal move"),          # brackets nothing
])
def test_bad_moves_are_422_naming_the_move(client, move, message):
    messages = unprocessable(client.post("/v1/games/othello/apply", json={"state": {}, "move": move}), "move")
    assert any(message in m for m in messages)


def test_a_search_of_a_finished_game_is_422(client):
    over = {"board": ["WWWWWWWW"] * 7 + ["BBBBBBB."], "to_move": "W"}
    unprocessable(client.post("/v1/search", json={"game": "othello", "state": over,
                                                  "algorithm": {"name": "alphabeta"}}), "state")
