"""A real gunicorn (service/gunicorn.conf.py) on a loopback port, for tests that need HTTP itself:
streaming, disconnects, signals, a browser. Every wait is bounded; the server is stopped and reaped
whatever happened."""
from contextlib import contextmanager
import json
import os
from pathlib import Path
import socket
import subprocess
import sys
import time

import requests

ROOT = Path(__file__).resolve().parents[2]
BOOT_SECONDS = 60  # on a busy shared machine, loading the app alone has taken 20-30 s


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_ready(base: str, process) -> None:
    """A worker answers /readyz (on a loaded machine a worker may take seconds to boot)."""
    deadline = time.monotonic() + BOOT_SECONDS
    while time.monotonic() < deadline:
        assert process.poll() is None, "gunicorn exited during start-up"
        try:
            if requests.get(f"{base}/readyz", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise AssertionError("gunicorn did not become ready in time")


@contextmanager
def gunicorn(log_dir: Path, ready=wait_until_ready, args=(), **settings):
    """Yields ``(base URL, process)`` of a server started with ``settings`` (environment variables) and
    gunicorn's command-line ``args`` over two workers and test-sized time limits, once ``ready(base,
    process)`` has returned."""
    port = free_port()
    metrics_dir = log_dir / "metrics"
    metrics_dir.mkdir(exist_ok=True)
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "WEB_CONCURRENCY": "2",
           "MAX_TIME_LIMIT_MS": "10000", "DEFAULT_TIME_LIMIT_MS": "1000",
           **{k: str(v) for k, v in settings.items()}}
    with open(log_dir / "gunicorn.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "service/gunicorn.conf.py",
                                    "--bind", f"127.0.0.1:{port}", *args], cwd=ROOT, env=env, stdout=log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            ready(base, process)
            yield base, process
        finally:
            stop(process)


@contextmanager
def one_search_slot(log_dir: Path):
    """Yields ``(base URL, log file)`` of a server of one worker with one search slot (what a search left
    running would hold), with per-client limits generous enough for a module's searches from one address
    (they have tests of their own)."""
    limits = {"MAX_SEARCHES_PER_CLIENT": 4, "SEARCH_SECONDS_PER_CLIENT_MINUTE": 3600}
    with gunicorn(log_dir, WEB_CONCURRENCY=1, SEARCHES_PER_WORKER=1, **limits) as (base, _):
        yield base, log_dir / "gunicorn.log"


def stop(process) -> None:
    """Terminate a server process and reap it; kill it if it takes longer than 20 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def logged(log_path, request_id: str, timeout_s: float = 10.0) -> dict:
    """The request log line (JSON) of ``request_id`` in the server's log, once it is written."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for text in log_path.read_text(errors="replace").splitlines():
            if text.startswith("{") and f'"request_id":"{request_id}"' in text:
                return json.loads(text)
        time.sleep(0.1)
    raise AssertionError(f"no log line for {request_id}")
