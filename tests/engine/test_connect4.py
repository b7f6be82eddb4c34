"""Connect Four: the rules, the JSON states, the search hooks, and exact solving checked against a plain
reference.

The reference below works on a grid of characters with plain recursion over the rules (no bitboards, no
pruning, a memo on the grid), so it shares nothing with ``engine.games.connect4``. The positions it solves
come from seeded random play, stopped a dozen empty cells before the end of the board.
"""
import random
from functools import lru_cache

from hypothesis import assume, given, settings, strategies as st
import pytest

from engine.api import Limits, apply, legal_moves, load, search
from engine.deadline import Deadline
from engine.errors import AlgorithmMismatch, InvalidState
from engine.game import SAFE_CHILDREN
from engine.games.connect4 import Connect4
from engine.search import alphabeta
from tests.native.conftest import needs_native

ROWS, COLS = 6, 7
EMPTY_BOARD = ["......."] * ROWS
TEXTBOOK = {"name": "alphabeta", "move_ordering": False, "transposition_table": False}


# --- the reference -------------------------------------------------------------------------------

def grid_after(moves: str) -> tuple:
    """The grid (a tuple of six row strings, top row first) after ``moves`` (columns 1..7)."""
    grid = tuple(EMPTY_BOARD)
    for i, ch in enumerate(moves):
        grid = drop(grid, int(ch) - 1, "XO"[i % 2])[0]
    return grid


def has_four(grid: tuple, piece: str) -> bool:
    """Whether ``piece`` holds four in a row anywhere on the grid."""
    return any(grid[r][c] == piece and four_through(grid, r, c) for r in range(ROWS) for c in range(COLS))


def four_through(grid: tuple, r: int, c: int) -> bool:
    """Whether the stone at row ``r``, column ``c`` lies on four in a row of its own colour."""
    piece = grid[r][c]
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < ROWS and 0 <= cc < COLS and grid[rr][cc] == piece:
                run += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if run >= 4:
            return True
    return False


def drop(grid: tuple, c: int, piece: str) -> tuple:
    """The grid after ``piece`` falls into column ``c``, and the row it lands in."""
    r = max(r for r in range(ROWS) if grid[r][c] == ".")
    return grid[:r] + (grid[r][:c] + piece + grid[r][c + 1:],) + grid[r + 1:], r


@lru_cache(maxsize=None)
def reference_solve(grid: tuple) -> tuple:
    """``(result, plies)`` for the player to move in a game that is not over: result +1, 0 or -1, and the
    plies to the end with the winner hurrying and the loser delaying."""
    stones = sum(row.count("X") + row.count("O") for row in grid)
    me = "XO"[stones % 2]
    best = None
    for c in range(COLS):
        if grid[0][c] != ".":
            continue
        child, r = drop(grid, c, me)
        if four_through(child, r, c):
            outcome = (1, 1)
        elif stones + 1 == ROWS * COLS:
            outcome = (0, 1)
        else:
            result, plies = reference_solve(child)
            outcome = (-result, plies + 1)
        if best is None or preference(outcome) > preference(best):
            best = outcome
    return best


def preference(outcome: tuple) -> tuple:
    """Order outcomes for the player to move: wins sooner first, then draws, then losses later."""
    result, plies = outcome
    return (result, -plies if result > 0 else plies if result < 0 else 0)


def random_game(rng: random.Random, empty: int) -> str:
    """Moves of a game still open with ``empty`` empty cells left: random play that never completes four
    (starting over in the rare case that every move would)."""
    while True:
        moves, grid = "", tuple(EMPTY_BOARD)
        while ROWS * COLS - len(moves) > empty:
            piece = "XO"[len(moves) % 2]
            quiet = []
            for c in range(COLS):
                if grid[0][c] == ".":
                    child, r = drop(grid, c, piece)
                    if not four_through(child, r, c):
                        quiet.append((c, child))
            if not quiet:
                break
            c, grid = rng.choice(quiet)
            moves += str(c + 1)
        else:
            return moves


def outcome_name(result: int) -> str:
    return {1: "win", 0: "draw", -1: "loss"}[result]


# --- the rules -----------------------------------------------------------------------------------

def test_stones_fall_to_the_lowest_empty_cell():
    out = apply("connect4", {"moves": "44"}, 3)
    assert out["state"]["board"] == [".......", ".......", ".......", "...X...", "...O...", "...X..."]
    assert out["to_move"] == "O" and out["legal_moves"] == list(range(7))


