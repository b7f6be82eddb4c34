"""Structured request logs: one JSON line per request on the ``tactician.requests`` logger (standard
error by default), with the fields an operator of many replicas filters on: the request id (the client's
``X-Request-ID`` when it is a sane token, else a new one, and echoed back either way), method, route
template, status, duration, the client key the per-client limits count by (service/fairness.py: a digest
of the API key, never the key itself), the game of a game's route, and for searches the game, algorithm,
nodes and whether time ran out. A streamed search's line is written when its stream closes, so that it has
the search's figures and the stream's whole duration.

Every request pays for its line, so the line is cheap: a new request id is this process's random prefix and a
count, and while the logger has only its own handler (the default), the line is written in one system call
without building a log record, which would only be formatted back into the same line."""
import itertools
import logging
import os
import re
import time

from flask import Flask, Response, g, request
import orjson

from service.admission import arrived
from service.fairness import client_key

LOGGER = logging.getLogger("tactician.requests")
REQUEST_ID = "X-Request-ID"
SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")  # anything else is replaced, not logged


class NewIds:
    """New request ids: 32 hexadecimal digits, a random prefix drawn once per process (again in a forked
    worker) and a count, so that ids are unique across processes and replicas without a random draw each."""

    def __init__(self):
        self.renew()
        os.register_at_fork(after_in_child=self.renew)

    def renew(self) -> None:
        self.prefix, self.count = os.urandom(8).hex(), itertools.count()

    def next(self) -> str:
        return f"{self.prefix}{next(self.count):016x}"


NEW_IDS = NewIds()


def request_id(sent: str | None) -> str:
    """The id of a request whose ``X-Request-ID`` header was ``sent``: that, when it is a sane token."""
    return sent if sent and SANE_ID.match(sent) else NEW_IDS.next()


def begin() -> None:
    g.request_id = request_id(request.headers.get(REQUEST_ID))


def note_search(game: str, algorithm: str, nodes: int, timed_out: bool, into: dict | None = None,
                stop_reason: str | None = None) -> None:
    """What a search adds to its request's line: into the request's own fields, or ``into`` (the dict
    :func:`streamed_search` gave, filled while the response streams); ``stop_reason`` only where it is
    news (a search stopped because its client left)."""
    fields = {"game": game, "algorithm": algorithm, "nodes": nodes, "timed_out": timed_out,
              **({"stop_reason": stop_reason} if stop_reason is not None else {})}
    if into is None:
        g.search_log = fields
    else:
        into.update(fields)


def streamed_search() -> dict:
    """For a response that streams its search: the dict the stream fills with :func:`note_search`. The
    request's line then waits for the stream to close."""
    g.search_log = g.streamed_search_log = {}
    return g.search_log


def end(response: Response) -> Response:
    request_id = g.get("request_id") or NEW_IDS.next()
    response.headers[REQUEST_ID] = request_id
    started = arrived()
    line = request_line(request_id, request.method, request.url_rule.rule if request.url_rule is not None else None,
                        response.status_code, client_key())
    if request.view_args and "game" in request.view_args:
        line["game"] = request.view_args["game"][:64]
    streamed = g.get("streamed_search_log")
    if streamed is not None and response.is_streamed:
        response.call_on_close(lambda: write(line, started, streamed))  # after the request's context
    else:
        write(line, started, g.get("search_log", {}))
    return response


def request_line(request_id: str, method: str, route: str | None, status: int, client: str) -> dict:
    """A request's line, but for its duration (:func:`write` adds it) and what its search adds."""
    return {"request_id": request_id, "method": method, "route": route, "status": status, "duration_ms": None,
            "client": client}


class JSONLines(logging.Handler):
    """The logger's default handler: each message as one line on standard error, in one ``write``."""

    def __init__(self, fd: int = 2):
        super().__init__()
        self.fd = fd

    def emit(self, record: logging.LogRecord) -> None:
        self.write_line(record.getMessage().encode())

    def write_line(self, data: bytes) -> None:
        try:
            os.write(self.fd, data + b"\n")  # one line, well under PIPE_BUF: never interleaved with another
        except OSError:
            pass  # a closed or full standard error must not fail the request, as with logging's handlers


DEFAULT_HANDLER = JSONLines()


def write(line: dict, started: float, search: dict) -> None:
    line["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
    text = orjson.dumps({**line, **search})
    if LOGGER.handlers == [DEFAULT_HANDLER] and not LOGGER.propagate:
        if LOGGER.isEnabledFor(logging.INFO):
            DEFAULT_HANDLER.write_line(text)
    else:
        LOGGER.info(text.decode())


def register(app: Flask) -> None:
    if not LOGGER.handlers:
        LOGGER.addHandler(DEFAULT_HANDLER)
        LOGGER.setLevel(logging.INFO)
        LOGGER.propagate = False
    app.before_request(begin)
    app.after_request(end)
