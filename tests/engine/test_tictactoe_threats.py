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


# --- the window counts against a line-by-line reference, and forward pruning on large boards ---------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from engine.games.tictactoe import FORCING_VALUE, POWERS_OF_4, THREAT_VALUE, double_completions  # noqa: E402


def reference_evaluation(game, state, player):
    """The evaluation's definition, line by line over every winning line (slow and plain)."""
    x, o = state[0], state[1]
    score, wins, threes = 0, [0, 0], [[], []]
    for line in game.lines:
        for side, (mine, theirs) in enumerate(((x, o), (o, x))):
            marks = (mine & line).bit_count()
            if marks and not theirs & line:
                score += POWERS_OF_4[marks] * (1 if side == 0 else -1)
                if marks == game.k - 1:
                    wins[side] |= line & ~mine
                elif marks == game.k - 2:
                    threes[side].append(line)
    value = score / (abs(score) + POWERS_OF_4[game.k])
    mover = state[2] & 1
    if wins[mover] or wins[1 - mover] & (wins[1 - mover] - 1):
        value = THREAT_VALUE if (wins[mover] != 0) == (mover == 0) else -THREAT_VALUE
    elif not wins[1 - mover] and double_completions(threes[mover], x | o):
        value = FORCING_VALUE if mover == 0 else -FORCING_VALUE
    elif game.cells >= 81 and not wins[1 - mover] and not threes[mover] \
            and double_completions(threes[1 - mover], x | o) \
            and all(double_completions([line for line in threes[1 - mover] if not line >> d & 1], x | o | 1 << d)
                    for d in range(game.cells) if not (x | o) >> d & 1):
        value = -FORCING_VALUE if mover == 0 else FORCING_VALUE      # threes that no one move stops
    return value if player == 0 else -value


def random_position(rows, cols, k, seed, marks):
    """``marks`` random moves from the empty board, stopping before the game ends."""
    import random
    rng = random.Random(seed)
    game, state = api.load("tictactoe", {"board": ["." * cols] * rows, "k": k})
    for _ in range(marks):
        child = game.result(state, rng.choice(game.actions(state)))
        if game.is_terminal(child):
            break
        state = child
    return game, state


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 15), st.integers(3, 15), st.integers(3, 6), st.integers(0, 10 ** 6), st.integers(0, 60))
def test_the_window_counts_give_the_line_by_line_evaluation(rows, cols, k, seed, marks):
    k = min(k, max(rows, cols))
    game, state = random_position(rows, cols, k, seed, marks)
    for player in (0, 1):
        assert game.evaluate(state, player) == reference_evaluation(game, state, player)


def wins_at_once(game, state, move):
    child = game.result(state, move)
    return game.is_terminal(child) and game.utility(child, game.to_move(state)) > 0


def completions(game, mine, occupied):
    """The empty cells where ``mine`` would complete a line (line by line)."""
    return {c for line in game.lines if (mine & line).bit_count() == game.k - 1
            for c in range(game.cells) if (line & ~mine) >> c & 1 and not occupied >> c & 1}


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(1, 70))
def test_pruning_keeps_a_win_and_every_defence_against_one(seed, marks):
    """On 15 x 15, k = 5 (from dense random play, where fours abound): the candidates are legal, hold a
    winning move when there is one, and otherwise every cell where the opponent would win at once (every
    other move loses at once); ``complete`` then, and not when quiet moves were left out."""
    game, state = random_position(15, 15, 5, seed, marks)
    moves, complete = game.candidate_actions(state)
    legal = game.actions(state)
    assert moves and set(moves) <= set(legal) and len(set(moves)) == len(moves)
    x, o = state[0], state[1]
    mine, theirs = (o, x) if game.to_move(state) else (x, o)
    if completions(game, mine, x | o):
        assert complete and len(moves) == 1 and moves[0] in completions(game, mine, x | o)
        return
    threats = completions(game, theirs, x | o)
    if threats:
        assert complete and set(moves) == threats
    else:
        assert complete == (len(moves) == len(legal))


def test_pruned_search_blocks_the_four_and_proves_nothing_it_did_not_see():
    marks = {(7, 3 + i): "X" for i in range(4)}               # X's four on row 7, blocked at (7, 2)
    marks.update({(7, 2): "O", (0, 0): "O", (0, 14): "O"})
    rows = ["".join(marks.get((r, c), ".") for c in range(15)) for r in range(15)]
    r = api.search("tictactoe", {"board": rows, "k": 5}, {"name": "alphabeta", "depth": 3})
    assert r.move == 7 * 15 + 7
    game, state = api.load("tictactoe", {"board": rows, "k": 5})
    assert len(r.moves) == 1 and r.outcome is None          # the only defence; the rest is not proven
    # An open four: every defence loses, and that is proven (the moves left out lose at once).
    marks[(7, 2)] = "."
    marks[(14, 14)] = "O"
    rows = ["".join(marks.get((r, c), ".") for c in range(15)) for r in range(15)]
    r = api.search("tictactoe", {"board": rows, "k": 5}, {"name": "alphabeta", "depth": 3})
    assert (r.outcome, r.plies_to_end) == ("loss", 2)


