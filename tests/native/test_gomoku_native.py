"""The enhanced alpha-beta of large m,n,k boards (81 cells or more: 9 x 9 to 19 x 19, gomoku among them) on the
compiled core (native/src/search/pvs.hpp with the game's knowledge) against the Python reference
(engine/search/pvs.py, engine/search/negamax.py): forward pruning to the candidate moves (with ``complete`` and LIKELY_LOSS), one more ply at
forcing states, and the root's threat phase (the mover's forced win played; the opponent's restricting the root to
the moves that stop it).

What is compared: at fixed depths 1 to 3, every field of the answer (move, value, outcome, plies_to_end, pv, each
root move's value and bound) and the statistics (nodes, the threat searches' positions among them, leaves,
cutoffs, tt_hits, max_depth, depth_completed, stop_reason), on random openings and on the game type's sample
states. Both searches run without a deadline: the threat phase's shares of an unlimited budget are unlimited, so
both threat searches end by their position budgets alone and visit the same positions. Under a time limit the
shares end where each core's speed lets them, and the node counts cannot be equal: there the native search is
only checked to answer within its limit plus a few ms. The one search the core refuses there, the exact solve
without a depth limit near the end, is refused before it runs (the Python core runs it).
"""
import random
import time

import pytest

from engine.deadline import Deadline
from engine.games import tictactoe
from engine.games.tictactoe import State, game_for
from engine.limits import Limits
from engine.search import alphabeta
from engine.search.native import native_settings
from tests.native.equivalence import STAT_FIELDS

tn = pytest.importorskip("tactician_native")

BOARDS = [(9, 9, 5), (11, 11, 5), (15, 15, 5)]
# X to move wins by continuous threats (a sample state); with one more X in a corner, O is to move against it.
THREATENED = ["O.O" + "." * 12] + ["." * 15] * 6 + [".....XXX......."] + ["." * 15] * 6 + ["X" + "." * 13 + "O"]


