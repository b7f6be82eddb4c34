"""Tactician's gunicorn worker: gunicorn's threaded worker (``gthread``), with these changes.

- **Errors gunicorn answers itself** (a bad request line, an overlong URL or header, an unsupported
  transfer coding: before the app runs) are problem+json like every other error, not gunicorn's HTML page.
- **SIGTERM drains**: ``/readyz`` turns 503 at once and new searches are refused with 503 (the app's
  :class:`~service.admission.Admission`), while the worker keeps accepting connections until none has
  arrived for ``DRAIN_QUIET_SECONDS``, so that requests already waiting in the listen backlog are answered
  too (by 503, not by a connection reset). Then gunicorn stops the worker gracefully: the requests in hand
  finish.
- **A search is let in or refused at the door** (service/door.py): as each request arrives, the main
  thread looks at its first bytes, and a search is let in (its place counted by the app's
  :class:`~service.admission.Admission`) or, when the worker has no place left, refused there and then,
  in arrival order, without a thread, gunicorn's parser or Flask. A new connection whose request has not
  begun to arrive waits on the poller, and comes to the door when it does.
- **Only searches count toward ``max_requests``** (they are what grows a worker's memory): gthread counted
  every request, so a flood of refusals and health checks recycled the workers mid-flood.
- **A worker's memory is bounded** as its search processes' are: one over ``WORKER_MAX_RSS_MB`` as a
  response starts, even once its allocator has given back what it freed (service/memory.py), retires as at
  ``max_requests``.
- **A recycled worker is replaced at once**: a worker that reaches ``max_requests`` still finishes the
  searches it holds (up to ``MAX_TIME_LIMIT_MS``), and has stopped accepting meanwhile. gunicorn forks its
  replacement only when it exits, so when every worker retired at once, new connections waited in the
  listen backlog for seconds (the flood bench's 7 s refusals). The retiring worker asks the arbiter for
  its replacement at once (``SIGTTIN``: one worker more), leaving a note in the directory named by
  ``lifecycle.RETIRING_DIR_ENV``, which ``child_exit`` (service/gunicorn.conf.py) reads to take the extra worker
  back when it exits.
- **Slow clients do not hold threads**: a new connection waits on the poller until its request begins to
  arrive (gthread waited for it in a thread, up to 5 s), stopping or not (gthread, once the worker was
  stopping, took such a connection for a kept-alive one and closed it unanswered: a connection reset),
  and every blocking read of a request waits at most ``READ_TIMEOUT_MS`` for more bytes (SO_RCVTIMEO; the
  body reader answers 408).
- **Nor the main thread**: a connection closed gracefully (its FIN sent, then whatever the client still
  sends read until it closes, so that the close does not turn into a reset) lingers on the poller
  (:class:`Lingering`). gthread lingered on the main thread, up to 2 s for a client that never closes,
  and with it stopped every accept and every response of the worker: the slowloris bench's 10 s stall,
  after which kept-alive connections that had expired meanwhile were reset.

Threads let ``/livez``, ``/readyz`` and the other cheap routes be answered while a search runs; the
admission control of :mod:`service.admission` keeps a worker's searches to ``SEARCHES_PER_WORKER`` at
once (they are CPU-bound) and refuses, at once, those beyond its waiting line.
"""
from functools import partial
import html
import os
from pathlib import Path
import re
import selectors
import signal
import socket
import struct
import threading
import time
from typing import Any

from gunicorn.http.errors import NoMoreData
from gunicorn.workers import gthread

from service import door, lifecycle
from service.admission import ARRIVED, SEARCH_STARTED, TICKET, admission
from service.config import Settings
from service.errors import problem_text
from service.fairness import fairness
from service.memory import rss_bytes, trimmed_rss_bytes
from service.search_pool import pool_for

DRAIN_QUIET_SECONDS = 0.5
# Connections a worker takes from the listen backlog in one turn of its main loop (a burst's share, without
# leaving the other workers none).
ACCEPT_BATCH = 16
# How long a gracefully closed connection waits for its client to close, and how much it reads meanwhile
# (gunicorn's own figures for its graceful close).
LINGER_SECONDS = 2.0
LINGER_MAX_BYTES = 65536
# gunicorn's error page: its status line, and the message after the heading.
GUNICORN_ERROR = re.compile(rb"^HTTP/1\.1 (\d{3}) ([^\r]*)\r\n.*?</h1>\s*(.*?)\s*</body>", re.S)


