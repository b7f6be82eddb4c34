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
