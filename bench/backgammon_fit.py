"""Fit the weights of backgammon's linear contact evaluation (bench/backgammon_linear.py) to gnubg's 0-ply
equity (issue 30); the engine now evaluates contact with a network (bench/backgammon_net.py trains it).

    python -m bench.backgammon_fit --games 3000 --seed 5

Positions come from games whose plays are gnubg's 0-ply choice, our 1-ply choice (the engine's evaluation)
or a random legal play (``--random``), each move drawn anew, so the positions are both the ones good play
meets and the ones our evaluation steers to. Every contact position after a play (the other side on roll,
before its dice) is labelled with gnubg-nn's 0-ply cubeless money equity and win probability for the side on
roll. The games split into a training part and a held-out part (``--test``, whole games, so that no
position of a held-out game is fitted). The fit: a logistic regression of gnubg's win probability on the
score's features (:mod:`bench.backgammon_features`, Newton's method), then gradient descent (Adam) on the
squared error of the equity, the gammon terms included. The report: the held-out equity error of the
linear evaluation's weights and of the fitted ones, and the fitted weights as the constants of
bench/backgammon_linear.py. Needs gnubg-nn and numpy (requirements-bench.txt).
"""
import argparse
import random

import numpy as np

from bench import backgammon_features as model
from bench.gnubg_player import board, ranked, play_key, require
from engine.games import backgammon as bg


def policy_play(me, op, dice, rng, random_share):
    """The play of ``me``: random with probability ``random_share``, else gnubg's 0-ply or our 1-ply
    choice, even odds."""
    options = bg.plays(me, op, dice)
    draw = rng.random()
    if len(options) == 1 or draw < random_share:
        return rng.choice(options)
    if draw < random_share + (1.0 - random_share) / 2:
        best = ranked(me, op, dice)[0][0]
        return next(p for p in options if play_key(p) == best)
    return max(options, key=lambda p: 3.0 if p[0][bg.OFF] == bg.CHECKERS else -bg.equity(p[0], p[1], 1))


def game_positions(rng, random_share):
    """The contact positions ``(on_roll, other)`` of one game, each after a play."""
    openings = [r for r in bg.ROLLS if r[0] != r[1]]
    me, op, dice = bg.START, bg.START, rng.choice(openings)
    positions = []
    while True:
        after_me, after_op, _ = policy_play(me, op, dice, rng, random_share)
        if after_me[bg.OFF] == bg.CHECKERS:
            return positions
        me, op = after_op, after_me
        if bg.contact(me, op):
            positions.append((me, op))
        dice = rng.choice(bg.ROLLS)


def label(on_roll, other) -> tuple:
    """gnubg's 0-ply ``(win probability, cubeless money equity)`` for the side on roll."""
    win, win_gammon, win_bg, lose_gammon, lose_bg = require().probabilities(board(on_roll, other), 0)
    return win, 2.0 * win - 1.0 + win_gammon - lose_gammon + win_bg - lose_bg


class Data:
    """Features, gammon terms and gnubg's labels of a list of positions, as arrays."""

    def __init__(self, positions):
        self.x = np.array([model.features(r, o) for r, o in positions])
        terms = np.array([model.gammon_terms(r, o) for r, o in positions])
        self.threat, self.risk = terms[:, 0], terms[:, 1]
        labels = np.array([label(r, o) for r, o in positions])
        self.win, self.equity = labels[:, 0], labels[:, 1]

    def predict(self, w):
        return model.equity_from_score(self.x @ w, self.threat, self.risk)

    def errors(self, w) -> tuple:
        """``(mean absolute error, root mean square error)`` of the equity with weights ``w``."""
        return errors(self.predict(w), self.equity)


class Choices:
    """The plays of states ``(me, op, dice)`` that leave contact positions, as rows: the features of the
    position left (the opponent on roll), its gammon terms, gnubg's 0-ply equity of the play for the mover
    and the state's index (its group). Only the differences between the plays of one roll decide a
    choice, so the fit on these compares each play with the mean of its group."""

    def __init__(self, states):
        rows, groups, labels = [], [], []
        for me, op, dice in states:
            ranking = dict(ranked(me, op, dice))
            kept = [p for p in bg.plays(me, op, dice) if p[0][bg.OFF] < bg.CHECKERS and bg.contact(p[0], p[1])]
            if len(kept) < 2:
                continue
            group = groups[-1] + 1 if groups else 0
            for play in kept:
                rows.append((play[1], play[0]))
                labels.append(ranking[play_key(play)])
                groups.append(group)
        self.x = np.array([model.features(r, o) for r, o in rows])
        terms = np.array([model.gammon_terms(r, o) for r, o in rows])
        self.threat, self.risk = terms[:, 0], terms[:, 1]
        self.group = np.array(groups)
        self.label = self.centered(np.array(labels))

    def centered(self, values):
        means = np.bincount(self.group, weights=values) / np.bincount(self.group)
        return values - means[self.group]


