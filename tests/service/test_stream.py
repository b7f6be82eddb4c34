"""``POST /v1/search/stream``: progress events then the ``/v1/search`` body, in-process and on a real
server; a client that goes away stops the search at once."""
import time

from openapi_schema_validator import OAS31Validator
import pytest
import requests

from service.spec import load_spec
from tests.service.server import logged, one_search_slot
from tests.service.support import FIGURE_5_2, ValidatingClient, make_app
from tests.service.support import parse_events as parse

TIMINGS = ("time_ms", "nodes_per_second")  # the only fields two runs of the same search may differ in
SEEDED_MCTS = {"game": "connect4", "state": {"moves": "4453"},
               "algorithm": {"name": "mcts", "iterations": 2500, "seed": 7}, "time_limit_ms": 10000}
DEEPENING = {"game": "connect4", "state": {"moves": "4453"}, "algorithm": {"name": "alphabeta", "depth": 7},
             "time_limit_ms": 10000}
ENDLESS = {"game": "tictactoe", "state": {"board": ["." * 7] * 7, "k": 4}, "algorithm": {"name": "minimax"},
           "time_limit_ms": 10000}  # no progress events, and far from done after ten seconds


def without_timings(body: dict) -> dict:
    return {**body, "stats": {k: v for k, v in body["stats"].items() if k not in TIMINGS}}


def spec_validator(name: str) -> OAS31Validator:
    components = load_spec()["components"]
    return OAS31Validator({"$ref": f"#/components/schemas/{name}", "components": components})


INFO, RESPONSE, PROBLEM = (spec_validator(name) for name in ("SearchInfo", "SearchResponse", "Problem"))


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def streamed(client, request: dict):
    """The response to a streamed search and its text, closed as a WSGI server closes it once sent."""
    response = client.post("/v1/search/stream", json=request)
    text = response.get_data(as_text=True)
    response.close()
    return response, text


def check_against_the_spec(events: list) -> None:
    """Every event's data is what openapi.yaml says it is."""
    for name, data in events:
        {"info": INFO, "result": RESPONSE, "error": PROBLEM}[name].validate(data)


def test_deepening_reports_each_depth_then_the_search_body(client):
    response, text = streamed(client, DEEPENING)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    events = parse(text)
    check_against_the_spec(events)
    infos = [data for name, data in events if name == "info"]
    assert [e for e, _ in events] == ["info"] * len(infos) + ["result"]
    assert [info["depth"] for info in infos] == list(range(1, 8))
    assert [info["nodes"] for info in infos] == sorted(info["nodes"] for info in infos)
    final = events[-1][1]
    assert infos[-1]["move"] == final["move"] and infos[-1]["pv"] == final["pv"]
    assert infos[-1]["value"] == final["value"] and infos[-1]["nodes"] == final["stats"]["nodes"]
    body = client.post("/v1/search", json=DEEPENING).get_json()
    assert without_timings(final) == without_timings(body)


@pytest.mark.parametrize("algorithm", [{"name": "alphabeta", "depth": 4}, {"name": "alphabeta", "depth": 3, "multi_pv": 2},
                                       {"name": "alphabeta", "depth": 3, "core": "python"}])
def test_chess_progress_writes_its_lines_in_san(client, algorithm):
    """Issue 50 item 16: every info event carries the SAN of its line (and of its multi-PV lines), so that
    a client needs no /apply a move to read them."""
    request = {"game": "chess", "state": {"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"},
               "algorithm": algorithm, "time_limit_ms": 5000}
    events = parse(streamed(client, request)[1])
    check_against_the_spec(events)
    infos = [data for name, data in events if name == "info"]
    assert infos and all(len(info["pv_san"]) == len(info["pv"]) for info in infos)
    assert infos[-1]["pv_san"][0] == "Rd8#"
    for info in infos:
        assert all(len(line["pv_san"]) == len(line["pv"]) for line in info.get("lines", []))
    assert ("lines" in infos[-1]) == ("multi_pv" in algorithm)


@pytest.mark.parametrize("algorithm, game, state", [
    ({"name": "expectimax"}, "tictactoe", {"board": ["X..", ".O.", "..."]}),
    ({"name": "maxn", "depth": 3}, "tictactoe", {"board": ["X..", ".O.", "..."]}),
    ({"name": "expectimax", "depth": 2}, "2048", {"board": [[2, 2, 0, 0], [0, 4, 0, 0], [0] * 4, [0, 0, 0, 2]]}),
])
def test_expectimax_and_maxn_report_their_iterations(client, algorithm, game, state):
    events = parse(streamed(client, {"game": game, "state": state, "algorithm": algorithm,
                                     "time_limit_ms": 300})[1])
    check_against_the_spec(events)
    depths = [data["depth"] for name, data in events if name == "info"]
    assert depths and depths == sorted(set(depths))
    assert events[-1][0] == "result"


