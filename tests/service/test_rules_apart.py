"""service/rules.py: a rules request with a big body (a big state) is answered in one of the worker's
search processes, admitted as a search is, so that reading its state does not hold the worker's
interpreter (issue 34, item 8); a small one in the worker's thread. Either way, the same answer and the
same errors."""
import json

import pytest

import engine.api
from engine.limits import Limits
import service.body
from service.admission import admission
from service.search_pool import SearchPool

from tests.service.support import TEST_SETTINGS, parse_events


def wide_tree(leaves: int, bad_leaf: int | None = None) -> dict:
    """A MAX root over MIN nodes of 10 leaves each; leaf ``bad_leaf`` (if given) has no number."""
    values = [{"value": (i * 37) % 101 - 50} for i in range(leaves)]
    if bad_leaf is not None:
        values[bad_leaf] = {"value": "high"}
    return {"root": {"type": "max", "children": [
        {"id": f"n{k}", "type": "min", "children": values[k:k + 10]} for k in range(0, leaves, 10)]}}


BIG = wide_tree(4000)


@pytest.fixture
def runs(monkeypatch, fresh_search_pools):
    """The tasks the search processes were given (the route each answered)."""
    given = []
    real = SearchPool.run

    def spy(pool, task, arguments, wait_s=None):
        given.append(arguments["route"])
        return real(pool, task, arguments, wait_s)
    monkeypatch.setattr(SearchPool, "run", spy)
    return given


def inline(monkeypatch):
    """From now on every body is answered in the worker's thread, as every one was before."""
    monkeypatch.setattr(service.body, "INLINE_BYTES", 1 << 30)


def test_the_big_tree_is_a_big_body_and_the_textbook_one_a_small_one(figure_5_2):
    assert len(json.dumps({"state": BIG})) > service.body.INLINE_BYTES
    assert len(json.dumps({"state": figure_5_2})) <= service.body.INLINE_BYTES


def test_a_big_state_s_legal_moves_are_answered_by_a_search_process_as_the_engine_answers(client, runs):
    response = client.post("/v1/games/tree/legal-moves", json={"state": BIG})
    assert response.status_code == 200
    assert response.get_json() == engine.api.legal_moves("tree", BIG, Limits(max_tree_nodes=100_000))
    assert runs == ["legal-moves"]


def test_a_big_state_s_moves_are_applied_by_a_search_process_as_in_the_worker(client, runs, monkeypatch):
    body = {"state": BIG, "moves": ["n10", 3]}   # the second MIN node (its first leaf is the tenth), its fourth leaf
    apart = client.post("/v1/games/tree/apply", json=body)
    inline(monkeypatch)
    here = client.post("/v1/games/tree/apply", json=body)
    assert apart.status_code == here.status_code == 200
    assert apart.get_data() == here.get_data()
    assert apart.get_json()["state"] == {"root": {"value": BIG["root"]["children"][1]["children"][3]["value"]}}
    assert runs == ["apply"]


def test_a_small_state_is_answered_in_the_worker(client, runs, figure_5_2):
    assert client.post("/v1/games/tree/legal-moves", json={"state": figure_5_2}).get_json()["legal_moves"] == ["B", "C", "D"]
    assert client.post("/v1/games/tree/apply", json={"state": figure_5_2, "move": "C"}).status_code == 200
    assert runs == []


@pytest.mark.parametrize("route, body, status", [
    ("legal-moves", {"state": wide_tree(4000, bad_leaf=3217)}, 422),             # the engine's error
    ("apply", {"state": BIG, "move": "n10", "moves": ["n10"]}, 422),               # the schema's
    ("legal-moves", {"state": BIG, "options": {"depth": 3}}, 422),                 # an unknown option
    ("apply", {"state": BIG, "move": "nowhere"}, 422),                             # an illegal move
])
def test_a_big_request_s_errors_are_those_the_worker_gives(client, runs, monkeypatch, route, body, status):
    apart = client.post(f"/v1/games/tree/{route}", json=body)
    inline(monkeypatch)
    here = client.post(f"/v1/games/tree/{route}", json=body)
    assert apart.status_code == here.status_code == status
    assert apart.get_json() == here.get_json()
    assert runs == [route]


