"""A client that leaves stops its search: while a route waits for a running search (on a thread of the
worker, service/search_threads.py, or in a search process, service/search_pool.py), it looks at the client's
socket every ``POLL_SECONDS``, and once the client has closed its connection the search is stopped (its
deadline cancelled: both cores poll it) and the route ends with :class:`ClientGone`, answered 499 to
nobody, so that the worker's search slot goes at once to the next search waiting for it.

A connection is closed when a peek at its socket finds the end of the stream (the client's FIN) or an
error (its reset). Bytes waiting there (a request pipelined behind this one) are no sign of leaving; the
connection is then taken as open for the rest of the search. Outside gunicorn (the Flask test client)
there is no socket to look at, and nobody leaves.
"""
import socket
import time

import flask
from werkzeug.exceptions import HTTPException

from service.search_pool import RESULT

# How often a waiting route looks at its client's socket: a client's leaving stops its search this long
# after at most (the search's own poll of its deadline then takes microseconds on the compiled core, under
# a millisecond on the Python core).
POLL_SECONDS = 0.004
# How long a route whose client left waits for its stopped search's answer (whose figures go to the log).
STOP_GRACE_SECONDS = 0.5
GONE_STATUS = 499  # nginx's "client closed request": the status of the request's log line


class ClientGone(HTTPException):
    """The client closed its connection while its search ran: the search was stopped, nobody is answered."""

    code = GONE_STATUS
    name = "Client Closed Request"
    description = "The client closed its connection before the answer; its search was stopped."


class Watch:
    """The connection of the request in hand (None outside gunicorn), looked at by :meth:`gone`."""

    def __init__(self, sock: socket.socket | None):
        self.sock = sock

    @classmethod
    def of_request(cls) -> "Watch":
        return cls(flask.request.environ.get("gunicorn.socket") if flask.has_request_context() else None)

    def gone(self) -> bool:
        """Whether the client has closed its connection (see the module's docstring)."""
        if self.sock is None:
            return False
        try:
            waiting = self.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:  # reset, or a socket already closed
            return True
        if waiting:
            self.sock = None  # a pipelined request: nothing more can be seen of this one
            return False
        return True


def next_message(search, watch: Watch, timeout: float | None):
    """The next message of running ``search`` (``next_message``'s, ``None`` if none came within
    ``timeout`` seconds, None: as long as it takes), looking at ``watch`` meanwhile: once its client has
    gone, the search is stopped and :class:`ClientGone` raised."""
    if watch.sock is None:
        return search.next_message(timeout)
    end = None if timeout is None else time.perf_counter() + timeout
    while True:
        step = POLL_SECONDS if end is None else max(0.0, min(POLL_SECONDS, end - time.perf_counter()))
        message = search.next_message(step)
        if message is not None:
            return message
        if watch.gone():
            search.stop(STOP_GRACE_SECONDS)
            raise ClientGone()
        if end is not None and time.perf_counter() >= end:
            return None


def result(search, watch: Watch):
    """The result of running ``search`` (its progress skipped), or :class:`ClientGone` once the client of
    ``watch`` has gone (the search stopped)."""
    while True:
        kind, data = next_message(search, watch, None)
        if kind == RESULT:
            return data
