"""Reading a JSON request body: its media type and content coding (415), its size (413, enforced by
Werkzeug from MAX_CONTENT_LENGTH), its framing (400 for a malformed chunked body), its syntax (400) and its
numbers (422 for one too large to be finite).

Decoding counts against a search's time limit, so bodies are decoded by orjson (a fifth of the standard
decoder's time on a 1 MB tree), which accepts only JSON with finite numbers; whatever it refuses goes to the
standard decoder, whose verdict (and field-naming checks) stand."""
from functools import partial
import json
import math
import re
import sys

from flask import current_app, g, has_request_context, request
import orjson
from gunicorn.http.body import ChunkedReader
from gunicorn.http.errors import NoMoreData, ParseException
from werkzeug.exceptions import (BadRequest, ClientDisconnected, HTTPException, RequestEntityTooLarge, RequestTimeout,
                                 UnsupportedMediaType)

from service.errors import BODY_KEY, Unprocessable, of_kind

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


def decoded_int(text: str):
    """A JSON integer, or an infinity of its sign when it has more digits than Python converts (4300: it
    would raise "use sys.set_int_max_str_digits()"); far beyond the largest finite float either way, it is
    then named as a number that is not finite (a 422), as ``1e400`` is."""
    if len(text) - text.startswith("-") > sys.get_int_max_str_digits() > 0:
        return -math.inf if text.startswith("-") else math.inf
    return int(text)


def reject_constant(name: str):
    """JSON has no NaN or Infinity; Python's decoder would accept them."""
    raise ValueError(f"{name} is not valid JSON")


# What reading a body can raise when its framing is broken: gunicorn's parser errors (a chunk size that is
# not hexadecimal, a missing chunk terminator), the end of the stream before the body's end. Werkzeug turns
# the errors that are OSErrors (the end of the stream, a read that timed out) into ClientDisconnected, a
# generic 400, whose context keeps the error it replaced (:func:`unread_body`).
BROKEN_BODY = (ParseException, NoMoreData)
STALLED = (TimeoutError, BlockingIOError)   # a read that waited READ_TIMEOUT_MS for bytes
MAX_CHUNK_SIZE_DIGITS = 16                  # a chunk size beyond 64 bits is no size any server could take
# The largest body whose state a worker reads itself: a tree of some 2,000 nodes, read in 3-5 ms. A bigger
# one's state is read in a search process (service/rules.py, service/routes/search.py), since reading a
# state holds the worker's interpreter for a time linear in its text (a 0.9 MB tree: 120-160 ms).
INLINE_BYTES = 32 * 1024
# The WSGI environ key under which the body's size is kept once it is read.
BODY_BYTES = "tactician.body_bytes"
# The deepest nesting of a body (objects and arrays) whose parts the worker sends to a search process
# unread: pickling one recurses twice a level, and 5,000 levels of a tree (10,000) overran Python's limit
# (a 500). A tree of MAX_TREE_DEPTH plies (2,000 at most: service/config.py) is nested two levels a ply,
# well within it. orjson refuses nesting beyond 1,024, so only the bodies it refuses are measured.
SENT_NESTING = 4_200
# The WSGI environ key under which a body nested deeper than SENT_NESTING is marked.
DEEP_BODY = "tactician.deep_body"


def read_body() -> bytes:
    """The raw body. Under gunicorn each read of the socket waits at most READ_TIMEOUT_MS (a setting)
    for more bytes: a client that stops sending mid-body is answered 408 and frees its thread. A chunk
    announced larger than the body limit is refused as soon as its size is read (:func:`bounded_chunks`)."""
    sock = request.environ.get("gunicorn.socket")
    previous = sock.gettimeout() if sock is not None else None
    if sock is not None:
        sock.settimeout(current_app.config["SETTINGS"].read_timeout_ms / 1000.0)
    bounded_chunks(request.environ.get("wsgi.input"), current_app.config["MAX_CONTENT_LENGTH"])
    try:
        return request.get_data(cache=False)
    except (ClientDisconnected, *STALLED, *BROKEN_BODY) as exc:
        raise unread_body(exc) from None
    finally:
        if sock is not None:
            sock.settimeout(previous)


def unread_body(exc: BaseException | None) -> HTTPException:
    """The answer to a body that could not be read, from what stopped the read (Werkzeug's
    ClientDisconnected says only "the browser (or proxy) sent a request that this server could not
    understand"): 408 for a client that stopped sending, 400 naming the broken framing otherwise."""
    causes: list[BaseException] = []
    while exc is not None:
        causes.append(exc)
        exc = exc.__cause__ or exc.__context__
    if any(isinstance(cause, STALLED) for cause in causes):
        return RequestTimeout("The body did not arrive in time: the client stopped sending it.")
    parse = next((cause for cause in causes if isinstance(cause, ParseException)), None)
    if parse is not None:
        return BadRequest(f"The chunked encoding of the body is malformed: {parse}.")
    return BadRequest("The body ended before it was complete: the connection closed, or a chunked body "
                      "lacked its last chunk.")


