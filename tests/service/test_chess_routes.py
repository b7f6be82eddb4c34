"""Chess through the HTTP API: SAN next to UCI, why a game ended, and 422s that name the field."""
import chess
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.service.test_bad_inputs import unprocessable

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"


def test_search_answers_in_uci_and_san_with_the_mate_proven(client):
    response = client.post("/v1/search", json={"game": "chess", "state": {"fen": MATE_IN_ONE},
                                               "algorithm": {"name": "alphabeta"}, "time_limit_ms": 5000})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert (body["move"], body["san"], body["outcome"], body["plies_to_end"], body["value"]) == (
        "d1d8", "Rd8#", "win", 1, 100.0)
    assert body["pv_san"] == ["Rd8#"] and body["perspective"] == "white"
    assert all("san" in mv for mv in body["moves"])


def test_legal_moves_and_apply(client):
    body = client.post("/v1/games/chess/legal-moves", json={"state": {"moves": ["e2e4"]}}).get_json()
    assert body["to_move"] == "black" and len(body["legal_moves"]) == 20 and "Nf6" in body["san"]
    body = client.post("/v1/games/chess/apply", json={"state": {"fen": MATE_IN_ONE}, "move": "d1d8"}).get_json()
    assert body["terminal"] and body["result"]["reason"] == "checkmate"
    assert body["utilities"] == {"white": 1.0, "black": -1.0}


@pytest.mark.parametrize("path, body, field", [
    ("/v1/games/chess/legal-moves", {"state": {"fen": "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"}}, "state.fen"),
    ("/v1/games/chess/legal-moves", {"state": {"fen": "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"}}, "state.fen"),
    ("/v1/games/chess/legal-moves", {"state": {"moves": ["e2e4", "e7e6", "e4e6"]}}, "state.moves[2]"),
    ("/v1/games/chess/apply", {"state": {}, "move": "e1e2"}, "move"),
    ("/v1/games/chess/apply", {"state": {}, "move": 12}, "move"),
    ("/v1/games/chess/apply", {"state": {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}, "move": "h8g8"}, "state"),
    ("/v1/search", {"game": "chess", "state": {"moves": ["f2f3", "e7e5", "g2g4", "d8h4"]},
                    "algorithm": {"name": "alphabeta"}}, "state"),
    ("/v1/games/chess/apply", {"state": {}, "move": "e2e4k"}, "move"),                # issue 34: were 500s
    ("/v1/games/chess/apply", {"state": {"fen": "8/4P3/8/8/8/8/8/k3K3 w - - 0 1"}, "move": "e7e8p"}, "move"),
    ("/v1/games/chess/legal-moves", {"state": {"moves": ["e2e4k"]}}, "state.moves[0]"),
    ("/v1/search", {"game": "chess", "state": {"moves": ["e2e4", "e7e5", "e4e5p"]},
                    "algorithm": {"name": "alphabeta"}}, "state.moves[2]"),
])
def test_bad_chess_input_is_422_naming_the_field(client, path, body, field):
    messages = unprocessable(client.post(path, json=body), field)
    assert messages and all(isinstance(m, str) and m for m in messages)


FEN_PIECES = "rnbqkpRNBQKP12345678/ -wKQkq"
near_fens = st.one_of(
    st.text(alphabet=FEN_PIECES, max_size=70),
    st.builds(lambda fen, i, c: fen[:i] + c + fen[i + 1:], st.just(chess.STARTING_FEN), st.integers(0, 55),
              st.sampled_from(list(FEN_PIECES) + ["", "99", "-1"])),
    st.sampled_from([None, 7, [], {"fen": "x"}, chess.STARTING_FEN + " extra"]))
near_moves = st.one_of(st.lists(st.one_of(st.sampled_from(["e2e4", "e7e5", "g1f3", "e1g1", "a7a8q", "0000",
                                                           "e2e4e", "E2E4", ""]), st.integers(0, 9)),
                                max_size=6),
                       st.sampled_from([None, "e2e4", {"m": 1}]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fen=near_fens, moves=near_moves, move=st.one_of(st.sampled_from(["e2e4", "e7e8q", "a1a1", "z9z9"]),
                                                         st.integers(-1, 99), st.none()))
def test_no_near_miss_chess_input_is_a_server_error(client, fen, moves, move):
    state = {"fen": fen, "moves": moves}
    for path, body in (("/v1/games/chess/legal-moves", {"state": state}),
                       ("/v1/games/chess/apply", {"state": state, "move": move}),
                       ("/v1/search", {"game": "chess", "state": state, "algorithm": {"name": "alphabeta"},
                                       "time_limit_ms": 30})):
        assert client.post(path, json=body).status_code in (200, 422)


# --- issue 35: the forms players have ----------------------------------------------------------------

def test_a_fen_string_is_a_chess_state_and_answers_carry_the_fen(client):
    body = client.post("/v1/games/chess/legal-moves", json={"state": chess.STARTING_FEN}).get_json()
    assert body["fen"] == chess.STARTING_FEN and len(body["legal_moves"]) == 20
    body = client.post("/v1/games/chess/apply", json={"state": chess.STARTING_FEN, "move": "e4"}).get_json()
    assert body["state"] == body["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert body["played_san"] == "e4" and "e5" in body["san"]
    response = client.post("/v1/search", json={"game": "chess", "state": MATE_IN_ONE,
                                                "algorithm": {"name": "alphabeta"}, "time_limit_ms": 2000})
    assert response.get_json()["move"] == "d1d8"


def test_a_string_state_of_another_game_is_a_clear_422(client):
    messages = unprocessable(client.post("/v1/games/tictactoe/legal-moves", json={"state": "X........"}), "state")
    assert "chess" in messages[0]


@pytest.mark.parametrize("body", [
    {"state": {"moves": "e4 e5"}, "move": "Nf3"},
    {"state": {"pgn": "1. e4 e5"}, "move": "g1f3"},
    {"state": {"moves": ["e2e4", "e7e5"]}, "moves": ["Nf3"]},
    {"state": {}, "moves": ["e4", "e5", "Nf3"]},
])
def test_san_pgn_move_strings_and_move_lists(client, body):
    response = client.post("/v1/games/chess/apply", json=body)
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert answer["fen"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert answer["played_san"] == "Nf3"


@pytest.mark.parametrize("body, field", [
    ({"state": {}, "move": "e4", "moves": ["e4"]}, "moves"),
    ({"state": {}}, "move"),
    ({"state": {}, "moves": []}, "moves"),
    ({"state": {}, "moves": ["e4", "e4"]}, "moves[1]"),
    ({"state": 7, "move": "e4"}, "state"),
])
def test_move_or_moves_exactly_one(client, body, field):
    unprocessable(client.post("/v1/games/chess/apply", json=body), field)
