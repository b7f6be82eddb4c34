"""Issue 17, in process: inputs that once broke the service's promises (a 500, a late answer, a body read
wrongly), and admission control. The same against a real gunicorn: test_abuse_gunicorn.py."""
import gzip
import json
import threading
import time

import orjson
import pytest

from engine.registry import game_type
from engine.search import fitting_algorithms
from service.admission import admission
from service.fairness import fairness
from tests.engine.strategies import BIGGEST
from tests.service.support import ValidatingClient, make_app
from tests.service.test_bad_inputs import problem

# 80,000 leaves, under the 1 MiB body limit: flat (one node of 80,000 children) and nested.
FLAT = {"root": {"type": "max", "children": [{"value": i % 7} for i in range(80_000)]}}
NESTED = {"root": {"type": "max", "children": [
    {"type": "min", "children": [{"value": (i * j) % 7} for j in range(80)]} for i in range(1000)]}}
BOARD_19 = {"board": ["." * 19] * 19, "k": 5}
MARGIN_S = 0.025  # README: the whole response comes within the time limit plus 25 ms


def post(client, body):
    """POST /v1/search of ``body``, a dict or its JSON already encoded (so as not to time the encoding)."""
    data = body if isinstance(body, str) else json.dumps(body, separators=(",", ":"))
    return client.post("/v1/search", data=data, content_type="application/json")


def best_of(times: int, call) -> tuple:
    """The cheapest of ``times`` calls: (seconds of this process's CPU, response). CPU time, not wall
    time: on a shared machine the wall clock measures the other tenants too, while what must fit in the
    margin is this server's own work (decoding, reading, searching, serialising). The real-server tests
    and bench/ measure the wall clock."""
    runs = []
    for _ in range(times):
        started = time.process_time()
        response = call()
        runs.append((time.process_time() - started, response))
    return min(runs, key=lambda run: run[0])


@pytest.mark.parametrize("value", [1e308, BIGGEST, -BIGGEST])
def test_mcts_on_huge_leaf_values_answers_200(client, value):
    """Issue 17 #1: a leaf of 1e308 next to 0 was a 500 ("a search produced NaN")."""
    tree = {"root": {"type": "max", "children": [{"value": value}, {"value": 0},
                                                 {"type": "chance", "children": [{"value": 1.7e308},
                                                                                 {"value": -1.7e308}]}]}}
    response = post(client, {"game": "tree", "state": tree, "algorithm": {"name": "mcts", "iterations": 200}})
    assert response.status_code == 200, response.get_data(as_text=True)


@pytest.mark.parametrize("tree", [FLAT, NESTED], ids=["flat", "nested"])
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "expectimax", "maxn", "mcts"])
def test_a_tree_as_big_as_the_body_limit_admits_answers_within_its_limit(app, tree, algorithm):
    """Issue 17 #3: an 80,000-leaf tree with a 1 ms limit answered after about 250 ms. Reading the tree
    polls the deadline; the answer is then the root's first move. (Timed with the plain test client: the
    validating one copies and checks the body too.)"""
    client = app.test_client()
    body = json.dumps({"game": "tree", "state": tree, "algorithm": {"name": algorithm}, "time_limit_ms": 1},
                      separators=(",", ":"))
    assert len(body) < 1 << 20
    seconds, response = best_of(5, lambda: post(client, body))
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["stats"]["timed_out"] is True and answer["move"] == 0
    # Decoding a megabyte of JSON takes what it takes on this CPU (3-5 ms on a quick idle one; several
    # times that on a slow or shared one): everything else must fit in the margin.
    decoding, _ = best_of(5, lambda: orjson.loads(body))
    assert seconds <= 0.001 + MARGIN_S + decoding, (seconds, decoding)


def test_a_trace_is_bounded_in_bytes_and_time():
    """Issue 17 #3: 19 x 19 minimax with a trace at 100 ms answered 110-395 ms late with a 5 MB body.
    Issue 54: a trace past MAX_TRACE_BYTES was cut short and sent as if whole; it is a 422 naming it."""
    client = make_app(MAX_TRACE_BYTES=64 * 1024).test_client()
    body = json.dumps({"game": "tictactoe", "state": BOARD_19, "algorithm": {"name": "minimax"},
                       "time_limit_ms": 100, "trace": True})
    seconds, response = best_of(5, lambda: post(client, body))
    assert response.status_code == 422
    assert "MAX_TRACE_BYTES (65536" in response.get_json()["errors"]["trace"][0]
    assert seconds <= 0.100 + MARGIN_S, seconds


