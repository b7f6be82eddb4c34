"""Othello's compiled core (native/src/games/othello.hpp, othello_endgame.hpp) against the Python reference
(engine/games/othello/: the game, evaluation.py, endgame.py, and the searches of engine/search/): the same
rules and evaluation along random games, the same perft counts (OpenSpiel's too, where it is installed),
the same searches.

What is compared: minimax, textbook alpha-beta (both cut-off rules), the enhanced alpha-beta (every
ordering/table combination) at fixed depths and seeded MCTS give the same answer in every field and the
same statistics. The endgame solver gives the same score, perfect line, root moves and node counts as
Python's on every position within Python's reach (16 empty squares); beyond it, only the compiled one runs,
and the FFO positions check its answers.

Build the module first (see native/) and put it on the path: ``PYTHONPATH=build/dev``.
"""
from functools import partial
import random

from hypothesis import given, settings, strategies as st
import pytest

from bench.othello_ffo import load_positions, solve
import engine.api
from engine.deadline import Deadline
from engine.games import othello
from engine.games.othello import endgame
from engine.games.othello.board import final_score
from engine.registry import game_type
from engine.result import Stats
from engine.search import alphabeta, mcts, minimax
from tests.native import equivalence
from tests.native.conftest import needs_native
from tests.native.equivalence import TT, assert_same

tn = pytest.importorskip("tactician_native")

GAME = othello.GAME
choices = st.lists(st.integers(0, 63), max_size=130)


@pytest.fixture(autouse=True)
def _native():
    needs_native("othello")


def play_out(picks, state=None):
    return equivalence.play_out(GAME, picks, state or othello.initial_state())


def empties(state):
    return 64 - (state[0] | state[1]).bit_count()


def random_position(rng, empty_squares):
    """A position with ``empty_squares`` empty squares from random play, not over (another try when it is)."""
    while True:
        state = othello.initial_state()
        while not GAME.is_terminal(state) and empties(state) > empty_squares:
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not GAME.is_terminal(state) and empties(state) == empty_squares:
            return state


native_search = partial(equivalence.native_search, GAME)


# --- the rules -----------------------------------------------------------------------------------

python_perft = partial(equivalence.python_perft, GAME)


def spiel_perft(state, depth):
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += spiel_perft(child, depth - 1)
    return total


def test_perft_from_the_start():
    start = othello.initial_state()
    counts = [tn.othello_perft(GAME.native_state(start), d) for d in range(1, 7)]
    assert counts == [python_perft(start, d) for d in range(1, 7)] == [4, 12, 56, 244, 1396, 8200]
    assert tn.othello_perft(GAME.native_state(start), 9) == 3_005_288     # the published count


@pytest.mark.parametrize("seed", range(6))
def test_perft_from_random_positions(seed):
    rng = random.Random(seed)
    state = random_position(rng, rng.randrange(8, 50))
    assert tn.othello_perft(GAME.native_state(state), 4) == python_perft(state, 4)


@pytest.mark.parametrize("seed", range(4))
def test_perft_equals_openspiels(seed):
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(seed)
    ours, theirs = othello.initial_state(), pyspiel.load_game("othello").new_initial_state()
    for _ in range(rng.randrange(0, 40)):
        if GAME.is_terminal(ours):
            break
        move = rng.choice(GAME.actions(ours))
        ours = GAME.result(ours, move)
        theirs.apply_action(move)
    assert tn.othello_perft(GAME.native_state(ours), 4) == spiel_perft(theirs, 4)


def test_a_pass_is_a_ply_of_its_own():
    _, state = othello.load(othello.GAME_TYPE.sample_states[1])          # Black has no square
    native = GAME.native_state(state)
    assert tn.othello_actions(native) == [othello.PASS]
    assert tn.othello_result(native, othello.PASS) == GAME.result(state, othello.PASS)[:5]
    with pytest.raises(ValueError):
        tn.othello_result(native, 62)


@settings(max_examples=60, deadline=None)
@given(choices)
def test_rules_and_evaluation_along_random_games(picks):
    for state in play_out(picks):
        native = GAME.native_state(state)
        assert tn.othello_state(native) == state[:5]
        for player in (0, 1):
            assert tn.othello_evaluate(native, player) == GAME.evaluate(state, player)
            assert tn.othello_utility(native, player) == GAME.utility(state, player)
        assert tn.othello_actions(native) == GAME.actions(state)
        if GAME.is_terminal(state):
            continue
        assert tn.othello_ordered_actions(native) == GAME.ordered_actions(state)
        for a in GAME.actions(state):
            assert tn.othello_result(native, a) == GAME.result(state, a)[:5]


