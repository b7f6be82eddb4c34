"""The trainer: :func:`fit` trains any game's net with JAX on the CPU (or an accelerator, where jax finds
one), given its loss and its clipping (backgammon's: learn/backgammon/model.py); the rest of this module is
chess's net, a two-perspective net (768 sparse inputs -> H, clipped ReLU, both sides' H -> 1), the default.

Why JAX: its CPU wheels (jax, jaxlib; optax for Adam) are about 90 MB against PyTorch's 800 MB-plus wheel with
its CUDA libraries from the package index, and a gather over 32 active features a position, summed, is the
whole first layer: no sparse-tensor machinery is needed.

The net's output times ``SCALE`` is centipawns for the side to move. The loss is the mean squared error, in
the sigmoid's space (``K`` centipawns to the unit), between the net's winning chance and a blend of the
reference engine's (``LAMBDA``) and the game's result, as the NNUE trainers do. The weights stay inside the
ranges the quantised format can hold (learn/export.py). Training stops when the validation loss (held-out
games) has not improved for ``patience`` epochs, or at the time budget, and keeps the best epoch's weights.
"""
from dataclasses import dataclass, field
import functools
import time

import numpy as np

from engine.games.chess.nnue import INPUTS, SCALE

K = 400.0            # centipawns a unit of the sigmoid
LAMBDA = 0.75        # the reference engine's share of the target; the result has the rest
W1_LIMIT = 992 / 255         # quantised by QA = 255 and rounded: 33 * 992 (32 pieces and the bias) fits int16
W2_LIMIT = 127 / 64           # |W2| after quantising by QB = 64


@dataclass
class History:
    epochs: list = field(default_factory=list)   # {"epoch", "train", "validation", "lr", "seconds"}
    best_epoch: int = -1
    stopped: str = ""


def initial_params(hidden: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return {"W1": rng.normal(0, 0.1, (INPUTS, hidden)).astype(np.float32),
            "b1": np.full(hidden, 0.1, np.float32),
            "W2": rng.normal(0, 1 / np.sqrt(2 * hidden), 2 * hidden).astype(np.float32),
            "b2": np.zeros(1, np.float32)}


def forward(params, ours, theirs):
    """The net's output (centipawns / SCALE) for batches of padded feature lists (the padding feature,
    learn.features.PAD = INPUTS, reads a row of zeros appended to W1)."""
    import jax.numpy as jnp
    w1 = jnp.concatenate([params["W1"], jnp.zeros((1, params["W1"].shape[1]), params["W1"].dtype)])
    acc_ours = params["b1"] + w1[ours].sum(axis=1)
    acc_theirs = params["b1"] + w1[theirs].sum(axis=1)
    hidden = jnp.concatenate([jnp.clip(acc_ours, 0, 1), jnp.clip(acc_theirs, 0, 1)], axis=-1)
    return hidden @ params["W2"] + params["b2"][0]


def targets(cp: np.ndarray, points: np.ndarray) -> np.ndarray:
    return (LAMBDA / (1 + np.exp(-cp / K)) + (1 - LAMBDA) * points).astype(np.float32)


def loss(params, ours, theirs, target):
    import jax
    import jax.numpy as jnp
    predicted = jax.nn.sigmoid(forward(params, ours, theirs) * SCALE / K)
    return jnp.mean((predicted - target) ** 2)


def clipped(params):
    import jax.numpy as jnp
    return {"W1": jnp.clip(params["W1"], -W1_LIMIT, W1_LIMIT), "b1": jnp.clip(params["b1"], -W1_LIMIT, W1_LIMIT),
            "W2": jnp.clip(params["W2"], -W2_LIMIT, W2_LIMIT), "b2": params["b2"]}


@functools.cache
def jitted(loss_fn):
    import jax
    return jax.jit(loss_fn)


def make_step(optimiser, loss_fn=loss, clip=clipped):
    import jax
    import optax

    @jax.jit
    def step(params, state, *data):
        value, grads = jax.value_and_grad(loss_fn)(params, *data)
        updates, state = optimiser.update(grads, state, params)
        return clip(optax.apply_updates(params, updates)), state, value
    return step


def mean_loss(params, data, batch: int, loss_fn=loss) -> float:
    n = len(data[-1])
    total = 0.0
    for start in range(0, n, batch):
        sl = slice(start, start + batch)
        total += float(jitted(loss_fn)(params, *(a[sl] for a in data))) * len(data[-1][sl])
    return total / max(1, n)


def fit(params: dict, train: tuple, validation: tuple, seconds: float, batch: int = 16384, lr: float = 1e-3,
        patience: int = 3, max_epochs: int = 200, progress=True, loss_fn=loss, clip=clipped) -> tuple:
    """Train ``params`` (float arrays) on ``train``, a tuple of arrays of one row a position (chess's:
    ours, theirs, target), by Adam on ``loss_fn(params, *rows)``, each step's params through ``clip``; the
    learning rate halves at each epoch that does not improve the validation loss. The best params (by the
    validation loss) and a History."""
    import jax.numpy as jnp
    import optax
    from tqdm import tqdm

    params = {k: jnp.asarray(v) for k, v in params.items()}
    optimiser = optax.inject_hyperparams(optax.adam)(learning_rate=lr)
    state, step = optimiser.init(params), make_step(optimiser, loss_fn, clip)
    history, best, best_loss, waited = History(), params, mean_loss(params, validation, batch, loss_fn), 0
    history.epochs.append({"epoch": 0, "train": None, "validation": best_loss, "lr": lr, "seconds": 0.0})
    end, started = time.monotonic() + seconds, time.monotonic()
    rng = np.random.default_rng(0)
    n = len(train[-1])
    for epoch in range(1, max_epochs + 1):
        order, total = rng.permutation(n), 0.0
        state.hyperparams["learning_rate"] = jnp.asarray(lr, jnp.float32)   # the same type: no recompiling
        batches = range(0, n - batch + 1, batch) if n >= batch else [0]
        for start in tqdm(batches, desc=f"epoch {epoch}", disable=not progress, leave=False):
            idx = order[start:start + batch]
            params, state, value = step(params, state, *(a[idx] for a in train))
            total += float(value)
        validation_loss = mean_loss(params, validation, batch, loss_fn)
        history.epochs.append({"epoch": epoch, "train": total / len(batches), "validation": validation_loss,
                               "lr": lr, "seconds": round(time.monotonic() - started, 1)})
        if validation_loss < best_loss:
            best, best_loss, waited, history.best_epoch = params, validation_loss, 0, epoch
        else:
            waited, lr = waited + 1, lr / 2
        if waited >= patience:
            history.stopped = f"no better validation loss for {patience} epochs"
            break
        if time.monotonic() >= end:
            history.stopped = "the time budget"
            break
    else:
        history.stopped = f"{max_epochs} epochs"
    return {k: np.asarray(v) for k, v in best.items()}, history


def dataset(positions, mask) -> tuple:
    from learn.features import encode
    fens = [f for f, keep in zip(positions.fens, mask) if keep]
    ours, theirs = encode(fens)
    return ours.astype(np.int32), theirs.astype(np.int32), targets(positions.cp[mask], positions.points[mask])

