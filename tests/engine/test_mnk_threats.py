"""The threat-space search of the m,n,k games (engine/games/tictactoe/threats.py): every win it finds is a forced
win by a slow, plain minimax (full width for the defender); every win by fours that minimax finds, it finds;
textbook positions (a win by fours, a win by a three, the defences against an open three); and the root of
the default search plays a win it proves, reports it as proven, and stays within its time."""
import time

from hypothesis import given, settings, strategies as st

from engine import api
from engine.deadline import Deadline
from engine.games.tictactoe.threats import Exhausted
from engine.result import Stats
from tests.engine.test_tictactoe_threats import random_position

SIDE = 15
BIG = 10 ** 6                                          # a budget no test position exhausts


def rows_of(marks, side=SIDE):
    return ["".join(marks.get((r, c), ".") for c in range(side)) for r in range(side)]


def cell(r, c, side=SIDE):
    return r * side + c


def sides(state):
    """``(mine, theirs)``: the marks of the player to move and of the opponent."""
    return (state[1], state[0]) if state[2] & 1 else (state[0], state[1])


def wins_within(game, mine, theirs, plies, least, memo):
    """Plain minimax: whether the attacker (``mine``, to move) wins within ``plies`` plies against every
    defence, the defender's moves being every empty cell and the attacker's the cells after which a line
    holds ``least`` or more of its marks and none of the defender's (k - 1: fours; k - 2: threes too)."""
    key = (mine, theirs, plies)
    if key not in memo:
        memo[key] = forced(game, mine, theirs, plies, least, memo)
    return memo[key]


def forced(game, mine, theirs, plies, least, memo):
    empty = [c for c in range(game.cells) if not (mine | theirs) >> c & 1]
    if any(completes(game, mine, c) for c in empty):
        return True
    if plies < 3:
        return False
    for a in empty:
        after = mine | 1 << a
        if not any(line >> a & 1 and not line & theirs and (line & after).bit_count() >= least
                   for line in game.lines):
            continue
        if all(not completes(game, theirs, d) and wins_within(game, after, theirs | 1 << d, plies - 2, least,
                                                                  memo)
               for d in empty if d != a):
            return True
    return False


def completes(game, marks, c):
    """Whether a mark at ``c`` gives ``marks`` k in a row."""
    marks |= 1 << c
    return any(line >> c & 1 and marks & line == line for line in game.lines)


def play_line(game, state, line):
    """The line is legal and ends with the attacker's k in a row."""
    attacker = game.to_move(state)
    for move in line:
        assert not game.is_terminal(state) and move in game.actions(state)
        state = game.result(state, move)
    assert game.is_terminal(state) and game.utility(state, attacker) == 1.0


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(6, 24), st.sampled_from([(6, 6, 4), (6, 7, 4), (7, 7, 5)]),
       st.integers(0, 2))
def test_every_win_found_is_forced_and_every_win_by_fours_is_found(seed, marks, shape, threes):
    game, state = random_position(*shape, seed, marks)
    if game.is_terminal(state):
        return
    mine, theirs = sides(state)
    line = game.threats.win(mine, theirs, threes, BIG, Deadline(), Stats())
    if line is not None:
        play_line(game, state, line)
        if len(line) <= 7:
            assert wins_within(game, mine, theirs, len(line), game.k - 2, {})
    if threes == 0:                                    # by fours alone: found if minimax finds one in 7
        by_fours = wins_within(game, mine, theirs, 7, game.k - 1, {})
        assert line is not None or not by_fours
        assert by_fours or line is None or len(line) > 7


def test_a_win_by_fours_in_three_moves():
    # X: a broken four's makings on row 7 (cols 5, 6, 8) and column 9 (rows 4, 5, 6); no open three. X
    # plays (7, 7) or (7, 9): a four, blocked; then ... the search finds a win of fours alone.
    marks = {(7, 5): "X", (7, 6): "X", (7, 8): "X", (4, 9): "X", (5, 9): "X", (6, 9): "X",
             (7, 4): "O", (3, 9): "O", (0, 0): "O", (0, 14): "O", (14, 0): "O", (14, 14): "O"}
    game, state = api.load("tictactoe", {"board": rows_of(marks), "k": 5})
    assert game.to_move(state) == 0
    mine, theirs = sides(state)
    line = game.threats.win(mine, theirs, 0, BIG, Deadline(), Stats())
    assert line is not None and len(line) <= 5
    play_line(game, state, line)


def test_a_win_by_a_double_three_needs_a_three():
    # X: two open twos crossing at (7, 7): row 7 (cols 5, 6) and column 7 (rows 5, 6). (7, 7) makes two
    # open threes; O blocks one, X makes an open four of the other. No win by fours alone.
    marks = {(7, 5): "X", (7, 6): "X", (5, 7): "X", (6, 7): "X",
             (0, 0): "O", (0, 14): "O", (14, 0): "O", (14, 14): "O"}
    game, state = api.load("tictactoe", {"board": rows_of(marks), "k": 5})
    mine, theirs = sides(state)
    assert game.threats.win(mine, theirs, 0, BIG, Deadline(), Stats()) is None
    line = game.threats.win(mine, theirs, 1, BIG, Deadline(), Stats())
    assert line is not None and line[0] == cell(7, 7)
    play_line(game, state, line)


