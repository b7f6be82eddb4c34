"""Reading a JSON request body: its media type (415), its size (413, enforced by Werkzeug from
MAX_CONTENT_LENGTH), its syntax (400) and its numbers (422 for one too large to be finite)."""
import json
import math

from flask import current_app, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnsupportedMediaType

from service.errors import Unprocessable


def is_json_media_type(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def reject_constant(name: str):
    """JSON has no NaN or Infinity; Python's decoder would accept them."""
    raise ValueError(f"{name} is not valid JSON")


def json_body():
    """The decoded body. Deeply nested JSON makes the decoder raise RecursionError: that is malformed too."""
    if not is_json_media_type(request.mimetype):
        raise UnsupportedMediaType("The body must be JSON, sent with Content-Type: application/json.")
    raw = request.get_data(cache=False)
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is None and len(raw) >= limit:
        # Werkzeug cuts a chunked body (no Content-Length) at the limit; one that reaches it is too large.
        raise RequestEntityTooLarge(f"A chunked body must be smaller than {limit} bytes.")
    try:
        data = json.loads(raw, parse_constant=reject_constant)
    except RecursionError:
        raise BadRequest("The body is not valid JSON: it is nested too deeply.") from None
    except ValueError as exc:
        raise BadRequest(f"The body is not valid JSON: {exc}") from None
    path = non_finite_path(data)
    if path is not None:
        raise Unprocessable({path: ["Must be a finite number."]})
    return data


def non_finite_path(data) -> str | None:
    """The path (``state.root.children[0].value``) of the first number that decoded to infinity, if any.
    Iterative, because the decoder accepts nesting deeper than Python's recursion limit allows here."""
    stack = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return path or "body"
        if isinstance(value, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
    return None