def problem_response(raw: bytes) -> bytes:
    """gunicorn's HTML error response ``raw`` as the same error in problem+json."""
    match = GUNICORN_ERROR.match(raw)
    if match is None:
        status, title, detail = 500, "Internal Server Error", "The server failed to answer."
    else:
        status, title = int(match.group(1)), match.group(2).decode("latin-1")
        detail = html.unescape(match.group(3).decode("latin-1")) or title
    body = problem_text(status, title, detail).encode()
    head = (f"HTTP/1.1 {status} {title}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    return head + body


class ProblemSocket:
    """A client socket as gunicorn's error writer sees it: whatever it sends is rewritten by
    :func:`problem_response`. Everything else is the socket's."""

    def __init__(self, sock):
        self.sock = sock

    def sendall(self, data):
        return self.sock.sendall(problem_response(bytes(data)))

    def send(self, data):
        self.sendall(data)
        return len(data)

    def __getattr__(self, name):
        return getattr(self.sock, name)


class Lingering:
    """Connections being closed gracefully, on the worker's poller (main thread only). Each has sent its
    FIN; what its client still sends is read and dropped until the client closes, ``LINGER_MAX_BYTES``
    have come or ``LINGER_SECONDS`` have passed, and then it is closed."""

    def __init__(self, poller):
        self.poller = poller
        self.deadlines = {}  # socket: (deadline, bytes read)

    def add(self, sock) -> None:
        try:
            sock.shutdown(socket.SHUT_WR)
            sock.setblocking(False)
            self.poller.register(sock, selectors.EVENT_READ, self.readable)
        except (OSError, ValueError):
            sock.close()
            return
        self.deadlines[sock] = (time.monotonic() + LINGER_SECONDS, 0)

    def readable(self, sock) -> None:
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        deadline, read = self.deadlines[sock]
        if not data or read + len(data) >= LINGER_MAX_BYTES:
            self.close(sock)
        else:
            self.deadlines[sock] = (deadline, read + len(data))

    def expire(self) -> None:
        now = time.monotonic()
        for sock, (deadline, _) in list(self.deadlines.items()):
            if deadline <= now:
                self.close(sock)

    def close_all(self) -> None:
        """Before the worker exits: the rest, each when its client closes or its time is up (watched by a
        poller of their own: the worker's has other sockets, which nobody reads any more)."""
        for sock in self.deadlines:
            self.poller.unregister(sock)
        self.poller = selectors.DefaultSelector()
        for sock in self.deadlines:
            self.poller.register(sock, selectors.EVENT_READ, self.readable)
        while self.deadlines:
            wait = min(deadline for deadline, _ in self.deadlines.values()) - time.monotonic()
            for key, _ in self.poller.select(max(wait, 0.0)):
                self.readable(key.fileobj)
            self.expire()
        self.poller.close()

    def close(self, sock) -> None:
        del self.deadlines[sock]
        try:
            self.poller.unregister(sock)
        except (KeyError, ValueError):
            pass
        sock.close()


class Connection(gthread.TConn):
    """gthread's connection, whose graceful close lingers on the worker's poller (:class:`Lingering`), and
    whose reads end it quietly when they have waited ``READ_TIMEOUT_MS`` (:func:`read_or_end`)."""

    lingering: "Lingering | None" = None  # the worker's, given in Worker.init_process

    def init(self):
        fresh = self.parser is None
        super().init()
        if fresh and not self.is_http2:
            self.parser.unreader.chunk = partial(read_or_end, self.parser.unreader.chunk)

    def close(self, graceful=False):
        if graceful and self.lingering is not None:
            self.lingering.add(self.sock)
        else:
            super().close(graceful)


def read_or_end(read, size_hint=None) -> bytes:
    """``read(size_hint)``, a read of a connection's request; one that waited ``READ_TIMEOUT_MS`` for bytes
    (``SO_RCVTIMEO``, set by :meth:`Worker.enqueue_req`: the kernel's EAGAIN) ends the connection as
    if its client had gone, quietly. gunicorn logged each as a socket error, with a traceback: 17 of them
    in the slowloris bench's 20 s."""
    try:
        return read(size_hint)
    except BlockingIOError as stalled:
        raise NoMoreData(b"") from stalled


class Worker(gthread.ThreadWorker):
    """``worker_class = "service.worker.Worker"`` (see ``service/gunicorn.conf.py``)."""

    wsgi: Any  # gunicorn's: the app it serves, the Flask app as load_wsgi loads it (then wrapped)

    @property
    def nr(self) -> int:
        """gunicorn's count toward ``max_requests``: here, of the searches run (:meth:`count_search`)."""
        return self.searches

    @nr.setter
    def nr(self, value: int) -> None:
        """gunicorn counts every request; that count is not kept (see :attr:`nr`)."""

    searches = 0
    retiring = False

    def count_search(self) -> bool:
        """One more search run; whether it was this worker's last (``max_requests`` reached): if so, the
        worker retires (:meth:`retire`)."""
        with self.search_count_lock:
            self.searches += 1
            last = self.searches == self.max_requests
        if last:
            self.retire("Autorestarting worker after %s searches.", self.searches)
        return last

    def retire(self, message: str, *args) -> None:
        """The worker stops accepting, finishes what it holds and exits, and its replacement is asked for
        (once, whatever asks: ``max_requests``, or its memory)."""
        with self.search_count_lock:
            if self.retiring:
                return
            self.retiring = True
        self.log.info(message, *args)
        self.alive = False
        self.ask_for_replacement()
        self.method_queue.defer(lambda: None)  # wake the main loop: it stops accepting now

    def over_memory(self) -> bool:
        """Whether this worker's resident memory exceeds ``WORKER_MAX_RSS_MB`` even once its allocator has
        given back what it can (service/memory.py): if so, it retires (:meth:`retire`), as its search
        processes do. Asked as each response starts, the request's work done."""
        if rss_bytes() <= self.max_rss_bytes or trimmed_rss_bytes() <= self.max_rss_bytes:
            return False
        self.retire("Autorestarting worker: %s MiB resident, over WORKER_MAX_RSS_MB.", rss_bytes() >> 20)
        return True

    def ask_for_replacement(self) -> None:
        app = getattr(self, "flask_app", None)
        directory = os.environ.get(lifecycle.RETIRING_DIR_ENV)
        if directory is None or app is None or admission(app).draining:
            return
        try:
            Path(directory, str(self.pid)).touch()
            os.kill(self.ppid, signal.SIGTTIN)
        except OSError as error:  # the arbiter replaces this worker when it exits, as gunicorn does
            self.log.warning("Could not ask for this worker's replacement: %s", error)

    def init_process(self):
        gthread.TConn = Connection
        settings = Settings.from_env()
        self.max_rss_bytes = settings.worker_max_rss_mb << 20
        seconds = settings.read_timeout_ms / 1000.0
        self.read_timeout = struct.pack("ll", int(seconds), int(seconds % 1 * 1e6))
        self.last_accept = time.monotonic()
        self.search_count_lock = threading.Lock()
        lifecycle.watch(self.ppid)
        super().init_process()

    def run(self):
        Connection.lingering = self.lingering = Lingering(self.poller)
        super().run()

    def murder_pending(self):
        """Each turn of the main loop: expired pending connections, and lingering ones."""
        super().murder_pending()
        self.lingering.expire()

    def murder_keepalived(self, force=False):
        super().murder_keepalived(force)
        if force:  # the worker is about to exit
            self.lingering.close_all()

    def load_wsgi(self):
        """The app (kept as ``flask_app``), told when each request's connection was handed to a thread:
        ``environ["tactician.arrived"]``, a ``time.perf_counter()``. A search's time limit counts from
        then, not from when a thread got round to it. The app tells when it admits a search
        (``environ["tactician.search_started"]``), which :meth:`count_search` counts; the response of the
        worker's last search (or the first response once its memory is over its bound) closes its
        connection."""
        super().load_wsgi()
        self.flask_app = app = self.wsgi
        pool_for(app).start()  # the worker's search processes, forked while it has no other thread yet
        self.arrivals = arrivals = threading.local()

        def stamped(environ, start_response):
            environ[ARRIVED] = getattr(arrivals, "arrived", None)
            if getattr(arrivals, "ticket", None) is not None:
                environ[TICKET] = arrivals.ticket
            last = []
            environ[SEARCH_STARTED] = lambda: last.append(self.count_search())

            def closing_start_response(status, headers, exc_info=None):
                if any(last) or self.over_memory():
                    start_response.__self__.force_close()  # gunicorn's response, whose method this is
                return start_response(status, headers, exc_info)
            return app(environ, closing_start_response)
        self.wsgi = stamped

    def enqueue_req(self, conn):
        if not hasattr(conn, "arrived"):  # a new connection: bound every blocking read of it
            conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, self.read_timeout)
        conn.arrived = time.perf_counter()
        conn.ticket = None
        if not self.at_door(conn):
            super().enqueue_req(conn)

    def at_door(self, conn) -> bool:
        """In the main thread, as a request arrives: whether the door has dealt with it (service/door.py).
        A search the worker has room for goes on to a thread, let in (``conn.ticket``) if its whole request
        is at hand (else the app lets it in once it has read the body); one it has no room for is refused
        here, and its connection closed. A new connection whose request has not begun
        to arrive is parked on the poller until it does. A connection its client has closed without a
        request (a kept-alive one, after its last response: every request of a client that closes after
        each answer) is closed here: gthread handed it to a thread, whose parser found nothing, and then
        lingered on it (about 6% of a trivial search's instructions in the server, bench/RESULTS.md)."""
        if conn.parser is not None and conn.parser.unreader.buf.getvalue():
            return False  # read ahead: the next request's first bytes are not the socket's
        try:
            data = conn.sock.recv(door.PEEK_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            if conn.initialized or conn.data_ready:
                return False
            self.park(conn)
            return True
        except OSError:
            return False
        if not data:  # the client has closed, and sent nothing more: no request, no thread
            self.nr_conns -= 1
            conn.close()
            return True
        head = door.search_head(data)
        gate = admission(self.flask_app)
        if head is None or gate.draining or not isinstance(conn.client, tuple):
            return False
        if not head.whole and gate.has_room():
            return False  # the app lets it in once it has read its body
        conn.ticket = gate.let_in() if head.whole else None
        if conn.ticket is not None:
            return False
        try:
            client = fairness(self.flask_app).key_of(head.api_key, conn.client[0])
            conn.sock.send(door.refusal(head, gate.refusal(), client, conn.arrived), socket.MSG_DONTWAIT)
        except OSError:
            pass  # the client has gone, or does not read: the connection is closed all the same
        self.nr_conns -= 1
        conn.close(graceful=True)
        return True

    def park(self, conn) -> None:
        """Wait on the poller, without a thread, for the connection's request to begin to arrive (or for
        ``keepalive`` seconds), stopping or not: a stopping worker serves the request when it comes, with
        ``Connection: close``, or closes the connection after ``keepalive`` seconds of silence, before it
        exits."""
        conn.sock.setblocking(False)
        conn.timeout = time.monotonic() + self.cfg.keepalive
        self.pending_conns.append(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn))

    def handle(self, conn):
        """gthread's, which serves one request of the connection; the ticket the door gave its search, if
        it has not been used (the request failed before its search), is given back."""
        try:
            return super().handle(conn)
        finally:
            if conn.ticket is not None:
                conn.ticket.release()
                conn.ticket = None

    def handle_request(self, req, conn):
        self.arrivals.arrived = getattr(conn, "arrived", None)
        self.arrivals.ticket = conn.ticket
        return super().handle_request(req, conn)

    def handle_error(self, req, client, addr, exc):
        super().handle_error(req, ProblemSocket(client), addr, exc)

    def accept(self, listener):
        """Up to ``ACCEPT_BATCH`` of the connections waiting, in one turn of the main loop (gthread takes one
        a turn: when many arrive at once, they waited in the listen backlog while the main thread took a turn
        for each, competing for the interpreter with the threads serving the ones it had taken)."""
        self.last_accept = time.monotonic()
        for _ in range(ACCEPT_BATCH):
            before = self.nr_conns
            super().accept(listener)
            if self.nr_conns == before or self.nr_conns >= self.worker_connections:
                break

    def handle_exit(self, sig, frame):
        """SIGTERM: drain (see the module docstring), then gunicorn's graceful stop."""
        app = getattr(self, "flask_app", None)
        if app is None:  # still booting: nothing to drain
            return super().handle_exit(sig, frame)
        if admission(app).drained:  # a second signal: already draining
            return
        admission(app).drain()
        self.last_accept = time.monotonic()
        threading.Thread(target=self.stop_when_quiet, args=(sig, frame), daemon=True).start()

    def stop_when_quiet(self, sig, frame):
        while time.monotonic() - self.last_accept < DRAIN_QUIET_SECONDS:
            time.sleep(DRAIN_QUIET_SECONDS / 5)
        super().handle_exit(sig, frame)

    def set_accept_enabled(self, enabled):
        """When the worker stops accepting for good, it first takes the connections that reached the
        listen backlog meanwhile, then closes its listeners: later connections are refused at once (by
        the kernel, or go to a worker still accepting) instead of waiting in a backlog nobody serves,
        to be reset when the server exits."""
        if not enabled and not self.alive:
            for listener in self.sockets:
                listener.setblocking(False)
                while True:
                    before = self.nr_conns
                    self.accept(listener)
                    if self.nr_conns == before:
                        break
        super().set_accept_enabled(enabled)
        if not enabled and not self.alive:
            for listener in self.sockets:
                listener.close()