@pytest.mark.parametrize("name", ["minimax", "expectimax", "maxn", "auto"])
def test_writing_a_full_trace_fits_in_the_time_limit(name):
    """Issue 34 #2: with the default 256 KiB cap, a trace of 19 x 19 paths at 500 ms answered 51-227 ms
    late (megabytes collected, sent from the search's process and only then cut). By the wall clock (the
    search runs in a process of its own, whose CPU time :func:`best_of` does not see), and against the
    same search without a trace, so that a busy machine slows both alike. The trace's own caps are raised
    out of reach: the time to write it is what stops it (below them, a trace past a cap is a 422)."""
    client = make_app(MAX_TRACE_BYTES=1 << 30, MAX_TRACE_ENTRIES=10**9).test_client()
    request = {"game": "tictactoe", "state": BOARD_19, "algorithm": {"name": name}, "time_limit_ms": 500}
    plain = fastest_answer(client, request)
    traced = fastest_answer(client, dict(request, trace=True))
    assert traced <= plain + MARGIN_S, (traced, plain)


def fastest_answer(client, request: dict, times: int = 2) -> float:
    """The shortest of ``times`` wall-clock answers to ``request``, each a 200."""
    body, runs = json.dumps(request), []
    for _ in range(times):
        started = time.perf_counter()
        response = post(client, body)
        runs.append(time.perf_counter() - started)
        assert response.status_code == 200
    return min(runs)


def test_a_gzip_body_is_415(client):
    """Issue 17 #5: a compressed body was read as plain (and a real one was a 400)."""
    raw = gzip.compress(json.dumps({"game": "tree", "state": {}, "algorithm": {"name": "minimax"}}).encode())
    response = client.post("/v1/search", data=raw, content_type="application/json",
                           headers={"Content-Encoding": "gzip"})
    assert "Content-Encoding" in problem(response, 415)["detail"]


