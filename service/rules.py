"""The rules routes' work (``legal-moves``, ``apply``): the request checked, then answered by the engine,
in the worker's thread when its body is small, else in one of the worker's search processes.

Why: answering a rules request is mostly reading its state, in Python, and a big state (a tree of 48,000
nodes is 0.7-0.9 MB and 120-160 ms of reading) held the worker's interpreter for as long, as the searches
did before service/search_pool.py: eight clients sending such trees kept ``/livez`` waiting (issue 34:
p99 429-831 ms). The body's size bounds that work (each game's state is read in time linear in its
text), so it decides, before the body is decoded:

- a body of at most ``INLINE_BYTES`` (service/body.py) is decoded and answered here: a few milliseconds
  of the interpreter at most, which a search process would only delay;
- a bigger one is admitted as a search is (service/admission.py: refused at once, 503, when the worker has
  no room, before its body is read when its length is announced; else let in once it is read, and given
  a search slot) and its bytes are decoded, checked and answered in a search process
  (:func:`answered_apart`, run by :meth:`~service.search_pool.SearchPool.run`). The worker only reads the
  bytes and writes the answer. A slot that does not come free within ``MAX_TIME_LIMIT_MS`` (the longest a
  search holds one) is a 503.

Either way the answer, and each error (400, 422, with the same fields and messages), is the same.
"""
from flask import current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

import engine.api
from engine.errors import EngineError

from service.admission import TICKET, admission
from service.body import big_body, decoded, json_body, raw_json_body
from service.errors import Unprocessable
from service.schemas import ApplyRequestSchema, StateRequestSchema
from service.search_pool import GRACE_SECONDS, pool_for

# The errors a client's request makes (400, 422): raised again in the worker, whose handlers answer them.
CLIENT_ERRORS = (HTTPException, ValidationError, Unprocessable, EngineError)


def legal_moves(game: str, checked: dict, limits) -> dict:
    return engine.api.legal_moves(game, checked["state"], limits=limits, options=checked.get("options"))


def apply(game: str, checked: dict, limits) -> dict:
    return engine.api.apply(game, checked["state"], checked.get("move"), limits=limits,
                            options=checked.get("options"), moves_json=checked.get("moves"))


# Each route's schema (built once: building one deep-copies its fields; loading with it is safe from any
# thread) and its answer.
ROUTES = {"legal-moves": (StateRequestSchema(), legal_moves), "apply": (ApplyRequestSchema(), apply)}


def answer(route: str, game: str, body, limits) -> dict:
    """The answer of ``route`` for ``game`` to the decoded ``body``; its errors are raised."""
    schema, rule = ROUTES[route]
    return rule(game, schema.load(body), limits)


def answered_apart(route: str, game: str, raw: bytes, limits) -> tuple:
    """In a search process: ``(None, answer)`` to the body's bytes ``raw``, or ``(error, None)`` for an
    error of the request (400, 422), which the worker raises again."""
    try:
        return None, answer(route, game, decoded(raw), limits)
    except CLIENT_ERRORS as error:
        return error, None


def respond(route: str, game: str) -> dict:
    """The answer of ``route`` for ``game`` (known) to the request in hand: here, or in a search process
    once admitted (see above)."""
    settings, gate, environ = current_app.config["SETTINGS"], admission(current_app), request.environ
    limits = settings.limits()
    if big_body() and environ.get(TICKET) is None:
        gate.check()
    raw = raw_json_body()
    if not big_body():
        return answer(route, game, json_body(raw), limits)
    ticket = environ[TICKET] = gate.enter(environ.get(TICKET))
    patience_s = settings.max_time_limit_ms / 1000.0
    with gate.search(patience_s, ticket) as admitted:
        if not admitted:
            raise gate.refusal()
        arguments = {"route": route, "game": game, "raw": raw, "limits": limits}
        with pool_for(current_app).run(answered_apart, arguments, wait_s=patience_s + GRACE_SECONDS) as task:
            error, value = task.result()
    if error is not None:
        raise error
    return value
