"""``POST /v1/review`` and its stream, through the app (every answer checked against the spec)."""
import random
import time

import chess
import pytest

from service.admission import admission
from tests.service.readme_examples import parse_events
from tests.service.support import ValidatingClient, make_app

SCHOLARS_MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"
TICTACTOE = {"game": "tictactoe", "state": {"board": ["...", "...", "..."]}, "moves": [4, 1, 0, 8, 2],
             "algorithm": {"name": "alphabeta"}}


def test_a_tictactoe_game_s_blunders_and_summary(client):
    body = client.post("/v1/review", json=TICTACTOE).get_json()
    assert [p["class"] for p in body["plies"]] == ["best", "blunder", "best", "best", "blunder"]
    assert body["summary"]["O"]["classes"] == {"best": 1, "good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert body["judge"]["measure"] == "win_probability" and body["judge"]["blunder"] == 0.15
    assert body["stats"]["searches"] == 6 and body["players"] == ["X", "O"]


def test_a_pgn_s_known_blunder_is_marked_with_san(client):
    body = client.post("/v1/review", json={"game": "chess", "pgn": SCHOLARS_MATE, "algorithm": {"name": "alphabeta"},
                                           "time_limit_ms": 1500}).get_json()
    by_san = {p["san"]: p for p in body["plies"]}
    assert by_san["Nf6"]["class"] == "blunder" and by_san["Nf6"]["value_after"] == -100.0
    assert by_san["Qxf7#"]["class"] == "best" and by_san["Qxf7#"]["outcome_before"] == "win"
    assert body["summary"]["black"]["classes"]["blunder"] >= 1
    assert body["summary"]["white"]["accuracy"] > body["summary"]["black"]["accuracy"]


def test_the_stream_sends_each_ply_then_the_answer_of_the_plain_route(client):
    response = client.post("/v1/review/stream", json=TICTACTOE)
    assert response.mimetype == "text/event-stream"
    events = parse_events(response.get_data(as_text=True))
    assert [name for name, _ in events] == ["ply"] * 5 + ["result"]
    plain = client.post("/v1/review", json=TICTACTOE).get_json()
    result = events[-1][1]
    assert [data for _, data in events[:-1]] == result["plies"] == plain["plies"]
    assert result["summary"] == plain["summary"]


def test_the_whole_review_keeps_to_its_time_limit(client):
    since = time.perf_counter()
    body = client.post("/v1/review", json={"game": "chess", "pgn": SCHOLARS_MATE, "algorithm": {"name": "alphabeta"},
                                           "time_limit_ms": 400}).get_json()
    elapsed = time.perf_counter() - since
    assert body["complete"] and len(body["plies"]) == 7 and body["stats"]["timed_out"]
    assert elapsed < 0.4 + 0.25, elapsed


def random_game(plies: int, seed: int) -> list:
    rng, board, moves = random.Random(seed), chess.Board(), []
    while len(moves) < plies and not board.is_game_over(claim_draw=True):
        move = rng.choice(list(board.legal_moves))
        moves.append(move.uci())
        board.push(move)
    return moves


def test_a_review_whose_time_runs_out_judges_the_plies_it_can_and_ends_by_its_limit(client):
    moves = random_game(300, seed=3)
    since = time.perf_counter()
    body = client.post("/v1/review", json={"game": "chess", "state": {"fen": chess.STARTING_FEN}, "moves": moves,
                                           "algorithm": {"name": "alphabeta"}, "time_limit_ms": 300}).get_json()
    elapsed = time.perf_counter() - since
    assert not body["complete"] and 0 < len(body["plies"]) < len(moves)
    assert [p["ply"] for p in body["plies"]] == list(range(len(body["plies"])))
    assert elapsed < 0.3 + 0.25, elapsed


@pytest.mark.parametrize("body, field", [
    ({**TICTACTOE, "moves": [4, 4]}, "moves[1]"),
    ({**TICTACTOE, "moves": []}, "moves"),
    ({**TICTACTOE, "moves": [0] * 301}, "moves"),
    ({"game": "tictactoe", "moves": [4], "algorithm": {"name": "alphabeta"}}, "state"),
    ({"game": "tictactoe", "pgn": "1. e4", "algorithm": {"name": "alphabeta"}}, "pgn"),
    ({"game": "chess", "pgn": "1. e4 e5 2. Ke3", "algorithm": {"name": "alphabeta"}}, "pgn"),
    ({"game": "chess", "pgn": "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*", "algorithm": {"name": "alphabeta"}}, "pgn"),
    ({"game": "chess", "pgn": "hello", "algorithm": {"name": "alphabeta"}}, "pgn"),
    ({"game": "chess", "pgn": SCHOLARS_MATE, "moves": ["e2e4"], "algorithm": {"name": "alphabeta"}}, "moves"),
    ({**TICTACTOE, "time_limit_ms": 120_001}, "time_limit_ms"),
    ({**TICTACTOE, "algorithm": {"name": "alphabeta", "depth": 0}}, "algorithm.depth"),
    ({"game": "2048", "state": {"board": [[2, 0, 0, 0]] + [[0] * 4] * 3}, "moves": ["up"],
      "algorithm": {"name": "alphabeta"}}, "algorithm.name"),
    ({**TICTACTOE, "state": {"board": ["XXX", "...", "..."]}}, "state.board"),
])
@pytest.mark.parametrize("route", ["/v1/review", "/v1/review/stream"])
def test_bad_input_is_a_422_naming_the_field(client, route, body, field):
    response = client.post(route, json=body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert field in response.get_json()["errors"], response.get_json()


def test_a_full_worker_refuses_a_review_at_once():
    app = make_app(SEARCHES_PER_WORKER=1, MAX_WAITING_SEARCHES=1)
    tickets = [admission(app).let_in() for _ in range(2)]       # every place, taken
    try:
        response = ValidatingClient(app).post("/v1/review", json=TICTACTOE)
        assert response.status_code == 503 and response.headers["Retry-After"]
    finally:
        for ticket in tickets:
            ticket.release()
