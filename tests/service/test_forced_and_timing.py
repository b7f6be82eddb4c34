"""Issue 35: a single legal move is answered after a short search (stop_reason "forced", at most 50 ms of
the time limit) on both cores unless the request asks for the analysis; a seeded MCTS whose time runs out
before its iterations says so."""
import pytest

from tests.service.support import ValidatingClient, make_app

LEGAL_S_MATE = {"fen": "r2qkb1r/pp2nppp/3p1N2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R b KQkq - 2 1"}  # gxf6 forced
QUIET_FORCED = {"fen": "7k/8/8/6p1/6P1/8/1r6/K7 w - - 0 1"}  # Kxb2 is White's only move; not provable fast


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
    assert legal["legal_moves"] == [8] and not legal["terminal"]
    return state


@pytest.mark.parametrize("core, algorithm", [(core, name) for core in ("native", "python")
                                             for name in ("minimax", "alphabeta", "mcts", "auto")]
                         + [("python", "expectimax")])
def test_a_forced_move_is_answered_at_once(client, core, algorithm):
    state = one_move_tictactoe(client)
    body = search(client, {"game": "tictactoe", "state": state, "time_limit_ms": 5000,
                           "algorithm": {"name": algorithm, "core": core}})
    assert body["move"] == 8 and body["stats"]["stop_reason"] == "forced" and body["stats"]["nodes"] >= 1
    assert body["stats"]["time_ms"] < 200 and not body["stats"]["timed_out"]
    assert body["value"] == 0.0  # X fills the last cell: a draw
    if algorithm != "expectimax":  # which proves no results
        assert body["outcome"] == "draw" and body["plies_to_end"] == (None if algorithm == "mcts" else 1)


@pytest.mark.parametrize("algorithm", ["alphabeta", "mcts"])
def test_a_forced_move_s_short_search_gives_its_value(client, algorithm):
    body = search(client, {"game": "chess", "state": LEGAL_S_MATE, "time_limit_ms": 5000,
                           "algorithm": {"name": algorithm}})
    assert body["move"] == "g7f6" and body["stats"]["stop_reason"] == "forced" and body["stats"]["time_ms"] < 200
    if algorithm == "alphabeta":  # mated in one after it
        assert body["outcome"] == "loss" and body["score"] == {"mate": -1} and body["win_probability"] == 0.0


def test_a_forced_move_is_answered_in_50_ms_where_the_search_would_take_all(client):
    body = search(client, {"game": "chess", "state": QUIET_FORCED, "time_limit_ms": 3000,
                           "algorithm": {"name": "alphabeta"}})
    assert body["move"] == "a1b2" and body["stats"]["stop_reason"] == "forced"
    assert body["stats"]["time_ms"] < 200 and body["stats"]["nodes"] > 2


def test_the_analysis_of_a_forced_move_searches(client):
    state = one_move_tictactoe(client)
    body = search(client, {"game": "tictactoe", "state": state,
                           "algorithm": {"name": "minimax", "forced_move_search": True}})
    assert body["stats"]["stop_reason"] != "forced" and body["stats"]["nodes"] == 2  # searched to the end
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
