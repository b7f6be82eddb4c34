"""Issue 17: recycling a worker (``max_requests``) drops nothing. The bench's flood and slow-client runs
met connection resets whenever a worker was recycled: a stopping gthread worker closed, unanswered, every
connection it had accepted whose request had not begun to arrive within a few milliseconds."""
import socket
import threading
import time

import psutil
import requests

from tests.service.server import BOOT_SECONDS, gunicorn
from tests.service.test_gunicorn import BIG_BOARD

LATE_S = 1.0  # well beyond the worker's wait for a new connection's first bytes (service/worker.py)


def listening(base, process):
    """The port is bound; no request is made (the test counts every one itself)."""
    port = int(base.rsplit(":", 1)[1])
    deadline = time.monotonic() + 3 * BOOT_SECONDS  # the arbiter loads the app first (preload)
    while time.monotonic() < deadline:
        assert process.poll() is None, "gunicorn exited during start-up"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("gunicorn did not bind in time")


def answer_of(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes ("" when it closed, or reset, without answering)."""
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except ConnectionResetError:
        pass
    return answer


def search(base, time_limit_ms, timeout=60, **headers):
    body = {"game": "tictactoe", "state": BIG_BOARD, "algorithm": {"name": "minimax"}, "time_limit_ms": time_limit_ms}
    return requests.post(f"{base}/v1/search", json=body, timeout=timeout, headers=headers)


def last_search_after_boot(base, time_limit_ms, timeout):
    """A worker recycled after its second search (only searches count toward ``max_requests``): its first
    (a short one, once booted) is sent here, then its second and last, a minimax search of
    ``time_limit_ms`` on a big board, in a thread. Returns the thread and the list its answer (within
    ``timeout`` seconds) is appended to."""
    assert requests.get(f"{base}/livez", timeout=60).status_code == 200
    assert search(base, 50).status_code == 200
    answers = []
    last = threading.Thread(target=lambda: answers.append(search(base, time_limit_ms, timeout)))
    last.start()
    return last, answers

def test_a_recycled_worker_answers_the_connections_it_accepted(tmp_path):
    """One worker recycled after its second request (a 1 s search). Connections that reach it meanwhile
    and send their request a second later are answered (``Connection: close``), not reset."""
    with gunicorn(tmp_path, ready=listening, args=["--max-requests-jitter", "0"], WEB_CONCURRENCY="1",
                  MAX_REQUESTS="2") as (base, _):
        last, answers = last_search_after_boot(base, time_limit_ms=1000, timeout=30)
        time.sleep(0.2)
        port = int(base.rsplit(":", 1)[1])
        late = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(4)]
        try:
            time.sleep(LATE_S)
            for sock in late:
                sock.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
            replies = [answer_of(sock) for sock in late]
        finally:
            for sock in late:
                sock.close()
        last.join(timeout=30)
        assert [r.status_code for r in answers] == [200]
        assert answers[0].headers["Connection"] == "close"  # the search was the worker's last request
        for reply in replies:
            assert reply.startswith(b"HTTP/1.1 200 "), reply[:200]
            assert b'"status":"ok"' in reply


def test_a_recycled_worker_is_replaced_at_once(tmp_path):
    """The replacement of a recycled worker serves having spent a fraction of a second of CPU: it is a fork
    of the loaded app, not a process that imports the engine again (over a second of CPU; tens of seconds
    of waiting on a busy machine, the bench's stalls)."""
    with gunicorn(tmp_path, ready=listening, args=["--max-requests-jitter", "0"], WEB_CONCURRENCY="1",
                  MAX_REQUESTS="2") as (base, process):
        for _ in range(2):  # the first worker's two searches: it is recycled
            search(base, 50, Connection="close")
        assert requests.get(f"{base}/livez", timeout=60).status_code == 200  # served by the replacement
        arbiter, deadline = psutil.Process(process.pid), time.monotonic() + 30
        while len(arbiter.children()) > 1 and time.monotonic() < deadline:  # the retired worker exits
            time.sleep(0.05)
        [replacement] = arbiter.children()
        cpu = replacement.cpu_times()
        assert cpu.user + cpu.system < 0.5, cpu


def test_a_retiring_worker_is_replaced_while_it_finishes_its_search(tmp_path):
    """The flood bench's 7 s refusals: a worker that reaches ``max_requests`` finishes its searches with
    its listener closed, and gunicorn forked its replacement only when it exited; with every worker
    retiring at once, new connections waited in the listen backlog for a search's length. The replacement
    now starts when the worker begins to retire: a health check is answered while the last search runs,
    and once the retired worker has exited the server is back to its one worker."""
    with gunicorn(tmp_path, ready=listening, args=["--max-requests-jitter", "0"], WEB_CONCURRENCY="1",
                  MAX_REQUESTS="2") as (base, process):
        last, answers = last_search_after_boot(base, time_limit_ms=10000, timeout=60)
        arbiter = psutil.Process(process.pid)
        while len(arbiter.children()) < 2 and last.is_alive():
            time.sleep(0.05)
        assert last.is_alive(), "no replacement was started while the retiring worker searched"
        livez = requests.get(f"{base}/livez", timeout=60)
        assert livez.status_code == 200
        assert last.is_alive(), "the health check was answered only after the search"
        last.join(timeout=60)
        assert [r.status_code for r in answers] == [200]
        deadline = time.monotonic() + 30
        while len(arbiter.children()) != 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.5)  # the arbiter would have forked a second worker by now if it still counted two
        assert len(arbiter.children()) == 1


def test_only_searches_count_toward_max_requests(tmp_path):
    """The flood bench recycled its workers mid-flood: gunicorn counted every request toward
    ``max_requests``, refusals and health checks too, though only searches grow a worker's memory. Health
    checks, cheap requests and refused searches now leave the worker in place; its searches recycle it."""
    with gunicorn(tmp_path, ready=listening, args=["--max-requests-jitter", "0"], WEB_CONCURRENCY="1",
                  MAX_REQUESTS="2") as (base, process):
        arbiter = psutil.Process(process.pid)
        assert requests.get(f"{base}/livez", timeout=60).status_code == 200
        [worker] = arbiter.children()
        for _ in range(5):
            assert requests.get(f"{base}/livez", timeout=60).status_code == 200
            assert requests.get(f"{base}/v1/games/tictactoe", timeout=60).status_code == 200
            assert search(base, "bad").status_code == 422
        assert arbiter.children() == [worker] and worker.is_running()
        assert search(base, 50).status_code == 200
        last = search(base, 50)  # the second search: the worker's last
        assert last.status_code == 200 and last.headers["Connection"] == "close"
        worker.wait(timeout=60)
        assert requests.get(f"{base}/livez", timeout=60).status_code == 200  # served by the replacement
