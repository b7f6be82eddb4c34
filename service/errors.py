"""Every error as RFC 9457 problem details (``application/problem+json``), never HTML, never a trace."""
import itertools
import logging
from typing import TypeVar

from flask import Flask, Response, g, has_request_context, json, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, InternalServerError

from engine.errors import EngineError

PROBLEM_JSON = "application/problem+json"
UNPROCESSABLE = 422
BODY = "body"  # the field path of the request body as a whole
BODY_KEY = "tactician_json_body"  # flask.g's name for the decoded body (service/body.py), read by the errors
INTERNAL_DETAIL = "The server failed to answer; the error has been logged."
MAX_LISTED_ERRORS = 10  # the fields a 422 names at most; its detail says how many there are

log = logging.getLogger(__name__)

# Every kind of problem has a type URI of its own (RFC 9457), PROBLEM_BASE + its slug, so that a client tells
# the two 429s, the 503s and the 422s apart without reading the prose. openapi.yaml (Problem) and README
# ("Errors") document each; tests/service/test_problem_types.py checks that they list these and no other.
PROBLEM_BASE = "https://tactician.dev/problems/"
PROBLEM_KINDS = {
    "bad-json": "400: the body is not valid JSON (nested too deeply, NaN/Infinity, a syntax error)",
    "bad-request": "400: a malformed request otherwise (a broken chunked encoding, a body cut short, "
                   "gunicorn's own 400s)",
    "unauthorized-key": "401: the X-API-Key header names no key of this service",
    "not-found": "404: no such route or game",
    "method-not-allowed": "405: the route does not take this method (see Allow)",
    "request-timeout": "408: the body stopped arriving for READ_TIMEOUT_MS",
    "body-too-large": "413: the body (or a chunk) is over MAX_CONTENT_LENGTH",
    "uri-too-long": "414: gunicorn's limit on the request line",
    "unsupported-media-type": "415: the body is not JSON, or is sent with a Content-Encoding",
    "validation": "422: the JSON parses but is not acceptable; errors maps each field path to its messages",
    "unknown-setting": "422: every error is a setting (algorithm.<name>, options.<name>) that the "
                       "algorithm or game does not take; the message names what it takes",
    "game-over": "422: the state is already over: there is no move to search or apply",
    "too-many-searches": "429: the client already holds MAX_SEARCHES_PER_CLIENT searches (Retry-After)",
    "search-time-spent": "429: the client spent its SEARCH_SECONDS_PER_CLIENT_MINUTE (Retry-After)",
    "header-fields-too-large": "431: gunicorn's limit on the request's header fields",
    "internal": "500: a fault in the server, logged; no internals are told",
    "not-implemented": "501: gunicorn's answer to a transfer coding it does not implement",
    "busy": "503: the worker has no room for another search now (Retry-After); admission control",
    "shutting-down": "503: the worker or server is shutting down (Retry-After on a search)",
    "not-ready": "503: no worker has reported to the health listener in time",
}
# The kind of a problem that says nothing more specific than its status.
STATUS_KINDS = {400: "bad-request", 401: "unauthorized-key", 404: "not-found", 405: "method-not-allowed",
                408: "request-timeout", 413: "body-too-large", 414: "uri-too-long", 415: "unsupported-media-type",
                422: "validation", 429: "too-many-searches", 431: "header-fields-too-large", 500: "internal",
                501: "not-implemented", 503: "busy"}


def problem_type(status: int, kind: str | None = None) -> str:
    """The type URI of a problem of ``kind`` (by default its status's); ``about:blank`` for a status
    without a kind of its own."""
    kind = kind or STATUS_KINDS.get(status)
    return "about:blank" if kind is None else PROBLEM_BASE + kind


Problem = TypeVar("Problem", bound=HTTPException)


def of_kind(exc: Problem, kind: str) -> Problem:
    """``exc`` marked as a problem of ``kind`` (a key of :data:`PROBLEM_KINDS`), for its response."""
    assert kind in PROBLEM_KINDS, kind
    setattr(exc, "problem_kind", kind)  # an attribute of this service's: read back with getattr
    return exc


class Unprocessable(Exception):
    """JSON that parses but is not acceptable; ``errors`` maps field paths to messages."""

    def __init__(self, errors: dict):
        super().__init__(errors)
        self.errors = errors