def free_mask() -> np.ndarray:
    return np.array([name not in model.FIXED for name in model.NAMES])


def fit_logistic(data: Data, w0, iterations=25, ridge=1e-3):
    """Newton's method on the cross-entropy of the logistic of the score against gnubg's win
    probability, the fixed weights held at ``w0``'s values (a small ridge keeps rare features finite)."""
    free = free_mask()
    w = w0.copy()
    x = data.x[:, free]
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(data.x @ w)))
        grad = x.T @ (p - data.win) / len(p) + ridge * w[free]
        hess = (x * (p * (1 - p))[:, None]).T @ x / len(p) + ridge * np.eye(x.shape[1])
        w[free] -= np.linalg.solve(hess, grad)
    return w


def errors(predicted, target) -> tuple:
    """``(mean absolute error, root mean square error)`` of ``predicted`` against ``target``."""
    diff = predicted - target
    return float(np.abs(diff).mean()), float(np.sqrt((diff * diff).mean()))


def adam_step(w, grad, m, v, t: int, rate: float) -> None:
    """Step ``t`` (from 1) of Adam (moment decays 0.9 and 0.999) on ``w`` with gradient ``grad``; ``w`` and
    the moments ``m`` and ``v`` change in place."""
    m *= 0.9
    m += 0.1 * grad
    v *= 0.999
    v += 0.001 * grad * grad
    w -= rate * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)


def fit_equity(data: Data, w0, steps=3000, rate=0.01):
    """Adam on the mean squared error of the equity, from ``w0``, the fixed weights held."""
    free = free_mask()
    w, m, v = w0.copy(), np.zeros_like(w0), np.zeros_like(w0)
    for t in range(1, steps + 1):
        score = data.x @ w
        diff = model.equity_from_score(score, data.threat, data.risk) - data.equity
        grad = data.x.T @ (2.0 * diff * model.equity_gradient(score, data.threat, data.risk)) / len(diff)
        grad[~free] = 0.0
        adam_step(w, grad, m, v, t, rate)
    return w


def fit_choices(choices: Choices, data: Data, w0, absolute=0.1, steps=3000, rate=0.01):
    """Adam from ``w0`` on the squared error of each play's value for the mover against gnubg's, both
    centred on their roll's mean (what a 1-ply choice sees), plus ``absolute`` times the squared error
    of the equity on ``data`` (which the search's deeper values still need); the fixed weights held."""
    free = free_mask()
    w, m, v = w0.copy(), np.zeros_like(w0), np.zeros_like(w0)
    for t in range(1, steps + 1):
        score = choices.x @ w
        value = -model.equity_from_score(score, choices.threat, choices.risk)   # the mover's
        residual = choices.centered(value) - choices.label
        slope = -model.equity_gradient(score, choices.threat, choices.risk)
        grad = choices.x.T @ (2.0 * residual * slope) / len(residual)
        score = data.x @ w
        diff = model.equity_from_score(score, data.threat, data.risk) - data.equity
        grad += absolute * data.x.T @ (2.0 * diff * model.equity_gradient(score, data.threat, data.risk)) / len(diff)
        grad[~free] = 0.0
        adam_step(w, grad, m, v, t, rate)
    return w


def constants(w, digits=4) -> str:
    """The weights as bench/backgammon_linear.py's constants, rounded to ``digits`` decimals."""
    r = [round(float(value), digits) + 0.0 for value in w]   # + 0.0: no -0.0
    named = dict(zip(model.NAMES, r))
    points = ", ".join(repr(named[f"W_POINT[{i}]"]) for i in range(26))
    primes = ", ".join(repr(named[f"W_PRIME[{i}]"]) for i in range(7))
    lines = [f"W_PIPS = {named['W_PIPS']!r}", f"W_POINT = ({points})", f"W_PRIME = ({primes})"]
    lines += [f"{name} = {named[name]!r}" for name in model.NAMES[34:]]
    return "\n".join(lines)


