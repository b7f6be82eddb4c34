"""The worker's door (service/door.py): which request heads it judges, and a refusal written there is the
app's own. (Against a real gunicorn: tests/service/test_abuse_gunicorn.py.)"""
import json

from hypothesis import given, strategies as st
from prometheus_client import REGISTRY
import pytest
from werkzeug.test import Client

from service import door
from service.admission import admission
from service.fairness import fairness

BODY = b'{"game": "tictactoe", "state": {"board": ["...", "...", "..."]}, "algorithm": {"name": "minimax"}}'


def request(head_lines=(), target=b"/v1/search", body=BODY, length=True) -> bytes:
    head = [b"POST " + target + b" HTTP/1.1", b"Host: x", *head_lines]
    if length:
        head.append(b"Content-Length: " + str(len(body)).encode())
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def test_a_search_head_is_read_with_the_headers_a_refusal_needs():
    head = door.search_head(request([b"X-Request-ID: abc-1", b"x-api-key:  k1 "]))
    assert head == door.SearchHead("/v1/search", "abc-1", "k1", whole=True)
    assert door.search_head(request(target=b"/v1/search/stream?x=1")).route == "/v1/search/stream"


@pytest.mark.parametrize("data", [
    b"GET /v1/search HTTP/1.1\r\nHost: x\r\n\r\n",                  # not a search
    request(target=b"/v1/searches"),
    request(target=b"/v1/search/"),
    request(target=b"/v1/games/tictactoe/apply"),
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    request()[:40],                                                   # the head is not all there yet
    request([b"Origin: https://example.org"]),                        # a browser's: CORS is the app's
    request([b"X-API-Key: a", b"X-API-Key: b"]),                      # which one would the app use?
    request([b"X-Request-ID: a", b"x-request-id: b"]),
    request([b"X-Folded: a", b" continued"]),                         # obsolete line folding
    request([b"No colon here"]),
    request([b"Content-Length: 3"]),                                  # two lengths
])
def test_the_door_leaves_what_it_cannot_judge_to_the_app(data):
    assert door.search_head(data) is None


def test_a_search_is_whole_only_with_its_whole_body_at_hand():
    assert door.search_head(request()).whole
    assert not door.search_head(request()[:-1]).whole                # the body's last byte to come
    assert not door.search_head(request(length=False)).whole          # no length: a body of unknown size
    chunked = request([b"Transfer-Encoding: chunked"], body=b"2\r\n{}\r\n0\r\n\r\n", length=False)
    assert not door.search_head(chunked).whole


TOKEN = st.text(st.characters(whitelist_categories=("Lu", "Ll", "Nd"), max_codepoint=127), min_size=1, max_size=20)
OTHER_NAMES = st.sampled_from(["Accept", "User-Agent", "Content-Type", "X-Trace", "Accept-Encoding"])


@given(request_id=st.none() | TOKEN, api_key=st.none() | TOKEN,
       others=st.lists(st.tuples(OTHER_NAMES, TOKEN), max_size=5), upper=st.booleans())
def test_the_door_reads_what_the_client_sent(request_id, api_key, others, upper):
    """Against the request built from known parts, in any order and letter case of the names."""
    named = [(name, value) for name, value in (("X-Request-ID", request_id), ("X-API-Key", api_key)) if value]
    lines_ = [f"{name.upper() if upper else name.lower()}: {value}".encode() for name, value in named + others]
    head = door.search_head(request(lines_))
    assert head == door.SearchHead("/v1/search", request_id, api_key, whole=True)


def app_refusal(app, headers):
    """The app's own refusal of a search, its admission made full."""
    gate = admission(app)
    gate.tickets = gate.capacity
    try:
        return Client(app).post("/v1/search", data=BODY, headers={"Content-Type": "application/json", **headers})
    finally:
        gate.tickets = 0


def requests_counted(status: str) -> float:
    return REGISTRY.get_sample_value("tactician_http_requests_total",
                                     {"method": "POST", "route": "/v1/search", "status": status}) or 0.0


def test_a_refusal_at_the_door_is_the_apps(app, lines):
    """The same status, body and headers (but CORS, which the app adds only to requests the door leaves
    to it), the same log line and the same count in the metrics."""
    theirs = app_refusal(app, {"X-Request-ID": "id-1", "X-API-Key": "k1"})
    (their_line,) = lines()
    counted = requests_counted("503")
    gate = admission(app)
    raw = door.refusal(door.search_head(request([b"X-Request-ID: id-1", b"X-API-Key: k1"])), gate.refusal(),
                       fairness(app).key_of("k1", None), 0.0)
    head, body = raw.split(b"\r\n\r\n", 1)
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    ours = dict(line.split(": ", 1) for line in header_lines)
    assert status_line == "HTTP/1.1 503 SERVICE UNAVAILABLE" and theirs.status_code == 503
    assert json.loads(body) == theirs.get_json()
    assert ours["Connection"] == "close" and ours["Date"]
    for name in ("Content-Type", "Content-Length", "Retry-After", "X-Request-ID"):
        assert ours[name] == theirs.headers[name], name
    (_, our_line) = lines()
    assert {**our_line, "duration_ms": 0} == {**their_line, "duration_ms": 0}
    assert our_line["client"] == fairness(app).key_of("k1", None) == "addr:unknown"  # no keys: by address
    assert requests_counted("503") == counted + 1


def test_a_refusal_at_the_door_gives_a_new_request_id_for_an_insane_one(lines):
    raw = door.refusal(door.search_head(request([b"X-Request-ID: no spaces please"])),
                       door.ServiceUnavailable("full", retry_after=1), "addr:10.0.0.1", 0.0)
    (line,) = lines()
    assert line["request_id"] != "no spaces please" and f"X-Request-ID: {line['request_id']}".encode() in raw
    assert line["client"] == "addr:10.0.0.1"
