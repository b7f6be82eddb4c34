"""One shape for every game (issue 50, item 8): ``{}`` is the start where a game has one, a finished game is
described by ``result`` in every game, the legal moves come once, an unknown setting's message names every
setting taken, a review's judge defaults to ``auto``, and another game's ``eval`` is a problem that says
whose route it is. Every answer is checked against the spec by the ``client`` fixture."""
import pytest

import engine.api
from engine.registry import game_type

STARTING = [game for game in engine.api.GAME_MODULES if game_type(game).starts]

# A finished game of each game: (state, the winner, the reason).
FINISHED = {
    "tree": ({"root": {"value": 3}}, "MAX", None),
    "tictactoe": ({"board": ["XXX", "OO.", "..."]}, "X", None),
    "connect4": ({"moves": "1212121"}, "X", None),
    "2048": ({"board": [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]}, None, None),
    "chess": ("7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", "white", "checkmate"),
    "checkers": ({"fen": "W:W29:B25,K22"}, "b", "White cannot move"),
    "othello": ({"board": ["WWWWWWWW"] * 7 + ["BBBBBBB."], "to_move": "B"}, "W", None),
    "pacman": ({"layout": ["%%%%%%%", "%. P G%", "%%%%%%%"]}, "Pacman", "Pacman ate all the food"),
    "backgammon": ({"points": [0] * 12 + [-15] + [0] * 11, "off": {"X": 15, "O": 0}}, "X", None),
}
PACMAN_WON_BY = ["West", "West", "West"]


def post(client, path, body, status=200):
    response = client.post(path, json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


@pytest.mark.parametrize("game", STARTING)
def test_the_empty_state_is_the_start_of_every_game_that_has_one(client, game):
    initial = engine.api.describe_game(game)["initial_state"]
    start = post(client, f"/v1/games/{game}/legal-moves", {"state": {}})
    assert start == post(client, f"/v1/games/{game}/legal-moves", {"state": initial})
    move = start["legal_moves"][0]
    applied = post(client, f"/v1/games/{game}/apply", {"state": {}, "move": move})
    assert applied == post(client, f"/v1/games/{game}/apply", {"state": initial, "move": move})
    if start["to_move"] != "chance":  # backgammon starts with a roll, which no search chooses
        searched = post(client, "/v1/search", {"game": game, "state": {}, "algorithm": {"name": "auto", "level": 1},
                                               "time_limit_ms": 100})
        assert searched["move"] in start["legal_moves"]


def test_a_tree_has_no_start_and_says_so(client):
    problem = post(client, "/v1/games/tree/legal-moves", {"state": {}}, status=422)
    assert problem["errors"]["state"] == ["tree has no start position: send the state itself "
                                          "(GET /v1/games/tree gives its state_format)"]


@pytest.mark.parametrize("game", list(FINISHED))
def test_a_finished_game_is_described_by_result_in_every_game(client, game):
    state, winner, reason = FINISHED[game]
    if game == "pacman":
        state = post(client, "/v1/games/pacman/apply", {"state": state, "moves": PACMAN_WON_BY})["state"]
    body = post(client, f"/v1/games/{game}/legal-moves", {"state": state})
    assert body["terminal"] and body["legal_moves"] == [] and set(body["utilities"]) == set(body["players"])
    assert {k: body["result"][k] for k in ("winner", "reason")} == {"winner": winner, "reason": reason}
    assert "reason" not in body and "moves" not in body
    if game == "backgammon":
        assert body["result"] == {"winner": "X", "reason": None, "kind": "gammon", "points": 2}


def test_a_game_under_way_has_no_result_and_its_legal_moves_come_once(client):
    body = post(client, "/v1/games/tictactoe/legal-moves", {"state": {"board": ["X.O", "...", "..."]}})
    assert body == {"to_move": "X", "players": ["X", "O"], "legal_moves": [1, 3, 4, 5, 6, 7, 8], "terminal": False,
                    "utilities": None, "result": None}


def test_a_tree_s_value_and_perspective_stay_max_s_at_a_min_root(client):
    """API.md fixes a tree's value as the textbook's number, MAX's utility: the perspective that names it
    is MAX at a MIN root too, and the move is MIN's best (the least of MAX's)."""
    tree = {"root": {"type": "min", "children": [{"value": 3}, {"value": -2}]}}
    body = post(client, "/v1/search", {"game": "tree", "state": tree, "algorithm": {"name": "minimax"}})
    assert (body["move"], body["value"], body["perspective"]) == (1, -2.0, "MAX")


@pytest.mark.parametrize("game, algorithm, options", [
    ("tictactoe", "minimax", []), ("2048", "expectimax", ["tile_probabilities"]),
    ("checkers", "alphabeta", ["man_move_resets", "no_progress_plies"])])
def test_an_unknown_setting_s_message_names_every_setting_taken(client, game, algorithm, options):
    module = engine.api.algorithm_module(algorithm)
    expected = sorted([*module.Settings.names(), *engine.api.EverySettings.names(), *options])
    text = f"{algorithm} takes no setting 'deepth'; it takes {expected}"
    body = {"game": game, "state": {}, "algorithm": {"name": algorithm, "deepth": 3}}
    assert post(client, "/v1/search", body, status=422)["errors"] == {"algorithm.deepth": [text]}
    assert engine.api.unknown_setting_text("algorithm", "deepth", algorithm, game) == text
    with pytest.raises(engine.api.UnknownSetting) as raised:      # the engine's own check says the same
        engine.api.settings_for(game, {"name": algorithm, "deepth": 3})
    assert raised.value.errors == {"algorithm.deepth": [text]}


def test_a_review_judges_with_auto_when_it_names_no_algorithm(client):
    body = post(client, "/v1/review", {"game": "tictactoe", "state": {}, "moves": [4, 0], "time_limit_ms": 400})
    assert body["algorithm"]["name"] == "auto" and len(body["plies"]) == 2


@pytest.mark.parametrize("game, says", [("tictactoe", "for chess alone"), ("nosuchgame", "There is no game")])
def test_another_game_s_eval_is_a_problem_that_says_whose_route_it_is(client, game, says):
    response = client.get(f"/v1/games/{game}/eval?fen=x")
    assert response.status_code == 404 and response.content_type == "application/problem+json"
    assert says in response.get_json()["detail"]