@settings(max_examples=60, deadline=None)
@given(choices, st.integers(0, 2 ** 32))
def test_random_playout_draws_as_python(picks, seed):
    state = play_out(picks[:40])[-1]
    rng = random.Random(seed)
    draws = [rng.random() for _ in range(130)]
    used = iter(draws)
    utilities, plies = GAME.random_playout(state, lambda: next(used))
    consumed = 130 - len(list(used))
    assert tn.othello_random_playout(GAME.native_state(state), draws) == (utilities, plies, consumed)


# --- the searches at fixed depths -----------------------------------------------------------------

def positions():
    """The start, the game type's samples (the middle game, a pass, 12 empty squares) and random ones."""
    states = [othello.initial_state()] + [othello.load(s)[1] for s in othello.GAME_TYPE.sample_states]
    rng = random.Random(7)
    return states + [random_position(rng, n) for n in (50, 30, 9)]


POSITIONS = positions()
IDS = ["start", "middle", "pass", "12-empty", "50-empty", "30-empty", "9-empty"]


@pytest.mark.parametrize("state", POSITIONS, ids=IDS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_minimax(state, depth):
    python = minimax.search(GAME, state, minimax.Settings(depth=depth), deadline=Deadline(None))
    assert_same(native_search(state, "minimax", depth=depth), python)


@pytest.mark.parametrize("state", POSITIONS, ids=IDS)
@pytest.mark.parametrize("depth", [1, 3, 4])
@pytest.mark.parametrize("strict", [False, True])
def test_textbook_alphabeta(state, depth, strict):
    textbook = alphabeta.Settings(depth=depth, move_ordering=False, transposition_table=False, strict_cutoffs=strict)
    python = alphabeta.search(GAME, state, textbook, deadline=Deadline(None))
    native = native_search(state, depth=depth, move_ordering=False, transposition_table=False, strict_cutoffs=strict)
    assert_same(native, python)


@pytest.mark.parametrize("state", POSITIONS, ids=IDS)
@pytest.mark.parametrize("depth", [1, 3, 5])
@pytest.mark.parametrize("ordering, table", [(True, True), (True, False), (False, True)])
def test_enhanced_alphabeta(state, depth, ordering, table):
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth, move_ordering=ordering,
                                                              transposition_table=table), deadline=Deadline(None))
    assert_same(native_search(state, depth=depth, move_ordering=ordering, transposition_table=table), python)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(4, 58), st.integers(1, 4))
def test_searches_from_random_positions(seed, empty_squares, depth):
    state = random_position(random.Random(seed), empty_squares)
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth), deadline=Deadline(None))
    assert_same(native_search(state, depth=depth), python)
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth, move_ordering=False,
                                                              transposition_table=False), deadline=Deadline(None))
    assert_same(native_search(state, depth=depth, move_ordering=False, transposition_table=False), python)
    python = minimax.search(GAME, state, minimax.Settings(depth=min(depth, 3)), deadline=Deadline(None))
    assert_same(native_search(state, "minimax", depth=min(depth, 3)), python)


@pytest.mark.parametrize("state", POSITIONS[:3] + POSITIONS[4:6], ids=IDS[:3] + IDS[4:6])
@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_mcts(state, rollout):
    options = {"iterations": 300, "seed": 11, "rollout": rollout}
    python = mcts.search(GAME, state, mcts.Settings(**options), deadline=Deadline(None))
    native = native_search(state, "mcts", exploration=mcts.Settings().exploration, **options)
    assert native["move"] == python.move and native["value"] == python.value
    assert [tuple(m) for m in native["moves"]] == [(m.move, m.value, m.bound, m.visits) for m in python.moves]
    assert {k: native["stats"][k] for k in ("nodes", "leaves", "max_depth", "iterations", "stop_reason")} == {
        k: getattr(python.stats, k) for k in ("nodes", "leaves", "max_depth", "iterations", "stop_reason")}


def test_a_proven_result_is_scored_by_the_endgame_solver():
    """A fixed depth that reaches the end proves the winner on the utilities' scale: both cores have the
    endgame solver score it (the final disc difference as the value), counting both searches' nodes."""
    state = POSITIONS[-1]                                                # 9 empty squares
    for depth, table in ((20, True), (20, False)):
        python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth, transposition_table=table),
                                  deadline=Deadline(None))
        assert python.outcome is not None and abs(python.value) > 1
        assert_same(native_search(state, depth=depth, transposition_table=table), python)
    python = minimax.search(GAME, state, minimax.Settings(depth=20), deadline=Deadline(None))
    assert_same(native_search(state, "minimax", depth=20), python)


