"""``algorithm.multi_pv`` through the service: the answer's ``lines`` as openapi.yaml describes them, the
streamed ``info`` events carrying each iteration's lines, and bad values as 422 problems naming the field."""
import pytest

from tests.service.support import FIGURE_5_2, parse_events
from tests.service.test_stream import check_against_the_spec, streamed


def test_figure_5_2_lines_in_the_answer(client):
    response = client.post("/v1/search", json={"game": "tree", "state": FIGURE_5_2,
                                               "algorithm": {"name": "alphabeta", "multi_pv": 3}})
    assert response.status_code == 200
    lines = response.get_json()["lines"]
    assert [(line["move"], line["value"], line["bound"]) for line in lines] == \
        [("B", 3.0, "exact"), ("C", 2.0, "exact"), ("D", 2.0, "exact")]


def test_no_lines_without_multi_pv(client):
    body = client.post("/v1/search", json={"game": "tree", "state": FIGURE_5_2,
                                           "algorithm": {"name": "alphabeta"}}).get_json()
    assert "lines" not in body


def test_proven_lines_carry_their_outcome_and_score(client):
    body = client.post("/v1/search", json={"game": "tictactoe", "state": {"board": ["XX.", "OO.", "..."]},
                                           "algorithm": {"name": "alphabeta", "multi_pv": 2}}).get_json()
    first, second = body["lines"]
    assert (first["move"], first["outcome"], first["plies_to_end"], first["score"]) == (2, "win", 1, {"win_in": 1})
    assert (second["move"], second["outcome"], second["plies_to_end"]) == (5, "draw", 5)  # the block; the rest lose


def test_chess_lines_are_written_in_san_too(client):
    body = client.post("/v1/search", json={"game": "chess", "state": {"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"},
                                           "algorithm": {"name": "alphabeta", "depth": 2, "multi_pv": 2},
                                           "time_limit_ms": 5000}).get_json()
    assert body["lines"][0]["pv_san"][0] == "Rd8#" and body["lines"][0]["outcome"] == "win"
    assert len(body["lines"]) == 2 and all(len(line["pv_san"]) == len(line["pv"]) for line in body["lines"])


def test_the_stream_carries_each_iteration_s_lines(client):
    request = {"game": "connect4", "state": {"moves": "4453"},
               "algorithm": {"name": "alphabeta", "depth": 4, "multi_pv": 3}, "time_limit_ms": 10000}
    response, text = streamed(client, request)
    events = parse_events(text)
    check_against_the_spec(events)
    infos = [data for name, data in events if name == "info"]
    assert [info["depth"] for info in infos] == [1, 2, 3, 4]
    assert all(len(info["lines"]) == 3 and info["lines"][0]["move"] == info["move"] for info in infos)
    final = events[-1][1]
    assert [line["move"] for line in infos[-1]["lines"]] == [line["move"] for line in final["lines"]]


@pytest.mark.parametrize("name", ["alphabeta", "expectimax", "mcts"])
@pytest.mark.parametrize("bad", [0, 33, -2, "3", 2.5, True, [3], None])
def test_a_bad_multi_pv_is_a_422_naming_it(client, name, bad):
    response = client.post("/v1/search", json={"game": "tictactoe", "state": {"board": ["...", "...", "..."]},
                                               "algorithm": {"name": name, "multi_pv": bad, "iterations": 10}
                                               if name == "mcts" else {"name": name, "multi_pv": bad}})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert "algorithm.multi_pv" in response.get_json()["errors"]


@pytest.mark.parametrize("algorithm", [{"name": "minimax", "multi_pv": 2},
                                       {"name": "alphabeta", "multi_pv": 2, "solve": True}])
def test_multi_pv_where_it_does_not_apply_is_a_422(client, algorithm):
    response = client.post("/v1/search", json={"game": "tictactoe", "state": {"board": ["...", "...", "..."]},
                                               "algorithm": algorithm})
    assert response.status_code == 422 and "algorithm.multi_pv" in response.get_json()["errors"]
