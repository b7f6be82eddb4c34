"""Chess's learned evaluation: an NNUE read from one weights file, format version 1 (the contract between
``learn/``, which writes the file, and both cores, which read it).

The file is one line of UTF-8 JSON (the header), a newline, then the payload of little-endian integers:
``W1`` int16 768 x H (row f: feature f's H weights), ``b1`` int16 H, ``W2`` int16 2H (the first H for the
side to move's accumulator, the next H for the other side's), ``b2`` int32 1. The header names the format
and version, ``inputs`` 768, ``hidden`` H, ``activation`` "crelu", the quantisation ``qa`` 255, ``qb`` 64,
``scale`` 400, ``payload_bytes`` and the payload's ``sha256``, and, for people, the ``data``, ``commit`` and
``trained`` date it came from. :func:`read_weights` refuses any other file, naming it and the reason.

Features: for perspective ``p`` (a colour, WHITE 0, BLACK 1), a piece of colour ``c`` and type ``t``
(PAWN 0 .. KING 5) on absolute square ``s`` (a1 0, h1 7, h8 63) is feature ``(c != p) * 384 + t * 64 +
(s if p is WHITE else s ^ 56)``. A perspective's accumulator is ``b1`` plus the rows of its features; the
output is ``b2 + crelu(acc[us]) . W2[:H] + crelu(acc[them]) . W2[H:]`` with ``crelu(x) = min(max(x, 0), qa)``,
and the centipawns (the mover's) ``out * scale / (qa * qb)``, the division truncating toward zero as C++'s.
Everything is integer arithmetic, so that the compiled core (native/src/games/chess_nnue.hpp) gets the
same number; the reader also refuses weights under which an accumulator (32 pieces and the bias) could
leave int16 or the output int32, where the two cores' integers could part.

The net the service uses is ``nnue.bin`` beside this module (or the file ``TACTICIAN_CHESS_NNUE`` names),
read once (:func:`current`); without it, or with a file refused, the classic evaluation is unaffected and
:func:`status` says why.
"""
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

FORMAT, VERSION = "tactician-chess-nnue", 1
INPUTS, ACTIVATION, QA, QB, SCALE = 768, "crelu", 255, 64, 400
FIXED = {"format": FORMAT, "version": VERSION, "inputs": INPUTS, "activation": ACTIVATION, "qa": QA, "qb": QB,
         "scale": SCALE}
DEFAULT_PATH = Path(__file__).with_name("nnue.bin")   # the committed net
PATH_VARIABLE = "TACTICIAN_CHESS_NNUE"   # names another file to use instead (learn/'s candidate in a match)
MAX_PIECES = 32                               # on a chess board at most: the accumulator's worst case
INT16_MAX, INT32_MAX = 2 ** 15 - 1, 2 ** 31 - 1
PIECES = "PNBRQK"                             # the piece types in the features' order
WHITE, BLACK = 0, 1
PLAYABLE = tuple(10 * row + col for row in range(2, 10) for col in range(1, 9))   # board.py's mailbox squares


class WeightsError(ValueError):
    """A weights file the readers refuse; the message names the file and the reason."""

    def __init__(self, path, reason: str):
        super().__init__(f"{path}: {reason}")
        self.reason = reason


@dataclass(frozen=True, eq=False)
class Network:
    """A verified net: ``W1`` (768 x H), ``b1`` (H), ``W2`` (2H) int16, ``b2`` an int, ``sha256`` the
    payload's digest (which names the net to the compiled core), ``header`` the file's header."""

    W1: np.ndarray
    b1: np.ndarray
    W2: np.ndarray
    b2: int
    sha256: str
    header: dict = field(repr=False)

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])


def payload_size(hidden: int) -> int:
    """The payload's bytes for ``hidden`` units: W1, b1, W2 int16 and b2 int32."""
    return INPUTS * hidden * 2 + hidden * 2 + 2 * hidden * 2 + 4


def payload_of(W1, b1, W2, b2) -> bytes:
    """The payload bytes, little-endian, in the format's order."""
    parts = [np.asarray(W1).astype("<i2"), np.asarray(b1).astype("<i2"), np.asarray(W2).astype("<i2"),
             np.asarray(b2).reshape(1).astype("<i4")]
    return b"".join(part.tobytes() for part in parts)


