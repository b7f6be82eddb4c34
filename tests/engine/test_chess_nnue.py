"""Chess's NNUE (engine/games/chess/nnue.py): the weights file's writer and reader (format version 1, every
refusal naming the file and its reason), the Python core's evaluation against a slow reference written
here from the format's text alone (plain loops over python-chess's pieces, the file parsed with struct),
and the ``evaluation`` option of the chess game."""
import hashlib
import json
import random
import struct

import chess
import numpy as np
import pytest

from engine.errors import InvalidState
from engine.games.chess import (CENTIPAWNS_PER_UNIT, CLASSIC, EVAL_LIMIT, GAME, NNUE, NnueChess, drawish, load, nnue,
                                notation)
from engine.games.chess.position import BOARD, PLY
from tests.nnue_nets import BOUND, flip_a_byte_of, net_file, random_weights

FENS = [chess.STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/P1k5/K7/8/8/8/6p1/8 w - - 0 1",
        "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"]


# --- a reference, from the format's text ---------------------------------------------------------------

def reference_net(path) -> tuple:
    """``(W1 rows, b1, W2, b2)`` as lists of ints, parsed with struct from the file's bytes."""
    data = open(path, "rb").read()
    header, payload = data.split(b"\n", 1)
    hidden = json.loads(header)["hidden"]
    values = struct.unpack(f"<{768 * hidden + hidden + 2 * hidden}h", payload[:-4])
    w1 = [list(values[f * hidden:(f + 1) * hidden]) for f in range(768)]
    b1 = list(values[768 * hidden:768 * hidden + hidden])
    w2 = list(values[768 * hidden + hidden:])
    return w1, b1, w2, struct.unpack("<i", payload[-4:])[0]


def reference_centipawns(net: tuple, board: chess.Board) -> int:
    """The format's evaluation, step by step: both accumulators from python-chess's pieces, crelu, the
    output, and the truncating division."""
    w1, b1, w2, b2 = net
    hidden = len(b1)
    acc = []
    for p in (0, 1):                                   # WHITE, BLACK
        a = list(b1)
        for square, piece in board.piece_map().items():
            c = 0 if piece.color == chess.WHITE else 1
            f = (0 if c == p else 1) * 384 + (piece.piece_type - 1) * 64 + (square if p == 0 else square ^ 56)
            for i in range(hidden):
                a[i] += w1[f][i]
        acc.append(a)
    us = 0 if board.turn == chess.WHITE else 1
    out = b2
    for i in range(hidden):
        out += min(max(acc[us][i], 0), 255) * w2[i] + min(max(acc[1 - us][i], 0), 255) * w2[hidden + i]
    n, d = out * 400, 255 * 64
    return n // d if n >= 0 else -((-n) // d)


