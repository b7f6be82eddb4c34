"""Connect Four's compiled core (native/) against the Python reference (engine/games/connect4.py and the
searches of engine/search/): the same rules and knowledge along random games, the same perft counts, and
the same searches.

What is compared: minimax, textbook alpha-beta (both cut-off rules) and the enhanced alpha-beta at fixed
depths (every ordering/table combination) give the same answer in every field (move, value, principal
variation, each root move's value and bound, outcome, plies_to_end) and the same statistics (nodes,
leaves, cutoffs, tt_hits, max_depth, depth_completed, stop_reason). The exact solver gives the same
value, outcome, plies_to_end and best move as Python's and as Pons' test sets say; its node counts differ
(its table is Pons' compact one, which keeps fewer entries than Python's dict).

Build the module first (see native/) and put it on the path: ``PYTHONPATH=build/dev``.
"""
from functools import partial
import random

from hypothesis import given, settings, strategies as st
import pytest

from bench import c4sets
from engine.deadline import Deadline
from engine.games import connect4
from engine.limits import Limits
from engine.result import Stats
from engine.search import alphabeta, minimax
from engine.search.solver import exact_solve
from tests.native import equivalence
from tests.native.equivalence import TT, assert_same

tn = pytest.importorskip("tactician_native")

GAME = connect4.GAME
columns = st.lists(st.integers(0, connect4.WIDTH - 1), max_size=connect4.CELLS)


def play_out(choices, state=None):
    return equivalence.play_out(GAME, choices, state or connect4.initial_state())


def random_position(rng, plies):
    """A position after ``plies`` random moves that is not over (another try when it is)."""
    while True:
        state = play_out([rng.randrange(7) for _ in range(plies)])[-1]
        if not GAME.is_terminal(state) and state[connect4.PLY] == plies:
            return state


native_search = partial(equivalence.native_search, GAME)


# --- the rules -----------------------------------------------------------------------------------

python_perft = partial(equivalence.python_perft, GAME)


def test_perft_from_the_start():
    start = connect4.initial_state()
    assert tn.connect4_perft(GAME.native_state(start), 6) == python_perft(start, 6) == 7 ** 6


@pytest.mark.parametrize("seed", range(6))
def test_perft_from_random_positions(seed):
    state = random_position(random.Random(seed), 8 + 4 * seed)
    assert tn.connect4_perft(GAME.native_state(state), 4) == python_perft(state, 4)


@settings(max_examples=150, deadline=None)
@given(columns)
def test_rules_and_knowledge_along_random_games(choices):
    for state in play_out(choices):
        native = GAME.native_state(state)
        assert tn.connect4_state(native) == state
        for player in (0, 1):
            assert tn.connect4_evaluate(native, player) == GAME.evaluate(state, player)
            assert tn.connect4_utility(native, player) == GAME.utility(state, player)
        if GAME.is_terminal(state):
            continue
        assert tn.connect4_actions(native) == GAME.actions(state)
        assert tn.connect4_ordered_actions(native) == GAME.ordered_actions(state)
        for a in GAME.actions(state):
            assert tn.connect4_result(native, a) == GAME.result(state, a)
        assert tn.connect4_immediate_win(native) == GAME.immediate_win(state)
        assert tn.connect4_has_safe_move(native) == GAME.has_safe_move(state)
        assert tn.connect4_outcome_bounds(native) == GAME.outcome_bounds(state)
        if GAME.immediate_win(state) is None:     # (safe_children's contract: no win at once)
            assert tn.connect4_safe_children(native) == [tuple(c) for c in GAME.safe_children(state)]


@settings(max_examples=100, deadline=None)
@given(columns, st.integers(0, 2 ** 32))
def test_random_playout_draws_as_python(choices, seed):
    state = play_out(choices[:30])[-1]
    rng = random.Random(seed)
    draws = [rng.random() for _ in range(43)]
    used = iter(draws)
    utilities, plies = GAME.random_playout(state, lambda: next(used))
    consumed = 43 - len(list(used))
    assert tn.connect4_random_playout(GAME.native_state(state), draws) == (utilities, plies, consumed)


