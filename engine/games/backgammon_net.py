"""Backgammon's contact evaluation: a small neural network, the TD-Gammon / gnubg way (issue 30).

The inputs (Tesauro's encoding, per side, :data:`SIDE_INPUTS` of them): for each of the side's points 1..24,
four units (a checker there, two or more, three or more, and ``(n - 3) / 2`` for the checkers beyond three),
then the checkers on the bar over 2, borne off over 15 and the pip count over 100. The side on roll's units
come first, the other side's after them. One hidden layer of sigmoid units; five sigmoid outputs, gnubg's:
the side on roll's chances to win, to win a gammon (or more), a backgammon, to lose a gammon (or more), a
backgammon. The equity is ``2 win - 1 + win gammon - lose gammon + win backgammon - lose backgammon``.

The nets' weights are text files beside this module, each the one copy: the compiled core embeds the same
files at build time (native/CMakeLists.txt generates a header from them). ``backgammon_net.txt`` is the
contact net the default evaluation plays (``net``: fitted to gnubg-nn's 0-ply outputs by
bench/backgammon_net.py), ``backgammon_contact.txt`` and ``backgammon_race.txt`` the contact and race nets of
the ``learned`` evaluation (trained by the learning pipeline, ``python -m learn backgammon``). The file's
format (2) is :func:`parse`'s: a header line naming the inputs, the shape, the data, the commit and a
checksum of the numbers, which both cores verify. The arithmetic is fixed so that both cores get the
same doubles: each hidden unit's sum is ``(bias + on roll's part) + other's part``, each part a sum from 0.0
of ``value * weight`` over the side's non-zero inputs in ascending order; each output's sum is its bias plus
``hidden * weight`` in the hidden units' order; a sigmoid is ``1 / (1 + exp(-x))``.
"""
from functools import lru_cache
import json
import math
from pathlib import Path
import struct
from typing import NamedTuple

from engine.weights import fnv1a64

POINT_UNITS = 4
SIDE_INPUTS = 24 * POINT_UNITS + 3          # the points, then bar, borne off, pips
INPUTS = 2 * SIDE_INPUTS
OUTPUTS = 5
FORMAT = 2
INPUTS_NAME = "tesauro-198"        # the encoding of :func:`encode`, named in each weights file's header
WEIGHTS_FILE = Path(__file__).with_name("backgammon_net.txt")
LEARNED_FILES = {"contact": Path(__file__).with_name("backgammon_contact.txt"),
                 "race": Path(__file__).with_name("backgammon_race.txt")}


def side_inputs(side) -> tuple:
    """The non-zero inputs of one side (26 counts from its own side: 0 borne off, 1..24, 25 the bar) as
    ``((index, value), ...)`` in ascending index, the index within the side's :data:`SIDE_INPUTS`."""
    active = []
    for point in range(1, 25):
        n = side[point]
        if n:
            base = (point - 1) * POINT_UNITS
            active.append((base, 1.0))
            if n > 1:
                active.append((base + 1, 1.0))
            if n > 2:
                active.append((base + 2, 1.0))
            if n > 3:
                active.append((base + 3, (n - 3) / 2.0))
    base = 24 * POINT_UNITS
    if side[25]:
        active.append((base, side[25] / 2.0))
    if side[0]:
        active.append((base + 1, side[0] / 15.0))
    pip_count = sum(n * i for i, n in enumerate(side))
    if pip_count:
        active.append((base + 2, pip_count / 100.0))
    return tuple(active)


def encode(on_roll, other) -> list:
    """The dense input vector (:data:`INPUTS` floats) of the side on roll against ``other``."""
    x = [0.0] * INPUTS
    for offset, side in ((0, on_roll), (SIDE_INPUTS, other)):
        for i, value in side_inputs(side):
            x[offset + i] = value
    return x


class Net(NamedTuple):
    """A network's weights: ``hidden_bias[j]``, ``hidden[i][j]`` (input ``i`` to hidden unit ``j``),
    ``output_bias[k]``, ``output[j][k]`` (hidden unit ``j`` to output ``k``)."""

    hidden_bias: tuple
    hidden: tuple
    output_bias: tuple
    output: tuple


def checksum(numbers) -> str:
    """FNV-1a (64 bits) over the numbers' little-endian IEEE doubles, as 16 hex digits: the weights file's
    ``checksum`` (native/src/games/backgammon.hpp computes the same over the numbers it embedded)."""
    return fnv1a64(struct.pack(f"<{len(numbers)}d", *numbers))


def flat(net: Net) -> list:
    """The numbers of ``net`` in the file's order, its sizes first."""
    values = [len(net.hidden), len(net.hidden_bias), len(net.output_bias), *net.hidden_bias]
    for row in net.hidden:
        values += row
    values += net.output_bias
    for row in net.output:
        values += row
    return [float(v) for v in values]


def read_header(text: str) -> dict:
    """The header of a weights file's text: its first line, ``#! `` and a JSON object."""
    first = text.split("\n", 1)[0]
    if not first.startswith("#! "):
        raise ValueError("a backgammon weights file starts with its header line, '#! {...}'")
    header = json.loads(first[3:])
    if header.get("format") != FORMAT or header.get("inputs") != INPUTS_NAME:
        raise ValueError(f"the weights are format {header.get('format')} on inputs {header.get('inputs')!r}, "
                         f"not format {FORMAT} on {INPUTS_NAME!r}")
    return header


