"""Every error as RFC 9457 problem details (``application/problem+json``), never HTML, never a trace."""
import logging

from flask import Flask, Response, json
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, InternalServerError

from engine.errors import EngineError

PROBLEM_JSON = "application/problem+json"
UNPROCESSABLE = 422
BODY = "body"  # the field path of the request body as a whole
INTERNAL_DETAIL = "The server failed to answer; the error has been logged."

log = logging.getLogger(__name__)


class Unprocessable(Exception):
    """JSON that parses but is not acceptable; ``errors`` maps field paths to messages."""

    def __init__(self, errors: dict):
        super().__init__(errors)
        self.errors = errors


def problem_body(status: int, title: str, detail: str, errors: dict | None = None) -> dict:
    """A problem's fields. ``type`` is ``about:blank``: the status and title say what went wrong."""
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = errors
    return body


def problem_text(status: int, title: str, detail: str, errors: dict | None = None) -> str:
    """A problem's JSON text."""
    return json.dumps(problem_body(status, title, detail, errors), separators=(",", ":"))


def problem(status: int, title: str, detail: str, errors: dict | None = None,
            headers: dict | None = None) -> Response:
    """A problem+json response."""
    return Response(problem_text(status, title, detail, errors), status=status, headers=headers,
                    mimetype=PROBLEM_JSON)


def flatten(messages, prefix: str = "") -> dict:
    """Marshmallow's nested error dict as ``{"algorithm.depth": [...]}``, a list's item as ``moves[1]`` (as the
    engine names them). A ``_schema`` error belongs to the object that holds it; at the top that is the body
    itself."""
    if isinstance(messages, list):
        return {prefix or BODY: [str(m) for m in messages]}
    flat = {}
    for key, value in messages.items():
        if isinstance(key, int):
            path = f"{prefix}[{key}]"
        else:
            key = str(key)
            path = prefix if key == "_schema" else (f"{prefix}.{key}" if prefix else key)
        for field, msgs in flatten(value, path).items():
            flat.setdefault(field, []).extend(msgs)
    return flat


def unprocessable_body(errors: dict) -> dict:
    fields = ", ".join(sorted(errors))
    return problem_body(UNPROCESSABLE, "Unprocessable Content", f"The request is not acceptable; see: {fields}.",
                        errors=errors)


def unprocessable(errors: dict) -> Response:
    return problem(**{k: v for k, v in unprocessable_body(errors).items() if k != "type"})


def handle_http(exc: HTTPException) -> Response:
    """Werkzeug's errors (404, 405 with its Allow header, 413, ...) as problems."""
    return problem(exc.code or 500, exc.name, exc.description or exc.name, headers=own_headers(exc))


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
    app.register_error_handler(ValidationError, lambda exc: unprocessable(flatten(exc.messages)))
    app.register_error_handler(EngineError, lambda exc: unprocessable(exc.errors))
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(Exception, handle_unexpected)
