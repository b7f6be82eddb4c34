"""The worker's door: a search is let in or refused as it arrives, before any thread parses it.

A flood of searches used to be refused by the app: each refusal went through gunicorn's parser, a thread
of its own, Flask and the app's hooks, milliseconds of the worker's CPU, taking turns for the interpreter
with every other request of the burst and with the searches let in (their reading, their first
milliseconds, their processes' forks), so that the burst's last refusals came long after it
(bench/RESULTS.md, "The flood's first burst"). The worker's main thread, which accepts the connections,
now looks at each request's first bytes as they arrive (without reading them), and a search is let in
or refused there and then, in the order of arrival (service/worker.py): a refusal is written at once.

The door answers only what it can answer as the app would: a whole request head (request line and header
lines) of ``POST /v1/search`` or ``POST /v1/search/stream``, well-formed, without an ``Origin`` header (a
browser's request, whose CORS answer is the app's to give), each of the headers the refusal depends on
(``X-Request-ID``, ``X-API-Key``) sent at most once. Anything else goes to the app as before, which lets
the search in or refuses it itself. A search is let in at the door only if its whole request is at hand,
its body included (a client that sends its body slowly must not hold a place meanwhile); otherwise the app
lets it in once it has read the body, as before. A refusal at the door is the app's: the same
problem+json body and ``Retry-After`` (service/admission.py), the request's ``X-Request-ID`` echoed, the
same request log line (service/request_log.py) and metrics (service/metrics.py); its connection is then
closed, since its body was never read.
"""
from dataclasses import dataclass
import re

from gunicorn.util import http_date
from werkzeug.exceptions import ServiceUnavailable

from service.errors import PROBLEM_JSON, own_headers, problem_text
from service.fairness import API_KEY_HEADER
from service.metrics import count_request
from service.request_log import REQUEST_ID, request_id, request_line, write

# How much of a request the door looks at: a head longer than this goes to the app.
PEEK_BYTES = 8192
# The request line of a search, then header lines (RFC 9110 field names; no obsolete line folding), then
# the empty line that ends the head.
SEARCH_HEAD = re.compile(rb"POST (/v1/search(?:/stream)?)(?:\?[^ \r\n]*)? HTTP/1\.[01]\r\n"
                         rb"((?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\r\n]*\r\n)*?)\r\n")
ORIGIN = "origin"
NEEDED = (REQUEST_ID.lower(), API_KEY_HEADER.lower(), "content-length")


@dataclass(frozen=True)
class SearchHead:
    """What the door needs of a search's request: its route and the headers a refusal depends on, and
    whether the whole request is at hand (its head and a body of known length)."""
    route: str
    request_id: str | None
    api_key: str | None
    whole: bool


def search_head(data: bytes) -> SearchHead | None:
    """The head of the search request at the start of ``data``, or None if the door cannot judge it
    (another request, a head not all there, a browser's ``Origin``, a needed header sent twice)."""
    match = SEARCH_HEAD.match(data)
    if match is None:
        return None
    headers = {}
    for line in match.group(2).split(b"\r\n")[:-1]:
        name, value = line.split(b":", 1)
        name = name.decode("latin-1").lower()
        if name == ORIGIN or (name in headers and name in NEEDED):
            return None
        headers[name] = value.strip(b" \t").decode("latin-1")
    length = headers.get("content-length", "")
    whole = length.isdigit() and "transfer-encoding" not in headers and match.end() + int(length) <= len(data)
    return SearchHead(match.group(1).decode(), headers.get(NEEDED[0]), headers.get(NEEDED[1]), whole)


def refusal(head: SearchHead, error: ServiceUnavailable, client: str, arrived: float) -> bytes:
    """The response refusing the search of ``head`` with ``error`` (as the app's would: the body, its
    headers, the log line and the metrics), for a client whose key is ``client``
    (:meth:`service.fairness.Fairness.key_of`) and whose request ``arrived`` at this
    ``time.perf_counter()``."""
    body = problem_text(error.code, error.name, error.description,
                        kind=getattr(error, "problem_kind", None)).encode()  # the app's kind (busy...)
    rid = request_id(head.request_id)
    headers = [("Date", http_date()), ("Connection", "close"), *own_headers(error).items(),
               ("Content-Type", PROBLEM_JSON), ("Content-Length", str(len(body))), (REQUEST_ID, rid)]
    response = (f"HTTP/1.1 {error.code} {error.name.upper()}\r\n"
                + "".join(f"{name}: {value}\r\n" for name, value in headers) + "\r\n").encode("latin-1") + body
    write(request_line(rid, "POST", head.route, error.code, client), arrived, {})
    count_request("POST", head.route, error.code, arrived)
    return response
