"""Structured request logs: one JSON line per request on the ``tactician.requests`` logger (standard
error by default), with the fields an operator of many replicas filters on: the request id (the client's
``X-Request-ID`` when it is a sane token, else a new one, and echoed back either way), method, route
template, status, duration, the client key the per-client limits count by (service/fairness.py: a digest
of the API key, never the key itself), the game of a game's route, and for searches the game, algorithm,
nodes and whether time ran out. A streamed search's line is written when its stream closes, so that it has
the search's figures and the stream's whole duration."""
import json
import logging
import re
import sys
import time
import uuid

from flask import Flask, Response, g, request

from service.admission import arrived
from service.fairness import client_key

LOGGER = logging.getLogger("tactician.requests")
REQUEST_ID = "X-Request-ID"
SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")  # anything else is replaced, not logged


def request_id(sent: str | None) -> str:
    """The id of a request whose ``X-Request-ID`` header was ``sent``: that, when it is a sane token."""
    return sent if sent and SANE_ID.match(sent) else uuid.uuid4().hex


def begin() -> None:
    g.request_id = request_id(request.headers.get(REQUEST_ID))


def note_search(game: str, algorithm: str, nodes: int, timed_out: bool, into: dict | None = None) -> None:
    """What a search adds to its request's line: into the request's own fields, or ``into`` (the dict
    :func:`streamed_search` gave, filled while the response streams)."""
    fields = {"game": game, "algorithm": algorithm, "nodes": nodes, "timed_out": timed_out}
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
    request_id = g.get("request_id") or uuid.uuid4().hex
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


def write(line: dict, started: float, search: dict) -> None:
    line["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
    LOGGER.info(json.dumps({**line, **search}, separators=(",", ":")))


def register(app: Flask) -> None:
    if not LOGGER.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        LOGGER.addHandler(handler)
        LOGGER.setLevel(logging.INFO)
        LOGGER.propagate = False
    app.before_request(begin)
    app.after_request(end)
