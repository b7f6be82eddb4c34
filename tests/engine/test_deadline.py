"""Anytime behaviour: with a deadline every search answers a legal move, flagged when time ran out."""
import pytest

from engine.api import load, search

HARD = [
    ("connect4", {"moves": ""}),
    ("tictactoe", {"board": ["." * 19] * 19, "k": 5}),
]
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
    from engine.search import alphabeta
    monkeypatch.setattr(alphabeta, "TABLE_SECONDS_PER_ENTRY", 1000.0)
    moves = "5562347631247347631431"
    r = search("connect4", {"moves": moves}, {"name": "alphabeta"}, time_limit_ms=60_000,
               limits=Limits(tt_max_entries=64))
    assert r.stats.timed_out and r.stats.stop_reason == "time_limit" and r.stats.time_ms < 5_000
    assert r.outcome is None
    unlimited = search("connect4", {"moves": moves}, {"name": "alphabeta"},
                       limits=Limits(tt_max_entries=64))      # no deadline: clears as before
    assert not unlimited.stats.timed_out and unlimited.outcome is not None


def test_a_solve_cut_short_counts_the_nodes_it_visited():
    """The empty Connect Four board is far too big to solve in 100 ms: the answer comes from the shallow
    iterations, but the nodes (and table hits) of the unfinished solve are counted too."""
    r = search("connect4", {"moves": ""}, {"name": "alphabeta"}, time_limit_ms=100)
    assert r.stats.timed_out and r.outcome is None
    assert r.stats.nodes > 1000 and r.stats.tt_hits > 0