def write_weights(path, W1, b1, W2, b2, header_extra: dict | None = None) -> None:
    """Write a net in the format (``learn/``'s exporter and the tests use this one writer): ``W1`` 768 x H,
    ``b1`` H, ``W2`` 2H (integers within int16), ``b2`` (within int32); ``header_extra`` adds the
    informational keys (``data``, ``commit``, ``trained``) and may not change the fixed ones."""
    W1 = np.asarray(W1)
    hidden = W1.shape[1] if W1.ndim == 2 else -1
    if W1.shape != (INPUTS, hidden) or np.shape(b1) != (hidden,) or np.shape(W2) != (2 * hidden,):
        raise ValueError(f"the shapes are W1 (768, H), b1 (H,), W2 (2H,): got {W1.shape}, {np.shape(b1)}, "
                         f"{np.shape(W2)}")
    for name, values, bound in (("W1", W1, INT16_MAX), ("b1", b1, INT16_MAX), ("W2", W2, INT16_MAX),
                                ("b2", b2, INT32_MAX)):
        if np.any(np.abs(np.asarray(values, dtype=np.int64)) > bound):
            raise ValueError(f"{name} holds values beyond its integer type")
    extra = dict(header_extra or {})
    if set(extra) & (set(FIXED) | {"hidden", "payload_bytes", "sha256"}):
        raise ValueError("header_extra may not set the format's own keys")
    payload = payload_of(W1, b1, W2, b2)
    header = {**FIXED, "hidden": hidden, "payload_bytes": len(payload),
              "sha256": hashlib.sha256(payload).hexdigest(), **extra}
    Path(path).write_bytes(json.dumps(header).encode() + b"\n" + payload)


def read_weights(path) -> Network:
    """The verified net of the file at ``path``; :class:`WeightsError` naming the file and the reason when
    it cannot be read, its header does not parse or differs from the format, its payload's size or sha256
    does not match, or its weights could overflow the cores' integers."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise WeightsError(path, f"cannot be read ({error.strerror or error})") from None
    line, newline, payload = data.partition(b"\n")
    try:
        header = json.loads(line.decode("utf-8")) if newline else None
    except (UnicodeDecodeError, ValueError):
        header = None
    if not isinstance(header, dict):
        raise WeightsError(path, "the header is not one line of JSON (an object) followed by a newline")
    check_header(path, header)
    hidden = header["hidden"]
    if len(payload) != payload_size(hidden) or header["payload_bytes"] != payload_size(hidden):
        raise WeightsError(path, f"the payload is {len(payload)} bytes (header: {header['payload_bytes']}); "
                                 f"hidden {hidden} needs {payload_size(hidden)}")
    digest = hashlib.sha256(payload).hexdigest()
    if digest != header["sha256"]:
        raise WeightsError(path, f"the payload's sha256 is {digest}, not the header's {header['sha256']}")
    net = unpacked(payload, hidden, digest, header)
    check_ranges(path, net)
    return net


def check_header(path, header: dict) -> None:
    """The header's fixed keys are the format's, ``hidden`` a positive integer, ``payload_bytes`` an
    integer and ``sha256`` a string; :class:`WeightsError` otherwise."""
    for key, expected in FIXED.items():
        if key not in header:
            raise WeightsError(path, f"the header has no {key!r}")
        if header[key] != expected or type(header[key]) is not type(expected):
            raise WeightsError(path, f"the header's {key} is {header[key]!r}; this reader takes {expected!r}")
    for key, kind in (("hidden", int), ("payload_bytes", int), ("sha256", str)):
        if type(header.get(key)) is not kind:
            raise WeightsError(path, f"the header's {key} is not {'an integer' if kind is int else 'a string'}")
    if header["hidden"] <= 0:
        raise WeightsError(path, f"the header's hidden is {header['hidden']}; it is positive")


def unpacked(payload: bytes, hidden: int, digest: str, header: dict) -> Network:
    """The payload's arrays (native-endian int16 copies, read-only)."""
    sizes = (INPUTS * hidden, hidden, 2 * hidden)
    arrays, offset = [], 0
    for size in sizes:
        array = np.frombuffer(payload, dtype="<i2", count=size, offset=offset).astype(np.int16)
        array.flags.writeable = False
        arrays.append(array)
        offset += 2 * size
    b2 = int(np.frombuffer(payload, dtype="<i4", count=1, offset=offset)[0])
    return Network(arrays[0].reshape(INPUTS, hidden), arrays[1], arrays[2], b2, digest, header)


def check_ranges(path, net: Network) -> None:
    """The guarantee the format asks of training, checked: no accumulator of a legal position (at most 32
    pieces and the bias) leaves int16, and no output leaves int32."""
    worst = np.abs(net.b1.astype(np.int64)) + MAX_PIECES * np.abs(net.W1.astype(np.int64)).max(axis=0)
    if worst.max() > INT16_MAX:
        raise WeightsError(path, f"an accumulator could reach {worst.max()} with 32 pieces, beyond int16: "
                                 "the weights are not clipped as the format asks")
    output = abs(net.b2) + QA * int(np.abs(net.W2.astype(np.int64)).sum())
    if output > INT32_MAX:
        raise WeightsError(path, f"the output could reach {output}, beyond int32")