@pytest.mark.parametrize("moves, direction", [
    ("1212121", "vertical"),
    ("1122334", "horizontal"),
    ("12234334454", "diagonal /"),
    ("76654554434", "diagonal \\"),
])
def test_four_in_a_row_wins_in_every_direction(moves, direction):
    info = legal_moves("connect4", {"moves": moves})
    assert info["terminal"], direction
    assert info["utilities"] == {"X": 1.0, "O": -1.0}
    assert not legal_moves("connect4", {"moves": moves[:-1]})["terminal"]


def test_the_second_player_can_win():
    info = legal_moves("connect4", {"moves": "71212121"})
    assert info["terminal"] and info["utilities"] == {"X": -1.0, "O": 1.0}


def full_board_draw_moves() -> str:
    """Columns in pairs of three X-O stacks shifted so that no line of four forms: a drawn full board."""
    return "1234567" * 2 + "2345671" * 2 + "1234567" * 2


def test_a_full_board_without_four_in_a_row_is_a_draw():
    moves = full_board_draw_moves()
    grid = grid_after(moves)
    assert not has_four(grid, "X") and not has_four(grid, "O")
    info = legal_moves("connect4", {"moves": moves})
    assert info["terminal"] and info["legal_moves"] == [] and info["utilities"] == {"X": 0.0, "O": 0.0}
    assert legal_moves("connect4", {"board": list(grid)})["terminal"]


def test_full_columns_are_not_legal():
    info = legal_moves("connect4", {"moves": "444444"})
    assert info["legal_moves"] == [0, 1, 2, 4, 5, 6]


def test_board_and_moves_describe_the_same_state():
    rng = random.Random(7)
    game, _ = load("connect4", {"moves": ""})
    for _ in range(50):
        moves = random_game(rng, rng.randrange(0, 42))
        _, from_moves = load("connect4", {"moves": moves})
        board = game.state_to_json(from_moves)["board"]
        assert tuple(board) == grid_after(moves)
        _, from_board = load("connect4", {"board": board})
        assert from_board == from_moves


# --- invalid states --------------------------------------------------------------------------------

@pytest.mark.parametrize("state, field, words", [
    ({"moves": "4453", "board": EMPTY_BOARD}, "state.board", "not the position the moves reach"),
    ({"moves": "4", "k": 4}, "state", "unknown"),
    ({"moves": 4453}, "state.moves", "string"),
    ({"moves": "4483"}, "state.moves", "move 3"),
    ({"moves": "40"}, "state.moves", "1..7"),
    ({"moves": "4444444"}, "state.moves", "full"),
    ({"moves": "12121212"}, "state.moves", "over"),
    ({"board": EMPTY_BOARD[:5]}, "state.board", "6 strings"),
    ({"board": "......."}, "state.board", "6 strings"),
    ({"board": EMPTY_BOARD[:2] + ["......"] + EMPTY_BOARD[3:]}, "state.board[2]", "7 characters"),
    ({"board": EMPTY_BOARD[:2] + ["...x..."] + EMPTY_BOARD[3:]}, "state.board[2]", "'X', 'O'"),
    ({"board": EMPTY_BOARD[:4] + ["...X...", "......O"]}, "state.board", "float"),
    ({"board": EMPTY_BOARD[:5] + ["OO....."]}, "state.board", "X moves first"),
    ({"board": EMPTY_BOARD[:4] + ["OOOO...", "XXXXX.."]}, "state.board", "both"),
    ({"board": EMPTY_BOARD[:4] + ["OOO....", "XXXX..O"]}, "state.board", "last move"),
    ({"board": EMPTY_BOARD[:4] + ["OOOO...", "XXXOXXX"]}, "state.board", "last move"),
    ({"board": EMPTY_BOARD[:2] + ["......X", "......X", "OOO.OOX", "XXXXOOX"]}, "state.board",
     "already over"),
])
def test_invalid_states_name_the_field(state, field, words):
    with pytest.raises(InvalidState) as caught:
        load("connect4", state)
    assert list(caught.value.errors) == [field]
    assert words in caught.value.errors[field][0]


def test_a_finished_game_loads_but_cannot_be_searched():
    from engine.errors import GameOver
    assert legal_moves("connect4", {"moves": "1212121"})["terminal"]
    with pytest.raises(GameOver):
        search("connect4", {"moves": "1212121"}, {"name": "alphabeta"})


# --- the search hooks ------------------------------------------------------------------------------

def sampled_states(count: int, seed: int):
    rng = random.Random(seed)
    game, _ = load("connect4", {"moves": ""})
    for _ in range(count):
        _, state = load("connect4", {"moves": random_game(rng, rng.randrange(1, 42))})
        yield game, state


