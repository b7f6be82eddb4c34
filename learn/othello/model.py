"""The pattern evaluation as JAX trains it: one row of floats a table's slot and anchor, the estimate of a
position the sum over its features of its anchors' rows, weighted as engine/games/othello/patterns.py
weights them. The features are computed for whole arrays of positions at once (numpy), equal to
``patterns.features`` position by position (tests/learn/test_othello_patterns.py). The loss is the mean
squared error in discs against the labels, plus a small ridge that keeps rarely seen slots near zero."""
import numpy as np

from engine.games.othello import board, patterns

RIDGE = 1e-4


def offsets() -> np.ndarray:
    """Where each table's slots start in one row of all slots."""
    return np.concatenate([[0], np.cumsum(patterns.table_sizes())[:-1]]).astype(np.int64)


def instance_indices(me: np.ndarray, them: np.ndarray) -> np.ndarray:
    """(n, instances) global slots of every pattern instance of each position."""
    names, starts = list(patterns.PATTERNS), offsets()
    columns = []
    for t, squares in patterns.instance_squares():
        idx = np.zeros(len(me), np.int64)
        for sq in reversed(squares):
            bit = np.uint64(sq)
            cell = ((me >> bit) & np.uint64(1)) + np.uint64(2) * ((them >> bit) & np.uint64(1))
            idx = 3 * idx + cell.astype(np.int64)
        columns.append(starts[t] + np.asarray(patterns.slots(names[t])[0], np.int64)[idx])
    return np.stack(columns, axis=1)


def mobility(me: np.ndarray, them: np.ndarray) -> np.ndarray:
    """The side to move's legal moves less the opponent's, position by position."""
    count = [board.legal_moves(int(a), int(b)).bit_count() - board.legal_moves(int(b), int(a)).bit_count()
             for a, b in zip(me.tolist(), them.tolist())]
    return np.array(count, np.int64)


def shares(empties: np.ndarray) -> np.ndarray:
    """(n, anchors): each anchor's weight in a position's estimate, as patterns.anchor_weights gives it."""
    out = np.zeros((len(empties), len(patterns.ANCHORS)), np.float32)
    for e in np.unique(empties):
        for anchor, share in patterns.anchor_weights(int(e)):
            out[empties == e, anchor] = share / patterns.STEP
    return out


def features(me: np.ndarray, them: np.ndarray) -> tuple:
    """``(slots (n, features) int32, shares (n, anchors) float32)`` of arrays of positions."""
    starts, n_patterns = offsets(), len(patterns.PATTERNS)
    empties = 64 - np.array([(int(a) | int(b)).bit_count() for a, b in zip(me.tolist(), them.tolist())], np.int64)
    clipped = np.clip(mobility(me, them), -patterns.MOBILITY_CLIP, patterns.MOBILITY_CLIP) + patterns.MOBILITY_CLIP
    extra = np.stack([starts[n_patterns] + clipped, starts[n_patterns + 1] + (empties & 1)], axis=1)
    return np.concatenate([instance_indices(me, them), extra], axis=1).astype(np.int32), shares(empties)


def dataset(positions, mask) -> tuple:
    slots, weights = features(positions.me[mask], positions.them[mask])
    return slots, weights, positions.label[mask].astype(np.float32)


def initial_params() -> dict:
    return {"W": np.zeros((len(patterns.ANCHORS), sum(patterns.table_sizes())), np.float32)}


def params_of(weights: patterns.Weights) -> dict:
    rows = [np.concatenate([np.asarray(t, np.float32) for t in anchor]) for anchor in weights.tables]
    return {"W": np.stack(rows) / patterns.UNIT}


def tables_of(params: dict) -> tuple:
    """The file's integer tables of trained floats (discs), rounded to ``1 / UNIT`` disc, within int16."""
    q = np.clip(np.rint(np.asarray(params["W"]) * patterns.UNIT), -32768, 32767).astype(np.int64)
    starts = list(offsets()) + [q.shape[1]]
    return tuple(tuple(tuple(row[starts[t]:starts[t + 1]].tolist()) for t in range(len(starts) - 1)) for row in q)


def forward(params, slots, weights):
    """The estimated disc difference of each position."""
    per_anchor = params["W"][:, slots].sum(axis=-1)          # (anchors, n)
    return (per_anchor.T * weights).sum(axis=-1)


def loss(params, slots, weights, target):
    import jax.numpy as jnp
    return jnp.mean((forward(params, slots, weights) - target) ** 2) + RIDGE * jnp.mean(params["W"] ** 2)


def unclipped(params):
    return params


def mean_absolute_error(params, slots, weights, target) -> float:
    return float(np.mean(np.abs(np.asarray(forward(params, slots, weights)) - target)))
