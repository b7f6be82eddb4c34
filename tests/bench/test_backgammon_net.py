"""The training of backgammon's contact network (bench/backgammon_net.py): the network it trains is the one
the engine evaluates, its training fits labels a known network made, its labelled positions keep in a file."""
import random

import numpy as np
import pytest

from bench import backgammon_fit as fit
from bench import backgammon_net as trainer_module
from engine.games import backgammon_net as net


def positions(games: int, seed: int) -> np.ndarray:
    """The contact positions of random games (random plays only: no gnubg needed), as (n, 2, 26)."""
    rng = random.Random(seed)
    return np.array([p for _ in range(games) for p in fit.game_positions(rng, random_share=1.0)], dtype=np.int8)


def test_the_trained_network_is_the_one_the_engine_evaluates():
    rows = positions(games=3, seed=2)
    trainer = trainer_module.Trainer(hidden=6, rng=np.random.default_rng(1), rate=0.01)
    x = trainer_module.encode_all(rows)
    trainer.step(x, np.full((len(x), net.OUTPUTS), 0.3))   # weights no longer as initialised
    predicted = trainer.predict(x)
    engine_net = trainer.net()
    for (on_roll, other), row in zip(rows.tolist(), predicted):
        assert net.outputs(engine_net, on_roll, other) == pytest.approx(row, abs=1e-6)   # float32 inputs
    assert net.parse(net.dump(engine_net, {"net": "contact"})) == engine_net


def test_training_fits_the_labels_of_a_known_network():
    rows = positions(games=20, seed=4)
    x = trainer_module.encode_all(rows)
    teacher = trainer_module.Trainer(hidden=4, rng=np.random.default_rng(9), rate=0.0)
    y = teacher.predict(x)
    untrained = trainer_module.Trainer(hidden=8, rng=np.random.default_rng(5), rate=0.0)
    before = trainer_module.errors(trainer_module.equity(untrained.predict(x)), trainer_module.equity(y))[0]
    trained = trainer_module.train(x, y, hidden=8, epochs=15, seed=5, batch=32, rate=0.01)
    after = trainer_module.errors(trainer_module.equity(trained.predict(x)), trainer_module.equity(y))[0]
    assert after < 0.3 * before


def test_labelled_positions_keep_in_a_file(tmp_path):
    pytest.importorskip("gnubg_nn")
    path = tmp_path / "positions.npz"
    made = trainer_module.labelled_games(3, 1, 0.5, path)
    read = trainer_module.labelled_games(999, 999, 0.0, path)   # read back, not played again
    for a, b in zip(made, read):
        assert (a == b).all()
    games_positions, labels, game = made
    assert games_positions.shape[1:] == (2, 26) and labels.shape == (len(game), 5) and game.max() <= 2
    assert ((labels >= 0) & (labels <= 1)).all() and (labels[:, 0] >= labels[:, 1]).all()