def test_keys_identify_positions():
    seen = {}
    for game, state in sampled_states(2000, seed=1):
        board = tuple(game.state_to_json(state)["board"])
        assert seen.setdefault(game.key(state), board) == board
    assert len(seen) > 1500


def test_ordered_actions_immediate_win_and_bounds_agree_with_the_rules():
    for game, state in sampled_states(500, seed=2):
        actions = game.actions(state)
        assert sorted(game.ordered_actions(state)) == actions
        mover = game.to_move(state)
        winning = [a for a in actions if game.is_terminal(game.result(state, a))
                   and game.utility(game.result(state, a), mover) == 1]
        win = game.immediate_win(state)
        assert (win is None) == (not winning) and (win is None or win in winning)
        assert game.plies_bound(state) == sum(row.count(".") for row in game.state_to_json(state)["board"])
        for player in (0, 1):
            assert -1 < game.evaluate(state, player) < 1
        assert game.evaluate(state, 0) == -game.evaluate(state, 1)


def test_safe_children_are_the_moves_that_leave_no_immediate_win():
    checked = 0
    for game, state in sampled_states(500, seed=6):
        if game.immediate_win(state) is not None:
            continue                                        # safe_children's contract starts here
        safe = game.safe_children(state)
        opponent = 1 - game.to_move(state)

        def opponent_wins_at_once(child):
            return any(game.is_terminal(game.result(child, b)) and game.utility(game.result(child, b), opponent) == 1
                       for b in game.actions(child))

        expected = [a for a in game.actions(state) if not opponent_wins_at_once(game.result(state, a))]
        assert sorted(a for _, a, _ in safe) == expected
        assert all(child == game.result(state, a) for _, a, child in safe)
        assert [score for score, _, _ in safe] == sorted((score for score, _, _ in safe), reverse=True)
        assert game.has_safe_move(state) == bool(expected)
        checked += 1
    assert checked > 200


def test_outcome_bounds_hold_against_the_reference():
    """Claimeven's bounds contain the true result wherever they claim one: on seeded random positions a
    dozen cells before the end, X to move with every column even or O to move with one odd column."""
    rng, claims = random.Random(7), {}
    while len(claims) < 30:
        moves = random_game(rng, rng.choice((10, 11, 12)))
        game, state = load("connect4", {"moves": moves})
        bounds = game.outcome_bounds(state)
        if bounds is not None:
            lowest, highest = claims[moves] = bounds
            assert lowest <= reference_solve(grid_after(moves))[0] <= highest, moves
    assert {len(moves) % 2 for moves in claims} == {0, 1}   # both X's and O's side of the rule
    game, state = load("connect4", {"moves": ""})
    assert game.outcome_bounds(state) is None               # X owns the odd rows: four in a row there
    _, state = load("connect4", {"moves": "4"})
    assert game.outcome_bounds(state) is None               # O to move, one odd column: the same


def test_winning_cells_are_the_empty_cells_that_complete_four():
    from engine.games.connect4 import CURRENT, MASK, winning_cells
    for game, state in sampled_states(300, seed=4):
        grid = tuple(game.state_to_json(state)["board"])
        mask, mover = state[MASK], game.to_move(state)
        for stones, piece in ((state[CURRENT], "XO"[mover]), (state[CURRENT] ^ mask, "OX"[mover])):
            expected = 0
            for r in range(ROWS):                              # r counts rows from the top, as in the grid
                for c in range(COLS):
                    if grid[r][c] == ".":
                        filled = grid[:r] + (grid[r][:c] + piece + grid[r][c + 1:],) + grid[r + 1:]
                        if four_through(filled, r, c):
                            expected |= 1 << (7 * c + ROWS - 1 - r)
            assert winning_cells(stones, mask) == expected


def test_the_completions_memo_starts_over_when_full_and_changes_nothing(monkeypatch):
    from engine.games import connect4
    moves = "5562347631247347631431"
    connect4.COMPLETIONS.clear()
    full = search("connect4", {"moves": moves}, {"name": "alphabeta"})
    monkeypatch.setattr(connect4, "COMPLETIONS_MAX", 8)
    connect4.COMPLETIONS.clear()
    small = search("connect4", {"moves": moves}, {"name": "alphabeta"})
    assert len(connect4.COMPLETIONS) <= 8
    assert (small.move, small.value, small.outcome, small.plies_to_end, small.stats.nodes) == (
        full.move, full.value, full.outcome, full.plies_to_end, full.stats.nodes)
    test_winning_cells_are_the_empty_cells_that_complete_four()


def test_forced_blocks_come_first():
    game, state = load("connect4", {"moves": "112233"})   # X threatens to complete the bottom row
    assert game.immediate_win(state) == 3
    game, state = load("connect4", {"moves": "1122337"})  # O must block in column 4
    assert game.ordered_actions(state)[0] == 3