def test_a_big_body_that_is_not_json_is_a_400_from_its_search_process(client, runs):
    raw = json.dumps({"state": BIG})[:-1].encode()  # cut short
    response = client.post("/v1/games/tree/legal-moves", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["type"].endswith("/bad-json")
    assert runs == ["legal-moves"]


def test_a_big_request_is_refused_at_once_when_the_worker_has_no_room_and_a_small_one_is_not(
        client, app, runs, figure_5_2):
    gate = admission(app)
    tickets = []
    while (ticket := gate.let_in()) is not None:
        tickets.append(ticket)
    try:
        refused = client.post("/v1/games/tree/legal-moves", json={"state": BIG})
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == str(TEST_SETTINGS["DEFAULT_TIME_LIMIT_MS"] // 1000)
        assert client.post("/v1/games/tree/legal-moves", json={"state": figure_5_2}).status_code == 200
    finally:
        for ticket in tickets:
            ticket.release()
    assert runs == []
    assert client.post("/v1/games/tree/legal-moves", json={"state": BIG}).status_code == 200
    assert gate.tickets == gate.waiting == gate.running == 0


SEARCH = {"game": "tree", "state": BIG, "algorithm": {"name": "alphabeta"}, "time_limit_ms": 5000}
BAD_LEAF = "state.root.children[321].children[7].value"


@pytest.fixture
def read_here(monkeypatch, fresh_search_pools):
    """The states read in this process (``engine.api.Search``), from now on."""
    read = []
    real = engine.api.Search

    def spy(*args, **kwargs):
        read.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(engine.api, "Search", spy)
    return read


def test_a_big_state_s_search_is_read_in_a_search_process_only(client, read_here):
    """``POST /v1/search`` read the state in the worker (to choose where the search runs) and then again
    in the search process: a big tree held the worker's interpreter as a rules request did."""
    expected = engine.api.search("tree", BIG, {"name": "alphabeta"}, time_limit_ms=5000)
    read_here.clear()
    response = client.post("/v1/search", json=SEARCH)
    assert response.status_code == 200
    answer = response.get_json()
    assert (answer["move"], answer["value"], answer["pv"]) == (expected.move, expected.value, expected.pv)
    bad = client.post("/v1/search", json={**SEARCH, "state": wide_tree(4000, bad_leaf=3217)})
    assert bad.status_code == 422 and list(bad.get_json()["errors"]) == [BAD_LEAF]
    assert read_here == []


def test_a_big_state_s_stream_is_read_in_a_search_process_and_its_errors_come_before_it(client, read_here):
    """``POST /v1/search/stream`` too: its request's errors are still a problem+json answer, not an event."""
    bad = client.post("/v1/search/stream", json={**SEARCH, "state": wide_tree(4000, bad_leaf=3217)})
    assert bad.status_code == 422 and list(bad.get_json()["errors"]) == [BAD_LEAF]
    response = client.post("/v1/search/stream", json=SEARCH)
    text = response.get_data(as_text=True)
    response.close()
    assert response.status_code == 200
    events = parse_events(text)
    assert [name for name, _ in events if name != "info"] == ["result"]
    expected = client.post("/v1/search", json=SEARCH).get_json()
    assert (events[-1][1]["move"], events[-1][1]["value"]) == (expected["move"], expected["value"])
    assert read_here == []


def test_a_fault_in_a_big_request_s_process_is_a_500_and_the_next_request_is_answered(client, monkeypatch,
                                                                                        fresh_search_pools):
    def fault(*args, **kwargs):
        raise RuntimeError("a bug")
    monkeypatch.setattr(engine.api, "legal_moves", fault)  # before the fork: the processes have it
    response = client.post("/v1/games/tree/legal-moves", json={"state": BIG})
    assert response.status_code == 500 and response.get_json()["type"].endswith("/internal")
    assert "a bug" not in response.get_data(as_text=True)
    assert client.post("/v1/games/tree/apply", json={"state": BIG, "move": "n10"}).status_code == 200