# --- the searches at fixed depths -----------------------------------------------------------------

POSITIONS = ["", "4453", "44444", "44551", "121212", "5562347631247347631431"]


@pytest.mark.parametrize("moves", POSITIONS)
@pytest.mark.parametrize("depth", [1, 2, 4])
def test_minimax(moves, depth):
    state = connect4.parse_moves(moves)
    python = minimax.search(GAME, state, minimax.Settings(depth=depth), deadline=Deadline(None))
    assert_same(native_search(state, "minimax", depth=depth), python)


@pytest.mark.parametrize("moves", POSITIONS)
@pytest.mark.parametrize("depth", [1, 3, 5])
@pytest.mark.parametrize("strict", [False, True])
def test_textbook_alphabeta(moves, depth, strict):
    state = connect4.parse_moves(moves)
    textbook = alphabeta.Settings(depth=depth, move_ordering=False, transposition_table=False, strict_cutoffs=strict)
    python = alphabeta.search(GAME, state, textbook, deadline=Deadline(None))
    native = native_search(state, depth=depth, move_ordering=False, transposition_table=False, strict_cutoffs=strict)
    assert_same(native, python)


@pytest.mark.parametrize("moves", POSITIONS + ["4444433332222211"])
@pytest.mark.parametrize("depth", [1, 4, 8])
@pytest.mark.parametrize("ordering, table", [(True, True), (True, False), (False, True)])
def test_enhanced_alphabeta(moves, depth, ordering, table):
    state = connect4.parse_moves(moves)
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth, move_ordering=ordering,
                                                              transposition_table=table), deadline=Deadline(None))
    assert_same(native_search(state, depth=depth, move_ordering=ordering, transposition_table=table), python)


@pytest.mark.parametrize("capacity", [300, 3000])
def test_enhanced_alphabeta_clears_a_full_table_as_python(capacity):
    state = connect4.parse_moves("4453")
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=8), deadline=Deadline(None),
                              limits=Limits(tt_max_entries=capacity))
    native = tn.search("connect4", GAME.native_state(state), "alphabeta", {"depth": 8, "tt_max_entries": capacity},
                       None, tn.Token(), None)
    assert_same(native, python)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(4, 30), st.integers(1, 6))
def test_searches_from_random_positions(seed, plies, depth):
    state = random_position(random.Random(seed), plies)
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth), deadline=Deadline(None))
    assert_same(native_search(state, depth=depth), python)
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth, move_ordering=False,
                                                              transposition_table=False), deadline=Deadline(None))
    assert_same(native_search(state, depth=depth, move_ordering=False, transposition_table=False), python)
    python = minimax.search(GAME, state, minimax.Settings(depth=min(depth, 4)), deadline=Deadline(None))
    assert_same(native_search(state, "minimax", depth=min(depth, 4)), python)


@pytest.mark.parametrize("seed", range(4))
def test_enhanced_to_the_end_of_the_game(seed):
    """A depth that reaches the end: the outcome and plies_to_end proven by the deepening itself."""
    state = random_position(random.Random(seed), 32)
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=10), deadline=Deadline(None))
    assert_same(native_search(state, depth=10), python)


# --- the exact solver -----------------------------------------------------------------------------

def solved_positions(name, count):
    positions = c4sets.load_set(name, count)
    if positions is None:
        pytest.skip(f"{name} not in {c4sets.data_dir()}")
    return positions


@pytest.mark.parametrize("name, count", [("Test_L3_R1", 200), ("Test_L2_R1", 100), ("Test_L2_R2", 40)])
def test_solver_on_pons_test_sets(name, count):
    for moves, score in solved_positions(name, count):
        native = native_search(connect4.parse_moves(moves), solve=True)
        assert (native["outcome"], native["plies_to_end"]) == c4sets.expected(moves, score), moves
        assert native["value"] == (score > 0) - (score < 0)
        assert native["stats"]["stop_reason"] == "solved"


