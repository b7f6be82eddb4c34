"""The trained floats quantised into the weights file both cores read (format: engine/games/chess/nnue.py):
the first layer by QA, the output layer by QB, the output bias by QA * QB, rounded to the nearest integer;
the trainer already kept them inside the ranges those integers hold."""
import datetime
import subprocess

import numpy as np

from engine.games.chess.nnue import QA, QB


def quantised(params: dict) -> tuple:
    """``(W1, b1, W2, b2)`` as the format's integers."""
    w1 = np.rint(params["W1"] * QA).astype(np.int16)
    b1 = np.rint(params["b1"] * QA).astype(np.int16)
    w2 = np.rint(params["W2"] * QB).astype(np.int16)
    b2 = np.rint(params["b2"] * QA * QB).astype(np.int32)
    return w1, b1, w2, b2


def dequantised(w1, b1, w2, b2) -> dict:
    """The floats a weights file stands for: where a run that trains from the committed net starts."""
    return {"W1": (w1 / QA).astype(np.float32), "b1": (b1 / QA).astype(np.float32),
            "W2": (w2 / QB).astype(np.float32), "b2": (np.asarray(b2, np.float64).reshape(1) / (QA * QB)).astype(np.float32)}


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def export(params: dict, path, data: dict) -> None:
    """Write ``params`` to ``path`` with a header naming the data it was trained on and the commit."""
    from engine.games.chess import nnue
    w1, b1, w2, b2 = quantised(params)
    nnue.write_weights(path, w1, b1, w2, b2, {"data": data, "commit": commit(),
                                              "trained": datetime.date.today().isoformat()})
