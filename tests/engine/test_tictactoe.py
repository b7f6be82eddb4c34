"""Tic-tac-toe (m,n,k): rules, parsing, and search on larger boards."""
import pytest

from engine.api import apply, legal_moves, load, search
from engine.errors import InvalidState


def test_wins_in_every_direction_and_draws():
    for rows, winner in ((["XXX", "OO.", "..."], "X"), (["XO.", "XO.", "X.."], "X"),
                         (["OXX", "XO.", "..O"], "O"), (["XXO", "XO.", "O.."], "O")):
        info = legal_moves("tictactoe", {"board": rows})
        assert info["terminal"] and info["utilities"][winner] == 1.0, rows
    drawn = legal_moves("tictactoe", {"board": ["XOX", "XOO", "OXX"]})
    assert drawn["terminal"] and drawn["utilities"] == {"X": 0.0, "O": 0.0}


def test_apply_places_the_movers_mark():
    after = apply("tictactoe", {"board": ["X..", "...", "..."]}, 4)
    assert after["state"]["board"] == ["X..", ".O.", "..."] and after["to_move"] == "X"
    assert after["legal_moves"] == [1, 2, 3, 5, 6, 7, 8]


def test_gomoku_sized_board_with_k_in_a_row():
    rows = ["." * 15] * 15
    rows = ["XXXX" + "." * 11, "OOOO" + "." * 11] + rows[2:]
    r = search("tictactoe", {"board": rows, "k": 5}, {"name": "alphabeta", "depth": 2})
    assert (r.move, r.outcome, r.plies_to_end) == (4, "win", 1)


def test_alphabeta_blocks_and_sees_a_lost_position_on_a_big_board():
    rows = ["." * 7 for _ in range(7)]
    rows[0] = "X.X...."
    rows[3] = "..OOOX."
    r = search("tictactoe", {"board": rows, "k": 4}, {"name": "alphabeta", "depth": 3})
    assert r.move == 3 * 7 + 1  # the only block
    rows[3] = "..OOO.."
    rows[0] = "X.X.X.."
    r = search("tictactoe", {"board": rows, "k": 4}, {"name": "alphabeta", "depth": 3})
    assert (r.value, r.outcome, r.plies_to_end) == (-1.0, "loss", 2)  # an open three: O wins either way


@pytest.mark.parametrize("state, field", [
    ({"board": ["XX.", "...", "..."]}, "state.board"),
    ({"board": ["XXX", "OOO", "X.."]}, "state.board"),
    ({"board": ["XXX", "OO.", "O.."]}, "state.board"),
    ({"board": ["XY.", "...", "..."]}, "state.board[0]"),
    ({"board": ["...", "..", "..."]}, "state.board[1]"),
    ({"board": []}, "state.board"),
    ({"board": ["." * 20] * 20}, "state.board"),
    ({"board": ["." * 20] * 3}, "state.board[0]"),
    ({"board": ["..."] * 3, "k": 4}, "state.k"),
    ({"board": ["..."] * 3, "k": 2.5}, "state.k"),
    ({"board": ["..."] * 3, "size": 3}, "state"),
])
def test_bad_boards_name_the_field(state, field):
    with pytest.raises(InvalidState) as caught:
        load("tictactoe", state)
    assert list(caught.value.errors) == [field]


def test_evaluation_stays_inside_the_win_loss_utilities():
    game, state = load("tictactoe", {"board": ["XX..", "XO..", "OO..", "X..."], "k": 3})
    for cell in game.actions(state):
        child = game.result(state, cell)
        if not game.is_terminal(child):
            assert -1 < game.evaluate(child, 0) < 1
            assert game.evaluate(child, 0) == -game.evaluate(child, 1)


def test_a_large_board_near_its_end_is_solved_over_every_move():
    """9 x 9, k = 5, 19 empty cells: the search prunes its root to candidate moves, and its exact solve,
    given only those, failed on the others (a KeyError: a 500). A proof covers every move."""
    board = ["OX.XX.XXO", "..O.O.OOO", "..OXX.O..", "XOOXOOO.X", "OXXX..XXX", "X.OOXXX.X", "OOXXO..OX",
             "OOOO.OOXO", "XX.XOX.OX"]
    result = search("tictactoe", {"board": board, "k": 5}, {"name": "alphabeta", "core": "python"}, 5000)
    assert result.outcome is not None and result.move in legal_moves("tictactoe", {"board": board, "k": 5})["legal_moves"]
