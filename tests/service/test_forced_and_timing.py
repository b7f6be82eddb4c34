"""Issue 35: a single legal move is answered at once (stop_reason "forced") on both cores unless the
request asks for the analysis; a seeded MCTS whose time runs out before its iterations says so."""
import pytest

from tests.service.support import ValidatingClient, make_app

CONNECT4_ONE_COLUMN = {"board": ["XOXOXO.", "XOXOXO.", "OXOXOXO", "OXOXOXO", "XOXOXOX", "XOXOXOX"]}


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def search(client, body):
    response = client.post("/v1/search", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def one_move_tictactoe(client):
    """A tic-tac-toe position (not over) with exactly one empty cell."""
    state = {"board": ["XOX", "XOO", "OX."]}
    legal = client.post("/v1/games/tictactoe/legal-moves", json={"state": state}).get_json()
    assert legal["moves"] == [8] and not legal["terminal"]
    return state


@pytest.mark.parametrize("core", ["native", "python"])
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "mcts", "expectimax", "auto"])
def test_a_forced_move_is_answered_at_once(client, core, algorithm):
    state = one_move_tictactoe(client)
    body = search(client, {"game": "tictactoe", "state": state, "time_limit_ms": 5000,
                           "algorithm": {"name": algorithm, "core": core}})
    assert body["move"] == 8 and body["stats"]["stop_reason"] == "forced" and body["stats"]["nodes"] == 2
    assert body["stats"]["time_ms"] < 100 and not body["stats"]["timed_out"]
    assert body["outcome"] == "draw" and body["plies_to_end"] == 1 and body["value"] == 0.0  # X fills the last cell


def test_a_forced_move_without_an_end_takes_the_static_evaluation(client):
    body = search(client, {"game": "connect4", "state": CONNECT4_ONE_COLUMN, "time_limit_ms": 5000,
                           "algorithm": {"name": "alphabeta"}})
    assert body["move"] == 6 and body["stats"]["stop_reason"] == "forced" and body["outcome"] is None
    assert [(m["move"], m["bound"]) for m in body["moves"]] == [(6, "estimate")] and -1 < body["value"] < 1


def test_the_analysis_of_a_forced_move_searches(client):
    state = one_move_tictactoe(client)
    body = search(client, {"game": "tictactoe", "state": state,
                           "algorithm": {"name": "minimax", "forced_move_search": True}})
    assert body["stats"]["stop_reason"] != "forced" and body["stats"]["nodes"] == 2
    assert client.post("/v1/search", json={"game": "tictactoe", "state": state, "algorithm": {
        "name": "minimax", "forced_move_search": 1}}).status_code == 422


@pytest.mark.parametrize("core", ["native", "python"])
def test_a_seeded_mcts_out_of_time_says_so(client, core):
    body = search(client, {"game": "connect4", "state": {"moves": "4453"}, "time_limit_ms": 30,
                           "algorithm": {"name": "mcts", "seed": 1, "iterations": 10_000_000, "core": core}})
    stats = body["stats"]
    assert stats["timed_out"] and stats["stop_reason"] == "time_limit" and stats["iterations"] < 10_000_000


def test_a_tree_is_searched_even_with_one_move(client):
    tree = {"root": {"type": "max", "children": [{"type": "min", "children": [{"value": 3}, {"value": 5}]}]}}
    body = search(client, {"game": "tree", "state": tree, "algorithm": {"name": "minimax"}})
    assert body["value"] == 3.0 and body["stats"]["stop_reason"] == "completed" and body["stats"]["nodes"] == 4