# --- exact solving -----------------------------------------------------------------------------------

def near_full_positions(count: int, empty: int, seed: int) -> list:
    rng = random.Random(seed)
    return [random_game(rng, empty) for _ in range(count)]


@pytest.mark.parametrize("moves", near_full_positions(40, empty=12, seed=3))
def test_alphabeta_solves_near_full_boards_exactly(moves):
    expected_result, expected_plies = reference_solve(grid_after(moves))
    r = search("connect4", {"moves": moves}, {"name": "alphabeta"})
    assert (r.outcome, r.plies_to_end) == (outcome_name(expected_result), expected_plies)
    assert r.value == float(expected_result)
    # the chosen move achieves the solved result
    child, row = drop(grid_after(moves), r.move, "XO"[len(moves) % 2])
    if four_through(child, row, r.move) or len(moves) + 1 == ROWS * COLS:
        assert expected_plies == 1
    else:
        child_result, child_plies = reference_solve(child)
        assert (-child_result, child_plies + 1) == (expected_result, expected_plies)


@pytest.mark.parametrize("moves", near_full_positions(12, empty=11, seed=5))
def test_root_move_analysis_is_proven(moves):
    """Every root move the solve reports is valued exactly when it says exact, and bounded from above
    when it says upper: against the reference's result of that move, for the player to move. Exact
    values are results (+1, 0, -1), never heuristic ones."""
    grid, mover = grid_after(moves), "XO"[len(moves) % 2]
    r = search("connect4", {"moves": moves}, {"name": "alphabeta"})
    assert r.outcome is not None
    for mv in r.moves:
        child, row = drop(grid, mv.move, mover)
        if four_through(child, row, mv.move):
            truth = 1
        elif len(moves) + 1 == ROWS * COLS:
            truth = 0
        else:
            truth = -reference_solve(child)[0]
        if mv.bound == "exact":
            assert mv.value == truth, mv
        elif mv.bound == "upper":
            assert mv.value >= truth, mv
        else:  # a move left unproven once another's win was proven: its heuristic value, no claim
            assert mv.bound == "estimate" and -1 < mv.value < 1, mv


@pytest.mark.parametrize("core", ["python", "native"])
@pytest.mark.parametrize("moves", ["5562347631247347631431", "1631526424444653164667",
                                   "6444145215311647513247", "1776234745764413472332"])
def test_a_full_transposition_table_keeps_the_solve_exact(moves, core):
    """Mid-game positions (seeded random safe moves) whose solves take thousands of nodes: a table of 64
    entries fills again and again (more nodes), and the entries it drops and the bounds it keeps must not
    change the result, on either core."""
    if core == "native":
        needs_native("connect4")
    algorithm = {"name": "alphabeta", "core": core}
    full = search("connect4", {"moves": moves}, algorithm)
    small = search("connect4", {"moves": moves}, algorithm, limits=Limits(tt_max_entries=64))
    if core == "python":    # (the compiled solver's fixed-size table, replacing by age, may even visit fewer)
        assert small.stats.nodes > full.stats.nodes
    assert (small.outcome, small.plies_to_end, small.value) == (full.outcome, full.plies_to_end, full.value)


@pytest.mark.parametrize("moves", near_full_positions(8, empty=9, seed=4))
def test_every_alphabeta_mode_agrees_with_the_reference(moves):
    expected_result = reference_solve(grid_after(moves))[0]
    for algorithm in (TEXTBOOK, {"name": "alphabeta", "transposition_table": False},
                      {"name": "alphabeta", "move_ordering": False}, {"name": "minimax"}):
        r = search("connect4", {"moves": moves}, algorithm)
        assert (r.outcome, r.value) == (outcome_name(expected_result), float(expected_result)), algorithm


def test_depth_limited_search_answers_with_a_heuristic_value():
    r = search("connect4", {"moves": ""}, {"name": "alphabeta", "depth": 4})
    assert r.outcome is None and -1 < r.value < 1 and r.move in range(7)
    assert r.stats.depth_completed == 4


class WithoutSafeChildren(Connect4):
    """Connect Four whose searches do not know the safe-children test: every legal move is searched."""

    capabilities = Connect4.capabilities - {SAFE_CHILDREN}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, COLS - 1), max_size=30), st.integers(1, 4))