def test_the_defences_against_an_open_three_are_its_ends():
    # O: an open three on row 7, cols 6-8, with X's mark at col 10 (so col 9 is the only cell on that side).
    # X to move must take col 5, col 9 or col 4; anywhere else O makes an open four.
    marks = {(7, 6): "O", (7, 7): "O", (7, 8): "O", (7, 10): "X", (2, 2): "X", (12, 3): "X", (1, 13): "X",
             (12, 12): "O"}
    game, state = api.load("tictactoe", {"board": rows_of(marks), "k": 5})
    assert game.to_move(state) == 0
    defences = game.threat_defences(state, Deadline(), Stats())
    assert defences and set(defences) <= {cell(7, 4), cell(7, 5), cell(7, 9)}
    assert {cell(7, 5), cell(7, 9)} <= set(defences)
    r = api.search("tictactoe", game.state_to_json(state), {"name": "alphabeta", "depth": 2})
    assert r.move in defences


# A lost game's position (gomoku-15, ours:auto as O against the greedy player, 2026-11-23): X to move
# wins by fours in a row.
LOST_GAME = [126, 195, 111, 96, 112, 110, 140, 98, 154, 168, 124, 97, 95, 99, 100, 125, 156, 172, 141, 171,
             139, 169, 170, 142]


def test_the_root_plays_a_proven_win_and_reports_its_length():
    game, state = api.load("tictactoe", {"board": ["." * SIDE] * SIDE, "k": 5})
    for move in LOST_GAME:
        state = game.result(state, move)
    line = game.threat_win(state, Deadline(), Stats())
    assert line is not None
    play_line(game, state, line)
    r = api.search("tictactoe", game.state_to_json(state), {"name": "alphabeta", "depth": 1})
    assert r.outcome == "win" and r.move == line[0] and r.plies_to_end == len(line) and r.value == 1.0


def test_a_win_the_threat_search_proves_counts_the_positions_it_visited():
    # API.md: stats.nodes counts every state the search visited, root included. Here the threat search
    # at the root proves X's win (an open three) and no other search runs.
    marks = {(7, 5): "X", (7, 6): "X", (7, 7): "X", (0, 0): "O", (0, 2): "O", (14, 14): "O"}
    game, state = api.load("tictactoe", {"board": rows_of(marks), "k": 5})
    threat_search = Stats()
    assert game.threat_win(state, Deadline(), threat_search) is not None
    r = api.search("tictactoe", game.state_to_json(state), {"name": "auto"}, time_limit_ms=5000)
    assert r.outcome == "win" and r.stats.nodes == threat_search.nodes > 1


def test_a_win_at_once_counts_the_root():
    marks = {(7, c): "X" for c in range(4, 8)}
    marks.update({(0, 0): "O", (0, 2): "O", (14, 14): "O", (14, 12): "O"})
    game, state = api.load("tictactoe", {"board": rows_of(marks), "k": 5})
    stats = Stats()
    mine, theirs = sides(state)
    assert game.threats.win(mine, theirs, 0, BIG, Deadline(), stats) in ([cell(7, 3)], [cell(7, 8)])
    assert stats.nodes == 1


def test_every_search_counts_what_it_visited_however_it_ends():
    game, state = random_position(15, 15, 5, 7, 40)
    mine, theirs = sides(state)
    stats = Stats()
    try:
        game.threats.win(mine, theirs, 2, 50, Deadline(), stats)
    except Exhausted:
        pass
    assert stats.nodes == 51                          # the budget's positions and the one that ran it out


def test_the_threat_search_keeps_to_the_time_limit():
    # A crowded middle game, where the threat searches of both players are long.
    game, state = random_position(15, 15, 5, 7, 40)
    start = time.perf_counter()
    api.search("tictactoe", game.state_to_json(state), {"name": "auto"}, time_limit_ms=200)
    assert time.perf_counter() - start < 1.0


def test_a_four_must_be_blocked_even_by_a_player_who_can_make_an_open_four():
    # O has four in column 8 (rows 7-10; X above at row 6): X must take (11, 8). X's (8, 9) or (4, 9) would
    # make an open four in column 9 (rows 5-8), too late: O completes first.
    marks = {(r, 8): "O" for r in range(7, 11)}
    marks.update({(6, 8): "X", (5, 9): "X", (6, 9): "X", (7, 9): "X", (0, 0): "O", (14, 14): "X"})
    game, state = api.load("tictactoe", {"board": rows_of(marks), "k": 5})
    assert game.to_move(state) == 0
    assert game.threat_defences(state, Deadline(), Stats()) == [cell(11, 8)]
    r = api.search("tictactoe", game.state_to_json(state), {"name": "alphabeta", "depth": 2})
    assert r.move == cell(11, 8)
