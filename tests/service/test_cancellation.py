"""A client that closes its connection stops its search, on a real gunicorn, on both cores and on every
route that searches; the request log's durations show it, and the freed place goes to the search waiting.

Each request is sent on a raw socket that is closed ``LEAVE_S`` after the request was sent (a stream of
one search: just after its first keep-alive, when the stream would have found out only at the next one,
0.2 s later); its search was given ``LIMIT_MS``, many times that. The log line's duration (from the
request's arrival) must end within ``MARGIN_MS`` of the client's leaving: the search stops within
milliseconds (service/departure.py polls the socket every 4 ms, the cores poll their deadline every few
hundred nodes: 10-40 ms after the client's leaving in the log on a shared 2-core machine), and the margin
is what a machine under a load of 15-19 (seven developers' tests on 2 cores) added at worst to the
scheduling of the worker's threads: it holds the whole limit (5 s) apart from its end. Before the mend a
plain search, a batch or a review ran its whole limit; a stream ran 0.2-0.4 s on (to the write of its
next keep-alive), within this margin, so the stream's case checks that it stops, not how soon."""
import json
import socket
import time

import pytest
import requests

from tests.service.server import logged, one_search_slot

LIMIT_MS = 5000
LEAVE_S = 0.3
MARGIN_MS = 1000
# A 7x7 four-in-a-row board: a minimax far from done after seconds, which reports no progress.
ENDLESS_STATE = {"board": ["." * 7] * 7, "k": 4}


def endless(core: str) -> dict:
    return {"game": "tictactoe", "state": ENDLESS_STATE, "algorithm": {"name": "minimax", "core": core},
            "time_limit_ms": LIMIT_MS}


def review(core: str) -> dict:
    return {"game": "connect4", "state": {"moves": ""}, "moves": [3, 3, 3, 3],
            "algorithm": {"name": "alphabeta", "core": core}, "time_limit_ms": LIMIT_MS}


ROUTES = {
    "/v1/search": endless,
    "/v1/search/stream": endless,
    "/v1/search/batch": lambda core: {"searches": [endless(core), endless(core)]},
    "/v1/search/batch/stream": lambda core: {"searches": [endless(core), endless(core)]},
    "/v1/review": review,
    "/v1/review/stream": review,
}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server, warmed up by a search on each core (a fresh search process's first search pays for
    what a warm one has done), and its log file."""
    with one_search_slot(tmp_path_factory.mktemp("cancellation")) as served:
        for core in ("native", "python"):
            warm = {**endless(core), "algorithm": {"name": "minimax", "depth": 2, "core": core}}
            assert requests.post(f"{served[0]}/v1/search", json=warm, timeout=60).status_code == 200
        yield served


def send(base: str, route: str, body: dict, request_id: str, padding: int = 0) -> socket.socket:
    """``body`` (and ``padding`` spaces) posted to ``route`` on a raw connection, left open."""
    host, port = base.removeprefix("http://").split(":")
    data = json.dumps(body).encode() + b" " * padding
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(f"POST {route} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                 f"X-Request-ID: {request_id}\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
    return sock


def leave_after(sock: socket.socket, seconds: float) -> float:
    """Close ``sock`` ``seconds`` from now; the milliseconds waited."""
    time.sleep(seconds)
    sock.close()
    return seconds * 1000


def leave_after_a_keep_alive(sock: socket.socket) -> float:
    """Close ``sock`` as soon as its stream has sent its first keep-alive; the milliseconds waited."""
    since, seen = time.perf_counter(), b""
    while b": keep-alive" not in seen:
        seen += sock.recv(65536)
    sock.close()
    return (time.perf_counter() - since) * 1000


@pytest.mark.parametrize("core", ["native", "python"])
@pytest.mark.parametrize("route", list(ROUTES))
def test_a_client_that_leaves_stops_its_search(served, route, core):
    base, log_path = served
    request_id = f"leave-{route.strip('/').replace('/', '-')}-{core}"
    sock = send(base, route, ROUTES[route](core), request_id)
    left_ms = leave_after_a_keep_alive(sock) if route == "/v1/search/stream" else leave_after(sock, LEAVE_S)
    line = logged(log_path, request_id)
    assert line["duration_ms"] < left_ms + MARGIN_MS, line
    assert line["status"] == (200 if route.endswith("/stream") else 499)
    if "stop_reason" in line:  # the stopped search answered in time for its figures to be logged
        assert line["stop_reason"] == "cancelled"


def test_a_compiled_search_in_a_search_process_stops_too(served):
    """A body too big for the worker to read (service/body.py's INLINE_BYTES) is searched in a search
    process, on the compiled core there: the stop signal reaches it through its wakeup descriptor."""
    base, log_path = served
    leave_after(send(base, "/v1/search", endless("native"), "leave-big-native", padding=64 * 1024), LEAVE_S)
    line = logged(log_path, "leave-big-native")
    assert line["duration_ms"] < LEAVE_S * 1000 + MARGIN_MS, line
    assert (line["status"], line["stop_reason"]) == (499, "cancelled")


@pytest.mark.parametrize("core", ["native", "python"])
def test_the_freed_place_goes_to_the_search_waiting(served, core):
    base, log_path = served
    first = send(base, "/v1/search", endless(core), f"first-{core}")
    time.sleep(0.05)  # the first holds the only slot; the second waits for it
    waiting = {**endless(core), "time_limit_ms": 2000}
    second = send(base, "/v1/search", {**waiting, "algorithm": {"name": "minimax", "depth": 2, "core": core}},
                  f"second-{core}")
    leave_after(first, LEAVE_S)
    second.settimeout(10)
    answer = b""
    while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
        chunk = second.recv(65536)
        if not chunk:
            break
        answer += chunk
    second.close()
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert body["stats"]["stop_reason"] == "completed"  # it ran once the first had left, not when it ended
    line = logged(log_path, f"second-{core}")
    assert line["duration_ms"] < (LEAVE_S - 0.05) * 1000 + MARGIN_MS + 1000, line
    assert requests.get(f"{base}/readyz", timeout=10).status_code == 200
