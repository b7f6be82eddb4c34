"""Connect Four's threat analysis for the evaluation (``threat_outlook``, Allis' odd and even threats),
checked on hand-built threat sets and against a plain reference on grids of characters."""
import random

from hypothesis import given, settings, strategies as st

from engine.api import load
from engine.games.connect4 import (BOARD, H1, LIVE_THREAT, MINE, PARITY_THREAT, THEIRS, ZUGZWANG, cells_above,
                                   lowest_cells, threat_outlook)
from tests.engine.test_connect4 import COLS, ROWS, four_through, grid_after, random_game


def cell(column: int, height: int) -> int:
    """The bit of a cell, ``height`` 1..6 counting from the bottom."""
    return 1 << (H1 * column + height - 1)


def cells_of(bits: int) -> set:
    return {(c, h) for c in range(COLS) for h in range(1, ROWS + 1) if bits & cell(c, h)}


# --- the bit tricks, against loops over the columns -------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=BOARD).map(lambda n: n & BOARD))
def test_lowest_cells_and_the_cells_above_them(cells):
    lowest = {(c, min(h for cc, h in cells_of(cells) if cc == c)) for c, _ in cells_of(cells)}
    assert cells_of(lowest_cells(cells)) == lowest
    above = {(c, h) for c, low in lowest for h in range(low + 1, ROWS + 1)}
    assert cells_of(cells_above(lowest_cells(cells))) == above


# --- the rules, on hand-built threats --------------------------------------------------------------------

def test_an_odd_threat_for_x_wins_the_zugzwang_unless_o_has_one_below_it():
    x_odd = cell(3, 3)
    assert threat_outlook(x_odd, 0) == LIVE_THREAT + PARITY_THREAT + ZUGZWANG
    # O's even threat right below it kills it, and wins the column for O.
    assert threat_outlook(x_odd, cell(3, 2)) == -LIVE_THREAT - PARITY_THREAT - ZUGZWANG
    # O's even threat in another column does not stop it.
    assert threat_outlook(x_odd, cell(5, 2)) == ZUGZWANG
    # O's odd threat in another column turns the parity back: no side wins the zugzwang.
    assert threat_outlook(x_odd, cell(0, 5)) == PARITY_THREAT
    # X's threat below O's kills O's.
    assert threat_outlook(x_odd, cell(3, 4)) == LIVE_THREAT + PARITY_THREAT + ZUGZWANG


def test_an_even_threat_for_o_wins_when_x_has_no_odd_one():
    assert threat_outlook(0, cell(2, 4)) == -LIVE_THREAT - PARITY_THREAT - ZUGZWANG
    assert threat_outlook(cell(1, 2), cell(2, 4)) == -PARITY_THREAT - ZUGZWANG   # X's even threat: no help
    assert threat_outlook(0, cell(2, 3)) == -LIVE_THREAT                          # O's odd threat: no zugzwang


def test_only_the_lowest_live_threat_of_a_column_counts_for_parity():
    # X's even threat below X's odd one in the same column: the column's lowest live threat is even.
    assert threat_outlook(cell(4, 2) | cell(4, 3), 0) == 2 * LIVE_THREAT


# --- against a reference on real positions ---------------------------------------------------------------

def reference_outlook(grid: tuple) -> int:
    """``threat_outlook`` for X from a grid of characters, cell by cell."""
    def height(r):
        return ROWS - r

    def completes(r, c, piece):
        return four_through(grid[:r] + (grid[r][:c] + piece + grid[r][c + 1:],) + grid[r + 1:], r, c)

    threats = {p: {(c, height(r)) for r in range(ROWS) for c in range(COLS) if grid[r][c] == "." and completes(r, c, p)}
               for p in "XO"}
    live = {p: {(c, h) for c, h in threats[p] if not any(cq == c and hq < h for cq, hq in threats[q])}
            for p, q in (("X", "O"), ("O", "X"))}
    lowest = {p: {c: min(h for cc, h in live[p] if cc == c) for c, _ in live[p]} for p in "XO"}
    x_odd = sum(h % 2 == 1 for h in lowest["X"].values())
    o_odd = sum(h % 2 == 1 for h in lowest["O"].values())
    o_even = sum(h % 2 == 0 for h in lowest["O"].values())
    score = LIVE_THREAT * (len(live["X"]) - len(live["O"])) + PARITY_THREAT * (x_odd - o_even)
    if x_odd > o_odd:
        score += ZUGZWANG
    elif o_even and not x_odd:
        score -= ZUGZWANG
    return score


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=6, max_value=36))
def test_threat_outlook_agrees_with_the_reference(seed, empty):
    moves = random_game(random.Random(seed), empty)
    game, state = load("connect4", {"moves": moves})
    mover_threats, other_threats = state[MINE], state[THEIRS]
    x_threats, o_threats = (mover_threats, other_threats) if len(moves) % 2 == 0 else (other_threats, mover_threats)
    assert threat_outlook(x_threats, o_threats) == reference_outlook(grid_after(moves))


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=38))
def test_the_evaluation_is_the_same_in_the_mirror(seed, empty):
    moves = random_game(random.Random(seed), empty)
    mirrored = "".join(str(8 - int(ch)) for ch in moves)
    game, state = load("connect4", {"moves": moves})
    _, mirror = load("connect4", {"moves": mirrored})
    for player in (0, 1):
        assert game.evaluate(state, player) == game.evaluate(mirror, player)
