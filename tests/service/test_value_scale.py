"""Issue 35: every search answer carries ``score`` and ``win_probability`` beside ``value`` (in the game's
own unit, which GET /v1/games documents as ``value_unit``); chess maxn's ``values`` are in pawns as its
``value`` is."""
import json

import pytest

from tests.service.support import ValidatingClient, make_app

MATE_IN_ONE = {"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"}


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def search(client, game, state, algorithm, time_limit_ms=2000):
    response = client.post("/v1/search", json={"game": game, "state": state, "algorithm": algorithm,
                                                "time_limit_ms": time_limit_ms})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_chess_mate_is_a_mate_score(client):
    body = search(client, "chess", MATE_IN_ONE, {"name": "alphabeta"})
    assert body["value"] == 100.0 and body["outcome"] == "win" and body["plies_to_end"] == 1
    assert body["score"] == {"mate": 1} and body["win_probability"] == 1.0
    for move in body["moves"]:
        assert set(move["score"]) == {"cp"} and 0.0 <= move["win_probability"] <= 1.0


def test_a_chess_evaluation_is_centipawns_with_lichess_s_win_probability(client):
    body = search(client, "chess", {}, {"name": "alphabeta", "depth": 2})
    assert body["outcome"] is None
    assert body["score"] == {"cp": round(body["value"] * 100)}
    assert 0.4 < body["win_probability"] < 0.6


def test_chess_maxn_values_are_in_pawns_as_its_value(client):
    body = search(client, "chess", {}, {"name": "maxn", "depth": 1})
    assert body["values"][0] == body["value"] and body["values"][1] == -body["value"]
    for move in body["moves"]:
        assert move["values"][0] == move["value"]


def test_a_solved_draw_and_a_heuristic_value(client):
    body = search(client, "tictactoe", {"board": ["...", "...", "..."]}, {"name": "alphabeta"})
    assert body["outcome"] == "draw" and body["score"] == {"draw": True} and body["win_probability"] == 0.5
    body = search(client, "connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 4})
    assert body["outcome"] is None and body["score"] == {"value": body["value"]}
    assert body["win_probability"] == pytest.approx((1 + body["value"]) / 2)


def test_a_proven_win_counts_plies(client):
    body = search(client, "tictactoe", {"board": ["XX.", "OO.", "..."]}, {"name": "alphabeta"})
    assert body["outcome"] == "win" and body["score"] == {"win_in": 1} and body["win_probability"] == 1.0


def test_games_without_a_probability_scale_give_null(client):
    body = search(client, "2048", {"board": [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]},
                  {"name": "expectimax", "depth": 1})
    assert body["score"] == {"value": body["value"]} and body["win_probability"] is None


def test_the_games_document_their_value_unit(client):
    for game in client.get("/v1/games").get_json()["games"]:
        assert game["value_unit"] and game["value_scale"] in ("pawns", "outcome", "value")


def test_streamed_info_events_carry_the_score(client):
    response = client.post("/v1/search/stream", json={"game": "connect4", "state": {"moves": "4453"},
                                                      "algorithm": {"name": "alphabeta", "depth": 4}})
    text = response.get_data(as_text=True)
    response.close()
    infos = [json.loads(line[len("data: "):]) for block in text.split("\n\n") if "event: info" in block
             for line in block.split("\n") if line.startswith("data: ")]
    assert infos and all(info["score"] == {"value": info["value"]} for info in infos)
