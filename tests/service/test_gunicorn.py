"""The real server: gunicorn with service/gunicorn.conf.py and two workers on a loopback port, driven over
HTTP. Every wait is bounded."""
import os
from pathlib import Path
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
import requests

from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse

from tests.service.support import FIGURE_5_2, validators

ROOT = Path(__file__).resolve().parents[2]
BOOT_SECONDS = 30
BIG_BOARD = {"board": ["." * 7] * 7, "k": 4}  # minimax cannot finish this: it runs until its deadline


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    """A running gunicorn; yields (base URL, process). Stopped (and reaped) at the end, whatever happened."""
    port = free_port()
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "WEB_CONCURRENCY": "2",
           "MAX_TIME_LIMIT_MS": "5000", "DEFAULT_TIME_LIMIT_MS": "1000"}
    log = open(tmp_path / "gunicorn.log", "wb")
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "service/gunicorn.conf.py",
                                "--bind", f"127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(base, process)
        yield base, process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        log.close()


def wait_until_ready(base: str, process) -> None:
    """Both workers answer /readyz (two sync workers: two requests in flight at once both succeed)."""
    deadline = time.monotonic() + BOOT_SECONDS
    while time.monotonic() < deadline:
        assert process.poll() is None, "gunicorn exited during start-up"
        try:
            if requests.get(f"{base}/readyz", timeout=2).status_code == 200:
                # Warm both workers' imports of the engine, so that timings below are of searches alone.
                warm = [threading.Thread(target=search, args=(base, 300)) for _ in range(2)]
                for t in warm:
                    t.start()
                for t in warm:
                    t.join(timeout=10)
                return
        except (requests.ConnectionError, requests.Timeout):  # not up yet, or too busy to answer in 2 s
            pass
        time.sleep(0.1)
    raise AssertionError("gunicorn did not become ready in time")


def search(base: str, time_limit_ms: int, state=BIG_BOARD, game="tictactoe", algorithm=None):
    body = {"game": game, "state": state, "algorithm": algorithm or {"name": "minimax"},
            "time_limit_ms": time_limit_ms}
    return requests.post(f"{base}/v1/search", json=body, timeout=time_limit_ms / 1000 + 10)


def metric(text: str, name: str, **labels) -> float:
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith(f"{name}{{{wanted}}} "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


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
