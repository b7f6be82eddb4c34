"""Checkers through the service: a search, the rules routes in PDN, and a 422 naming the field for each
kind of bad input (the client validates every response against openapi.yaml)."""
import pytest

from tests.service.test_bad_inputs import unprocessable

FEN = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"


def test_a_search_answers_a_legal_move_in_pdn(client):
    response = client.post("/v1/search", json={"game": "checkers", "state": {"fen": FEN},
                                                "algorithm": {"name": "alphabeta", "depth": 6,
                                                              "no_progress_plies": 40},
                                                "time_limit_ms": 2000})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    legal = client.post("/v1/games/checkers/legal-moves", json={"state": {"fen": FEN}}).get_json()["legal_moves"]
    assert body["move"] in legal and body["perspective"] == "b"
    assert body["stats"]["depth_completed"] == 6


def test_the_rules_routes_speak_pdn(client):
    start = client.get("/v1/games/checkers").get_json()
    assert "no_progress_plies" in [option["name"] for option in start["options"]]
    assert {"alphabeta", "mcts", "minimax", "expectimax", "maxn"} <= set(start["algorithms"])
    body = client.post("/v1/games/checkers/apply", json={"state": start["initial_state"], "move": "11-15"})
    assert body.status_code == 200
    after = body.get_json()
    assert after["to_move"] == "w" and "22-18" in after["legal_moves"]
    assert after["state"]["board"][3] == "....b..."


def test_a_finished_game_says_why(client):
    body = client.post("/v1/games/checkers/apply",
                       json={"state": {"fen": "W:WK23,K24:BK1,K32", "history": [
                           "B:WK19,K23:BK1,K32", "W:WK19,K23:BK5,K32", "B:WK23,K24:BK5,K32",
                           "W:WK23,K24:BK1,K32", "B:WK19,K23:BK1,K32", "W:WK19,K23:BK5,K32",
                           "B:WK23,K24:BK5,K32"]}, "move": "24-19"})    # the first position, a third time
    assert body.status_code == 200, body.get_json()
    after = body.get_json()
    assert after["terminal"] and after["result"]["reason"] == "threefold repetition"
    assert after["utilities"] == {"b": 0.0, "w": 0.0}


@pytest.mark.parametrize("state, field", [
    ({"board": [".b.b.b.b"] + ["........"] * 6 + ["b......."], "to_move": "w"}, "state.board"),  # crowning row
    ({"fen": "B:W18,24:B12,K22,40"}, "state.fen"),
    ({"board": ["........"] * 8, "to_move": "x"}, "state.to_move"),
    ({"fen": "B:WK18:BK12", "history": ["B:WK18:BK8", "W:WK18:BK3"]}, "state.history[1]"),  # no step to it
])
def test_bad_states_are_422_naming_the_field(client, state, field):
    unprocessable(client.post("/v1/games/checkers/legal-moves", json={"state": state}), field)


@pytest.mark.parametrize("move, message", [
    ("11/15", "not a move in PDN"),                           # malformed
    ("24x15", "not a legal move"),                             # an illegal jump
    ("16-19", "skips a capture"),                              # a capture skipped
])
def test_bad_moves_are_422_naming_the_move(client, move, message):
    state = {"fen": "B:W18,19,27:B12,15,16"}                 # Black must take: 15x22, 15x24x31 or 16x23x32
    messages = unprocessable(client.post("/v1/games/checkers/apply", json={"state": state, "move": move}), "move")
    assert message in messages[0]


def test_a_bad_game_option_is_422(client):
    body = {"game": "checkers", "state": {}, "algorithm": {"name": "mcts", "iterations": 5,
                                                           "no_progress_plies": 0}}
    unprocessable(client.post("/v1/search", json=body), "algorithm.no_progress_plies")


def test_a_state_keeps_the_draw_options_its_history_was_written_under(client):
    """Issue 35: sending back the state that apply returned under man_move_resets false was a 422 on
    state.history[0]; the state now carries its options."""
    first = client.post("/v1/games/checkers/apply", json={"state": {}, "moves": ["11-15", "23-19"],
                                                          "options": {"man_move_resets": False}}).get_json()
    assert first["state"]["options"] == {"man_move_resets": False} and len(first["state"]["history"]) == 2
    again = client.post("/v1/games/checkers/apply", json={"state": first["state"], "move": "8-11"})
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["state"]["options"] == {"man_move_resets": False}
    assert len(again.get_json()["state"]["history"]) == 3
    search = client.post("/v1/search", json={"game": "checkers", "state": first["state"],
                                             "algorithm": {"name": "alphabeta", "depth": 2}})
    assert search.status_code == 200, search.get_json()
    default = client.post("/v1/games/checkers/apply", json={"state": {}, "move": "11-15"}).get_json()
    assert "options" not in default["state"]                         # the defaults are not written


def test_a_state_s_options_are_checked(client):
    unprocessable(client.post("/v1/games/checkers/legal-moves", json={"state": {"options": {"x": 1}}}),
                  "state.options")
    unprocessable(client.post("/v1/games/checkers/legal-moves",
                              json={"state": {"options": {"man_move_resets": 1}}}), "state.options.man_move_resets")