def parse(text: str) -> Net:
    """A network from the weights file's text (format 2): a header line ``#! {json}`` (the ``format``, 2;
    the ``inputs``, :data:`INPUTS_NAME`; the ``shape`` ``[inputs, hidden, outputs]``; the ``checksum`` of
    the numbers, :func:`checksum`; for people, ``net``, ``data``, ``commit`` and ``trained``), comment lines
    (``#``), then the numbers: a line ``inputs hidden outputs``, the hidden biases, the input-to-hidden
    weights row by row (one input a row), the output biases and the hidden-to-output weights row by row
    (one hidden unit a row), one row a line, numbers separated by spaces, each as Python's ``repr`` writes
    it (so it reads back to the same double). A ValueError says what does not match."""
    header = read_header(text)
    rows = [line.split() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    inputs, hidden, outputs = (int(v) for v in rows[0])
    if inputs != INPUTS or outputs != OUTPUTS:
        raise ValueError(f"the weights are for {inputs} inputs and {outputs} outputs, "
                         f"not {INPUTS} and {OUTPUTS}")
    if header.get("shape") != [inputs, hidden, outputs]:
        raise ValueError(f"the header's shape {header.get('shape')} is not the numbers' {[inputs, hidden, outputs]}")
    numbers = [tuple(float(v) for v in row) for row in rows[1:]]
    if len(numbers) != 2 + inputs + hidden or any(len(r) != hidden for r in numbers[:1 + inputs]) \
            or any(len(r) != outputs for r in numbers[1 + inputs:]):
        raise ValueError("the weights file's rows do not match its sizes")
    net = Net(numbers[0], tuple(numbers[1:1 + inputs]), numbers[1 + inputs], tuple(numbers[2 + inputs:]))
    if checksum(flat(net)) != header.get("checksum"):
        raise ValueError(f"the numbers' checksum is {checksum(flat(net))}, not the header's {header.get('checksum')}")
    return net


def dump(net: Net, header: dict, comment: str = "") -> str:
    """The weights file's text of ``net`` (what :func:`parse` reads): the header line of ``header`` (the
    format, inputs, shape and checksum added), ``comment`` as ``#`` lines after it."""
    shape = [len(net.hidden), len(net.hidden_bias), len(net.output_bias)]
    full = {"format": FORMAT, "inputs": INPUTS_NAME, "shape": shape, **header, "checksum": checksum(flat(net))}
    lines = ["#! " + json.dumps(full)] + [f"# {line}" for line in comment.splitlines()]
    lines.append(" ".join(map(str, shape)))
    lines.append(" ".join(map(repr, net.hidden_bias)))
    lines += [" ".join(map(repr, row)) for row in net.hidden]
    lines.append(" ".join(map(repr, net.output_bias)))
    lines += [" ".join(map(repr, row)) for row in net.output]
    return "\n".join(lines) + "\n"


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def side_part(net: Net, side, offset: int) -> list:
    """One side's contribution to each hidden unit's sum, its inputs starting at ``offset``."""
    part = [0.0] * len(net.hidden_bias)
    for i, value in side_inputs(side):
        row = net.hidden[offset + i]
        part = [acc + value * w for acc, w in zip(part, row)]
    return part


def forward(net: Net, mine, theirs) -> list:
    """The network's five outputs from the two sides' parts of the hidden sums (:func:`side_part`)."""
    hidden = [sigmoid((b + m) + t) for b, m, t in zip(net.hidden_bias, mine, theirs)]
    result = []
    for k, bias in enumerate(net.output_bias):
        acc = bias
        for h, row in zip(hidden, net.output):
            acc += h * row[k]
        result.append(sigmoid(acc))
    return result


def outputs(net: Net, on_roll, other) -> list:
    """The network's five outputs (see the module's docstring) for the side on roll against ``other``."""
    return forward(net, side_part(net, on_roll, 0), side_part(net, other, SIDE_INPUTS))


def equity_of(outs) -> float:
    """The cubeless equity (points) of the five outputs, summed in this order."""
    win, win_gammon, win_bg, lose_gammon, lose_bg = outs
    return 2.0 * win - 1.0 + win_gammon - lose_gammon + win_bg - lose_bg


class Evaluator:
    """One net's equity for the side on roll, with its side parts (:func:`side_part`) cached per side: a
    search meets the same side many times."""

    def __init__(self, net: Net):
        self.net = net
        self.part = lru_cache(maxsize=1 << 16)(lambda side, offset: tuple(side_part(net, side, offset)))

    def equity(self, on_roll, other) -> float:
        return equity_of(forward(self.net, self.part(on_roll, 0), self.part(other, SIDE_INPUTS)))


NET = parse(WEIGHTS_FILE.read_text())
CONTACT = Evaluator(NET)                    # the default evaluation's contact net


@lru_cache(maxsize=None)
def learned(kind: str) -> Evaluator:
    """The ``learned`` evaluation's ``contact`` or ``race`` net, read on first use."""
    return Evaluator(parse(LEARNED_FILES[kind].read_text()))


def contact_equity(on_roll, other) -> float:
    """Equity (points) of the side on roll in contact by the default evaluation's net (``backgammon_net.txt``)."""
    return CONTACT.equity(on_roll, other)
