"""Backgammon's nets (engine/games/backgammon_net.py): the inputs checked by hand on two sides, the forward
pass against a hand computation on a one-unit network, the weights file (format 2) read back exactly and
refused when its header does not match its numbers, the engine's evaluations being the nets' equities, and
the learning pipeline's inputs (learn/backgammon/model.py) being the engine's."""
import json
import math
import random

import numpy as np
import pytest

from engine.errors import InvalidState
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
    text = net.dump(tiny, {"net": "contact", "data": "none"}, "a tiny net\nfor the test")
    header = net.read_header(text)
    assert header["shape"] == [198, 1, 5] and header["net"] == "contact" and header["checksum"] == net.checksum(net.flat(tiny))
    assert text.split("\n")[1:4] == ["# a tiny net", "# for the test", "198 1 5"]
    assert net.parse(text) == tiny
    with pytest.raises(ValueError, match="inputs"):
        net.parse(text.replace("\n198 1 5", "\n197 1 5"))
    with pytest.raises(ValueError, match="rows"):
        net.parse(text + "0.5\n")


def test_a_weights_file_that_does_not_match_its_header_is_refused():
    tiny = tiny_net()
    text = net.dump(tiny, {"net": "contact"})
    lines = text.split("\n")
    changed = lines[-2].split()
    changed[0] = repr(float(changed[0]) + 2 ** -40)       # one weight, its last bits
    with pytest.raises(ValueError, match="checksum"):
        net.parse("\n".join(lines[:-2] + [" ".join(changed)] + lines[-1:]))
    header = net.read_header(text)
    wrong_shape = "#! " + json.dumps({**header, "shape": [198, 2, 5]})
    with pytest.raises(ValueError, match="shape"):
        net.parse("\n".join([wrong_shape] + lines[1:]))
    with pytest.raises(ValueError, match="header"):
        net.parse("\n".join(lines[1:]))
    with pytest.raises(ValueError, match="format"):
        net.parse("\n".join(["#! " + json.dumps({**header, "format": 1})] + lines[1:]))


def test_the_checksum_is_fnv1a_over_the_doubles():
    """FNV-1a 64 of the bytes of 1.0 (little-endian: 00 .. 00 f0 3f), by hand."""
    h = 0xCBF29CE484222325
    for byte in (0, 0, 0, 0, 0, 0, 0xF0, 0x3F):
        h = ((h ^ byte) * 0x100000001B3) % 2 ** 64
    assert net.checksum([1.0]) == f"{h:016x}"
    assert net.checksum([1.0]) != net.checksum([1.0 + 2 ** -52])


def test_the_engine_evaluates_contact_with_its_network():
    assert len(net.NET.hidden) == net.INPUTS and len(net.NET.output_bias) == net.OUTPUTS
    for x, o, turn in ((bg.START, bg.START, 0), (SIDE, bg.START, 1), (SIDE, bg.START, 0)):
        on_roll, other = (x, o) if turn == 0 else (o, x)
        value = net.equity_of(net.outputs(net.NET, on_roll, other))
        assert net.contact_equity(on_roll, other) == value
        assert bg.equity(x, o, turn) == max(-2.99, min(2.99, value))


def test_the_learned_evaluation_plays_the_learned_nets():
    contact_net, race_net = net.learned("contact"), net.learned("race")
    assert net.read_header(net.LEARNED_FILES["contact"].read_text())["net"] == "contact"
    race = ((0, 2, 2, 3, 2, 2, 0) + (0,) * 18 + (0,), (0, 3, 3, 3, 2, 2, 2) + (0,) * 18 + (0,))
    assert not bg.contact(*race)
    for x, o, turn in ((bg.START, bg.START, 0), (SIDE, bg.START, 1), (*race, 0), (*race, 1)):
        on_roll, other = (x, o) if turn == 0 else (o, x)
        chosen = contact_net if bg.contact(x, o) else race_net
        value = net.equity_of(net.outputs(chosen.net, on_roll, other))
        assert bg.equity(x, o, turn, bg.LEARNED) == max(-2.99, min(2.99, value))
        state = bg.State(x, o, turn, None)
        assert bg.GAMES[bg.LEARNED].evaluate(state, turn) == bg.equity(x, o, turn, bg.LEARNED)
    assert bg.equity(*race, 0, bg.LEARNED) != bg.equity(*race, 0)    # not the race formula


def test_the_evaluation_option_picks_the_game():
    assert bg.load(bg.START_JSON)[0] is bg.GAME and bg.load(bg.START_JSON, evaluation="net")[0] is bg.GAME
    learned = bg.load(bg.START_JSON, evaluation="learned")[0]
    assert learned.evaluation == bg.LEARNED and learned.native_state(bg.load(bg.START_JSON)[1])[4] == "learned"
    with pytest.raises(InvalidState) as raised:
        bg.load(bg.START_JSON, evaluation="nnue")
    assert list(raised.value.errors) == ["options.evaluation"]


def test_the_pipelines_inputs_are_the_engines():
    from learn.backgammon.model import encode
    rng = random.Random(3)
    sides = [(bg.START, bg.START), (SIDE, bg.START)]
    state = bg.State(bg.START, bg.START, 0, (6, 5))
    while len(sides) < 60 and not bg.GAME.is_terminal(state):
        state = bg.GAME.result(state, rng.choice(bg.GAME.actions(state)))
        state = bg.GAME.result(state, rng.choice(bg.ROLLS))
        sides.append((state.x, state.o) if state.turn == 0 else (state.o, state.x))
    got = encode(np.array(sides, np.int8))
    want = np.array([net.encode(a, b) for a, b in sides], np.float32)
    assert np.array_equal(got, want)