# --- evaluation --------------------------------------------------------------------------------------

def feature(perspective: int, colour: int, piece: int, square: int) -> int:
    """The input index of a piece (colour, type, absolute square) for ``perspective``."""
    return (colour != perspective) * 384 + piece * 64 + (square if perspective == WHITE else square ^ 56)


def pieces(board: str, black: bool):
    """``(colour, type, absolute square)`` of each piece of a board in the mover's view (board.py: the
    mover in upper case; a mailbox square ``10 * row + col`` is rank ``9 - row``, file ``col - 1`` of that
    view, and Black's view is White's turned round, square ``s`` there being ``63 - s``)."""
    for i in PLAYABLE:
        c = board[i]
        if c == ".":
            continue
        view = 8 * (9 - i // 10) + i % 10 - 1
        ours = c.isupper()
        yield (WHITE if ours != black else BLACK), PIECES.index(c.upper()), (63 - view if black else view)


def accumulators(net: Network, board: str, black: bool) -> tuple:
    """White's and Black's accumulators (int64 arrays: no sum of a verified net leaves int16)."""
    placed = list(pieces(board, black))
    return tuple(net.b1.astype(np.int64) + net.W1[[feature(p, *piece) for piece in placed]].sum(axis=0, dtype=np.int64)
                 for p in (WHITE, BLACK))


def truncated_division(n: int, d: int) -> int:
    """``n / d`` rounded toward zero (C++'s integer division), ``d`` positive."""
    q = abs(n) // d
    return q if n >= 0 else -q


def centipawns(net: Network, board: str, black: bool) -> int:
    """The net's evaluation of a position (board.py's mover's view; ``black``: Black moves), in centipawns
    for the side to move."""
    white, black_acc = accumulators(net, board, black)
    us, them = (black_acc, white) if black else (white, black_acc)
    w2 = net.W2.astype(np.int64)
    out = net.b2 + int(np.clip(us, 0, QA) @ w2[:net.hidden]) + int(np.clip(them, 0, QA) @ w2[net.hidden:])
    return truncated_division(out * SCALE, QA * QB)


# --- the service's net ---------------------------------------------------------------------------------

@dataclass
class Loaded:
    """The net in use (``net``), or why there is none (``reason``)."""

    net: Network | None = None
    reason: str = ""


LOADED: list[Loaded] = []                     # the one entry, once read (current)


def configured_path() -> Path:
    """The file the service reads: ``TACTICIAN_CHESS_NNUE``'s where it is set, else ``nnue.bin``."""
    return Path(os.environ.get(PATH_VARIABLE) or DEFAULT_PATH)


def use(path=None) -> Loaded:
    """Read the net at ``path`` (by default :func:`configured_path`'s) and make it the one in use, in both
    cores (the compiled core takes the arrays verified here); a file missing or refused, by the reader or
    by the compiled core, leaves none in use, and the reason."""
    path = configured_path() if path is None else path
    try:
        loaded = Loaded(read_weights(path))
        hand_to_native(path, loaded.net)
    except WeightsError as error:
        loaded = Loaded(reason=str(error))
        hand_to_native(path, None)
    LOADED[:] = [loaded]
    return loaded


def hand_to_native(path, net: Network | None) -> None:
    """Install ``net`` in the compiled core, where there is one (None: forget its net); :class:`WeightsError`
    when the core refuses it (wider than its states hold)."""
    from engine.search.native import tactician_native
    if tactician_native is None:
        return
    if net is None:
        tactician_native.chess_nnue_clear()
        return
    try:
        tactician_native.chess_nnue_install(net.W1, net.b1, net.W2, net.b2, net.sha256)
    except ValueError as error:
        raise WeightsError(path, str(error)) from None


def current() -> Loaded:
    """The net in use: :func:`configured_path`'s, read on first use."""
    return LOADED[0] if LOADED else use()


def status() -> dict:
    """For ``/readyz`` and the start-up log: ``{"loaded": true, "hidden", "sha256"}`` or ``{"loaded": false,
    "reason"}``."""
    loaded = current()
    if loaded.net is None:
        return {"loaded": False, "reason": loaded.reason}
    return {"loaded": True, "hidden": loaded.net.hidden, "sha256": loaded.net.sha256}
