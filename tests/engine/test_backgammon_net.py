"""Backgammon's contact network (engine/games/backgammon_net.py): the inputs checked by hand on two sides, the
forward pass against a hand computation on a one-unit network, the weights file read back exactly, and the
engine's evaluation in contact being the network's equity."""
import math

import pytest

from engine.games import backgammon as bg
from engine.games import backgammon_net as net

# A side with 3 checkers borne off, one on the bar, a blot on its 2 point, 6 on its 6 point, 2 on 13, 2 on 24.
SIDE = (3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1)


def test_side_inputs_by_hand():
    assert net.side_inputs(bg.START) == (
        (20, 1.0), (21, 1.0), (22, 1.0), (23, 1.0),          # point 6: 5 checkers, (5 - 3) / 2 beyond three
        (28, 1.0), (29, 1.0), (30, 1.0),                     # point 8: 3
        (48, 1.0), (49, 1.0), (50, 1.0), (51, 1.0),          # point 13: 5
        (92, 1.0), (93, 1.0),                                # point 24: 2
        (98, 1.67))                                          # 167 pips over 100
    assert net.side_inputs(SIDE) == (
        (4, 1.0), (20, 1.0), (21, 1.0), (22, 1.0), (23, 1.5), (48, 1.0), (49, 1.0), (92, 1.0), (93, 1.0),
        (96, 0.5), (97, 0.2), (98, (2 + 36 + 26 + 48 + 25) / 100))


def test_encode_puts_the_side_on_roll_first():
    x = net.encode(SIDE, bg.START)
    assert len(x) == net.INPUTS == 198
    assert x[23] == 1.5 and x[net.SIDE_INPUTS + 23] == 1.0 and x[net.SIDE_INPUTS + 98] == 1.67
    assert sum(v != 0 for v in x) == len(net.side_inputs(SIDE)) + len(net.side_inputs(bg.START))


def tiny_net() -> net.Net:
    """One hidden unit reading three inputs; the five outputs each a different slope of it."""
    hidden = [(0.0,)] * net.INPUTS
    hidden[20] = (0.5,)                        # on roll: a checker on its 6 point
    hidden[23] = (-0.25,)                      # on roll: beyond three on its 6 point
    hidden[net.SIDE_INPUTS + 98] = (2.0,)      # the other side's pips over 100
    return net.Net((0.1,), tuple(hidden), (0.0, -1.0, -3.0, -1.5, -4.0), ((1.0, 0.5, 0.2, -0.5, 0.3),))


def test_forward_pass_by_hand():
    s = lambda v: 1.0 / (1.0 + math.exp(-v))
    h = s(0.1 + 0.5 + 1.5 * -0.25 + 1.67 * 2.0)   # SIDE on roll (6 on its 6 point) against the start
    win, wg, wbg, lg, lbg = s(h), s(-1.0 + 0.5 * h), s(-3.0 + 0.2 * h), s(-1.5 - 0.5 * h), s(-4.0 + 0.3 * h)
    outs = net.outputs(tiny_net(), SIDE, bg.START)
    assert outs == pytest.approx([win, wg, wbg, lg, lbg], abs=1e-15)
    assert net.equity_of(outs) == pytest.approx(2 * win - 1 + wg - lg + wbg - lbg, abs=1e-15)


def test_the_weights_file_reads_back_to_the_same_doubles():
    tiny = tiny_net()
    text = net.dump(tiny, "a tiny net\nfor the test")
    assert text.startswith("# a tiny net\n# for the test\n198 1 5\n")
    assert net.parse(text) == tiny
    with pytest.raises(ValueError, match="inputs"):
        net.parse(text.replace("198 1 5", "197 1 5"))
    with pytest.raises(ValueError, match="rows"):
        net.parse(text + "0.5\n")


def test_the_engine_evaluates_contact_with_its_network():
    assert len(net.NET.hidden) == net.INPUTS and len(net.NET.output_bias) == net.OUTPUTS
    for x, o, turn in ((bg.START, bg.START, 0), (SIDE, bg.START, 1), (SIDE, bg.START, 0)):
        on_roll, other = (x, o) if turn == 0 else (o, x)
        value = net.equity_of(net.outputs(net.NET, on_roll, other))
        assert net.contact_equity(on_roll, other) == value
        assert bg.equity(x, o, turn) == max(-2.99, min(2.99, value))
