"""learn.accept's verdict: a candidate is stronger only by an interval above zero over enough games."""
from learn import accept


def result(low, high, games):
    return {"result": {"elo_low": low, "elo_high": high, "games": games}}


def test_the_verdict_needs_the_interval_and_the_games():
    assert accept.verdict(result(5, 80, accept.MIN_GAMES)) == "stronger"
    assert accept.verdict(result(5, 80, accept.MIN_GAMES - 1)) == "even"     # too few games to replace the net
    assert accept.verdict(result(-281, -174, 200)) == "weaker"
    assert accept.verdict(result(-20, 30, 1000)) == "even"
    assert accept.verdict(result(None, -100, 50)) == "weaker"                 # an interval down to -inf
    assert accept.verdict(result(10, None, 50)) == "even"
