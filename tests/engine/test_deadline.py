"""Anytime behaviour: with a deadline every search answers a legal move, flagged when time ran out."""

import time

import pytest

from engine.api import load, search

HARD = [
    ("connect4", {"moves": ""}),
    ("tictactoe", {"board": ["." * 19] * 19, "k": 5}),
]
BACKGAMMON_SLACK_S = 0.06   # a shared test machine's noise; the fault was 0.3-1.4 s
ALGORITHMS = [{"name": "minimax"}, {"name": "alphabeta"},
              {"name": "alphabeta", "move_ordering": False, "transposition_table": False},
              {"name": "minimax", "depth": 3}]


@pytest.mark.parametrize("game_id, state", HARD)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_unbounded_search_returns_a_legal_move_within_110_ms(game_id, state, algorithm):
    load(game_id, state)  # build the game's tables first, as a warm server has
    r = search(game_id, state, algorithm, time_limit_ms=100)
    game, root = load(game_id, state)
    assert r.move in [game.move_to_json(m) for m in game.actions(root)]
    assert r.stats.time_ms <= 110
    assert r.stats.timed_out == (r.stats.stop_reason == "time_limit")
    if algorithm.get("depth") is None:
        assert r.stats.timed_out


@pytest.mark.parametrize("algorithm", ["expectimax", "auto", "mcts"])
def test_a_backgammon_search_returns_within_its_deadline_by_the_wall_clock(algorithm):
    """Measured around the call, not by ``stats.time_ms``: what the search leaves to free or to collect
    after it stops its clock counts too (issue 34: 33-80% late, the collector walking millions of objects
    that the move generator's reference cycles had left behind)."""
    start = {"to_move": "X", "dice": [3, 1]}
    load("backgammon", start)
    began = time.perf_counter()
    r = search("backgammon", start, {"name": algorithm}, time_limit_ms=1500)
    assert r.stats.timed_out
    assert time.perf_counter() - began <= 1.5 + BACKGAMMON_SLACK_S


def test_a_deadline_that_is_not_reached_changes_nothing():
    r = search("tictactoe", {"board": ["X..", ".O.", "..."]}, {"name": "alphabeta"}, time_limit_ms=5000)
    assert not r.stats.timed_out and r.stats.stop_reason in ("completed", "solved")
    assert r.outcome == "draw" and r.plies_to_end == 7


def test_check_room_refuses_a_step_that_would_end_past_the_deadline():
    from engine.deadline import Deadline, Timeout
    Deadline(None).check_room(1e9)                     # no deadline: any step fits
    Deadline(10.0).check_room(1.0)
    with pytest.raises(Timeout):
        Deadline(10.0).check_room(20.0)


def test_a_full_table_is_not_cleared_when_that_would_overrun_the_deadline(monkeypatch):
    """Clearing a big table cannot poll the clock, so it starts only if it fits before the deadline: made
    to look hopelessly slow, the first compaction of a small table stops the solve at once, flagged."""
    from engine.api import Limits
    from engine.search import negamax, solver
    monkeypatch.setattr(solver, "TABLE_SECONDS_PER_ENTRY", 1000.0)
    monkeypatch.setattr(negamax, "TABLE_SECONDS_PER_ENTRY", 1000.0)
    moves = "5562347631247347631431"
    python = {"name": "alphabeta", "core": "python"}   # the Python core's tables
    r = search("connect4", {"moves": moves}, python, time_limit_ms=60_000, limits=Limits(tt_max_entries=64))
    assert r.stats.timed_out and r.stats.stop_reason == "time_limit" and r.stats.time_ms < 5_000
    assert r.outcome is None
    unlimited = search("connect4", {"moves": moves}, python, limits=Limits(tt_max_entries=64))  # clears as before
    assert not unlimited.stats.timed_out and unlimited.outcome is not None


def test_a_solve_cut_short_counts_the_nodes_it_visited():
    """Eighteen stones in (24 plies left, the most the exact solve takes on: ``pvs.SOLVE_MAX_PLIES``), this
    position is far too big to solve in the third of 100 ms the solve may take: the answer comes from the heuristic deepening, but the nodes of the unfinished
    solve are counted too."""
    from engine.search import pvs
    r = search("connect4", {"moves": "652674124321743245"}, {"name": "alphabeta", "core": "python"},
               time_limit_ms=100)
    assert r.stats.timed_out and r.outcome is None and r.stats.depth_completed >= 4
    calls = []
    real = pvs.exact_solve

    def counted(*args):
        calls.append(args[-1].nodes)
        result = real(*args)
        calls.append(args[-1].nodes)
        return result

    pvs.exact_solve = counted
    try:
        r = search("connect4", {"moves": "652674124321743245"}, {"name": "alphabeta", "core": "python"},
               time_limit_ms=100)
    finally:
        pvs.exact_solve = real
    assert calls[0] == 0 and calls[1] > 0 and r.stats.nodes > calls[1]


def test_a_search_runs_without_full_collections_and_restores_them():
    """A full collection that starts just before the deadline would make the answer late by its length
    (tens of milliseconds with a big table): none runs during a search, nor as the search call ends; only
    young ones, a few thousand objects each. Full collections are possible again after."""
    import gc
    from engine.collector import OUT_OF_REACH
    generations = []
    load("connect4", {"moves": ""})                  # imports and tables: outside what is measured

    def record(phase, info):
        if phase == "start":
            generations.append(info["generation"])

    gc.callbacks.append(record)
    try:
        search("connect4", {"moves": "5562347631247347631431"}, {"name": "alphabeta"}, time_limit_ms=5000)
    finally:
        gc.callbacks.remove(record)
    assert all(gen < 2 for gen in generations)
    assert gc.isenabled() and gc.get_threshold()[2] != OUT_OF_REACH


def test_a_solve_frees_its_table_before_it_answers():
    """Nothing keeps the table once the solve has answered: the memory a second, identical solve holds
    afterwards (the first fills the winning-cell memo) is a few small objects, not the thousands of
    entries it stored."""
    import tracemalloc
    moves = "5562347631247347631431"
    search("connect4", {"moves": moves}, {"name": "alphabeta"})
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        r = search("connect4", {"moves": moves}, {"name": "alphabeta"})
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert r.stats.nodes > 2000
    assert held < 100_000, held
