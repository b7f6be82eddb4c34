"""Train backgammon's contact network (engine/games/backgammon_net.py) on gnubg's 0-ply outputs (issue 30).

    python -m bench.backgammon_net --games 8000 --seed 7 --hidden 32 --out engine/games/backgammon_net.txt

Positions: the contact positions of games played as bench/backgammon_fit.py plays them (gnubg's 0-ply
choice, our 1-ply choice or a random play), each labelled with gnubg-nn's five 0-ply outputs for the side on
roll (win, win gammon, win backgammon, lose gammon, lose backgammon). The games split into a training part
and a held-out part (whole games). The network: the engine's inputs (:func:`encode`), one hidden layer of
sigmoids, five sigmoid outputs, fitted by Adam on minibatches to the cross-entropy of each output against
gnubg's probability. The report, on the held-out games: the equity's error and the 1-ply plays judged by
gnubg (as bench/backgammon_fit.py reports them), for the engine's linear evaluation and the network.
``--data`` keeps the labelled positions in a file (numpy's .npz) to train again without replaying.
Needs gnubg-nn and numpy (requirements-bench.txt).
"""
import argparse
import datetime
import sys
from pathlib import Path

import numpy as np

from bench import backgammon_features as linear_model
from bench.backgammon_fit import adam_step, choice_states, errors, linear, play_loss, positions_of
from bench.gnubg_player import board, require
from engine.games import backgammon_net as net_module
from learn.export import commit


def labelled_games(games: int, seed: int, random_share: float, path: Path | None):
    """``(positions, labels, game)``: every contact position ``(on_roll, other)`` of ``games`` games as an
    array (n, 2, 26), gnubg's five outputs (n, 5) and each position's game number; read from ``path``
    when it exists (written there otherwise)."""
    if path is not None and path.exists():
        stored = np.load(path)
        return stored["positions"], stored["labels"], stored["game"]
    per_game = positions_of(games, seed, random_share)
    g = require()
    positions = np.array([p for game in per_game for p in game], dtype=np.int8)
    labels = np.array([g.probabilities(board(r, o), 0) for r, o in positions.tolist()])
    game = np.array([i for i, positions_ in enumerate(per_game) for _ in positions_])
    if path is not None:
        np.savez_compressed(path, positions=positions, labels=labels, game=game)
    return positions, labels, game


def encode_all(positions) -> np.ndarray:
    return np.array([net_module.encode(r, o) for r, o in positions.tolist()], dtype=np.float32)


def equity(outs) -> np.ndarray:
    """The equity of rows of five outputs (as :func:`engine.games.backgammon_net.equity_of`)."""
    return 2.0 * outs[:, 0] - 1.0 + outs[:, 1] - outs[:, 3] + outs[:, 2] - outs[:, 4]


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


class Trainer:
    """A one-hidden-layer network and Adam's state; :meth:`step` fits one minibatch."""

    def __init__(self, hidden: int, rng: np.random.Generator, rate: float):
        n = net_module.INPUTS
        self.params = [rng.normal(0, 1 / np.sqrt(20), (n, hidden)), np.zeros(hidden),
                       rng.normal(0, 1 / np.sqrt(hidden), (hidden, net_module.OUTPUTS)),
                       np.zeros(net_module.OUTPUTS)]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t, self.rate = 0, rate

    def predict(self, x):
        w1, b1, w2, b2 = self.params
        return sigmoid(sigmoid(x @ w1 + b1) @ w2 + b2)

    def step(self, x, y) -> None:
        w1, b1, w2, b2 = self.params
        h = sigmoid(x @ w1 + b1)
        out = sigmoid(h @ w2 + b2)
        d_out = (out - y) / len(x)                # the cross-entropy's gradient through the sigmoid
        d_h = (d_out @ w2.T) * h * (1.0 - h)
        grads = [x.T @ d_h, d_h.sum(0), h.T @ d_out, d_out.sum(0)]
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            adam_step(p, g, m, v, self.t, self.rate)

    def net(self) -> net_module.Net:
        w1, b1, w2, b2 = (p.astype(float).tolist() for p in self.params)
        return net_module.Net(tuple(b1), tuple(map(tuple, w1)), tuple(b2), tuple(map(tuple, w2)))


def train(x, y, hidden: int, epochs: int, seed: int, batch: int = 128, rate: float = 0.003,
          report=None) -> Trainer:
    """Adam over ``epochs`` passes of shuffled minibatches; the rate falls tenfold over the last third.
    ``report(epoch, trainer)`` after each epoch, if given."""
    rng = np.random.default_rng(seed)
    trainer = Trainer(hidden, rng, rate)
    for epoch in range(epochs):
        trainer.rate = rate if epoch < 2 * epochs // 3 else rate / 10
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            rows = order[start:start + batch]
            trainer.step(x[rows], y[rows])
        if report:
            report(epoch, trainer)
    return trainer


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--random", type=float, default=0.1, help="the share of random plays (default 0.1)")
    parser.add_argument("--test", type=float, default=0.1, help="the share of games held out (default 0.1)")
    parser.add_argument("--hidden", type=int, default=32, help="hidden units (default 32)")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--choices", type=int, default=2000,
                        help="held-out positions with a roll on which to judge the 1-ply choices (default 2000)")
    parser.add_argument("--data", type=Path, help="an .npz file keeping the labelled positions")
    parser.add_argument("--out", type=Path, help="write the network's weights file here")
    args = parser.parse_args(argv)
    positions, labels, game = labelled_games(args.games, args.seed, args.random, args.data)
    held = game >= int(args.games * (1.0 - args.test))
    x, y = encode_all(positions), labels.astype(np.float32)
    target = equity(labels)
    print(f"positions: {(~held).sum()} for the fit, {held.sum()} held out")

    def report(epoch, trainer):
        mae, rmse = errors(equity(trainer.predict(x[held])), target[held])
        print(f"epoch {epoch + 1}: held-out equity error mean {mae:.4f}, rms {rmse:.4f}", flush=True)

    trainer = train(x[~held], y[~held], args.hidden, args.epochs, args.seed, report=report)
    net = trainer.net()
    held_positions = [(tuple(r), tuple(o)) for r, o in positions[held].tolist()]
    states = choice_states(held_positions, args.choices, args.seed)
    w = linear_model.weights()
    linear_equity = np.array([linear(w)(r, o) for r, o in held_positions])
    for name, predicted, value in (
            ("linear (engine's weights)", linear_equity, linear(w)),
            (f"network, {args.hidden} hidden", equity(trainer.predict(x[held])),
             lambda r, o: net_module.equity_of(net_module.outputs(net, r, o)))):
        mae, rmse = errors(predicted, target[held])
        same, lost = play_loss(value, states)
        print(f"{name:>26}: held-out equity error mean {mae:.4f}, rms {rmse:.4f}; 1-ply plays on {len(states)}"
              f" held-out rolls: gnubg's choice {same:.1%}, equity lost {lost:.4f} a play")
    if args.out:
        command = " ".join(["python -m bench.backgammon_net", *(sys.argv[1:] if argv is None else argv)])
        header = {"net": "contact", "data": f"{int((~held).sum())} contact positions of {args.games} games "
                  f"({held.sum()} held out), gnubg-nn 0-ply outputs", "commit": commit(),
                  "trained": datetime.date.today().isoformat()}
        args.out.write_text(net_module.dump(net, header, command))


if __name__ == "__main__":
    main()
