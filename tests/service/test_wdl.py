"""Issue 53: every search answer carries ``wdl``, win/draw/loss per mille for ``perspective`` (engine.scale.wdl),
through the app and its served spec (every answer is validated against it): Stockfish's model of centipawns
and ply in chess, exact for a proven result, null in the games of scale ``value``."""
import json

import pytest

from engine import scale
from tests.service.support import ValidatingClient, make_app

ROOK_UP = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 {move}"


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def search(client, game, state, algorithm):
    response = client.post("/v1/search", json={"game": game, "state": state, "algorithm": algorithm})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_chess_evaluation_is_stockfish_s_wdl_at_the_game_s_ply(client):
    early = search(client, "chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                   {"name": "alphabeta", "depth": 2})
    assert sum(early["wdl"].values()) == 1000
    assert early["wdl"] == scale.wdl(scale.PAWNS, early["value"], None, 1)


def test_the_same_evaluation_later_in_the_game_is_another_wdl(client):
    """The model reads the ply: a quiet position evaluated alike at move 1 and at move 60."""
    state = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 {move}"
    one, sixty = (search(client, "chess", state.format(move=m), {"name": "alphabeta", "depth": 1})
                  for m in (1, 60))
    assert one["value"] == sixty["value"] and one["wdl"] != sixty["wdl"]


def test_a_mate_is_a_certain_win(client):
    answer = search(client, "chess", ROOK_UP.format(move=1), {"name": "alphabeta", "depth": 3})
    assert answer["outcome"] == "win" and answer["wdl"] == {"win": 1000, "draw": 0, "loss": 0}


def test_a_solved_draw_is_a_certain_draw(client):
    answer = search(client, "tictactoe", {"board": ["...", "...", "..."]}, {"name": "alphabeta"})
    assert answer["wdl"] == {"win": 0, "draw": 1000, "loss": 0}


@pytest.mark.parametrize("game, state, algorithm", [
    ("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 6}),
    ("othello", {}, {"name": "alphabeta", "depth": 3}),
    ("checkers", {}, {"name": "alphabeta", "depth": 3}),
    ("go", {"size": 5}, {"name": "mcts", "iterations": 200, "seed": 1}),
    ("chess", {}, {"name": "mcts", "iterations": 200, "seed": 1}),
])
def test_a_heuristic_value_is_split_as_its_win_probability(client, game, state, algorithm):
    answer = search(client, game, state, algorithm)
    wdl = answer["wdl"]
    assert sum(wdl.values()) == 1000
    assert abs((wdl["win"] + wdl["draw"] / 2) / 1000 - answer["win_probability"]) <= 0.001


def test_games_without_a_win_probability_have_no_wdl(client):
    answer = search(client, "2048", {"board": [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]},
                    {"name": "expectimax", "depth": 1})
    assert answer["wdl"] is None and answer["win_probability"] is None


def test_the_stream_s_result_carries_the_wdl(client):
    response = client.post("/v1/search/stream", json={"game": "connect4", "state": {"moves": "44"},
                                                      "algorithm": {"name": "alphabeta", "depth": 4}})
    final = json.loads([line for line in response.get_data(as_text=True).split("\n")
                        if line.startswith("data: ")][-1][len("data: "):])
    assert sum(final["wdl"].values()) == 1000