def test_searching_only_safe_children_keeps_the_depth_limited_value(columns, depth):
    """The principal-variation search below the root skips the moves that let the opponent win at once (they
    lose in two plies, worse than any safe move's score) and scores a node without a safe move as that
    loss: at a fixed depth (no table, which could graft deeper results), the root value is that of the
    search over every move, and each search's choice is one the other values as highly (exactly, or by an
    upper bound: the fail-soft bounds of the other root moves depend on the order below them)."""
    game, state = load("connect4", {"moves": ""})
    for c in columns:
        if game.is_terminal(state):
            break
        if c in game.actions(state):
            state = game.result(state, c)
    assume(not game.is_terminal(state))
    chosen = alphabeta.Settings(depth=depth, transposition_table=False)
    plain = alphabeta.search(WithoutSafeChildren(), state, chosen, deadline=Deadline())
    safe = alphabeta.search(game, state, chosen, deadline=Deadline())
    assert safe.value == plain.value
    for one, other in ((safe, plain), (plain, safe)):
        listed = next(m for m in other.moves if m.move == one.move)
        assert listed.value == one.value if listed.bound == "exact" else listed.value >= one.value


# --- the two notations (issue 34 #7) -------------------------------------------------------------

def test_apply_to_a_moves_state_answers_the_moves_extended_with_the_board_beside_them():
    """A move is the 0-based column; the moves string numbers columns 1..7: move 3 is the digit 4."""
    out = apply("connect4", {"moves": "4453"}, 3)
    assert out["state"] == {"moves": "44534",
                            "board": [".......", ".......", ".......", "...X...", "...O...", "..OXX.."]}


def test_apply_to_a_board_state_answers_a_board():
    out = apply("connect4", {"board": ["......."] * 6}, 0)
    assert out["state"] == {"board": ["......."] * 5 + ["X......"]}


@pytest.mark.parametrize("moves", ["", "4", "4453", "121212", "5562347631247347631431"])
def test_every_answer_loads_back_as_the_same_position(moves):
    """Round trips: apply's answer (both forms) loads, its parts alone load, and all are one position."""
    state = {"moves": moves}
    for column in legal_moves("connect4", state)["legal_moves"][:3]:
        answer = apply("connect4", state, column)
        for form in (answer["state"], {"moves": answer["state"]["moves"]}, {"board": answer["state"]["board"]}):
            assert legal_moves("connect4", form) == {k: v for k, v in answer.items() if k != "state"}


def test_a_board_that_disagrees_with_the_moves_is_a_422_on_the_board():
    board = apply("connect4", {"moves": "44"}, 0)["state"]["board"]
    with pytest.raises(InvalidState) as refused:
        load("connect4", {"moves": "44", "board": board})
    assert "state.board" in refused.value.errors


# Pascal Pons' Test_L2_R2 (middle game, medium): moves played and the result for the player to move.
MIDDLE_GAME = [("5455174361263362", "loss"), ("6614446666373154", "loss"), ("24617524315172127", "win")]


@pytest.mark.parametrize("moves, outcome", MIDDLE_GAME)
def test_a_long_time_limit_solves_middle_game_positions(moves, outcome):
    """25-26 plies left: beyond the exact solve of a short request (24 plies), within that of a few seconds
    (30). Issue 34: tried only from 24 plies left for every limit, the solve of these was skipped, and
    5 s of heuristic deepening proved none. The limit is generous (each takes about 1 s here)."""
    r = search("connect4", {"moves": moves}, {"name": "alphabeta"}, time_limit_ms=8000)
    assert r.outcome == outcome


def test_solve_gives_the_exact_solve_the_whole_time():
    """This position (26 plies left) the default search does not prove in 5 s, its solve having a third of
    the time; asked to solve, the search proves it in about 2 s."""
    r = search("connect4", {"moves": "2531276566711153"}, {"name": "alphabeta", "solve": True},
               time_limit_ms=8000)
    assert r.outcome == "win" and r.stats.stop_reason == "solved"


@pytest.mark.parametrize("game_id, state, algorithm", [
    ("chess", {}, {"name": "alphabeta", "solve": True}),
    ("tree", {"root": {"type": "max", "children": [{"value": 1}]}}, {"name": "alphabeta", "solve": True}),
    ("connect4", {"moves": "44"}, {"name": "alphabeta", "solve": True, "depth": 4}),
    ("connect4", {"moves": "44"}, dict(TEXTBOOK, solve=True)),
    ("connect4", {"moves": "44"}, {"name": "alphabeta", "solve": "yes"}),
])
def test_a_solve_the_exact_solver_cannot_do_is_refused(game_id, state, algorithm):
    with pytest.raises(AlgorithmMismatch) as raised:
        search(game_id, state, algorithm, time_limit_ms=100)
    assert list(raised.value.errors) == ["algorithm.solve"]
