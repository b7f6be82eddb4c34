"""Expectimax with a risk attitude: CS188's lottery, the transforms, Star1 with transformed bounds, and
the settings that are refused."""
import math

from hypothesis import given, settings, strategies as st
import pytest

from engine.api import search
from engine.errors import AlgorithmMismatch
from engine.search.utility import Utility, parse_utility
from tests.engine.strategies_chance import chance_trees

LOTTERY = {"root": {"type": "max", "children": [
    {"move": "flat", "value": 500},
    {"move": "lottery", "type": "chance", "children": [{"p": 0.5, "value": 0}, {"p": 0.5, "value": 1000}]}]}}


def by_move(result):
    return {m.move: m for m in result.moves}


@pytest.mark.parametrize("utility, choice, flat, lottery, lottery_ce", [
    ("linear", "flat", 500.0, 500.0, 500.0),
    ({"power": 0.5}, "flat", math.sqrt(500), math.sqrt(1000) / 2, 250.0),
    ({"power": 2}, "lottery", 250_000.0, 500_000.0, math.sqrt(500_000)),
])
def test_the_note_s_lottery(utility, choice, flat, lottery, lottery_ce):
    """Risk-neutral: a tie, to the first move; risk-averse takes the flat payment; risk-seeking gambles.
    Pruning is off so that the refuted move's value is exact too."""
    r = search("tree", LOTTERY, {"name": "expectimax", "utility": utility, "pruning": False})
    moves = by_move(r)
    assert r.move == choice
    assert moves["flat"].value == pytest.approx(flat) and moves["lottery"].value == pytest.approx(lottery)
    assert moves["flat"].certainty_equivalent == pytest.approx(500.0)
    assert moves["lottery"].certainty_equivalent == pytest.approx(lottery_ce)
    assert r.certainty_equivalent == pytest.approx(moves[choice].certainty_equivalent)


def test_transforms_are_increasing_and_invertible():
    for utility in (Utility(), Utility("power", 0.5), Utility("power", 3.0), Utility("exponential", 2.0),
                    Utility("exponential", -0.5)):
        xs = [-1.0, -0.3, 0.0, 0.2, 0.9, 1.0]
        us = [utility(x) for x in xs]
        assert us == sorted(us) and len(set(us)) == len(us)
        assert [utility.inverse(u) for u in us] == pytest.approx(xs)
    assert Utility("exponential", 1.0)(1.0) == pytest.approx(1 - math.exp(-1))


@pytest.mark.parametrize("bad", [{"power": 0}, {"power": -1}, {"exponential": 0}, "log", {"power": "2"},
                                 {"power": 1, "exponential": 1}, {"power": True}])
def test_bad_settings_name_the_field(bad):
    with pytest.raises(AlgorithmMismatch) as raised:
        parse_utility(bad)
    assert list(raised.value.errors) == ["algorithm.utility"]


def test_a_transform_that_overflows_is_refused():
    huge = {"root": {"type": "max", "children": [{"value": 1e300}, {"value": -1e300}]}}
    with pytest.raises(AlgorithmMismatch) as raised:
        search("tree", huge, {"name": "expectimax", "utility": {"power": 2}})
    assert list(raised.value.errors) == ["algorithm.utility"]
    with pytest.raises(AlgorithmMismatch):
        search("2048", {"board": [[2, 0, 0, 0]] * 4}, {"name": "expectimax", "utility": {"exponential": -800}})


@pytest.mark.parametrize("name", ["minimax", "alphabeta"])
def test_minimax_and_alphabeta_refuse_a_transform(name):
    """A strictly increasing transform never changes what they choose, so they take no utility."""
    with pytest.raises(AlgorithmMismatch) as raised:
        search("tree", LOTTERY, {"name": name, "utility": {"power": 2}})
    assert list(raised.value.errors) == ["algorithm.utility"]


@settings(max_examples=200, deadline=None)
@given(chance_trees())
def test_star1_with_a_transform_equals_plain_expectimax_with_it(tree):
    for utility in ({"power": 0.5}, {"power": 2}, {"exponential": 0.1}, {"exponential": -0.05}):
        pruned = search("tree", tree, {"name": "expectimax", "utility": utility})
        plain = search("tree", tree, {"name": "expectimax", "utility": utility, "pruning": False})
        assert pruned.value == pytest.approx(plain.value, rel=1e-9, abs=1e-9)
        exact = {m.move: m.value for m in plain.moves}
        for m in pruned.moves:
            if m.bound == "exact":
                assert m.value == pytest.approx(exact[m.move], rel=1e-9, abs=1e-9)
            elif m.bound == "upper":
                assert exact[m.move] <= m.value + 1e-9


def test_2048_prizes_lie_in_zero_one_and_jensen_holds():
    """2048's values are prizes in [0, 1] as they are. There sqrt(x) >= x, so the risk-averse utility of
    every move is at least its expected value, while (Jensen, sqrt being concave) its certainty
    equivalent is at most that expected value."""
    state = {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]}
    plain = {"name": "expectimax", "depth": 3, "pruning": False}
    linear = by_move(search("2048", state, plain))
    averse = by_move(search("2048", state, dict(plain, utility={"power": 0.5})))
    for move, m in averse.items():
        assert 0.0 <= m.certainty_equivalent <= 1.0
        assert m.value >= linear[move].value - 1e-12
        assert m.certainty_equivalent <= linear[move].value + 1e-12
        assert linear[move].certainty_equivalent == pytest.approx(linear[move].value)


SATURATING = [
    ("tree", {"root": {"type": "max", "children": [{"value": 100}, {"value": 0}]}}, 1),
    ("tree", {"root": {"type": "max", "children": [{"value": 1000}, {"value": -1000}]}}, 0.05),
    ("tree", {"root": {"type": "max", "children": [{"value": 1000}, {"value": -1000}]}}, -0.05),
    ("tictactoe", {"board": ["...", "...", "..."]}, 700),
    ("chess", {}, -50),
]


@pytest.mark.parametrize("game, state, r", SATURATING)
def test_an_exponential_utility_that_saturates_keeps_every_value_finite(game, state, r):
    """e^(-r x) below the rounding of 1 takes U(x) to its limit 1 / r, whose exact inverse is infinite:
    the certainty equivalent is clamped to the range of the prizes instead of failing."""
    found = search(game, state, {"name": "expectimax", "utility": {"exponential": r}}, time_limit_ms=300)
    values = [found.value, found.certainty_equivalent] + [
        v for m in found.moves for v in (m.value, m.certainty_equivalent)]
    assert all(math.isfinite(v) for v in values)


def test_the_saturated_best_prize_is_its_own_certainty_equivalent():
    r = search("tree", SATURATING[0][1], {"name": "expectimax", "utility": {"exponential": 1}})
    assert r.value == pytest.approx(1.0) and r.certainty_equivalent == 100.0


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False).filter(bool),
       st.floats(min_value=-1.0, max_value=1.0))
def test_the_inverse_is_finite_and_in_range_wherever_the_transform_is(r, x):
    utility = Utility("exponential", r)
    try:
        u = utility(x)
    except OverflowError:
        return
    if math.isfinite(u):
        assert -1.0 <= utility.inverse(u, -1.0, 1.0) <= 1.0
