"""Progress reports and cancellation, through the deadline a search is given (engine.deadline.Deadline)."""
import threading
import time

import pytest

from engine.api import Search, search
from engine.deadline import Deadline, Timeout

FIGURE_5_2 = {"root": {"id": "A", "type": "max", "children": [
    {"id": "B", "type": "min", "children": [{"value": 3}, {"value": 12}, {"value": 8}]},
    {"id": "C", "type": "min", "children": [{"value": 2}, {"value": 4}, {"value": 6}]},
    {"id": "D", "type": "min", "children": [{"value": 14}, {"value": 5}, {"value": 2}]}]}}


def test_a_cancelled_deadline_expires_with_every_part_shared_out_of_it():
    deadline = Deadline(None)
    part = deadline.share(0.5)
    deadline.check()
    part.check()
    deadline.cancel()
    for expired in (deadline, part, deadline.share(0.5)):
        assert expired.expired() and expired.remaining() == 0.0
        with pytest.raises(Timeout):
            expired.check()


def test_reports_reach_the_listener_with_the_time_so_far():
    heard = []
    deadline = Deadline(None, on_progress=heard.append)
    deadline.report(depth=2, value=1.5, move=3, pv=[3, 4], nodes=10)
    deadline.share(0.5).report(depth=3, value=1.0, move=3, pv=[3], nodes=20)
    assert [(p.depth, p.nodes, p.pv) for p in heard] == [(2, 10, [3, 4]), (3, 20, [3])]
    assert all(p.time_ms >= 0 for p in heard)
    Deadline(None).report(depth=1, value=0.0, move=0, pv=[0], nodes=1)  # nobody listens: nothing happens


@pytest.mark.parametrize("game, state, algorithm, key", [
    ("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 6}, "depth"),
    ("tictactoe", {"board": ["X..", ".O.", "..."]}, {"name": "expectimax"}, "depth"),
    ("tictactoe", {"board": ["X..", ".O.", "..."]}, {"name": "maxn"}, "depth"),
    ("connect4", {"moves": "44"}, {"name": "mcts", "iterations": 3000, "seed": 3}, "iterations"),
])
def test_searches_report_each_iteration_and_end_where_the_result_is(game, state, algorithm, key):
    heard = []
    result = search(game, state, algorithm, time_limit_ms=5000, on_progress=heard.append)
    steps = [getattr(p, key) for p in heard]
    assert len(steps) >= 2 and steps == sorted(set(steps))
    assert all(isinstance(p.move, int) for p in heard)  # moves in JSON form
    if key == "depth":
        last = heard[-1]
        assert (last.move, last.value, last.pv, last.nodes) == (result.move, result.value, result.pv,
                                                                 result.stats.nodes)


def test_tree_moves_are_reported_by_their_labels():
    heard = []
    search("tree", FIGURE_5_2, {"name": "expectimax", "opponent_model": "minimax"}, on_progress=heard.append)
    assert [p.move for p in heard] == ["B"]


def test_cancel_from_another_thread_stops_a_search_at_its_next_poll():
    prepared = Search("tictactoe", {"board": ["." * 7] * 7, "k": 4}, {"name": "minimax"}, time_limit_ms=10_000)
    threading.Timer(0.2, prepared.cancel).start()
    started = time.perf_counter()
    result = prepared.run()
    assert time.perf_counter() - started < 1.0 and result.stats.timed_out