def test_mcts_reports_every_so_many_iterations(client):
    events = parse(streamed(client, SEEDED_MCTS)[1])
    check_against_the_spec(events)
    assert [data["iterations"] for name, data in events if name == "info"] == [1024, 2048]
    assert events[-1][0] == "result" and events[-1][1]["stats"]["iterations"] == 2500


def test_a_bad_request_is_a_problem_before_any_stream(client):
    response = client.post("/v1/search/stream", json={**DEEPENING, "algorithm": {"name": "alphabeta", "depth": 0}})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert "algorithm.depth" in response.get_json()["errors"]
    over = client.post("/v1/search/stream", json={"game": "tictactoe", "state": {"board": ["XXX", "OO.", "..."]},
                                                  "algorithm": {"name": "minimax"}})
    assert over.status_code == 422 and "state" in over.get_json()["errors"]


def test_an_error_the_search_raises_is_an_error_event(client):
    chance_tree = {"root": {"type": "max", "children": [
        {"type": "chance", "children": [{"p": 0.5, "value": 1}, {"p": 0.5, "value": 3}]}, {"value": 2}]}}
    response, text = streamed(client, {"game": "tree", "state": chance_tree, "algorithm": {"name": "alphabeta"}})
    assert response.status_code == 200
    [(name, problem)] = parse(text)
    check_against_the_spec([(name, problem)])
    assert name == "error" and problem["status"] == 422 and "expectimax" in problem["errors"]["algorithm.name"][0]


def test_the_client_s_search_is_given_back_before_the_result_is_sent():
    """A front end that reads the result and asks for its next move at once (before the server has closed
    the stream) is not refused for the search it has just been answered: with one search per client,
    the next is admitted while the first stream is still open."""
    app = make_app(MAX_SEARCHES_PER_CLIENT=1)
    client = app.test_client()
    first = client.post("/v1/search/stream", json=DEEPENING, buffered=False)
    assert first.status_code == 200
    chunks = iter(first.response)
    while b"event: result" not in next(chunks):
        pass
    try:
        second = client.post("/v1/search", json={"game": "tree", "state": FIGURE_5_2,
                                                 "algorithm": {"name": "minimax"}})
        assert second.status_code == 200 and second.get_json()["value"] == 3
    finally:
        first.close()


def test_a_traced_tree_search_streams_the_trace(client):
    request = {"game": "tree", "state": FIGURE_5_2, "trace": True,
               "algorithm": {"name": "alphabeta", "move_ordering": False, "transposition_table": False}}
    events = parse(streamed(client, request)[1])
    assert events[-1][0] == "result" and events[-1][1]["stats"]["nodes"] == 11
    assert len(events[-1][1]["trace"]) == 11


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server's base URL and its log file; the one worker's search slot is what the disconnect test
    is about."""
    with one_search_slot(tmp_path_factory.mktemp("stream")) as served:
        yield served


@pytest.fixture(scope="module")
def server(served):
    return served[0]


def test_on_a_real_server_depths_increase_and_the_result_is_the_search_body(server):
    for request in (DEEPENING, SEEDED_MCTS):
        with requests.post(f"{server}/v1/search/stream", json=request, stream=True, timeout=30) as response:
            assert response.headers["Content-Type"].startswith("text/event-stream")
            events = parse(response.text)
        infos = [data for name, data in events if name == "info"]
        key = "depth" if request is DEEPENING else "iterations"
        assert len(infos) >= 2 and all(a[key] < b[key] for a, b in zip(infos, infos[1:]))
        body = requests.post(f"{server}/v1/search", json=request, timeout=30).json()
        assert events[-1][0] == "result" and without_timings(events[-1][1]) == without_timings(body)


def test_closing_the_stream_frees_the_only_worker_at_once(server):
    with requests.post(f"{server}/v1/search/stream", json=ENDLESS, stream=True, timeout=30) as response:
        assert response.status_code == 200
        assert next(response.iter_content(chunk_size=None)).startswith(b": keep-alive")  # searching
    closed = time.monotonic()
    answer = requests.post(f"{server}/v1/search", timeout=30, json={
        "game": "tree", "state": FIGURE_5_2, "algorithm": {"name": "minimax"}})
    assert answer.status_code == 200 and answer.json()["value"] == 3
    assert time.monotonic() - closed < 2.0  # not the 10 s the abandoned search was given


def test_on_a_real_server_the_stream_s_log_line_has_the_search_s_figures(served):
    server, log_path = served
    with requests.post(f"{server}/v1/search/stream", json=DEEPENING, stream=True, timeout=30,
                       headers={"X-Request-ID": "stream-log-1"}) as response:
        result = parse(response.text)[-1][1]
    line = logged(log_path, "stream-log-1")
    assert (line["route"], line["status"], line["game"], line["algorithm"]) == (
        "/v1/search/stream", 200, "connect4", "alphabeta")
    assert line["nodes"] == result["stats"]["nodes"] and line["timed_out"] is False
