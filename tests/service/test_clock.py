"""Issue 53, item 3: a search may carry the mover's ``clock`` instead of ``time_limit_ms``; the engine allots
the move's time from it (engine.clock), never runs past the allotment's hard limit, and says what it
allotted and used. Through the app and its served spec (every answer is validated against it), and on a
real server for the stream."""
import json

import pytest

from engine.clock import Clock, allot, hard_cap_ms
from tests.service.support import ValidatingClient, make_app

CHESS = {"game": "chess", "state": {}, "algorithm": {"name": "auto"}}
MARGIN_MS = 60   # the README's promise past a limit, and some room for a loaded machine


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def test_a_search_under_a_clock_allots_its_time_and_says_so(client):
    clock = {"remaining_ms": 4000, "increment_ms": 100}
    response = client.post("/v1/search", json={**CHESS, "clock": clock})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    expected = allot(Clock(**clock), ply=0)
    assert body["clock"]["allotted_ms"] == pytest.approx(expected.soft_ms, abs=1e-3)
    assert body["clock"]["limit_ms"] == pytest.approx(expected.hard_ms, abs=1e-3)
    assert body["clock"]["used_ms"] == body["stats"]["time_ms"] <= expected.hard_ms + MARGIN_MS
    assert body["stats"]["stop_reason"] in ("clock", "time_limit")
    assert (body["stats"]["stop_reason"] == "clock") == (not body["stats"]["timed_out"])


def test_the_game_s_progress_shortens_the_allotment_in_chess():
    """From move 60 on the clock expects 20 moves left, not 40: twice the time a move."""
    opening, late = allot(Clock(60_000), ply=0), allot(Clock(60_000), ply=120)
    assert late.soft_ms == pytest.approx(2 * opening.soft_ms)


def test_a_last_move_before_the_control_may_take_most_of_the_time_but_never_all_of_it():
    clock = Clock(remaining_ms=1000, moves_to_go=1)
    assert allot(clock).hard_ms == hard_cap_ms(clock) == pytest.approx(0.8 * (1000 - 30))


def test_mcts_runs_the_soft_limit(client):
    response = client.post("/v1/search", json={"game": "connect4", "state": {"moves": "44"},
                                               "algorithm": {"name": "mcts"}, "clock": {"remaining_ms": 2000}})
    body = response.get_json()
    assert response.status_code == 200 and body["clock"]["limit_ms"] == body["clock"]["allotted_ms"]
    assert body["stats"]["time_ms"] <= body["clock"]["limit_ms"] + MARGIN_MS


def test_a_clock_never_lets_a_search_past_the_server_s_maximum(client):
    """A day on the clock and one move to go: the hard limit would be hours; MAX_TIME_LIMIT_MS (10 s here)
    bounds it, and a depth-limited search finishes well inside."""
    response = client.post("/v1/search", json={**CHESS, "algorithm": {"name": "alphabeta", "depth": 3},
                                               "clock": {"remaining_ms": 86_400_000, "moves_to_go": 1}})
    assert response.status_code == 200 and response.get_json()["stats"]["stop_reason"] == "completed"


def test_a_forced_move_is_answered_at_once_under_a_clock(client):
    state = "k7/8/8/8/8/8/1q6/K7 w - - 0 1"   # Kxb2, the only move
    response = client.post("/v1/search", json={**CHESS, "state": state, "clock": {"remaining_ms": 60_000}})
    body = response.get_json()
    assert body["move"] == "a1b2" and body["stats"]["stop_reason"] == "forced"
    assert body["stats"]["time_ms"] < body["clock"]["allotted_ms"]


@pytest.mark.parametrize("clock, field", [
    ({}, "clock.remaining_ms"),
    ({"remaining_ms": -1}, "clock.remaining_ms"),
    ({"remaining_ms": "1000"}, "clock.remaining_ms"),
    ({"remaining_ms": 1000, "increment_ms": 1e300}, "clock.increment_ms"),
    ({"remaining_ms": 1000, "moves_to_go": 0}, "clock.moves_to_go"),
    ({"remaining_ms": 1000, "moves_to_go": 2.5}, "clock.moves_to_go"),
    ({"remaining_ms": 1000, "wtime": 5}, "clock.wtime"),
    ([1000], "clock"),
])
def test_a_bad_clock_is_a_422_naming_its_field(client, clock, field):
    response = client.post("/v1/search", json={**CHESS, "clock": clock})
    assert response.status_code == 422 and field in response.get_json()["errors"], response.get_json()


def test_a_clock_and_a_time_limit_together_are_a_422(client):
    response = client.post("/v1/search", json={**CHESS, "clock": {"remaining_ms": 1000}, "time_limit_ms": 500})
    assert response.status_code == 422 and "clock" in response.get_json()["errors"]


def test_a_non_finite_remaining_time_is_a_422(client):
    body = json.dumps({**CHESS, "clock": {"remaining_ms": 1000}}).replace("1000", "1e999")
    response = client.post("/v1/search", data=body, headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 422) and response.get_json()["status"] in (400, 422)


def test_each_search_of_a_batch_may_carry_its_own_clock(client):
    searches = [{**CHESS, "clock": {"remaining_ms": 3000}}, {**CHESS, "time_limit_ms": 50}]
    response = client.post("/v1/search/batch", json={"searches": searches})
    assert response.status_code == 200
    first, second = response.get_json()["results"]
    assert "clock" in first and "clock" not in second


def test_the_stream_of_a_search_under_a_clock_ends_with_its_clock(client):
    response = client.post("/v1/search/stream", json={**CHESS, "clock": {"remaining_ms": 3000}})
    events = [line for line in response.get_data(as_text=True).split("\n") if line.startswith("data: ")]
    final = json.loads(events[-1][len("data: "):])
    assert response.status_code == 200 and final["clock"]["used_ms"] <= final["clock"]["limit_ms"] + MARGIN_MS
