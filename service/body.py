"""Reading a JSON request body: its media type and content coding (415), its size (413, enforced by
Werkzeug from MAX_CONTENT_LENGTH), its framing (400 for a malformed chunked body), its syntax (400) and its
numbers (422 for one too large to be finite).

Decoding counts against a search's time limit, so bodies are decoded by orjson (a fifth of the standard
decoder's time on a 1 MB tree), which accepts only JSON with finite numbers; whatever it refuses goes to the
standard decoder, whose verdict (and field-naming checks) stand."""
import json
import math
import re
import sys

from flask import current_app, request
import orjson
from gunicorn.http.errors import NoMoreData, ParseException
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, RequestTimeout, UnsupportedMediaType

from service.errors import Unprocessable

# An integer beyond this has no finite float: as far from finite as 1e400, which decodes to infinity.
LARGEST_FINITE_INT = int(sys.float_info.max)
# A number with fewer than 100 digits in a row and an exponent below 100 is below 1e199, so finite: only a
# body with one or the other (a cheap scan of the raw text) needs the walk through every value.
MAYBE_NOT_FINITE = re.compile(rb"[0-9]{100}|[eE]\+?0*[1-9][0-9]{2}")


def is_finite(number) -> bool:
    """Whether a decoded JSON number can be used as a finite float."""
    if isinstance(number, float):
        return math.isfinite(number)
    return isinstance(number, bool) or abs(number) <= LARGEST_FINITE_INT


def is_json_media_type(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def reject_constant(name: str):
    """JSON has no NaN or Infinity; Python's decoder would accept them."""
    raise ValueError(f"{name} is not valid JSON")


# What reading a body can raise when its framing is broken: gunicorn's parser errors (a chunk size that is
# not hexadecimal, a missing chunk terminator), the end of the stream before the body's end. (Werkzeug's
# own, ClientDisconnected, is already a 400.)
BROKEN_BODY = (ParseException, NoMoreData)


def read_body() -> bytes:
    """The raw body. Under gunicorn each read of the socket waits at most READ_TIMEOUT_MS (a setting)
    for more bytes: a client that stops sending mid-body is answered 408 and frees its thread."""
    sock = request.environ.get("gunicorn.socket")
    previous = sock.gettimeout() if sock is not None else None
    if sock is not None:
        sock.settimeout(current_app.config["SETTINGS"].read_timeout_ms / 1000.0)
    try:
        return request.get_data(cache=False)
    except TimeoutError:
        raise RequestTimeout("The body did not arrive in time.") from None
    except BROKEN_BODY as exc:
        raise BadRequest(f"The body could not be read: {type(exc).__name__}.") from None
    finally:
        if sock is not None:
            sock.settimeout(previous)


def json_body():
    """The decoded body. Deeply nested JSON makes the decoder raise RecursionError: that is malformed too.
    The body is read as sent: a content coding (``Content-Encoding: gzip``) is refused, not guessed at."""
    if not is_json_media_type(request.mimetype):
        raise UnsupportedMediaType("The body must be JSON, sent with Content-Type: application/json.")
    coding = request.headers.get("Content-Encoding", "identity").strip().lower()
    if coding not in ("", "identity"):
        raise UnsupportedMediaType(f"Content-Encoding {coding!r} is not supported: send the body uncompressed.")
    raw = read_body()
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is None and len(raw) >= limit:
        # Werkzeug cuts a chunked body (no Content-Length) at the limit; one that reaches it is too large.
        raise RequestEntityTooLarge(f"A chunked body must be smaller than {limit} bytes.")
    try:
        return orjson.loads(raw)  # the fast path: it refuses every number that is not finite
    except orjson.JSONDecodeError:
        pass  # the standard decoder says why, or accepts what orjson does not (nesting beyond 1024)
    try:
        data = json.loads(raw, parse_constant=reject_constant)
    except RecursionError:
        raise BadRequest("The body is not valid JSON: it is nested too deeply.") from None
    except ValueError as exc:
        raise BadRequest(f"The body is not valid JSON: {exc}") from None
    path = non_finite_path(data) if MAYBE_NOT_FINITE.search(raw) else None
    if path is not None:
        raise Unprocessable({path: ["Must be a finite number."]})
    return data


def non_finite_path(data) -> str | None:
    """The path (``state.root.children[0].value``) of a number that is not finite, if any.
    Iterative, because the decoder accepts nesting deeper than Python's recursion limit allows here; paths
    are kept as links to the parent's and spelt out only for the culprit, so a wide body costs little."""
    if isinstance(data, (int, float)):
        return None if is_finite(data) else "body"
    if not isinstance(data, (dict, list)):
        return None
    stack = [(data, None)]  # (container, link); a link is (key or index, the parent's link)
    while stack:
        container, link = stack.pop()
        for key, item in (container.items() if isinstance(container, dict) else enumerate(container)):
            if isinstance(item, (int, float)):
                if not is_finite(item):
                    return spell((key, link))
            elif isinstance(item, (dict, list)):
                stack.append((item, (key, link)))
    return None


def spell(link) -> str:
    """``state.root.children[0].value`` from a chain of links (JSON object keys are strings, list
    indices integers)."""
    steps = []
    while link is not None:
        key, link = link
        steps.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    return "".join(reversed(steps)).lstrip(".")