# --- the endgame solver ---------------------------------------------------------------------------

def python_solve(state, ordering, capacity):
    stats = Stats()
    solution = endgame.solve(state[0], state[1], Deadline(None), ordering, capacity, stats)
    counts = {f: getattr(stats, f) for f in ("nodes", "leaves", "cutoffs", "tt_hits", "max_depth")}
    return (solution.score, solution.pv, [(m, int(v), b) for m, v, b in solution.moves]), counts


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(6, 12), st.sampled_from([(True, TT), (True, 0), (False, TT),
                                                                     (True, 40)]))
def test_the_endgame_solver_visits_pythons_nodes(seed, empty_squares, options):
    state = random_position(random.Random(seed), empty_squares)
    solution, counts = tn.othello_solve_endgame(GAME.native_state(state), *options, None)
    python_solution, python_counts = python_solve(state, *options)
    assert tuple(solution) == python_solution
    assert {f: counts[f] for f in python_counts} == python_counts


@pytest.mark.parametrize("seed, options", [(1, (True, TT)), (2, (True, 1000)), (3, (False, TT)), (4, (True, 0))])
def test_beyond_pythons_reach_the_root_agrees_with_its_children(seed, options):
    """With 17 empty squares the root is searched by null-window probes, with a table of fixed size: its
    score, root moves and line agree with its children's solutions (16 empty squares, searched as Python
    searches them, which the test above compares node for node)."""
    state = random_position(random.Random(seed), 17)
    (score, pv, moves), _ = tn.othello_solve_endgame(GAME.native_state(state), *options, None)
    children = {a: -tn.othello_solve_endgame(GAME.native_state(GAME.result(state, a)), True, TT, None)[0][0]
                for a in GAME.actions(state)}
    assert score == max(children.values()) and moves[0] == (pv[0], score, "exact")
    assert sorted(m for m, _, _ in moves) == sorted(children)
    for move, value, bound in moves:
        assert value == children[move] if bound == "exact" else value >= children[move]
    end = state
    for move in pv:
        end = GAME.result(end, move)
    assert GAME.is_terminal(end)
    sign = 1 if end[2] == state[2] else -1
    assert sign * final_score(end[0], end[1]) == score


def test_the_endgame_solver_within_a_search_equals_pythons():
    """Without a depth limit the endgame solver answers first: the same answer, the same statistics."""
    _, state = othello.load(othello.GAME_TYPE.sample_states[2])         # 12 empty squares
    python = alphabeta.search(GAME, state, alphabeta.Settings(), deadline=Deadline(None))
    assert python.stats.stop_reason == "solved"
    assert_same(native_search(state, seconds=60.0), python)


def test_the_endgame_solver_declines_beyond_its_reach_and_stops_at_the_deadline():
    """Its reach: 26 empty squares with 2 s or more, 18 with less; a solve stops at the deadline."""
    far = random_position(random.Random(3), 27)
    solution, counts = tn.othello_solve_endgame(GAME.native_state(far), True, TT, 60.0)
    assert solution is None and counts["nodes"] == 0
    deep = random_position(random.Random(4), 19)
    solution, counts = tn.othello_solve_endgame(GAME.native_state(deep), True, TT, 1.9)
    assert solution is None and counts["nodes"] == 0
    within = random_position(random.Random(4), 18)
    solution, counts = tn.othello_solve_endgame(GAME.native_state(within), True, TT, 0.002)
    assert solution is None and counts["timed_out"] and counts["nodes"] > 0


@pytest.mark.parametrize("number", [20, 21, 22, 23, 39])
def test_ffo_endgames_solved_exactly(number):
    """FFO positions beyond Python's reach (except #20): the best move and the final disc difference."""
    position = load_positions([number])[0]
    answer = solve(position, "native", 60.0)
    assert answer["solved"] and answer["right"], answer


def test_a_solved_mcts_keeps_its_several_best_moves():
    """MCTS proves a short endgame and hands it to the solver, which scores one line: with multi_pv the
    answer keeps its N lines and drops the proofs' scores (engine.search.endgame.scored_lines), on either
    core. The compiled core's answer once became the solver's single line."""
    endgame_state = game_type("othello").sample_states[2]
    result = engine.api.search("othello", endgame_state, {"name": "mcts", "multi_pv": 3, "core": "native"},
                               time_limit_ms=2000)
    assert result.stats.stop_reason == "solved"
    assert len(result.lines) == 3 and len({line.move for line in result.lines}) == 3
    assert all(line.outcome is None and line.plies_to_end is None for line in result.lines)
