"""The health listener (``HEALTH_BIND``, e.g. ``0.0.0.0:8001``): ``/livez`` and ``/readyz`` answered by a
thread of gunicorn's arbiter, a process that never searches, so that a probe is answered at once however
busy the workers are (on the service's port, a worker answers between the time slices of its searches).

- ``GET /livez``: 200 ``{"status": "ok"}`` while at least one worker has reported to the arbiter within
  gunicorn's ``timeout`` (the arbiter kills a worker silent for longer); else 503.
- ``GET /readyz``: the same, 200 ``{"status": "ready"}``, and 503 from the moment the server is told to
  stop (service/lifecycle.py).
- ``HEAD`` of either: the same status, no body. Anything else: 404 or 405. Every error is problem+json.

The thread never logs, imports nor writes to a stream while it serves: a lock it held when the arbiter
forks a worker would stay locked in the worker. Each connection is served by a thread of its own, which
gives up on a client silent for ``CLIENT_TIMEOUT_SECONDS``. Workers close their inherited copy of the
listening socket (:func:`close_in_worker`). The port is for probes: keep it off the public network.
"""
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import json
import signal
import threading
import time

from service import lifecycle
from service.errors import PROBLEM_JSON, problem_body

CLIENT_TIMEOUT_SECONDS = 2.0
ROUTES = {"/livez": {"status": "ok"}, "/readyz": {"status": "ready"}}


def status(arbiter, path: str) -> tuple[int, dict]:
    """What ``GET path`` answers, from the arbiter's state: (status, body)."""
    if path not in ROUTES:
        return 404, problem_body(404, "Not Found", "The health listener serves /livez and /readyz.")
    now = time.monotonic()
    reported = [worker for worker in list(arbiter.WORKERS.values())
                if now - worker.tmp.last_update() <= arbiter.timeout]
    if not reported:
        return 503, problem_body(503, "Service Unavailable",
                                 f"No worker has reported within {arbiter.timeout} s.", kind="not-ready")
    if path == "/readyz" and lifecycle.stop_requested():
        return 503, problem_body(503, "Service Unavailable", "The server is shutting down.", kind="shutting-down")
    return 200, ROUTES[path]


def handler_for(arbiter):
    class Handler(BaseHTTPRequestHandler):
        timeout = CLIENT_TIMEOUT_SECONDS
        protocol_version = default_request_version = "HTTP/1.1"
        error_content_type = PROBLEM_JSON

        def do_GET(self):
            self.answer(*status(arbiter, self.path.split("?", 1)[0]))

        def do_HEAD(self):
            self.answer(*status(arbiter, self.path.split("?", 1)[0]), body=False)

        def method_not_allowed(self):
            self.answer(405, problem_body(405, "Method Not Allowed", "The health listener answers GET and HEAD."),
                        headers={"Allow": "GET, HEAD"})
        do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = method_not_allowed

        def answer(self, code: int, content: dict, body: bool = True, headers: dict | None = None):
            data = json.dumps(content, separators=(",", ":")).encode()
            self.send_response_only(code)
            self.send_header("Content-Type", "application/json" if code == 200 else PROBLEM_JSON)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if body:
                self.wfile.write(data)

        def send_error(self, code, message=None, explain=None):
            """http.server's own errors (a bad request line, an unsupported method): problem+json too."""
            phrase = self.responses.get(code, ("Error",))[0]
            self.close_connection = True
            self.answer(code, problem_body(code, phrase, explain or message or phrase),
                        body=self.command != "HEAD" and code >= 200 and code not in (204, 304))

        def log_message(self, format, *args):
            """Silent: see the module docstring."""
    return Handler


def start(arbiter, bind: str) -> ThreadingHTTPServer:
    """Listen on ``bind`` ("host:port") and serve on a daemon thread of the arbiter; the server."""
    host, _, port = bind.rpartition(":")
    server = ThreadingHTTPServer((host.strip("[]") or "0.0.0.0", int(port)), handler_for(arbiter))
    server.daemon_threads = True
    thread = threading.Thread(target=serve, args=(server,), name="health-listener", daemon=True)
    thread.start()
    return server


def serve(server: ThreadingHTTPServer) -> None:
    # Stop signals are for the arbiter's main thread: blocked here, they stay pending until it takes them,
    # so that lifecycle.stop_requested() sees them meanwhile.
    signal.pthread_sigmask(signal.SIG_BLOCK, lifecycle.STOP_SIGNALS)
    server.serve_forever(poll_interval=0.5)


def close_in_worker(server: ThreadingHTTPServer | None) -> None:
    """In a freshly forked worker: the inherited listening socket is the arbiter's, not this process's."""
    if server is not None:
        server.socket.close()