def problem_body(status: int, title: str, detail: str, errors: dict | None = None, kind: str | None = None) -> dict:
    """A problem's fields; ``type`` names its ``kind`` (:data:`PROBLEM_KINDS`; by default its status's)."""
    body = {"type": problem_type(status, kind), "title": title, "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = errors
    return body


def problem_text(status: int, title: str, detail: str, errors: dict | None = None, kind: str | None = None) -> str:
    """A problem's JSON text."""
    return json.dumps(problem_body(status, title, detail, errors, kind), separators=(",", ":"))


def problem(status: int, title: str, detail: str, errors: dict | None = None,
            headers: dict | None = None, kind: str | None = None) -> Response:
    """A problem+json response."""
    return Response(problem_text(status, title, detail, errors, kind), status=status, headers=headers,
                    mimetype=PROBLEM_JSON)


def flatten(messages, prefix: str = "") -> dict:
    """Marshmallow's nested error dict as ``{"algorithm.depth": [...]}``, a list's item as ``moves[1]`` (as the
    engine names them). A ``_schema`` error belongs to the object that holds it; at the top that is the body
    itself."""
    if isinstance(messages, list):
        return {prefix or BODY: [str(m) for m in messages]}
    flat: dict[str, list[str]] = {}
    for key, value in messages.items():
        if isinstance(key, int):
            path = f"{prefix}[{key}]"
        else:
            key = str(key)
            path = prefix if key == "_schema" else (f"{prefix}.{key}" if prefix else key)
        for field, msgs in flatten(value, path).items():
            flat.setdefault(field, []).extend(msgs)
    return flat


def listed(errors: dict) -> dict:
    """The first ``MAX_LISTED_ERRORS`` of ``errors``: an answer names a few fields, not every one a body
    of a megabyte can get wrong (80,000 unknown settings were a 15 MB 422)."""
    return errors if len(errors) <= MAX_LISTED_ERRORS else dict(itertools.islice(errors.items(), MAX_LISTED_ERRORS))


def unprocessable_body(errors: dict, kind: str = "validation", total: int | None = None) -> dict:
    """A 422 listing the first of ``errors`` (:func:`listed`) and, in its ``detail``, how many there are
    (``total``, where ``errors`` is already a part of them)."""
    total = len(errors) if total is None else total
    errors = listed(errors)
    fields = ", ".join(sorted(errors))
    more = f" ({total} errors; the first {len(errors)} are listed)" if total > len(errors) else ""
    return problem_body(UNPROCESSABLE, "Unprocessable Content",
                        f"The request is not acceptable; see: {fields}{more}.", errors=errors, kind=kind)


def unprocessable(errors: dict, kind: str = "validation", total: int | None = None) -> Response:
    return Response(json.dumps(unprocessable_body(errors, kind, total), separators=(",", ":")),
                    status=UNPROCESSABLE, mimetype=PROBLEM_JSON)


def engine_problem(exc: EngineError) -> dict:
    """An engine error's problem: its kind is the error's (``game-over``, ``unknown-setting``) or
    ``validation``."""
    return unprocessable_body(exc.errors, getattr(exc, "kind", "validation"))


def validation_problem(exc: ValidationError) -> Response:
    """The schemas' errors, unknown settings said as the engine says them (naming what the algorithm or
    the game takes): ``unknown-setting`` when that is all there is."""
    every = flatten(exc.messages)
    errors = unknown_settings(listed(every))
    kind = "unknown-setting" if all(is_unknown_setting(f, m) for f, m in every.items()) else "validation"
    return unprocessable(errors, kind, len(every))


def is_unknown_setting(field: str, messages: list) -> bool:
    """Whether marshmallow's ``messages`` on ``field`` say that it is an unknown ``algorithm.<key>`` or
    ``options.<key>``."""
    head, _, key = field.partition(".")
    return messages == [UNKNOWN_FIELD] and head in ("algorithm", "options") and bool(key) and "." not in key


def unknown_settings(errors: dict) -> dict:
    """``errors`` with marshmallow's "Unknown field." on ``algorithm.<key>`` and ``options.<key>`` written in
    the engine's words."""
    from engine.api import unknown_setting_text
    body = g.get(BODY_KEY) if has_request_context() else None
    algorithm = body.get("algorithm") if isinstance(body, dict) else None
    name = algorithm.get("name") if isinstance(algorithm, dict) else None
    game = request.view_args.get("game") if has_request_context() and request.view_args else None
    if game is None and isinstance(body, dict) and isinstance(body.get("game"), str):  # a search's body names it
        game = body.get("game")
    out = {}
    for field, messages in errors.items():
        if is_unknown_setting(field, messages):
            head, _, key = field.partition(".")
            messages = [unknown_setting_text(head, key, name, game)]
        out[field] = messages
    return out


UNKNOWN_FIELD = "Unknown field."


def handle_http(exc: HTTPException) -> Response:
    """Werkzeug's errors (404, 405 with its Allow header, 413, ...) as problems, of the kind the code that
    raised them gave (:func:`of_kind`), else their status's."""
    return problem(exc.code or 500, exc.name, exc.description or exc.name, headers=own_headers(exc),
                   kind=getattr(exc, "problem_kind", None))


def own_headers(exc: HTTPException) -> dict:
    """The headers an error carries of its own (``Allow``, ``Retry-After``), but its HTML content type."""
    return {k: v for k, v in exc.get_headers() if k.lower() != "content-type"}


def handle_unexpected(exc: Exception) -> Response:
    """Anything else is our fault: log it, tell the client nothing about the internals."""
    log.exception("unhandled error", exc_info=exc)
    return handle_http(InternalServerError(INTERNAL_DETAIL))


def register(app: Flask) -> None:
    """Install the handlers on ``app``."""
    app.register_error_handler(Unprocessable, lambda exc: unprocessable(exc.errors))
    app.register_error_handler(ValidationError, validation_problem)
    app.register_error_handler(EngineError, lambda exc: unprocessable(exc.errors, getattr(exc, "kind", "validation")))
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(Exception, handle_unexpected)
