"""The fit of backgammon's linear contact weights (bench/backgammon_fit.py): its model is the linear contact
evaluation (bench/backgammon_linear.py), its fits move the weights towards the labels, its output is that
module's constants."""
import random

import numpy as np

from bench import backgammon_features as model
from bench import backgammon_fit as fit
from bench import backgammon_linear as linear


def positions(games: int, seed: int) -> list:
    """The contact positions of random games (random plays only: no gnubg needed)."""
    rng = random.Random(seed)
    return [p for _ in range(games) for p in fit.game_positions(rng, random_share=1.0)]


def test_the_model_is_the_linear_contact_evaluation():
    checked = 0
    for on_roll, other in positions(games=15, seed=3):
        threat, risk = model.gammon_terms(on_roll, other)
        value = model.equity_from_score(model.features(on_roll, other) @ model.weights(), threat, risk)
        assert abs(value - linear.contact_equity(on_roll, other)) < 1e-12
        checked += 1
    assert checked > 500


def test_the_equity_gradient_is_the_derivative_of_the_equity():
    score, threat, risk = np.array([-2.0, -0.3, 0.0, 0.7, 3.0]), np.array([0, 0.5, 1, 0.25, 1]), np.array([1, 0, 0.5, 1, 0])
    h = 1e-6
    numeric = (model.equity_from_score(score + h, threat, risk) - model.equity_from_score(score - h, threat, risk)) / (2 * h)
    assert np.allclose(model.equity_gradient(score, threat, risk), numeric, atol=1e-8)


class Labelled(fit.Data):
    """Data whose labels come from the model itself with chosen weights, not from gnubg."""

    def __init__(self, rows, w):
        self.x = np.array([model.features(r, o) for r, o in rows])
        terms = np.array([model.gammon_terms(r, o) for r, o in rows])
        self.threat, self.risk = terms[:, 0], terms[:, 1]
        score = self.x @ w
        self.win = 1.0 / (1.0 + np.exp(-score))
        self.equity = model.equity_from_score(score, self.threat, self.risk)


def test_the_fits_recover_weights_that_made_the_labels():
    rows = positions(games=30, seed=11)
    target = model.weights() * 0.5
    target[model.NAMES.index("W_PIPS")] = 0.02
    data = Labelled(rows, target)
    start = model.weights()
    logistic = fit.fit_logistic(data, start, ridge=1e-6)
    assert data.errors(logistic)[0] < 0.1 * data.errors(start)[0]
    refined = fit.fit_equity(data, start, steps=1500, rate=0.02)
    assert data.errors(refined)[0] < 0.3 * data.errors(start)[0]
    fixed = ~fit.free_mask()
    assert (refined[fixed] == start[fixed]).all() and (logistic[fixed] == start[fixed]).all()


def test_the_constants_printed_are_the_linear_evaluations_when_given_its_weights():
    namespace: dict = {}
    exec(fit.constants(model.weights()), namespace)
    for name in ("W_PIPS", "W_POINT", "W_PRIME", "W_BLOT_RISK", "W_BAR", "W_CLOSED_VS_BAR", "W_BACK", "W_OFF", "W_STACK"):
        assert namespace[name] == getattr(linear, name), name
