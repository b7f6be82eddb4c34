"""Issue 53: every search answer carries the searched position's ``position_key`` (engine: Game.position_key),
through the app and its served spec: equal for the same position in any form and on either core, different
for another position."""
import pytest

from tests.service.support import ValidatingClient, make_app

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def key(client, game, state, algorithm=None):
    response = client.post("/v1/search", json={"game": game, "state": state,
                                               "algorithm": algorithm or {"name": "alphabeta", "depth": 1}})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["position_key"]


def test_a_chess_position_has_its_polyglot_key_in_every_form(client):
    assert key(client, "chess", AFTER_E4) == key(client, "chess", {"moves": ["e2e4"]}) == \
        key(client, "chess", {"moves": "e4"}) == "823c9b50fd114196"
    assert key(client, "chess", {}) == "463b96181691fc9c"


@pytest.mark.parametrize("core", ["python", "native"])
def test_the_key_is_the_same_on_both_cores(client, core):
    algorithm = {"name": "alphabeta", "depth": 2, "core": core}
    assert key(client, "connect4", {"moves": "4453"}, algorithm) == key(client, "connect4", {"moves": "4453"})


def test_connect4_s_moves_and_board_give_one_key_and_another_position_another(client):
    board = [".......", ".......", ".......", ".......", "...O...", "..OXX.."]
    assert key(client, "connect4", {"moves": "4453"}) == key(client, "connect4", {"board": board})
    assert key(client, "connect4", {"moves": "4453"}) != key(client, "connect4", {"moves": "4454"})


def test_every_search_of_a_batch_carries_it(client):
    searches = [{"game": "tictactoe", "state": {"board": ["X..", "...", "..."]}, "algorithm": {"name": "minimax"}}]
    batch = client.post("/v1/search/batch", json={"searches": searches * 2}).get_json()["results"]
    assert batch[0]["position_key"] == batch[1]["position_key"] == key(client, "tictactoe", searches[0]["state"])
