"""Issue 17: health out of band, and readiness that turns 503 the moment the server is told to stop.
Through a real gunicorn (service/gunicorn.conf.py) with the health listener on a port of its own
(``HEALTH_BIND``, service/health_listener.py). Every wait is bounded."""
import json
import signal
import threading
import time

import psutil
import pytest
import requests

from tests.service.server import free_port, gunicorn
from tests.service.test_abuse_gunicorn import problem_of, raw
from tests.service.test_gunicorn import search, wait_until_warm


@pytest.fixture
def health_port():
    return free_port()


def stopped(process: psutil.Process) -> None:
    """Until ``process`` has really stopped (SIGSTOP takes effect when it next runs)."""
    deadline = time.monotonic() + 10
    while process.status() != psutil.STATUS_STOPPED:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_the_health_listener_answers_from_the_arbiter(tmp_path, health_port):
    """/livez and /readyz on the health port while every search slot is busy; errors are problem+json."""
    with gunicorn(tmp_path, ready=wait_until_warm, HEALTH_BIND=f"127.0.0.1:{health_port}", SEARCHES_PER_WORKER=1,
                  MAX_SEARCHES_PER_CLIENT=100) as (base, _):
        health = f"http://127.0.0.1:{health_port}"
        busy = [threading.Thread(target=search, args=(base, 3000)) for _ in range(4)]
        for t in busy:
            t.start()
        time.sleep(0.5)
        for path, body in (("/livez", {"status": "ok"}), ("/readyz", {"status": "ready"})):
            response = requests.get(health + path, timeout=10)
            assert (response.status_code, response.json()) == (200, body)
            assert response.headers["Content-Type"] == "application/json"
            assert requests.head(health + path, timeout=10).status_code == 200
        for t in busy:
            t.join(timeout=30)
        assert requests.get(f"{base}/livez", timeout=10).status_code == 200  # the service's port still has them
        port = health_port
        problem_of(raw(port, b"GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), 404)
        problem_of(raw(port, b"POST /livez HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"), 405)
        problem_of(raw(port, b"GARBAGE\r\n\r\n"), 400)


def test_readyz_is_503_as_soon_as_the_arbiter_is_sent_sigterm(tmp_path, health_port):
    """The lead's drain check: /readyz answered 200 21 ms after the SIGTERM (1 trial in 10): gunicorn's
    arbiter passes the signal on to its workers only once its main loop has handled it. Here the arbiter
    is stopped (SIGSTOP) before the SIGTERM, so that it cannot pass anything on: the window is made as wide
    as it gets. /readyz on the service's port is 503 all the same (and new searches are refused); once the
    arbiter runs again, the server drains and exits 0. Then, on the health port: 503 right after SIGTERM."""
    with gunicorn(tmp_path, HEALTH_BIND=f"127.0.0.1:{health_port}") as (base, process):
        arbiter = psutil.Process(process.pid)
        arbiter.suspend()
        stopped(arbiter)
        process.send_signal(signal.SIGTERM)
        try:
            ready = requests.get(f"{base}/readyz", timeout=10)
            assert ready.status_code == 503
            assert ready.headers["Content-Type"] == "application/problem+json"
        finally:
            arbiter.resume()
        assert process.wait(timeout=60) == 0

    for trial in range(5):
        with gunicorn(tmp_path, HEALTH_BIND=f"127.0.0.1:{health_port}") as (base, process):
            process.send_signal(signal.SIGTERM)
            ready = requests.get(f"http://127.0.0.1:{health_port}/readyz", timeout=10)
            assert ready.status_code == 503, (trial, ready.text)
            assert json.loads(ready.text)["detail"] == "The server is shutting down."
            assert process.wait(timeout=60) == 0


class StandInWorker:
    """A worker as the arbiter's table holds it: its heartbeat file's last update (monotonic seconds)."""

    def __init__(self, last_update: float):
        self.tmp = type("Tmp", (), {"last_update": staticmethod(lambda: last_update)})()


def arbiter_with(*ages: float, timeout: float = 30):
    """An arbiter whose workers last reported ``ages`` seconds ago."""
    now = time.monotonic()
    workers = {pid: StandInWorker(now - age) for pid, age in enumerate(ages, start=100)}
    return type("Arbiter", (), {"WORKERS": workers, "timeout": timeout})()


@pytest.mark.parametrize("path", ["/livez", "/readyz"])
def test_health_is_503_once_no_worker_has_reported_within_the_timeout(path):
    """The arbiter kills a worker silent for longer than its timeout, and starts another: in between, and
    while no worker is running at all, the health port must not say the server is alive."""
    from service.health_listener import status
    assert status(arbiter_with(5, 50), path)[0] == 200          # one worker still reporting is enough
    code, body = status(arbiter_with(31, 50), path)
    assert code == 503 and body["status"] == 503 and "30" in body["detail"]
    assert status(arbiter_with(), path)[0] == 503                # no worker at all
