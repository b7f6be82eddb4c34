"""Chess NNUE weights files made in the tests (never committed): random int16 weights in a valid header,
written by engine/games/chess/nnue.py's one writer, and the net made the one in use for a test."""
from pathlib import Path

import numpy as np
import pytest

from engine.games.chess import nnue

BOUND = nnue.INT16_MAX // (nnue.MAX_PIECES + 1)   # the format's clip: 32 pieces and the bias fit int16


def random_weights(seed: int, hidden: int = 32, w1: int = 40, w2: int = 20, bias: tuple = (-100, 200)) -> tuple:
    """``(W1, b1, W2, b2)``: uniform integers, W1 within +-``w1``, b1 within ``bias``, W2 within +-``w2`` (by
    default an accumulator stays mostly within crelu's 0..255 and the centipawns within a few hundred)."""
    rng = np.random.default_rng(seed)
    return (rng.integers(-w1, w1 + 1, size=(nnue.INPUTS, hidden)), rng.integers(*bias, size=hidden),
            rng.integers(-w2, w2 + 1, size=2 * hidden), int(rng.integers(-5000, 5000)))


def net_file(path: Path, seed: int = 0, **shape) -> Path:
    """A valid weights file at ``path`` of :func:`random_weights`; its path."""
    nnue.write_weights(path, *random_weights(seed, **shape), {"data": {"test": True}, "commit": "test",
                                                              "trained": "2026-12-02"})
    return path


@pytest.fixture
def installed_net(tmp_path):
    """Make a test net the one in use (both cores) and give it to the test; the default file's state after."""
    def install(seed: int = 0, **shape) -> nnue.Network:
        loaded = nnue.use(net_file(tmp_path / f"net-{seed}.bin", seed, **shape))
        assert loaded.net is not None, loaded.reason
        return loaded.net
    yield install
    nnue.use()


@pytest.fixture
def default_net(monkeypatch):
    """Make the file at a path the default one, not yet read (as at a server's start); the real default's
    state after."""
    def at(path: Path) -> None:
        monkeypatch.setattr(nnue, "DEFAULT_PATH", path)
        monkeypatch.setattr(nnue, "LOADED", [])
    yield at
    monkeypatch.undo()
    nnue.use()


def flip_a_byte_of(path: Path) -> Path:
    """The file with a byte of its payload changed (its checksum then fails); its path."""
    data = bytearray(path.read_bytes())
    data[-10] ^= 1
    path.write_bytes(bytes(data))
    return path
