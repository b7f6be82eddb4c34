"""Issue 50, item 3: answers and errors bounded by what the service promises, not by what a request
sends: a root of 80,000 moves lists MAX_LISTED_MOVES of them (writing 80,000 took a second past the
deadline, and 8 MB), and a list of half a million items is refused by its length before its items are read
(a 31.7 MB 422 after 18.5 s), its errors capped."""
import json
import time

import pytest

import engine.api
from engine.limits import MAX_LISTED_MOVES
from engine.result import MoveValue
from service.serialize import search_response

WIDE = 80_000
FLAT_MAX = {"root": {"type": "max", "children": [{"value": i % 7} for i in range(WIDE)]}}
FLAT_MIN = {"root": {"type": "min", "children": [{"value": i % 7} for i in range(WIDE)]}}


def post(client, path: str, body) -> tuple:
    """The response to ``body`` (encoded once, compactly) and its wall time."""
    data = body if isinstance(body, str) else json.dumps(body, separators=(",", ":"))
    started = time.perf_counter()
    response = client.post(path, data=data, content_type="application/json")
    return response, time.perf_counter() - started


@pytest.mark.parametrize("tree, best", [(FLAT_MAX, 6.0), (FLAT_MIN, 0.0)], ids=["max", "min"])
@pytest.mark.parametrize("algorithm", [{"name": "minimax", "core": "python"}, {"name": "minimax"},
                                       {"name": "alphabeta"}, {"name": "expectimax"}])
def test_a_root_of_80000_moves_lists_the_best_500(app, tree, best, algorithm):
    response, _ = post(app.test_client(), "/v1/search",
                       {"game": "tree", "state": tree, "algorithm": algorithm, "time_limit_ms": 10_000})
    answer = response.get_json()
    assert response.status_code == 200 and not answer["stats"]["timed_out"]
    assert len(answer["moves"]) == MAX_LISTED_MOVES and len(response.data) < 100_000  # 8.1 MB before
    listed = [m["move"] for m in answer["moves"]]
    assert answer["move"] in listed and listed == sorted(listed)  # the search's order
    if algorithm["name"] in ("minimax", "expectimax"):  # exact values: the best are those valued as the root
        assert answer["value"] == best and {m["value"] for m in answer["moves"]} == {best}


def test_mcts_lists_the_most_visited():
    moves = [MoveValue(k, 0.5, visits=k % 1000) for k in range(WIDE)]
    listed = engine.api.listed_moves(moves, 3, 0.5)
    assert len(listed) == MAX_LISTED_MOVES and listed[0].move == 3
    assert min(mv.visits for mv in listed[1:]) >= 999 - WIDE // 1000


def test_a_root_of_few_moves_lists_them_all(client, figure_5_2):
    answer = client.post("/v1/search", json={"game": "tree", "state": figure_5_2,
                                              "algorithm": {"name": "minimax"}}).get_json()
    assert [m["move"] for m in answer["moves"]] == ["B", "C", "D"]


def test_writing_the_answer_of_an_80000_move_root_takes_milliseconds():
    """What the worker writes once the search is done: within the README's 25 ms margin with room to
    spare on a quick idle CPU; asserted with a generous margin for a slow, shared one (it took a second)."""
    result = engine.api.search("tree", FLAT_MAX, {"name": "minimax"}, time_limit_ms=10_000)
    assert len(result.moves) == MAX_LISTED_MOVES
    runs = []
    for _ in range(3):
        started = time.process_time()
        json.dumps(search_response(result, {"name": "minimax"}, False, "tree"))
        runs.append(time.process_time() - started)
    assert min(runs) < 0.1, runs


def test_an_80000_move_root_is_answered_near_its_limit(app):
    """The search runs out of time reading or searching the tree, and the answer follows soon after (it
    came 956 ms after a 500 ms limit); a generous margin for a slow shared CPU."""
    client = app.test_client()
    body = json.dumps({"game": "tree", "state": FLAT_MAX, "algorithm": {"name": "minimax", "core": "python"},
                       "time_limit_ms": 500}, separators=(",", ":"))
    post(client, "/v1/search", body)  # the search processes started
    response, seconds = min((post(client, "/v1/search", body) for _ in range(3)), key=lambda run: run[1])
    assert response.status_code == 200 and len(response.data) < 100_000
    assert seconds < 0.5 + 0.4, seconds


MIB = 1 << 20


def ones(key: str, count: int, **rest) -> str:
    """A body whose ``key`` is a list of ``count`` ``1``s, as JSON text."""
    head = json.dumps(rest, separators=(",", ":"))[:-1] + ("," if rest else "")
    return head + f'"{key}":[' + ",".join(["1"] * count) + "]}"


TICTACTOE = {"board": ["...", "...", "..."]}


@pytest.mark.parametrize("path, body, field", [
    ("/v1/search/batch", ones("searches", 524_000), "searches"),                        # 1 MiB
    ("/v1/games/tictactoe/apply", ones("moves", 400_000, state=TICTACTOE), "moves"),
    ("/v1/review", ones("moves", 400_000, game="tictactoe", state=TICTACTOE, algorithm={"name": "alphabeta"}),
     "moves"),
])
def test_a_list_too_long_is_refused_by_its_length_first(app, path, body, field):
    """Its items are not read: a short 422 on the list, at once (18.5 s and 31.7 MB for the batch, about
    3 s for the moves; the time asserted with a generous margin for a slow shared CPU)."""
    assert len(body) < MIB
    response, seconds = post(app.test_client(), path, body)
    assert response.status_code == 422 and len(response.data) < 1024
    assert list(response.get_json()["errors"]) == [field]
    assert seconds < 1.0, seconds


def test_a_422_lists_ten_errors_and_says_how_many_there_are(client):
    """32 searches, each wrong: ten are named, and the detail counts them all."""
    response, _ = post(client, "/v1/search/batch", {"searches": [1] * 32})
    problem = response.get_json()
    assert response.status_code == 422 and len(problem["errors"]) == 10
    assert "32 errors; the first 10 are listed" in problem["detail"]


def test_unknown_settings_by_the_thousand_are_a_short_422(client):
    """80,000 unknown settings (a 1 MiB body) were a 15 MB 422 naming each one."""
    algorithm = {"name": "alphabeta", **{f"k{i}": 1 for i in range(80_000)}}
    response, _ = post(client, "/v1/search", {"game": "tictactoe", "state": TICTACTOE, "algorithm": algorithm})
    problem = response.get_json()
    assert response.status_code == 422 and problem["type"].endswith("/unknown-setting")
    assert len(problem["errors"]) == 10 and len(response.data) < 4096
    assert "80000 errors" in problem["detail"]
