"""Othello's pattern evaluation (engine/games/othello/patterns.py): its layout (the patterns' instances under
the board's symmetries, the slots their own symmetries share), the same value for a position and each of its
seven symmetric images, the integer arithmetic the compiled core repeats, the weights file's refusals, the
learning pipeline's batch features equal to the engine's position by position, and the option through the
engine's one door."""
import random

from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

from engine import api
from engine.errors import InvalidState
from engine.games import othello
from engine.games.othello import board, patterns
from learn.othello import model

GAME = othello.GAMES[othello.PATTERNS]


def position(picks):
    state = othello.initial_state()
    for pick in picks:
        if GAME.is_terminal(state):
            break
        moves = GAME.actions(state)
        state = GAME.result(state, moves[pick % len(moves)])
    return state


def image(bits: int, k: int) -> int:
    """``bits`` under the k-th of the board's symmetries (patterns.SYMMETRIES)."""
    out = 0
    for s in range(64):
        if bits >> s & 1:
            r, c = patterns.SYMMETRIES[k](s // 8, s % 8)
            out |= 1 << (8 * r + c)
    return out


def test_the_layout():
    sizes = patterns.table_sizes()
    assert len(patterns.instance_squares()) == 38
    assert [len(patterns.instances(sq)) for sq in patterns.PATTERNS.values()] == [4, 4, 4, 4, 4, 2, 4, 4, 4, 4]
    for name, squares in patterns.PATTERNS.items():
        slot_of, count = patterns.slots(name)
        assert len(slot_of) == 3 ** len(squares) and set(slot_of) == set(range(count))
    # An edge read either way is one configuration: (3^10 + 3^5) / 2 slots.
    assert sizes[0] == (3 ** 10 + 3 ** 5) // 2
    assert sizes[-2:] == (2 * patterns.MOBILITY_CLIP + 1, 2)


def test_anchor_weights():
    assert patterns.anchor_weights(60) == patterns.anchor_weights(48) == ((0, 12),)
    assert patterns.anchor_weights(42) == ((0, 6), (1, 6))
    assert patterns.anchor_weights(25) == ((1, 1), (2, 11))
    assert patterns.anchor_weights(3) == ((3, 12),)
    assert all(sum(w for _, w in patterns.anchor_weights(e)) == patterns.STEP for e in range(61))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 63), max_size=60), st.integers(1, 7))
def test_every_symmetric_image_has_the_same_value(picks, k):
    state = position(picks)
    if GAME.is_terminal(state):
        return
    me, them = image(state[0], k), image(state[1], k)
    weights = patterns.committed()
    assert patterns.raw(weights, me, them, board.legal_moves(me, them)) == \
        patterns.raw(weights, state[0], state[1], state[3])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 63), max_size=60))
def test_the_value_is_integer_arithmetic(picks):
    state = position(picks)
    if GAME.is_terminal(state):
        return
    weights = patterns.committed()
    found = patterns.features(state[0], state[1], state[3])
    total = sum(share * sum(weights.tables[a][t][slot] for t, slot in found)
                for a, share in patterns.anchor_weights(64 - (state[0] | state[1]).bit_count()))
    d = total / (patterns.STEP * patterns.UNIT)
    assert GAME.evaluate(state, state[2]) == d / (abs(d) + patterns.SQUASH) == -GAME.evaluate(state, 1 - state[2])


def test_the_trainers_batch_features_are_the_engines():
    rng = random.Random(5)
    states = [position([rng.randrange(64) for _ in range(rng.randrange(60))]) for _ in range(60)]
    states = [s for s in states if not GAME.is_terminal(s)]
    slots, shares = model.features(np.array([s[0] for s in states], np.uint64), np.array([s[1] for s in states], np.uint64))
    starts = model.offsets()
    for s, row, share in zip(states, slots, shares):
        assert row.tolist() == [int(starts[t]) + slot for t, slot in patterns.features(s[0], s[1], s[3])]
        expected = np.zeros(len(patterns.ANCHORS))
        for a, w in patterns.anchor_weights(64 - (s[0] | s[1]).bit_count()):
            expected[a] = w / patterns.STEP
        assert np.allclose(share, expected)


def test_the_tables_round_trip_through_the_trainers_floats():
    weights = patterns.committed()
    assert model.tables_of(model.params_of(weights)) == weights.tables


def test_a_file_whose_numbers_do_not_match_its_checksum_is_refused():
    text = patterns.WEIGHTS_FILE.read_text().splitlines()
    row = next(i for i, line in enumerate(text) if not line.startswith("#"))
    numbers = text[row].split()
    numbers[0] = str(int(numbers[0]) + 1)
    text[row] = " ".join(numbers)
    with pytest.raises(ValueError, match="checksum"):
        patterns.parse("\n".join(text))
    with pytest.raises(ValueError, match="shape"):
        patterns.parse(patterns.WEIGHTS_FILE.read_text().replace('"anchors": [48', '"anchors": [50', 1))
    with pytest.raises(ValueError, match="header"):
        patterns.parse("1 2 3\n")


def test_the_option_through_the_engine():
    state = {"board": [".......B", "......B.", ".BBBBB..", "..WBBB..", "WWWWBW..", "..WWWB..", "...BB...",
                       "...B...."], "to_move": "B"}
    result = api.search("othello", state, {"name": "alphabeta", "depth": 2, "core": "python"},
                        options={"evaluation": "patterns"})
    assert -1 < result.value < 1
    game, _ = api.load("othello", state, evaluation="patterns")
    assert game.evaluation == othello.PATTERNS
    with pytest.raises(InvalidState) as refused:
        api.load("othello", state, evaluation="edax")
    assert list(refused.value.errors) == ["options.evaluation"]
