"""learn.export: a trained net written in the format both cores read gives, quantised, the centipawns the
float net gives, and a run that trains from it starts where it left off."""
import chess
import numpy as np

from engine.games.chess import nnue, notation
from engine.games.chess.position import BOARD, PLY
from learn import export, features, train
from tests.learn.test_train import material_positions


def float_centipawns(params: dict, fen: str) -> float:
    ours, theirs = features.encode([fen])
    return float(train.forward(params, ours.astype(np.int32), theirs.astype(np.int32))[0]) * train.SCALE


def test_the_quantised_net_gives_the_float_nets_centipawns(tmp_path):
    data = material_positions(800, 5)
    params, _ = train.fit(train.initial_params(32, seed=2), data, material_positions(200, 6), seconds=30,
                          batch=200, lr=3e-3, max_epochs=10, progress=False)
    path = tmp_path / "net.bin"
    export.export(params, path, {"positions": 800})
    net = nnue.read_weights(path)
    assert net.header["data"] == {"positions": 800} and net.hidden == 32
    boards = [chess.Board(), chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"),
              chess.Board("8/5k2/8/3Q4/8/8/5K2/8 b - - 0 1")]
    for board in boards:
        state = notation.from_board(board)
        quantised = nnue.centipawns(net, state[BOARD], bool(state[PLY] & 1))
        # rounding W2 to 1/64 and W1 to 1/255 moves a net's output by a few centipawns a unit, no more
        assert abs(quantised - float_centipawns(params, board.fen())) <= 20 + 0.05 * abs(quantised), board.fen()


def test_weights_at_the_clip_fit_the_format(tmp_path):
    params = train.initial_params(8, seed=1)
    params["W1"][:] = train.W1_LIMIT
    params["b1"][:] = train.W1_LIMIT
    params["W2"][:] = -train.W2_LIMIT
    path = tmp_path / "edge.bin"
    export.export(params, path, {})
    assert nnue.read_weights(path).hidden == 8           # the reader's overflow checks pass


def test_a_run_starts_from_the_committed_nets_floats(tmp_path):
    params = train.initial_params(16, seed=4)
    path = tmp_path / "net.bin"
    export.export(params, path, {})
    net = nnue.read_weights(path)
    back = export.dequantised(net.W1, net.b1, net.W2, net.b2)
    assert np.abs(back["W1"] - params["W1"]).max() <= 0.5 / export.QA + 1e-7
    assert np.abs(back["W2"] - params["W2"]).max() <= 0.5 / export.QB + 1e-7
    assert {k: v.shape for k, v in back.items()} == {k: v.shape for k, v in params.items()}  # b2 too: (1,)
    assert float(train.mean_loss(back, tiny_dataset(), 4)) >= 0.0      # the trainer takes them as they are


def tiny_dataset() -> tuple:
    """Two positions (the start, from each side) as the trainer's rows, targets a draw."""
    from learn import features
    ours, theirs = features.encode(["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"])
    return ours, theirs, np.full(2, 0.5, np.float32)


def test_a_run_starts_from_the_last_net_trained(tmp_path, monkeypatch):
    from learn import run
    params = train.initial_params(16, seed=9)
    export.export(params, tmp_path / "chess.bin", {})
    monkeypatch.setattr(run, "CHECKPOINT", tmp_path / "chess.bin")
    started, where = run.starting_params(16, seed=1, log=lambda *_: None)
    assert where == str(tmp_path / "chess.bin")
    assert np.abs(started["W1"] - params["W1"]).max() <= 0.5 / export.QA + 1e-7
    fresh, where = run.starting_params(24, seed=1, log=lambda *_: None)   # another width: a fresh net
    assert where == "a fresh initialisation" and fresh["W1"].shape == (768, 24)
