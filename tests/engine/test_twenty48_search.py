"""2048's own expectimax valuation (engine/games/twenty48/kernel.py) against the generic search and the
plain rules: the same values (node for node without its table), the same moves through the API."""
from hypothesis import given, settings, strategies as st
import pytest

from engine import api
from engine.deadline import Deadline, Timeout
from engine.limits import Limits
from engine.games.twenty48.board import CHANCE_FLAG
from engine.games.twenty48.kernel import Kernel, empty_cells
from engine.search import expectimax
from engine.search.utility import Utility

# Boards of exponents 0..11 with many empty cells, some full and some without a legal move.
exponents = st.lists(st.sampled_from([0, 0, 0, 1, 1, 2, 3, 4, 5, 7, 11]), min_size=16, max_size=16)


def board_of(cells) -> list:
    return [[(1 << e) if e else 0 for e in cells[4 * r:4 * r + 4]] for r in range(4)]


def loaded(cells):
    if not any(cells):
        cells = [1] + cells[1:]
    return api.load("2048", {"board": board_of(cells)})


UNBOUNDED_TRACE = Limits(max_trace_entries=10**9, max_trace_bytes=1 << 40)


def generic_values(game, state, depth, cutoff=0.0, utility="linear"):
    r = expectimax.search(game, state, expectimax.Settings(depth=depth, pruning=False, utility=utility,
                                                           probability_cutoff=cutoff),
                          deadline=Deadline(None), trace=True,   # a trace keeps the generic search,
                          limits=UNBOUNDED_TRACE)                   # whatever its size
    return {m.move: m.value for m in r.moves}, r.stats


@settings(max_examples=60, deadline=None)
@given(exponents, st.integers(1, 4), st.booleans())
def test_kernel_values_equal_the_generic_search(cells, depth, table):
    """Without a cutoff the table changes no value; without the table the nodes are the same too."""
    game, state = loaded(cells)
    if game.is_terminal(state):
        return
    values, stats = generic_values(game, state, depth)
    kernel = Kernel(game, Deadline(None), table=table)
    for move, v in values.items():
        assert kernel.value(game.result(state, move), 1, depth, 1.0) == pytest.approx(v, abs=1e-12)
    nodes, leaves, _, _, max_ply = kernel.counts()
    if not table:
        assert (nodes + 1, leaves, max_ply) == (stats.nodes, stats.leaves, stats.max_depth)


@settings(max_examples=40, deadline=None)
@given(exponents, st.sampled_from([0.02, 0.1, 0.5]),
       st.sampled_from(["linear", {"power": 0.5}, {"exponential": 3.0}]))
def test_cutoff_and_utility_as_the_generic_search(cells, cutoff, utility):
    """A probability cutoff and a utility transform value the leaves as the generic search does (without
    the table, whose values under a cutoff are the first path's)."""
    game, state = loaded(cells)
    if game.is_terminal(state):
        return
    values, _ = generic_values(game, state, 5, cutoff, utility)
    transform = Utility() if utility == "linear" else expectimax.Settings(utility=utility).utility
    prize = None if utility == "linear" else (lambda v: transform(v / 1.0))
    kernel = Kernel(game, Deadline(None), cutoff, prize, table=False)
    for move, v in values.items():
        assert kernel.value(game.result(state, move), 1, 5, 1.0) == pytest.approx(v, abs=1e-12)


@given(exponents)
def test_empty_cells_marks_exactly_the_empty_cells(cells):
    b = sum(e << (4 * i) for i, e in enumerate(cells))
    assert [empty_cells(b) >> (4 * i) & 0xF for i in range(16)] == [int(e == 0) for e in cells]


def test_a_chance_state_is_valued_as_the_generic_search_values_it():
    game, state = api.load("2048", {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]],
                                    "to_move": "chance"})
    assert state & CHANCE_FLAG
    kernel = Kernel(game, Deadline(None))
    outcomes = game.chance_outcomes(state)
    by_hand = sum(p * max(kernel.value(game.result(game.result(state, o), m), 2, 3, 1.0)
                          for m in game.actions(game.result(state, o))) for o, p in outcomes)
    assert kernel.value(state, 0, 3, 1.0) == pytest.approx(by_hand, abs=1e-12)


@pytest.mark.parametrize("algorithm", [{"name": "expectimax", "depth": 3},
                                       {"name": "expectimax", "depth": 4, "utility": {"power": 0.5}},
                                       {"name": "expectimax", "depth": 5, "probability_cutoff": 0.05}])
def test_the_api_answers_as_with_the_generic_search(algorithm):
    """The search uses the kernel unless a trace is asked for; both give the same moves and values."""
    state = {"board": [[0, 2, 4, 2], [4, 16, 32, 8], [8, 64, 256, 16], [512, 1024, 0, 32]]}
    fast = api.search("2048", state, algorithm)
    plain = api.search("2048", state, {**algorithm, "pruning": False}, trace=True)
    assert fast.move == plain.move
    assert {m.move: m.value for m in fast.moves} == pytest.approx({m.move: m.value for m in plain.moves},
                                                                  abs=1e-12)
    assert fast.stats.depth_completed == plain.stats.depth_completed


def test_a_game_the_depth_sees_to_its_end_stops_deepening():
    """Every move fills the last hole with no merge left: every line ends 2 plies deep, and deepening
    stops at the first pass that sees it (3 plies with the kernel, which deepens two plies at a time)."""
    state = {"board": [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 32768, 0]]}
    for trace in (False, True):
        r = api.search("2048", state, {"name": "expectimax"}, time_limit_ms=60_000, trace=trace)
        assert not r.stats.timed_out and r.stats.depth_completed == (2 if trace else 3)
        assert r.moves and r.moves[0].bound == "exact"


def test_the_kernel_polls_its_deadline():
    game, state = api.load("2048", {"board": [[0, 0, 2, 0], [0, 4, 8, 2], [2, 16, 64, 128], [8, 32, 256, 512]]})
    deadline = Deadline(0.0)
    with pytest.raises(Timeout):
        Kernel(game, deadline).value(game.result(state, "left"), 1, 9, 1.0)


@pytest.mark.parametrize("trace", [False, True])   # the kernel, and the generic search (a trace keeps it)
def test_deepening_ends_once_no_pass_is_cut_by_the_depth(trace):
    """Where the probability cut-off alone stops every line, a deeper pass would see the same tree: the
    deepening ends there, well before the time limit, rather than repeating that pass until it passes."""
    game, state = api.load("2048", {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]})
    result = expectimax.search(game, state, expectimax.Settings(probability_cutoff=0.1), deadline=Deadline(5.0),
                               trace=trace)
    assert not result.stats.timed_out and result.stats.stop_reason == "completed"
    assert result.stats.depth_completed < 15
    deeper = expectimax.search(game, state, expectimax.Settings(probability_cutoff=0.1,
                                                                depth=result.stats.depth_completed + 2),
                               deadline=Deadline(None), trace=trace)
    assert [(m.move, m.value) for m in deeper.moves] == [(m.move, m.value) for m in result.moves]