def python_solve(state, ordering=True, table=True):
    return exact_solve(GAME, state, Deadline(None), ordering, TT if table else 0, None,
                       GAME.ordered_actions(state) if ordering else GAME.actions(state), Stats())


@pytest.mark.parametrize("seed", range(8))
def test_solver_as_python(seed):
    """Our own positions, late enough for the Python solver: the same value, outcome, distance and move
    (the move that fails high first depends only on the root moves' true values and their order)."""
    state = random_position(random.Random(100 + seed), 26 + seed % 4)
    native, python = native_search(state, solve=True), python_solve(state)
    assert (native["move"], native["value"], native["outcome"], native["plies_to_end"]) == (
        python.move, python.value, python.outcome, python.plies_to_end)


@pytest.mark.parametrize("ordering, table", [(True, False), (False, True)])
def test_solver_without_an_enhancement(ordering, table):
    state = random_position(random.Random(7), 30)
    native = native_search(state, solve=True, move_ordering=ordering, transposition_table=table)
    python = python_solve(state, ordering, table)
    assert (native["move"], native["value"], native["outcome"], native["plies_to_end"]) == (
        python.move, python.value, python.outcome, python.plies_to_end)


@pytest.mark.parametrize("seed", range(3))
def test_no_depth_solves_first_as_python(seed):
    """Without a depth, 14 plies left: the solve's share answers on both cores (each tries it there)."""
    state = random_position(random.Random(200 + seed), 28)
    python = alphabeta.search(GAME, state, alphabeta.Settings(), deadline=Deadline(None))
    native = native_search(state)
    assert (native["move"], native["value"], native["outcome"], native["plies_to_end"], native["pv"]) == (
        python.move, python.value, python.outcome, python.plies_to_end, python.pv)
    assert native["stats"]["stop_reason"] == python.stats.stop_reason == "solved"
    assert native["stats"]["depth_completed"] == python.stats.depth_completed


# --- time, cancellation, progress -----------------------------------------------------------------

def test_out_of_time_answers_with_the_last_iteration():
    state = connect4.parse_moves("44")
    result = native_search(state, seconds=0.05)
    assert result["stats"]["timed_out"] and result["stats"]["stop_reason"] == "time_limit"
    assert result["stats"]["depth_completed"] >= 1 and result["move"] in GAME.actions(state)
    assert result["pv"][0] == result["move"] and result["outcome"] is None


def test_no_time_at_all_falls_back_to_the_first_ordered_move():
    state = connect4.parse_moves("4453")
    for algorithm, options in [("minimax", {"depth": 9}), ("alphabeta", {"depth": 20, "move_ordering": False,
                                                                         "transposition_table": False})]:
        result = native_search(state, algorithm, seconds=0.0, **options)
        assert result["stats"]["timed_out"] and result["stats"]["stop_reason"] == "time_limit"
        assert result["move"] in GAME.actions(state)


def test_a_cancelled_token_stops_the_search():
    token = tn.Token()
    token.cancel()
    result = tn.search("connect4", GAME.native_state(connect4.initial_state()), "alphabeta", {"tt_max_entries": TT},
                       None, token, None)
    assert result["stats"]["timed_out"] and result["move"] in range(7)


def test_progress_after_each_iteration():
    reports = []
    state = connect4.parse_moves("4453")
    result = tn.search("connect4", GAME.native_state(state), "alphabeta", {"depth": 6, "tt_max_entries": TT}, None,
                       tn.Token(), reports.append)
    assert [r["depth"] for r in reports] == list(range(1, 7))
    assert reports[-1]["move"] == result["move"] and reports[-1]["pv"] == result["pv"]


def test_unknown_algorithm_and_finished_game_are_refused():
    with pytest.raises(ValueError):
        native_search(connect4.initial_state(), "expectimax")
    with pytest.raises(ValueError):
        native_search(connect4.parse_moves("7172737"), depth=2)