def random_boards(count: int, seed: int):
    """Positions of random games from FENS (captures, promotions, castling, en passant among them)."""
    rng = random.Random(seed)
    for k in range(count):
        board = chess.Board(FENS[k % len(FENS)])
        for _ in range(rng.randrange(60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        yield board


# --- writer and reader -----------------------------------------------------------------------------------

def test_written_weights_read_back(tmp_path):
    W1, b1, W2, b2 = random_weights(1, hidden=16)
    path = tmp_path / "n.bin"
    nnue.write_weights(path, W1, b1, W2, b2, {"commit": "abc", "data": {"positions": 5}})
    net = nnue.read_weights(path)
    assert (net.hidden, net.b2, net.header["commit"], net.header["data"]) == (16, b2, "abc", {"positions": 5})
    assert (net.W1 == W1).all() and (net.b1 == b1).all() and (net.W2 == W2).all()
    assert net.W1.dtype == net.b1.dtype == net.W2.dtype == np.int16 and net.W1.shape == (768, 16)
    payload = path.read_bytes().split(b"\n", 1)[1]
    assert len(payload) == 768 * 16 * 2 + 16 * 2 + 32 * 2 + 4 == net.header["payload_bytes"]
    assert net.sha256 == hashlib.sha256(payload).hexdigest() == net.header["sha256"]


def rewritten(path, header_change=None, payload_change=None):
    """The file at ``path`` with its header and payload changed (the checksum left as it was)."""
    line, payload = path.read_bytes().split(b"\n", 1)
    header = json.loads(line)
    if header_change:
        header_change(header)
    if payload_change:
        payload = payload_change(payload)
    path.write_bytes(json.dumps(header).encode() + b"\n" + payload)
    return path


def flip_a_byte(payload: bytes) -> bytes:
    return payload[:10] + bytes([payload[10] ^ 1]) + payload[11:]


@pytest.mark.parametrize("header_change, payload_change, reason", [
    (None, flip_a_byte, "sha256"),
    (lambda h: h.update(version=2), None, "version is 2"),
    (lambda h: h.update(format="other"), None, "format"),
    (lambda h: h.update(inputs=769), None, "inputs"),
    (lambda h: h.update(activation="relu"), None, "activation"),
    (lambda h: h.update(qa=127), None, "qa"),
    (lambda h: h.update(scale=600), None, "scale"),
    (lambda h: h.pop("qb"), None, "no 'qb'"),
    (lambda h: h.update(hidden=17), None, "hidden 17 needs"),
    (lambda h: h.update(hidden=0), None, "hidden is 0"),
    (lambda h: h.update(hidden="16"), None, "hidden is not an integer"),
    (lambda h: h.update(payload_bytes=1), None, "header: 1"),
    (None, lambda p: p[:-2], "payload is"),
    (None, lambda p: p + b"\0\0", "payload is"),
])
def test_the_reader_refuses_a_file_unlike_the_format(tmp_path, header_change, payload_change, reason):
    path = rewritten(net_file(tmp_path / "n.bin", hidden=16), header_change, payload_change)
    with pytest.raises(nnue.WeightsError) as error:
        nnue.read_weights(path)
    assert str(path) in str(error.value) and reason in error.value.reason


@pytest.mark.parametrize("content", [b"", b"not json\n", b"[1, 2]\n\0\0", b'{"format": "tactician-chess-nnue"'])
def test_the_reader_refuses_a_header_that_does_not_parse(tmp_path, content):
    path = tmp_path / "n.bin"
    path.write_bytes(content)
    with pytest.raises(nnue.WeightsError, match="header is not one line of JSON"):
        nnue.read_weights(path)


def test_the_reader_refuses_a_missing_file(tmp_path):
    with pytest.raises(nnue.WeightsError, match="cannot be read"):
        nnue.read_weights(tmp_path / "absent.bin")


@pytest.mark.parametrize("where", ["accumulator", "output"])
def test_the_reader_refuses_weights_that_could_overflow(tmp_path, where):
    """Beyond the format's clip an accumulator could leave int16 (the bias and 32 pieces: 992 + 32 x 993 =
    32768), or the output int32, where the cores' integers could part: refused, though the header and
    checksum are right."""
    W1, b1, W2, b2 = random_weights(2, hidden=300)
    if where == "accumulator":
        b1[3], W1[5, 3] = BOUND, BOUND + 1
    else:
        W2[:] = 2 ** 15 - 1
    nnue.write_weights(tmp_path / "n.bin", W1, b1, W2, b2)
    with pytest.raises(nnue.WeightsError, match=f"{where} could reach"):
        nnue.read_weights(tmp_path / "n.bin")


def test_the_format_s_own_clip_is_read():
    """Weights at the format's bound (|W1|, |b1| <= 32767 // 33) pass the range check."""
    hidden = 4
    W1 = np.full((768, hidden), -BOUND)
    net = nnue.Network(W1.astype(np.int16), np.full(hidden, BOUND, np.int16), np.ones(2 * hidden, np.int16), 0, "", {})
    nnue.check_ranges("x", net)


@pytest.mark.parametrize("bad", [{"W1": np.zeros((768, 4)), "b1": np.zeros(5)}, {"W1": np.zeros((767, 4))},
                                 {"W2": np.full(8, 2 ** 15)}, {"extra": {"qa": 1}}])
def test_the_writer_refuses_what_the_format_cannot_hold(tmp_path, bad):
    args = {"W1": np.zeros((768, 4)), "b1": np.zeros(4), "W2": np.zeros(8), "b2": 0, "extra": {}, **bad}
    with pytest.raises(ValueError):
        nnue.write_weights(tmp_path / "n.bin", args["W1"], args["b1"], args["W2"], args["b2"], args["extra"])


# --- the evaluation ------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [{"hidden": 8}, {"hidden": 37, "w1": BOUND, "bias": (-BOUND, BOUND + 1),
                                                   "w2": 3000}])
