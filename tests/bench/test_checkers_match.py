"""bench.checkers' match: the bot's simulations given rather than measured, and games played in parallel."""
import pytest

pytest.importorskip("pyspiel")

from bench import checkers  # noqa: E402


@pytest.mark.parametrize("workers", [1, 2])
def test_a_match_with_the_bots_simulations_given(workers, monkeypatch):
    def no_calibration(*args):
        raise AssertionError("the simulations were given: nothing to measure")
    monkeypatch.setattr(checkers, "calibrate", no_calibration)
    played = []
    real = checkers.play_game
    monkeypatch.setattr(checkers, "play_game", lambda *a, **k: played.append(a[1:4]) or real(*a, **k))
    result = checkers.run_match(2, 0.01, seed=3, simulations=4, workers=workers)
    assert result["simulations"] == 4 and result["games"] == 2
    assert result["wins"] + result["draws"] + result["losses"] == 2
    if workers == 1:  # (a pool's games run in its processes, where this list is not seen)
        assert played == [(True, 0.01, 4), (False, 0.01, 4)]  # colours alternate, the bot as given