def linear(w):
    """The contact evaluation with weights ``w``: ``(on_roll, other) -> equity`` (bench/backgammon_linear.py's
    ``contact_equity`` with ``w`` for its weights)."""
    def value(on_roll, other) -> float:
        threat, risk = model.gammon_terms(on_roll, other)
        return float(model.equity_from_score(model.features(on_roll, other) @ w, threat, risk))
    return value


def play_value(contact_value, me_after, op_after) -> float:
    """The value for the mover of the position its play leaves, by the engine's evaluation with
    ``contact_value`` (``(on_roll, other) -> equity``) in contact: the points of a won game, the race
    formula, or ``contact_value``, kept inside (-3, 3) as the engine keeps it."""
    if me_after[bg.OFF] == bg.CHECKERS:
        return float(bg.winner_points(me_after, op_after))
    if not bg.contact(me_after, op_after):
        value = bg.race_equity(op_after, me_after)
    else:
        value = contact_value(op_after, me_after)
    return -max(-2.99, min(2.99, value))


def play_loss(contact_value, states) -> tuple:
    """Our 1-ply choice with the contact evaluation ``contact_value`` judged by gnubg on ``states`` (``(me,
    op, dice)``): the share of the states where it is gnubg's 0-ply choice and gnubg's mean equity lost
    against its own choice."""
    same = lost = 0.0
    for me, op, dice in states:
        ranking = dict(ranked(me, op, dice))
        best = max(ranking.values())
        ours = max(bg.plays(me, op, dice), key=lambda p: play_value(contact_value, p[0], p[1]))
        value = ranking[play_key(ours)]
        same += value == best
        lost += best - value
    return same / len(states), lost / len(states)


def choice_states(positions, count: int, seed: int) -> list:
    """``count`` of ``positions`` with a roll each and more than one legal play: states to choose in."""
    rng = random.Random(seed)
    states = []
    for me, op in rng.sample(positions, len(positions)):
        dice = rng.choice(bg.ROLLS)
        if len(bg.plays(me, op, dice)) > 1:
            states.append((me, op, dice))
        if len(states) == count:
            break
    return states


def positions_of(games: int, seed: int, random_share: float) -> list:
    """The contact positions of each of ``games`` games, a list a game."""
    rng = random.Random(seed)
    return [game_positions(rng, random_share) for _ in range(games)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--random", type=float, default=0.1, help="the share of random plays (default 0.1)")
    parser.add_argument("--test", type=float, default=0.2, help="the share of games held out (default 0.2)")
    parser.add_argument("--choices", type=int, default=2000,
                        help="held-out positions with a roll on which to judge the 1-ply choices (default 2000)")
    parser.add_argument("--train-choices", type=int, default=5000,
                        help="positions of the fitted games with a roll whose plays the fit compares (default 5000)")
    parser.add_argument("--absolute", type=float, default=0.1,
                        help="the weight of the equity's own error beside the plays' differences (default 0.1)")
    parser.add_argument("--steps", type=int, default=3000, help="Adam's steps on the equity (default 3000)")
    args = parser.parse_args(argv)
    games = positions_of(args.games, args.seed, args.random)
    cut = int(len(games) * (1.0 - args.test))
    train = Data([p for g in games[:cut] for p in g])
    held_out = [p for g in games[cut:] for p in g]
    test = Data(held_out)
    states = choice_states(held_out, args.choices, args.seed)
    training = choice_states([p for g in games[:cut] for p in g], args.train_choices, args.seed)
    choices = Choices(training)
    print(f"positions: {len(train.equity)} for the fit ({cut} games), {len(test.equity)} held out")
    old = model.weights()
    logistic = fit_logistic(train, old)
    on_equity = fit_equity(train, logistic, steps=args.steps)
    fitted = fit_choices(choices, train, on_equity, absolute=args.absolute, steps=args.steps)
    rounded = np.array([round(float(value), 4) for value in fitted])
    for name, w in (("linear weights (as kept)", old), ("logistic fit", logistic), ("equity fit", on_equity),
                    ("plays fit", fitted), ("plays fit, rounded", rounded)):
        mae, rmse = test.errors(w)
        fit_mae, _ = train.errors(w)
        same, lost = play_loss(linear(w), states)
        print(f"{name:>22}: held-out equity error mean {mae:.4f}, rms {rmse:.4f} (fitted part: mean {fit_mae:.4f});"
              f" 1-ply plays on {len(states)} held-out rolls: gnubg's choice {same:.1%}, equity lost {lost:.4f} a play")
    print(constants(fitted))


if __name__ == "__main__":
    main()