def opening(game, seed: int, plies: int):
    """A random opening near the centre (threats come soon there), stopped before a move that ends the game."""
    draw, state = random.Random(seed), State(0, 0, 0, 0)
    for _ in range(plies):
        near = [m for m in game.actions(state)
                if abs(m // game.cols - game.rows // 2) <= 3 and abs(m % game.cols - game.cols // 2) <= 3]
        after = game.result(state, draw.choice(near))
        if game.is_terminal(after):
            break
        state = after
    return state


# (board, seed, plies): openings of 6 to 20 plies; those of 8 and 10 plies include roots restricted to the
# defences, those of 16 and more forced wins for the mover (test_the_positions_reach_the_threat_phase).
OPENINGS = [(board, seed, 6 + 2 * seed) for board in BOARDS for seed in range(8)]


def positions():
    for board, seed, plies in OPENINGS:
        yield pytest.param(game_for(*board), opening(game_for(*board), seed, plies), id=f"{board[0]}x{board[1]}-{seed}")
    for index, start in enumerate(tictactoe.GAME_TYPE.sample_states):
        game, state = tictactoe.load(start)
        if game.cells >= tictactoe.PRUNED_FROM:
            yield pytest.param(game, state, id=f"sample-{index}")
    yield pytest.param(*tictactoe.load({"board": THREATENED, "k": 5}), id="threatened")


def answer_of_python(game, state, settings):
    result = alphabeta.search(game, state, settings, deadline=Deadline(None))
    return (result.move, result.value, result.outcome, result.plies_to_end, result.pv,
            [(m.move, m.value, m.bound) for m in result.moves],
            {field: getattr(result.stats, field) for field in STAT_FIELDS})


def answer_of_native(game, state, settings, seconds=None):
    answer = tn.search("tictactoe", game.native_state(state), "alphabeta", native_settings(game, settings, Limits()),
                       seconds, tn.Token(), None)
    return (answer["move"], answer["value"], answer["outcome"], answer["plies_to_end"], answer["pv"],
            [(move, value, bound) for move, value, bound, _ in answer["moves"]],
            {field: answer["stats"][field] for field in STAT_FIELDS})


@pytest.mark.parametrize("game, state", list(positions()))
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_enhanced_alphabeta_equals_pythons_on_large_boards(game, state, depth):
    settings = alphabeta.Settings(depth=depth)
    assert answer_of_native(game, state, settings) == answer_of_python(game, state, settings)


@pytest.mark.parametrize("options", [{"move_ordering": False}, {"transposition_table": False}])
@pytest.mark.parametrize("board, seed", [((9, 9, 5), 1), ((15, 15, 5), 2)])
def test_each_setting_equals_pythons(board, seed, options):
    """Without move ordering nothing is pruned (every move, full width), but the extensions and the threat
    phase still run; without the table, the same pruned search without its cut-offs."""
    game = game_for(*board)
    state = opening(game, seed, 6 + 2 * seed)
    settings = alphabeta.Settings(depth=2, **options)
    assert answer_of_native(game, state, settings) == answer_of_python(game, state, settings)


def test_the_positions_reach_the_threat_phase():
    """The openings above include roots where the mover wins by threats and roots restricted to defences."""
    won = defended = 0
    for board, seed, plies in OPENINGS:
        game = game_for(*board)
        native = game.native_state(opening(game, seed, plies))
        if tn.mnk_threat_win(native)[0] is not None:
            won += 1
        elif tn.mnk_threat_defences(native)[0]:
            defended += 1
    assert won >= 3 and defended >= 3


@pytest.mark.parametrize("plies, seconds", [(0, 0.05), (10, 0.2), (10, 0.005)])
def test_a_time_limited_search_on_19x19_answers_in_time(plies, seconds):
    """Deepening with no depth limit until the time is up. After 10 plies, the threat searches of either side
    visit their 20,000 positions (some 20 ms each) and find no win: at 5 ms their shares run out first.
    The search runs in this thread, so the CPU time it took bounds its own overrun, which the wall time on a
    loaded machine does not (a descheduled thread waits, it does not search)."""
    game = game_for(19, 19, 5)
    state = opening(game, 20, plies)
    start, cpu_start = time.perf_counter(), time.thread_time()
    move, *_, stats = answer_of_native(game, state, alphabeta.Settings(), seconds)
    elapsed, cpu = time.perf_counter() - start, time.thread_time() - cpu_start
    assert move in game.actions(state) and stats["stop_reason"] == "time_limit"
    assert cpu <= seconds + 0.01 and elapsed <= seconds + 0.25


def test_the_exact_solve_of_a_large_board_is_refused():
    """Without a depth limit and with few plies left, the enhanced alpha-beta of a large board solves first,
    over every root move beyond the candidates (engine/search/solver.py); the compiled core does not yet, so
    it refuses that search, and says so before it (unfit); with a depth limit it runs it."""
    game = game_for(9, 9, 5)
    for seed in range(100):
        draw, state = random.Random(seed), State(0, 0, 0, 0)
        while state[2] < 60 and not game.is_terminal(state):
            state = game.result(state, draw.choice(game.actions(state)))
        if not game.is_terminal(state):
            break
    native = game.native_state(state)
    unlimited = native_settings(game, alphabeta.Settings(), Limits())
    assert "not native yet" in tn.unfit("tictactoe", native, "alphabeta", unlimited)
    with pytest.raises(ValueError, match="not native yet"):
        tn.search("tictactoe", native, "alphabeta", unlimited, 0.1, tn.Token(), None)
    limited = native_settings(game, alphabeta.Settings(depth=2), Limits())
    assert tn.unfit("tictactoe", native, "alphabeta", limited) is None
    assert answer_of_native(game, state, alphabeta.Settings(depth=2)) == \
        answer_of_python(game, state, alphabeta.Settings(depth=2))
