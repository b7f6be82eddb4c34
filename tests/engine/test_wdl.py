"""Issue 53: ``wdl``, win/draw/loss per mille for the perspective player (engine.scale.wdl): integers
summing to 1000, exact for a proven result, Stockfish 15.1's win-rate model in chess, and none in the games
of scale ``value``."""
from hypothesis import given, strategies as st

from engine import scale

VALUES = st.floats(allow_nan=False, allow_infinity=True, width=64)
PLIES = st.integers(min_value=0, max_value=10_000)


@given(st.sampled_from([scale.PAWNS, scale.OUTCOME]), VALUES, PLIES)
def test_every_wdl_is_three_per_mille_integers_summing_to_1000(value_scale, value, ply):
    wdl = scale.wdl(value_scale, value, None, ply)
    assert list(wdl) == ["win", "draw", "loss"]
    assert all(isinstance(p, int) and 0 <= p <= 1000 for p in wdl.values()) and sum(wdl.values()) == 1000


@given(VALUES, PLIES)
def test_a_chess_evaluation_is_symmetric_and_monotone(value, ply):
    mine, theirs = scale.wdl(scale.PAWNS, value, None, ply), scale.wdl(scale.PAWNS, -value, None, ply)
    assert (mine["win"], mine["loss"]) == (theirs["loss"], theirs["win"])
    better = scale.wdl(scale.PAWNS, min(value + 0.5, 1e308), None, ply)
    assert better["win"] >= mine["win"] and better["loss"] <= mine["loss"]


def test_proven_results_are_exact():
    assert scale.wdl(scale.PAWNS, 100.0, "win") == {"win": 1000, "draw": 0, "loss": 0}
    assert scale.wdl(scale.OUTCOME, 0.0, "draw") == {"win": 0, "draw": 1000, "loss": 0}
    assert scale.wdl(scale.VALUE, -3.0, "loss") == {"win": 0, "draw": 0, "loss": 1000}
    assert scale.wdl(scale.PAWNS, -100.0) == {"win": 0, "draw": 0, "loss": 1000}  # a won game, distance unknown


def test_chess_follows_stockfish_s_model():
    """A pawn up wins half the games at ply 64 (Stockfish's normalisation), fewer later; an equal position
    is a draw nearly always."""
    assert scale.win_rate(100, 64) in (499, 500, 501)
    assert scale.win_rate(100, 160) < scale.win_rate(100, 64)
    assert scale.wdl(scale.PAWNS, 0.0, None, 20)["draw"] > 980


def test_a_heuristic_value_splits_into_win_and_draw_as_its_win_probability_says():
    for v in (-1.0, -0.3, 0.0, 0.25, 0.9):
        wdl = scale.wdl(scale.OUTCOME, v)
        assert abs((wdl["win"] + wdl["draw"] / 2) / 1000 - scale.win_probability(scale.OUTCOME, v)) <= 0.001


def test_games_of_value_have_none():
    assert scale.wdl(scale.VALUE, 12.0) is None
