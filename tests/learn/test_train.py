"""learn.train fits a net that learns what its data teaches, within the ranges the weights file holds."""
import random

import chess
import numpy as np

from learn import curves, features, train

VALUES = {"p": 100, "n": 300, "b": 300, "r": 500, "q": 900}


def material_positions(count: int, seed: int) -> tuple:
    """Boards of two kings and random pieces on random squares, and the mover's material balance: a target
    a one-layer net can learn (the features need no legal position)."""
    rng, fens, cps = random.Random(seed), [], []
    for _ in range(count):
        squares = rng.sample(range(64), 2 + rng.randint(0, 12))
        placed = {squares[0]: "K", squares[1]: "k"}
        for square in squares[2:]:
            kind = rng.choice("pnbrq")
            placed[square] = kind.upper() if rng.random() < 0.5 else kind
        board = chess.Board(None)
        board.set_piece_map({s: chess.Piece.from_symbol(c) for s, c in placed.items()})
        board.turn = rng.random() < 0.5
        mover_is_white = board.turn == chess.WHITE
        balance = sum(VALUES[c.lower()] * (1 if c.isupper() == mover_is_white else -1)
                      for c in placed.values() if c.lower() != "k")
        fens.append(board.fen()), cps.append(balance)
    ours, theirs = features.encode(fens)
    target = train.targets(np.array(cps, np.float32), np.full(count, 0.5, np.float32))
    return ours.astype(np.int32), theirs.astype(np.int32), target


def test_a_fit_learns_material_and_keeps_its_weights_in_range():
    data, validation = material_positions(1500, 1), material_positions(300, 2)
    params = train.initial_params(16, seed=3)
    before = train.mean_loss(params, validation, 512)
    best, history = train.fit(params, data, validation, seconds=60, batch=256, lr=3e-3, patience=3,
                              max_epochs=25, progress=False)
    after = train.mean_loss(best, validation, 512)
    assert after < 0.5 * before
    assert history.epochs[history.best_epoch]["validation"] == min(e["validation"] for e in history.epochs)
    assert np.abs(best["W1"]).max() <= train.W1_LIMIT + 1e-6
    assert np.abs(best["W2"]).max() <= train.W2_LIMIT + 1e-6


def test_early_stopping_keeps_the_best_epoch():
    data = material_positions(200, 4)
    noise = (data[0], data[1], np.random.default_rng(0).random(len(data[2])).astype(np.float32))
    _, history = train.fit(train.initial_params(8, seed=1), data, noise, seconds=60, batch=64, patience=2,
                           max_epochs=40, progress=False)
    assert history.stopped.startswith("no better validation loss")
    assert history.epochs[-1]["epoch"] - history.best_epoch == 2


def test_the_loss_curves_are_an_svg_with_both_lines():
    history = train.History(epochs=[{"epoch": 0, "train": None, "validation": 0.08},
                                    {"epoch": 1, "train": 0.07, "validation": 0.06},
                                    {"epoch": 2, "train": 0.05, "validation": 0.055}])
    import xml.etree.ElementTree as ET
    root = ET.fromstring(curves.svg(history, "chess"))
    lines = [e for e in root.iter() if e.tag.endswith("polyline")]
    assert len(lines) == 2
    assert len(lines[0].get("points").split()) == 2 and len(lines[1].get("points").split()) == 3
