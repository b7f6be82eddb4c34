"""``POST /v1/search/batch``, through the app (every answer checked against the spec): its answers are
those of single searches, its errors name the search at fault, and it shares the worker's slot fairly."""
import threading
import time

from openapi_schema_validator import OAS31Validator
import pytest

from service.admission import Admission
from service.schemas import MAX_BATCH_SEARCHES
from service.spec import load_spec
from tests.service.readme_examples import parse_events, stable
from tests.service.support import ValidatingClient, make_app

SPEC = load_spec()
TICTACTOE = {"game": "tictactoe", "state": {"board": ["X.O", "...", "..."], "k": 3}, "algorithm": {"name": "minimax"}}
CONNECT4 = {"game": "connect4", "state": {"moves": "4453"}, "algorithm": {"name": "alphabeta", "depth": 6}}


def test_the_answers_are_those_of_single_searches_in_order(client):
    body = client.post("/v1/search/batch", json={"searches": [TICTACTOE, CONNECT4, TICTACTOE]}).get_json()
    singles = [client.post("/v1/search", json=search).get_json() for search in (TICTACTOE, CONNECT4, TICTACTOE)]
    assert [stable(r) for r in body["results"]] == [stable(s) for s in singles]
    assert body["results"][1]["algorithm"] == singles[1]["algorithm"]
    assert body["stats"]["searches"] == 3
    assert body["stats"]["nodes"] == sum(r["stats"]["nodes"] for r in body["results"])


def test_the_stream_sends_each_answer_then_the_plain_route_s_body(client):
    response = client.post("/v1/search/batch/stream", json={"searches": [TICTACTOE, CONNECT4]})
    assert response.mimetype == "text/event-stream"
    events = parse_events(response.get_data(as_text=True))
    assert [name for name, _ in events] == ["search", "search", "result"]
    assert [data["index"] for _, data in events[:2]] == [0, 1]
    for _, data in events[:2]:
        validate("BatchItem", data)
    validate("BatchResponse", events[-1][1])
    assert [data["result"] for _, data in events[:2]] == events[-1][1]["results"]
    plain = client.post("/v1/search/batch", json={"searches": [TICTACTOE, CONNECT4]}).get_json()
    assert [stable(r) for r in events[-1][1]["results"]] == [stable(r) for r in plain["results"]]


def validate(schema: str, data: dict) -> None:
    OAS31Validator({"$ref": f"#/components/schemas/{schema}", "components": SPEC["components"]}).validate(data)


@pytest.mark.parametrize("route", ["/v1/search/batch", "/v1/search/batch/stream"])
@pytest.mark.parametrize("searches, field", [
    ([], "searches"),
    ([TICTACTOE] * (MAX_BATCH_SEARCHES + 1), "searches"),
    ([TICTACTOE, {**CONNECT4, "state": {"moves": "4444444"}}], "searches[1].state.moves"),
    ([TICTACTOE, {**CONNECT4, "algorithm": {"name": "alphabeta", "depth": 0}}], "searches[1].algorithm.depth"),
    ([{**TICTACTOE, "time_limit_ms": 10_001}], "searches[0].time_limit_ms"),
    ([{**TICTACTOE, "game": "shogi"}], "searches[0].game"),
    ([{"game": "2048", "state": {"board": [[2, 0, 0, 0]] + [[0] * 4] * 3}, "algorithm": {"name": "alphabeta"}}],
     "searches[0].algorithm.name"),
    ([{**TICTACTOE, "state": {"board": ["XXX", "OO.", "..."]}}], "searches[0].state"),
    ([TICTACTOE, "all"], "searches[1]"),
])
def test_bad_input_is_a_422_naming_the_search_and_field(client, route, searches, field):
    response = client.post(route, json={"searches": searches})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert field in response.get_json()["errors"], response.get_json()


def test_a_batch_does_not_starve_a_single_search():
    """One search slot: a batch of four 300 ms searches runs; a single search that arrives meanwhile waits
    for the batch's current search only, not for the whole batch. The batch's searches are MCTS without an
    iteration cap, which ends at its time limit (alpha-beta's deepening may stop a pass early)."""
    app = make_app(SEARCHES_PER_WORKER=1, MAX_WAITING_SEARCHES=4)
    long = {"game": "connect4", "state": {"moves": ""}, "algorithm": {"name": "mcts"}, "time_limit_ms": 300}
    ended = {}

    def batch():
        response = app.test_client().post("/v1/search/batch", json={"searches": [long] * 4})
        ended["batch"] = (time.perf_counter(), response.status_code)

    thread = threading.Thread(target=batch)
    since = time.perf_counter()
    thread.start()
    time.sleep(0.1)
    asked = time.perf_counter()
    single = app.test_client().post("/v1/search", json={**CONNECT4, "time_limit_ms": 5000})
    answered = time.perf_counter()
    thread.join()
    assert single.status_code == 200 and ended["batch"][1] == 200
    # it waited for the batch's current search only: two or more of the batch's searches ran after it
    assert ended["batch"][0] - answered > 0.5, (answered - asked, ended["batch"][0] - answered)
    assert ended["batch"][0] - since > 0.9     # four searches of 300 ms (less what each waited for its turn)


def test_waiting_searches_go_first_between_a_request_s_searches():
    gate = Admission(slots=1, max_waiting=2, retry_after_s=1)
    order = []

    def single():
        with gate.search(5.0):
            order.append("single")

    ticket = gate.let_in()
    with gate.search(5.0, ticket):
        kept = gate.keep_place()
        waiter = threading.Thread(target=single)
        waiter.start()
        while gate.waiting == 0:
            time.sleep(0.001)
        assert gate.tickets == 1                      # the request keeps its place meanwhile
    gate.let_others_first(5.0)
    with gate.search(5.0, kept):
        order.append("next of the request")
    waiter.join()
    assert order == ["single", "next of the request"]
    assert (gate.tickets, gate.waiting, gate.running) == (0, 0, 0)


def test_with_no_one_waiting_the_next_search_goes_at_once():
    gate = Admission(slots=1, max_waiting=1, retry_after_s=1)
    since = time.perf_counter()
    gate.let_others_first(5.0)
    assert time.perf_counter() - since < 0.05


def test_the_client_s_limit_counts_each_search_of_a_batch():
    """Each search of a batch is charged as a single search is: two that spend 600 ms each are over a
    budget of one search-second a minute."""
    client = ValidatingClient(make_app(SEARCH_SECONDS_PER_CLIENT_MINUTE=1))
    spends_its_time = {"game": "connect4", "state": {"moves": ""}, "algorithm": {"name": "alphabeta"},
                       "time_limit_ms": 600}
    response = client.post("/v1/search/batch", json={"searches": [spends_its_time] * 2})
    assert response.status_code == 429 and response.headers["Retry-After"]


def test_a_trace_past_its_limits_names_the_search_at_fault():
    """Issue 54: a trace past MAX_TRACE_ENTRIES is a 422; found only as the search runs, it names it too."""
    client = ValidatingClient(make_app(MAX_TRACE_ENTRIES=10))
    response = client.post("/v1/search/batch", json={"searches": [CONNECT4, {**TICTACTOE, "trace": True}]})
    assert response.status_code == 422
    assert "MAX_TRACE_ENTRIES (10)" in response.get_json()["errors"]["searches[1].trace"][0]
