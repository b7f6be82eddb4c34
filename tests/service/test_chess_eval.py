"""GET /v1/games/chess/eval: Lichess's cloud-eval shape, admitted and bounded as a search (issue 35)."""
from urllib.parse import urlencode

import chess
import pytest

from tests.service.test_bad_inputs import unprocessable

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"


def evaluate(client, **query):
    return client.get("/v1/games/chess/eval?" + urlencode(query))


def test_a_mate_in_one_in_lichess_s_shape(client):
    response = evaluate(client, fen=MATE_IN_ONE, time_limit_ms=500)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["fen"] == MATE_IN_ONE and body["pvs"] == [{"moves": "d1d8", "mate": 1}]
    assert isinstance(body["knodes"], int) and isinstance(body["depth"], int)


def test_multi_pv_gives_distinct_first_moves_best_first(client):
    body = evaluate(client, fen=MATE_IN_ONE, multi_pv=3, time_limit_ms=900).get_json()
    assert len(body["pvs"]) == 3 and body["pvs"][0] == {"moves": "d1d8", "mate": 1}
    firsts = [pv["moves"].split()[0] for pv in body["pvs"]]
    assert len(set(firsts)) == 3
    board = chess.Board(MATE_IN_ONE)
    for pv in body["pvs"]:
        play = board.copy()
        for move in pv["moves"].split():
            assert chess.Move.from_uci(move) in play.legal_moves
            play.push_uci(move)
        assert ("cp" in pv) != ("mate" in pv)
    scores = [pv.get("cp", 0) for pv in body["pvs"][1:]]
    assert scores == sorted(scores, reverse=True)


def test_black_to_move_is_scored_from_white_s_side(client):
    body = evaluate(client, fen=MATE_IN_ONE.replace(" w ", " b "), time_limit_ms=300).get_json()
    assert body["pvs"][0]["cp"] > 300                     # White is a rook up, whoever moves


def test_the_time_limit_bounds_the_eval(client):
    import time
    started = time.perf_counter()
    assert evaluate(client, fen=chess.STARTING_FEN, multi_pv=2, time_limit_ms=300).status_code == 200
    assert time.perf_counter() - started < 1.5


@pytest.mark.parametrize("query, field", [
    ({"fen": "not a fen"}, "fen"),
    ({"fen": "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"}, "fen"),
    ({"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}, "fen"),          # stalemate: nothing to evaluate
    ({}, "fen"),
    ({"fen": MATE_IN_ONE, "multi_pv": 6}, "multi_pv"),
    ({"fen": MATE_IN_ONE, "multi_pv": "x"}, "multi_pv"),
    ({"fen": MATE_IN_ONE, "time_limit_ms": 10 ** 9}, "time_limit_ms"),
    ({"fen": MATE_IN_ONE, "depth": 3}, "depth"),
])
def test_bad_queries_are_422_naming_the_field(client, query, field):
    unprocessable(evaluate(client, **query), field)


def test_black_s_mate_is_negative_and_every_line_is_scored_from_white_s_side(client):
    black_mates = "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"          # Rd1#
    body = evaluate(client, fen=black_mates, multi_pv=2, time_limit_ms=900).get_json()
    assert body["pvs"][0] == {"moves": "d8d1", "mate": -1}
    assert body["pvs"][1]["cp"] < -300                   # Black is a rook up whatever it plays
