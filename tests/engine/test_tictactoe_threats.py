"""Threats on larger m,n,k boards. Move ordering: threats first, then cells near the marks, then the rest;
always a permutation of the legal moves (which the contract suite checks too). Evaluation: the tempo (a
completion for the mover wins, two for the opponent lose, an open four to make wins in three)."""
from engine import api

ROWS = 9


def load(rows):
    return api.load("tictactoe", {"board": rows, "k": 5})


def board(marks):
    """A 9 x 9 board with ``marks`` {(row, col): 'X' or 'O'}."""
    return ["".join(marks.get((r, c), ".") for c in range(ROWS)) for r in range(ROWS)]


def cell(r, c):
    return r * ROWS + c


def test_the_win_comes_first_then_the_block():
    # X to move (4 X, 4 O): X has four in row 4 with column 5 free (column 0 is O's).
    marks = {(4, 1 + i): "X" for i in range(4)}
    marks[(4, 0)] = "O"
    marks.update({(0 + i, 8): "O" for i in range(3)})
    game, state = load(board(marks))
    assert game.to_move(state) == 0
    order = game.ordered_actions(state)
    assert order[0] == cell(4, 5)
    assert sorted(order) == sorted(game.actions(state))
    # O now has four in column 8 too (its win at (4, 8) is X's block): X's own win still comes first.
    marks[(8, 0)] = "X"
    marks[(3, 8)] = "O"
    game, state = load(board(marks))
    order = game.ordered_actions(state)
    assert game.to_move(state) == 0 and order[:2] == [cell(4, 5), cell(4, 8)]


def test_the_block_outranks_the_opponent_s_lesser_threats():
    marks = {(4, 1 + i): "X" for i in range(4)}     # X threatens (4, 0) and (4, 5)
    marks.update({(0, 0): "O", (0, 1): "O", (8, 8): "O"})
    game, state = load(board(marks))
    assert game.to_move(state) == 1
    assert set(game.ordered_actions(state)[:2]) == {cell(4, 0), cell(4, 5)}


def test_cells_on_the_mark_s_lines_then_near_it_then_the_rest():
    game, state = load(board({(4, 4): "X"}))
    order = game.ordered_actions(state)
    on_lines = {cell(4 + dr * i, 4 + dc * i) for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
                for i in range(-4, 5) if i and 0 <= 4 + dr * i < ROWS and 0 <= 4 + dc * i < ROWS}
    near = {cell(r, c) for r in range(2, 7) for c in range(2, 7)} - on_lines - {cell(4, 4)}
    assert set(order[:len(on_lines)]) == on_lines
    assert set(order[len(on_lines):len(on_lines) + len(near)]) == near
    assert sorted(order) == sorted(game.actions(state))


def test_the_evaluation_scores_threats_by_whose_move_it_is():
    from engine.games.tictactoe import FORCING_VALUE, THREAT_VALUE
    row = {(4, 1 + i): "X" for i in range(4)}                # X's four in row 4, open at both ends
    game, state = load(board({**row, (0, 0): "O", (0, 2): "O", (8, 8): "O"}))
    assert game.to_move(state) == 1                          # O to move, facing two completions: lost
    assert game.evaluate(state, 1) == -THREAT_VALUE and game.evaluate(state, 0) == THREAT_VALUE
    game, state = load(board({**row, (0, 0): "O", (0, 2): "O", (8, 8): "O", (7, 7): "O", (6, 6): "X"}))
    assert game.to_move(state) == 1 and game.evaluate(state, 1) == -THREAT_VALUE
    three = {(4, 2 + i): "X" for i in range(3)}              # an open three, X to move: an open four next
    game, state = load(board({**three, (0, 0): "O", (0, 2): "O", (8, 8): "O"}))
    assert game.to_move(state) == 0 and game.evaluate(state, 0) == FORCING_VALUE
    game, state = load(board({**three, (0, 0): "O", (0, 2): "O", (8, 8): "O", (8, 0): "X"}))
    assert game.to_move(state) == 1                          # O to move now: the three is no win yet
    assert abs(game.evaluate(state, 1)) < FORCING_VALUE