def test_2048_cells_take_integers_written_as_floats(client):
    """Issue 17 #5: a cell of 2.0 was a 422, although integer fields take 8.0 elsewhere."""
    board = [[2.0, 4.0, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    response = client.post("/v1/games/2048/legal-moves", json={"state": {"board": board}})
    assert response.status_code == 200 and response.get_json()["legal_moves"]


def test_every_game_lists_the_algorithms_that_fit_it(client):
    """Issue 17 #5: GET /v1/games/2048 omitted maxn, which runs."""
    listed = client.get("/v1/games/2048").get_json()["algorithms"]
    assert "maxn" in listed and listed == fitting_algorithms(game_type("2048"))
    for game in client.get("/v1/games").get_json()["games"]:
        assert game["algorithms"] == fitting_algorithms(game_type(game["id"]))


def test_searches_beyond_the_waiting_bound_are_refused_at_once():
    """Issue 17 #6: one search runs, MAX_WAITING_SEARCHES wait, the next is a 503 with Retry-After, at
    once; when the slot frees, searches are admitted again."""
    app = make_app(SEARCHES_PER_WORKER=1, MAX_WAITING_SEARCHES=1)
    client = ValidatingClient(app)
    gate = admission(app)
    body = {"game": "tictactoe", "state": {"board": ["..."] * 3}, "algorithm": {"name": "minimax", "depth": 1},
            "time_limit_ms": 5000}
    answers = []
    with gate.search(60):  # the running search
        waiting = threading.Thread(target=lambda: answers.append(post(app.test_client(), body)))
        waiting.start()
        deadline = time.monotonic() + 5
        while gate.waiting < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        started = time.perf_counter()
        refused = post(client, body)
        assert time.perf_counter() - started < 0.5
        problem(refused, 503)
        assert int(refused.headers["Retry-After"]) >= 1
        assert client.get("/livez").status_code == 200
    waiting.join(timeout=10)
    assert answers[0].status_code == 200
    assert post(client, body).status_code == 200


def test_a_search_arriving_while_another_runs_gets_a_slot_of_its_own():
    """The starving-client bench: a victim's search that landed on the worker where a hog's 10 s search
    ran waited for the one slot until its own deadline, and answered with what a millisecond finds. With
    SEARCHES_PER_WORKER (default 2) slots it runs at once, beside the long one."""
    app = make_app()
    gate = admission(app)
    quick = {"game": "tictactoe", "state": {"board": ["..."] * 3}, "algorithm": {"name": "minimax", "depth": 1},
             "time_limit_ms": 6000}
    with gate.search(60):  # the hog's search, running
        assert gate.running == 1
        started = time.perf_counter()
        answer = post(ValidatingClient(app), quick)
        assert answer.status_code == 200
        assert time.perf_counter() - started < 3.0  # waiting for the slot would take the whole 6 s
        assert answer.get_json()["stats"]["timed_out"] is False
    assert gate.running == 0


def test_draining_refuses_searches_and_readiness():
    app = make_app()
    client = ValidatingClient(app)
    admission(app).drain()
    problem(client.get("/readyz"), 503)
    body = {"game": "tictactoe", "state": {"board": ["..."] * 3}, "algorithm": {"name": "minimax"}}
    problem(post(client, body), 503)
    assert client.get("/livez").status_code == 200


def test_a_client_over_its_share_of_concurrent_searches_gets_429_while_others_are_served():
    """Issue 17 #7: one client's two long searches held everyone else's. A client (its API key, else its
    address) holds at most MAX_SEARCHES_PER_CLIENT searches; another client is still admitted."""
    app = make_app(MAX_SEARCHES_PER_CLIENT=1, MAX_WAITING_SEARCHES=2, API_KEYS="hog,victim")
    client = ValidatingClient(app)
    body = {"game": "tictactoe", "state": {"board": ["..."] * 3}, "algorithm": {"name": "minimax", "depth": 1}}
    with app.test_request_context(headers={"X-API-Key": "hog"}):  # the hog's search, running
        holding = fairness(app).search(1000)
        holding.__enter__()
    try:
        over = client.post("/v1/search", json=body, headers={"X-API-Key": "hog"})
        assert int(problem(over, 429)["status"]) == 429 and int(over.headers["Retry-After"]) >= 1
        assert client.post("/v1/search", json=body, headers={"X-API-Key": "victim"}).status_code == 200
        assert client.post("/v1/search", json=body).status_code == 200  # keyed by address
    finally:
        with app.test_request_context(headers={"X-API-Key": "hog"}):
            holding.__exit__(None, None, None)
    assert client.post("/v1/search", json=body, headers={"X-API-Key": "hog"}).status_code == 200


def test_a_client_over_its_search_seconds_gets_429_and_unused_time_is_refunded():
    """A client spends at most SEARCH_SECONDS_PER_CLIENT_MINUTE a minute: each search is charged its time
    limit and refunded what it did not use."""
    client = ValidatingClient(make_app(SEARCH_SECONDS_PER_CLIENT_MINUTE=1))
    quick = {"game": "tictactoe", "state": {"board": ["..."] * 3}, "algorithm": {"name": "minimax", "depth": 1},
             "time_limit_ms": 900}
    for _ in range(5):  # each uses a millisecond or two of its 900
        assert client.post("/v1/search", json=quick).status_code == 200
    slow = {"game": "tictactoe", "state": BOARD_19, "algorithm": {"name": "minimax"}, "time_limit_ms": 900}
    assert client.post("/v1/search", json=slow).status_code == 200  # spends its 900 ms
    refused = client.post("/v1/search", json=slow)
    problem(refused, 429)
    assert 1 <= int(refused.headers["Retry-After"]) <= 60


STREAM_BODY = {"game": "tictactoe", "state": {"board": ["..."] * 3}, "algorithm": {"name": "minimax", "depth": 1},
               "time_limit_ms": 2000}


def test_a_stream_is_admitted_as_a_search_is():
    """The streaming route ran its searches outside the worker's search slot and the client's limits: a
    client over its share is refused (429), a stream beyond the waiting bound is refused (503), and a
    finished stream gives its slot and its share back."""
    app = make_app(SEARCHES_PER_WORKER=1, MAX_SEARCHES_PER_CLIENT=1, MAX_WAITING_SEARCHES=1, API_KEYS="hog")
    gate = admission(app)
    with app.test_request_context(headers={"X-API-Key": "hog"}):  # the hog's search, running
        holding = fairness(app).search(1000)
        holding.__enter__()
    try:
        over = app.test_client().post("/v1/search/stream", json=STREAM_BODY, headers={"X-API-Key": "hog"})
        problem(over, 429)
    finally:
        with app.test_request_context(headers={"X-API-Key": "hog"}):
            holding.__exit__(None, None, None)
    answers = []
    with gate.search(60):  # the running search, and one waiting for it
        waiting = threading.Thread(target=lambda: answers.append(post(app.test_client(), STREAM_BODY)))
        waiting.start()
        deadline = time.monotonic() + 5
        while gate.waiting < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        refused = app.test_client().post("/v1/search/stream", json=STREAM_BODY)
        problem(refused, 503)
        assert int(refused.headers["Retry-After"]) >= 1
    waiting.join(timeout=10)
    with app.test_client() as client:
        streamed = client.post("/v1/search/stream", json=STREAM_BODY, headers={"X-API-Key": "hog"})
        assert streamed.status_code == 200 and b"event: result" in streamed.get_data()
        streamed.close()
    assert gate.running == 0 and gate.waiting == 0
    assert post(app.test_client(), STREAM_BODY).status_code == 200
    with app.test_request_context(headers={"X-API-Key": "hog"}):
        with fairness(app).search(1000):  # the hog's share is back: this would be a 429 otherwise
            pass