# --- forcing replies to threes, and window counts kept from move to move -----------------------------------

def double_threats(game, mine, occupied):
    """The empty cells where a mark of ``mine`` makes two completions or more (line by line)."""
    return {c for c in range(game.cells) if not occupied >> c & 1
            and len(completions(game, mine | 1 << c, occupied | 1 << c)) >= 2}


def fours_to_make(game, mine, theirs):
    """The empty cells where a mark of ``mine`` makes a four (k - 1 in a window with none of ``theirs``)."""
    occupied = mine | theirs
    return {c for line in game.lines if not line & theirs and (line & mine).bit_count() == game.k - 2
            for c in range(game.cells) if line >> c & 1 and not occupied >> c & 1}


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([(9, 9), (9, 10), (10, 10)]), st.integers(0, 10 ** 6), st.integers(4, 40))
def test_facing_a_three_pruning_keeps_every_defence_and_every_four(size, seed, marks):
    """On boards that prune (81 cells and more), k = 5, against a line-by-line reference: facing a three
    (the opponent could make two completions at once), the candidates are exactly the moves after which
    it no longer can, and the mover's fours; every move left out leaves it a double threat. With no three
    to face but one of its own, the mover's candidates are its double threats."""
    game, state = random_position(*size, 5, seed, marks)
    x, o = state[0], state[1]
    occupied = x | o
    mine, theirs = (o, x) if game.to_move(state) else (x, o)
    if completions(game, mine, occupied) or completions(game, theirs, occupied) or not occupied:
        return                                                  # the cases the test above covers
    moves, complete = game.candidate_actions(state)
    empty = [c for c in range(game.cells) if not occupied >> c & 1]
    if double_threats(game, theirs, occupied):
        defences = {d for d in empty if not double_threats(game, theirs, occupied | 1 << d)}
        expected = defences | fours_to_make(game, mine, theirs) or double_threats(game, theirs, occupied)
        assert set(moves) == expected
        for d in set(empty) - set(moves):
            assert double_threats(game, theirs, occupied | 1 << d)
    elif double_threats(game, mine, occupied):
        assert set(moves) == double_threats(game, mine, occupied)
    else:
        return
    assert complete == (len(moves) == len(empty))


def test_the_defences_of_an_open_three_and_of_a_broken_one():
    other = {(0, 0): "X", (8, 8): "X", (0, 8): "X"}
    theirs = {(1, 1): "O", (1, 3): "O", (1, 6): "O", (7, 1): "O", (7, 7): "O"}
    # O to move facing X's open three on row 4 (columns 3-5, two free cells each side): only the cells
    # beside it stop an open four (after O two away, at column 1, X at column 6 makes one: columns 2 and 7).
    game, state = load(board({**other, **theirs, (4, 3): "X", (4, 4): "X", (4, 5): "X"}))
    assert game.to_move(state) == 1
    moves, complete = game.candidate_actions(state)
    assert set(moves) == {cell(4, 2), cell(4, 6)} and not complete
    # A broken three, columns 2, 4, 5: the gap and both ends.
    game, state = load(board({**other, **theirs, (4, 2): "X", (4, 4): "X", (4, 5): "X"}))
    moves, _ = game.candidate_actions(state)
    assert set(moves) == {cell(4, 1), cell(4, 3), cell(4, 6)}


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 12), st.integers(3, 12), st.integers(2, 6), st.integers(0, 10 ** 6), st.integers(0, 50))
def test_a_child_s_window_counts_from_its_parent_s_are_counted_afresh(rows, cols, k, seed, marks):
    from engine.games.tictactoe.windows import Windows
    import random
    k = min(k, max(rows, cols))
    game, state = random_position(rows, cols, k, seed, marks)
    x, o = state[0], state[1]
    empty = [c for c in range(rows * cols) if not (x | o) >> c & 1]
    if not empty:
        return
    cell = random.Random(seed).choice(empty)
    windows, every = Windows(rows, cols, k), range(k + 1)
    movers, others = windows.after_move(windows.by_count(x, o, every), windows.by_count(o, x, every), cell)
    x2 = x | 1 << cell
    assert movers == windows.by_count(x2, o, every) and others == windows.by_count(o, x2, every)


def test_threes_that_no_one_move_stops_lose_for_the_mover_without_a_four():
    corners = {(0, 0): "O", (0, 8): "O", (8, 8): "O", (8, 0): "O", (4, 8): "O"}
    two = {(2, 2): "X", (2, 3): "X", (2, 4): "X", (6, 2): "X", (6, 3): "X", (6, 4): "X"}
    game, state = load(board({**corners, **two}))
    assert game.to_move(state) == 1 and game.evaluate(state, 1) == -FORCING_VALUE
    one = {**{rc: mark for rc, mark in two.items() if rc[0] == 2}, (7, 7): "X", (8, 6): "X", (6, 8): "X"}
    game, state = load(board({**corners, **one}))
    assert game.to_move(state) == 1 and abs(game.evaluate(state, 1)) < FORCING_VALUE
