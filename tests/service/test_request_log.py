"""One JSON line per request, with the request id echoed back."""
import json
import os

import pytest

from tests.service.support import make_app

TICTACTOE = {"board": ["X.O", "...", "..."]}



@pytest.fixture
def app():
    """Keys are told apart only where the operator lists them (service/fairness.py)."""
    return make_app(API_KEYS="k1,k2")


def test_a_search_logs_one_line_with_its_game_algorithm_and_nodes(client, figure_5_2, lines):
    response = client.post("/v1/search", json={"game": "tree", "state": figure_5_2,
                                               "algorithm": {"name": "alphabeta", "move_ordering": False,
                                                             "transposition_table": False}},
                           headers={"X-Request-ID": "abc-123", "X-API-Key": "k1"})
    assert response.headers["X-Request-ID"] == "abc-123"
    (line,) = lines()
    assert line["request_id"] == "abc-123" and line["route"] == "/v1/search" and line["status"] == 200
    assert (line["game"], line["algorithm"], line["nodes"], line["timed_out"]) == ("tree", "alphabeta", 11, False)
    assert line["client"].startswith("key:") and line["duration_ms"] >= 0
    assert "k1" not in json.dumps(line)      # the API key is a secret: the limits' digest of it is logged


def test_every_request_of_one_client_logs_the_same_key_and_another_client_another(client, lines):
    for key in ("k1", "k1", "k2"):
        client.get("/v1/games/tictactoe", headers={"X-API-Key": key})
    first, again, other = (line["client"] for line in lines())
    assert first == again != other


def test_a_rules_call_logs_its_game(client, lines):
    response = client.post("/v1/games/tictactoe/legal-moves", json={"state": TICTACTOE})
    assert response.status_code == 200
    (line,) = lines()
    assert line["route"] == "/v1/games/<game>/legal-moves" and line["game"] == "tictactoe" and "nodes" not in line


def test_an_error_and_a_missing_id_are_logged_too(client, lines):
    response = client.post("/v1/search", json={"game": "chess?"}, headers={"X-Request-ID": "bad id"})
    generated = response.headers["X-Request-ID"]
    assert response.status_code == 422 and generated != "bad id" and len(generated) == 32
    (line,) = lines()
    assert line["request_id"] == generated and line["status"] == 422 and "game" not in line
    assert line["client"].startswith("addr:")


STREAMED = {"game": "connect4", "state": {"moves": "4453"}, "algorithm": {"name": "alphabeta", "depth": 5},
            "time_limit_ms": 10000}


def test_a_streamed_search_logs_one_line_with_its_figures_when_the_stream_ends(client, lines):
    response = client.post("/v1/search/stream", json=STREAMED, headers={"X-Request-ID": "s-1"})
    body = response.get_data(as_text=True)
    result = json.loads(body.rsplit("data: ", 1)[1])
    response.close()  # as a WSGI server does once it has sent the body
    (line,) = lines()
    assert line["request_id"] == "s-1" and line["route"] == "/v1/search/stream" and line["status"] == 200
    assert (line["game"], line["algorithm"], line["timed_out"]) == ("connect4", "alphabeta", False)
    assert line["nodes"] == result["stats"]["nodes"] > 0
    assert line["duration_ms"] >= result["stats"]["time_ms"]  # the line waited for the stream


def test_a_stream_the_client_leaves_logs_the_cancelled_search(client, lines):
    endless = {"game": "tictactoe", "state": {"board": ["." * 7] * 7, "k": 4}, "algorithm": {"name": "minimax"},
               "time_limit_ms": 10000}
    response = client.post("/v1/search/stream", json=endless, buffered=False)
    assert next(response.response).startswith(b": keep-alive")  # the search runs
    assert lines() == []                                       # its line waits for the stream
    response.close()
    (line,) = lines()
    assert (line["route"], line["game"], line["algorithm"]) == ("/v1/search/stream", "tictactoe", "minimax")
    assert line["nodes"] > 0 and line["timed_out"] is True and line["duration_ms"] < 5000


def test_a_stream_refused_before_it_starts_logs_at_once(client, lines):
    response = client.post("/v1/search/stream", json={**STREAMED, "algorithm": {"name": "alphabeta", "depth": 0}})
    assert response.status_code == 422
    (line,) = lines()
    assert line["route"] == "/v1/search/stream" and line["status"] == 422 and "nodes" not in line


def test_new_request_ids_are_unique_within_a_process_and_across_a_fork():
    from service.request_log import NEW_IDS
    ids = {NEW_IDS.next() for _ in range(1000)}
    assert len(ids) == 1000 and all(len(i) == 32 and int(i, 16) >= 0 for i in ids)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a worker forked from the arbiter draws a prefix of its own
        os.write(write, NEW_IDS.next().encode())
        os._exit(0)
    os.waitpid(pid, 0)
    child_id = os.read(read, 64).decode()
    assert child_id not in ids and child_id[:16] != NEW_IDS.next()[:16]


def test_by_default_each_line_is_written_to_standard_error_in_one_write(monkeypatch):
    """With only its own handler (the server's set-up), the line skips the log record: the same bytes."""
    from service import request_log
    read, write = os.pipe()
    monkeypatch.setattr(request_log.DEFAULT_HANDLER, "fd", write)
    monkeypatch.setattr(request_log.LOGGER, "handlers", [request_log.DEFAULT_HANDLER])
    monkeypatch.setattr(request_log.LOGGER, "propagate", False)
    os.set_blocking(read, False)  # nothing written fails at once (BlockingIOError) instead of waiting forever
    request_log.write({"request_id": "r1", "status": 200}, started=0.0, search={"nodes": 11})
    line = json.loads(os.read(read, 4096))
    assert line["request_id"] == "r1" and line["nodes"] == 11 and line["duration_ms"] > 0
