"""The real server: gunicorn with service/gunicorn.conf.py and two workers on a loopback port, driven over
HTTP. Every wait is bounded."""
import signal
import threading
import time

import pytest
import requests

from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse

from tests.service.server import gunicorn, wait_until_ready
from tests.service.support import FIGURE_5_2, validators

BIG_BOARD = {"board": ["." * 7] * 7, "k": 4}  # minimax cannot finish this: it runs until its deadline


@pytest.fixture
def server(tmp_path):
    """A running gunicorn with two workers, both warm; yields (base URL, process)."""
    # Every request comes from one address: the per-client limit on concurrent searches is set out of the way.
    with gunicorn(tmp_path, ready=wait_until_warm, MAX_TIME_LIMIT_MS=5000, MAX_SEARCHES_PER_CLIENT=100) as running:
        yield running


def wait_until_warm(base: str, process) -> None:
    """Both workers answer (two sync workers: two requests in flight at once both succeed), with their
    imports of the engine warm, so that timings below are of searches alone."""
    wait_until_ready(base, process)
    warm = [threading.Thread(target=search, args=(base, 300)) for _ in range(2)]
    for t in warm:
        t.start()
    for t in warm:
        t.join(timeout=10)


def search(base: str, time_limit_ms: int, state=BIG_BOARD, game="tictactoe", algorithm=None):
    body = {"game": game, "state": state, "algorithm": algorithm or {"name": "minimax"},
            "time_limit_ms": time_limit_ms}
    return requests.post(f"{base}/v1/search", json=body, timeout=time_limit_ms / 1000 + 10)


def metric(text: str, name: str, **labels) -> float:
    """The sum of the samples of ``name`` whose labels include ``labels`` (others, such as ``core``, may
    take any value)."""
    wanted = {f'{k}="{v}"' for k, v in labels.items()}
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{"):
            sample_labels, value = line[len(name) + 1:].rsplit("} ", 1)
            if wanted <= set(sample_labels.split(",")):
                total += float(value)
    return total


def checker(base: str):
    """A function that validates a response of this server against the spec the server serves."""
    openapi, _ = validators(requests.get(f"{base}/openapi.yaml", timeout=5).text)

    def check(response):
        openapi.validate_response(RequestsOpenAPIRequest(response.request), RequestsOpenAPIResponse(response))
        return response
    return check


def test_the_real_server(server):
    base, process = server
    check = checker(base)

    # A search.
    response = check(search(base, 1000, state=FIGURE_5_2, game="tree", algorithm={"name": "alphabeta"}))
    assert response.status_code == 200
    assert (response.json()["move"], response.json()["value"]) == ("B", 3.0)

    # A search that runs out of time answers within its limit + 25 ms (best of three: the machine is shared).
    elapsed = []
    for _ in range(3):
        started = time.perf_counter()
        response = check(search(base, 300))
        elapsed.append(time.perf_counter() - started)
        assert response.status_code == 200 and response.json()["stats"]["timed_out"] is True
    assert min(elapsed) <= 0.325, elapsed

    # An error.
    response = check(requests.post(f"{base}/v1/search", data="{", headers={"Content-Type": "application/json"},
                                   timeout=5))
    assert response.status_code == 400
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["status"] == 400

    # Metrics from both workers: while one worker is busy with a long search, the other answers the game
    # list; a single scrape must then count both.
    before = check(requests.get(f"{base}/metrics", timeout=5)).text
    long_search = {}
    busy = threading.Thread(target=lambda: long_search.update(response=search(base, 1500)))
    busy.start()
    time.sleep(0.3)
    for _ in range(5):
        assert check(requests.get(f"{base}/v1/games/tree", timeout=5)).status_code == 200
    busy.join(timeout=15)
    assert check(long_search["response"]).status_code == 200
    after = check(requests.get(f"{base}/metrics", timeout=5)).text
    games = {"method": "GET", "route": "/v1/games/<game>", "status": "200"}
    searches = {"method": "POST", "route": "/v1/search", "status": "200"}
    assert metric(after, "tactician_http_requests_total", **games) - metric(before, "tactician_http_requests_total", **games) == 5
    assert metric(after, "tactician_http_requests_total", **searches) - metric(before, "tactician_http_requests_total", **searches) == 1
    ttt = {"game": "tictactoe", "algorithm": "minimax"}
    assert metric(after, "tactician_search_timeouts_total", **ttt) >= 5
    assert metric(after, "tactician_search_nodes_total", **ttt) > 0

    # SIGTERM during a search: the search completes, then the server exits cleanly.
    running = {}
    worker = threading.Thread(target=lambda: running.update(response=search(base, 1500)))
    worker.start()
    time.sleep(0.4)
    process.send_signal(signal.SIGTERM)
    worker.join(timeout=15)
    assert check(running["response"]).status_code == 200
    assert running["response"].json()["stats"]["timed_out"] is True
    assert process.wait(timeout=20) == 0