def test_the_python_evaluation_is_the_reference_s(tmp_path, shape):
    """Many positions, Black and White to move; once with weights up to the format's bound."""
    path = net_file(tmp_path / "n.bin", seed=3, **shape)
    net, reference = nnue.read_weights(path), reference_net(path)
    values = set()
    for board in random_boards(60, seed=4):
        state = notation.from_board(board)
        expected = reference_centipawns(reference, board)
        assert nnue.centipawns(net, state[BOARD], bool(state[PLY] & 1)) == expected, board.fen()
        values.add(expected)
    assert len(values) > 30                            # (the positions are told apart)


def test_the_features_are_the_format_s():
    """White's a1 rook from White's view, Black's king on e8 from Black's (flipped to e1) and White's."""
    assert nnue.feature(nnue.WHITE, nnue.WHITE, 3, chess.A1) == 3 * 64
    assert nnue.feature(nnue.BLACK, nnue.BLACK, 5, chess.E8) == 5 * 64 + chess.E1
    assert nnue.feature(nnue.WHITE, nnue.BLACK, 5, chess.E8) == 384 + 5 * 64 + chess.E8


# --- the option ---------------------------------------------------------------------------------------

def test_classic_is_the_default_and_nnue_needs_a_net(tmp_path, default_net):
    default_net(tmp_path / "nnue.bin")
    assert load(chess.STARTING_FEN)[0] is GAME is load(chess.STARTING_FEN, evaluation=CLASSIC)[0]
    with pytest.raises(InvalidState) as error:
        load(chess.STARTING_FEN, evaluation=NNUE)
    message = error.value.errors["options.evaluation"][0]
    assert "unavailable" in message and "nnue.bin" in message and "cannot be read" in message
    assert nnue.status() == {"loaded": False, "reason": nnue.current().reason}
    with pytest.raises(InvalidState) as error:
        load(chess.STARTING_FEN, evaluation="score")
    assert list(error.value.errors) == ["options.evaluation"]


def test_a_refused_file_is_said_and_classic_is_unaffected(tmp_path, default_net):
    default_net(flip_a_byte_of(net_file(tmp_path / "nnue.bin")))
    assert not nnue.status()["loaded"] and "sha256" in nnue.status()["reason"]
    game, state = load(chess.STARTING_FEN)
    assert game.evaluate(state, 0) == GAME.evaluate(state, 0)
    with pytest.raises(InvalidState, match="sha256"):
        load(chess.STARTING_FEN, evaluation=NNUE)


def test_the_nnue_game_values_by_the_net_scaled_and_bounded_as_the_classic(installed_net):
    """The net's centipawns, scaled down in drawish material, in evaluation units within EVAL_LIMIT; the
    native state names the net."""
    net = installed_net(5, w2=60)
    game, _ = load(chess.STARTING_FEN, evaluation=NNUE)
    assert isinstance(game, NnueChess) and game.net is net and nnue.status()["sha256"] == net.sha256
    for board in random_boards(20, seed=6):
        state = notation.from_board(board)
        if game.is_terminal(state):
            continue
        cp = nnue.centipawns(net, state[BOARD], bool(state[PLY] & 1))
        v = max(-EVAL_LIMIT, min(EVAL_LIMIT, drawish.scaled(float(cp), state[BOARD]) / CENTIPAWNS_PER_UNIT))
        mover = state[PLY] & 1
        assert game.evaluate(state, mover) == v and game.evaluate(state, 1 - mover) == -v
        assert game.native_state(state) == (*GAME.native_state(state), net.sha256)


def test_a_net_wider_than_the_compiled_core_takes_is_refused(tmp_path):
    """The compiled core's states hold 512 hidden units: a wider net is refused in both cores (never one
    core alone), and the reason said."""
    from engine.search import native
    if not native.available():
        pytest.skip("no compiled core")
    loaded = nnue.use(net_file(tmp_path / "wide.bin", hidden=513, w1=1, w2=1))
    try:
        assert loaded.net is None and "1 to 512 hidden units" in loaded.reason
        assert nnue.status() == {"loaded": False, "reason": loaded.reason}
    finally:
        nnue.use()


def test_the_environment_may_name_another_file(tmp_path, default_net, monkeypatch):
    """``TACTICIAN_CHESS_NNUE`` (learn/'s candidate net in its acceptance match) in place of nnue.bin."""
    default_net(tmp_path / "absent.bin")
    candidate = nnue.read_weights(net_file(tmp_path / "candidate.bin", seed=9))
    monkeypatch.setenv(nnue.PATH_VARIABLE, str(tmp_path / "candidate.bin"))
    assert nnue.status() == {"loaded": True, "hidden": candidate.hidden, "sha256": candidate.sha256}
