"""Backgammon's nets for the shared trainer (learn/train.py ``fit``): the engine's inputs
(engine/games/backgammon_net.py ``encode``, here on arrays of positions), one hidden layer of sigmoids and
five sigmoid outputs, gnubg's; the loss is the mean binary cross-entropy of each output against the label's
probability (gnubg-nn's outputs at the labeller's deeper ply, or at 0-ply). The floats train in float32;
the cores evaluate the exported doubles.
"""
import numpy as np

from engine.games import backgammon_net as net_module

PLY_COLUMNS = {0: slice(0, 5), 1: slice(5, 10)}   # the labels' columns: gnubg's 0-ply, its deeper ply


def encode(sides: np.ndarray) -> np.ndarray:
    """The dense inputs (n, 198) float32 of positions ``sides`` (n, 2, 26): the side on roll's units, then
    the other's, as ``backgammon_net.encode``."""
    parts = []
    for who in (0, 1):
        s = sides[:, who, :].astype(np.float32)
        points = s[:, 1:25]
        units = np.stack([points > 0, points > 1, points > 2, np.maximum(points - 3, 0) / 2], axis=-1)
        pips = (s * np.arange(26, dtype=np.float32)).sum(axis=1)
        parts += [units.reshape(len(s), -1).astype(np.float32), (s[:, 25] / 2)[:, None], (s[:, 0] / 15)[:, None],
                  (pips / 100)[:, None]]
    return np.concatenate(parts, axis=1)


def dataset(positions, mask, ply: int = 1) -> tuple:
    """``(inputs, targets)`` of the masked positions, the targets the labels at ``ply`` (0 or the deeper)."""
    return encode(positions.sides[mask]), positions.labels[mask][:, PLY_COLUMNS[min(ply, 1)]]


def initial_params(hidden: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return {"W1": rng.normal(0, 1 / np.sqrt(20), (net_module.INPUTS, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": rng.normal(0, 1 / np.sqrt(hidden), (hidden, net_module.OUTPUTS)).astype(np.float32),
            "b2": np.zeros(net_module.OUTPUTS, np.float32)}


def params_of(net: net_module.Net) -> dict:
    return {"W1": np.array(net.hidden, np.float32), "b1": np.array(net.hidden_bias, np.float32),
            "W2": np.array(net.output, np.float32), "b2": np.array(net.output_bias, np.float32)}


def net_of(params: dict) -> net_module.Net:
    """The engine's net of trained floats (each float32 widened to the double it is)."""
    rows = lambda a: tuple(tuple(float(v) for v in row) for row in np.asarray(a, np.float64))  # noqa: E731
    return net_module.Net(tuple(float(v) for v in np.asarray(params["b1"], np.float64)), rows(params["W1"]),
                          tuple(float(v) for v in np.asarray(params["b2"], np.float64)), rows(params["W2"]))


def forward(params, x):
    """The five outputs' logits of inputs ``x`` (n, 198)."""
    import jax
    return jax.nn.sigmoid(x @ params["W1"] + params["b1"]) @ params["W2"] + params["b2"]


def loss(params, x, target):
    """The mean binary cross-entropy of the outputs against ``target`` (n, 5) probabilities."""
    import jax.numpy as jnp
    logits = forward(params, x)
    return jnp.mean(jnp.maximum(logits, 0) - logits * target + jnp.log1p(jnp.exp(-jnp.abs(logits)))) \
        - entropy_floor(target)


def entropy_floor(target):
    """The labels' own mean entropy: subtracted, so that a loss of 0 is a net that matches them."""
    import jax.numpy as jnp
    t = jnp.clip(target, 1e-7, 1 - 1e-7)
    return jnp.mean(-(t * jnp.log(t) + (1 - t) * jnp.log(1 - t)))


def unclipped(params):
    """The weights are doubles in the file: nothing to clip."""
    return params


def equity(outs: np.ndarray) -> np.ndarray:
    """The cubeless equity of rows of five probabilities (as backgammon_net.equity_of)."""
    return 2.0 * outs[:, 0] - 1.0 + outs[:, 1] - outs[:, 3] + outs[:, 2] - outs[:, 4]


def equity_error(params, x, target) -> float:
    """The mean absolute equity error of the net against the labels."""
    logits = np.asarray(forward(params, x))
    return float(np.mean(np.abs(equity(1 / (1 + np.exp(-logits))) - equity(np.asarray(target)))))
