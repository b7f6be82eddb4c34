"""The m,n,k-game's compiled core (native/src/games/mnk.hpp) against the Python game (engine/games/tictactoe/):
the same tree (perft), and along random games the same legal moves, move ordering, candidate moves, results and
evaluations, bit for bit, on boards from 3 x 3 to 19 x 19; and its searches through run_search: the API's fixed node
counts and the enhanced alpha-beta's answer and nodes on small boards (large boards: test_gomoku_native.py)."""
import random

import pytest
from hypothesis import given, settings, strategies as st

tn = pytest.importorskip("tactician_native")

from engine.deadline import Deadline  # noqa: E402
from engine.games.tictactoe import PRUNED_FROM, State, game_for  # noqa: E402
from engine.result import Stats  # noqa: E402
from engine.search import alphabeta  # noqa: E402


def perft(game, state, depth: int) -> int:
    if depth == 0 or game.is_terminal(state):
        return 1
    return sum(perft(game, game.result(state, m), depth - 1) for m in game.actions(state))


def unpacked(native) -> tuple:
    x, o, ply, status = native
    return State(int.from_bytes(x, "little"), int.from_bytes(o, "little"), ply, status)


def random_state(game, draw, plies: int):
    state = State(0, 0, 0, 0)
    for _ in range(plies):
        if game.is_terminal(state):
            break
        moves = game.actions(state)
        state = game.result(state, moves[draw(len(moves))])
    return state


@pytest.mark.parametrize("rows, cols, k, depth, plies", [(3, 3, 3, 9, 0), (4, 4, 3, 5, 0), (5, 5, 4, 4, 0),
                                                         (4, 4, 3, 6, 4), (5, 5, 4, 5, 6)])
def test_perft_equals_pythons(rows, cols, k, depth, plies):
    game = game_for(rows, cols, k)
    draw = random.Random(rows * 100 + plies).randrange
    state = random_state(game, draw, plies)
    assert tn.mnk_perft(game.native_state(state), depth) == perft(game, state, depth)


def test_perft_of_the_empty_3x3_board_is_every_game():
    assert tn.mnk_perft(game_for(3, 3, 3).native_state(State(0, 0, 0, 0)), 9) == 255168


BOARDS = [(3, 3, 3), (4, 4, 3), (3, 5, 3), (5, 5, 4), (6, 7, 4), (8, 8, 5), (9, 9, 5), (10, 12, 4), (15, 15, 5),
          (19, 19, 5), (19, 19, 6), (4, 4, 2), (5, 5, 1)]


@settings(max_examples=40, deadline=None)
@given(board=st.sampled_from(BOARDS), data=st.data())
def test_rules_and_knowledge_equal_pythons_along_a_random_game(board, data):
    game = game_for(*board)
    state = State(0, 0, 0, 0)
    while True:
        native = game.native_state(state)
        assert tn.mnk_status(native) == state[3]
        assert tn.mnk_actions(native) == game.actions(state)
        assert tn.mnk_ordered_actions(native) == game.ordered_actions(state)
        assert [tn.mnk_evaluate(native, p) for p in (0, 1)] == [game.evaluate(state, p) for p in (0, 1)]
        if game.is_terminal(state):
            break
        assert tn.mnk_forcing(native) == game.forcing(state)
        if game.cells >= PRUNED_FROM:
            moves, complete = game.candidate_actions(state)
            assert tn.mnk_candidate_actions(native) == (list(moves), complete)
        move = data.draw(st.sampled_from(game.actions(state)))
        after = game.result(state, move)
        assert unpacked(tn.mnk_result(native, move)) == after
        state = after


def test_a_bad_native_state_is_refused():
    with pytest.raises(ValueError):
        tn.mnk_actions((20, 20, 5, b"", b""))
    with pytest.raises(ValueError):
        tn.mnk_actions((3, 3, 3, b"\x00\x02", b""))  # a mark on cell 9 of a 9-cell board


def native_search(game, state, algorithm: str, options: dict):
    return tn.search("tictactoe", game.native_state(state), algorithm, {"tt_max_entries": 1_000_000, **options},
                     None, tn.Token(), None)


def test_the_api_fixed_points_of_the_empty_board():
    game = game_for(3, 3, 3)
    assert native_search(game, State(0, 0, 0, 0), "minimax", {})["stats"]["nodes"] == 549946
    textbook = native_search(game, State(0, 0, 0, 0), "alphabeta", {"move_ordering": False, "transposition_table": False})
    assert (textbook["stats"]["nodes"], textbook["move"], textbook["value"]) == (18297, 0, 0.0)


@settings(max_examples=15, deadline=None)
@given(case=st.sampled_from([(3, 3, 3, None), (4, 4, 3, 4), (5, 5, 4, 3), (6, 6, 4, 2), (7, 7, 4, 2)]),
       plies=st.integers(0, 5), seed=st.integers(0, 2**32))
def test_enhanced_alphabeta_equals_pythons_on_small_boards(case, plies, seed):
    rows, cols, k, depth = case
    game = game_for(rows, cols, k)
    state = random_state(game, random.Random(seed).randrange, plies)
    if game.is_terminal(state):
        return
    python = alphabeta.search(game, state, alphabeta.Settings(depth=depth), deadline=Deadline(None))
    native = native_search(game, state, "alphabeta", {"depth": depth})
    assert (native["move"], native["value"], native["outcome"], native["stats"]["nodes"]) == \
        (python.move, python.value, python.outcome, python.stats.nodes)


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from([(15, 15, 5, 14), (9, 9, 5, 12), (11, 11, 4, 10), (19, 19, 5, 16)]),
       seed=st.integers(0, 2**32))
def test_threat_searches_equal_pythons(case, seed):
    """Lines, defences and visited positions of the threat-space searches (games/mnk_threats.hpp), on
    positions played near the centre, where threats are many."""
    rows, cols, k, plies = case
    game, draw = game_for(rows, cols, k), random.Random(seed)
    state = State(0, 0, 0, 0)
    for _ in range(plies):
        if game.is_terminal(state):
            return
        near = [m for m in game.actions(state) if abs(m // cols - rows // 2) <= 3 and abs(m % cols - cols // 2) <= 3]
        state = game.result(state, draw.choice(near))
    if game.is_terminal(state):
        return
    native = game.native_state(state)
    win_stats, defence_stats = Stats(), Stats()
    assert tn.mnk_threat_win(native) == (game.threat_win(state, Deadline(None), win_stats), win_stats.nodes)
    assert tn.mnk_threat_defences(native) == (game.threat_defences(state, Deadline(None), defence_stats),
                                              defence_stats.nodes)
    assert tn.mnk_forcing(native) == game.forcing(state)