def bounded_chunks(body_input, limit: int) -> None:
    """Make gunicorn's reader of a chunked ``body_input`` refuse a chunk larger than ``limit`` bytes as
    soon as its size is read: it would otherwise wait for the bytes announced, until the read timed out
    (``ffffffffffffffffffff`` asked for 1.2e24 of them). Other inputs are left as they are."""
    reader = getattr(body_input, "reader", None)
    if isinstance(reader, ChunkedReader):
        reader.parse_chunk_size = partial(checked_chunk_size, reader.parse_chunk_size, limit)


def checked_chunk_size(parse, limit: int, unreader, data=None) -> tuple:
    """``parse(unreader, data)``, gunicorn's ``(chunk size, rest)``, with the size checked: a 400 beyond 64
    bits, a 413 beyond ``limit`` (the body limit)."""
    size, rest = parse(unreader, data)
    if size.bit_length() > 4 * MAX_CHUNK_SIZE_DIGITS:
        raise BadRequest(f"The chunked encoding of the body is malformed: the chunk size {size:x} (hexadecimal) "
                         f"has more than {MAX_CHUNK_SIZE_DIGITS} digits.")
    if size > limit:
        raise RequestEntityTooLarge(f"A chunk of {size} bytes is larger than the body limit, {limit} bytes.")
    return size, rest


def json_body(raw: bytes | None = None):
    """The decoded body (:func:`raw_json_body`, unless its bytes are given; :func:`decoded`), kept for the
    errors' messages."""
    data = decoded(raw_json_body() if raw is None else raw)
    setattr(g, BODY_KEY, data)  # for the unknown settings' messages (service/errors.py)
    return data


def raw_json_body() -> bytes:
    """The body's bytes, as sent, once its media type, its coding and its size are checked: a content
    coding (``Content-Encoding: gzip``) is refused, not guessed at."""
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
    request.environ[BODY_BYTES] = len(raw)
    return raw


def big_body() -> bool:
    """Whether the request in hand has a body too big for its state to be read in the worker
    (``INLINE_BYTES``): as announced, or as read."""
    return max(request.content_length or 0, request.environ.get(BODY_BYTES, 0)) > INLINE_BYTES


def decoded(raw: bytes):
    """``raw`` decoded: 400 for what is not JSON (deeply nested JSON makes the decoder raise
    RecursionError: that is malformed too), 422 for a number that is not finite. It needs no request: a
    worker's search process decodes a big body too (service/rules.py)."""
    try:
        return orjson.loads(raw)  # the fast path: it refuses every number that is not finite
    except orjson.JSONDecodeError:
        pass  # the standard decoder says why, or accepts what orjson does not (nesting beyond 1024)
    try:
        data = json.loads(raw, parse_constant=reject_constant, parse_int=decoded_int)
    except RecursionError:
        raise of_kind(BadRequest("The body is not valid JSON: it is nested too deeply."), "bad-json") from None
    except ValueError as exc:
        raise of_kind(BadRequest(f"The body is not valid JSON: {exc}"), "bad-json") from None
    path = non_finite_path(data) if MAYBE_NOT_FINITE.search(raw) else None
    if path is not None:
        raise Unprocessable({path: ["Must be a finite number."]})
    if has_request_context() and nesting(data) > SENT_NESTING:
        request.environ[DEEP_BODY] = True
    return data


def deep_body() -> bool:
    """Whether the request in hand has a body nested too deeply (``SENT_NESTING``) for the worker to send
    its parts to a search process unread: its state is read here, and refused by its game."""
    return request.environ.get(DEEP_BODY, False)


def nesting(data) -> int:
    """How deeply ``data`` nests objects and arrays (a number: 0; ``[]``: 1). Iterative: the standard
    decoder reads nesting that a recursive walk could not."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def non_finite_path(data) -> str | None:
    """The path (``state.root.children[0].value``) of a number that is not finite, if any.
    Iterative, because the decoder accepts nesting deeper than Python's recursion limit allows here; paths
    are kept as links to the parent's and spelt out only for the culprit, so a wide body costs little."""
    if isinstance(data, (int, float)):
        return None if is_finite(data) else "body"
    if not isinstance(data, (dict, list)):
        return None
    stack: list[tuple[dict | list, tuple | None]] = [(data, None)]  # (container, link); a link is (key or index, the parent's link)
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
