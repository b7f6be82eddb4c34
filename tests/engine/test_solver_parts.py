"""The parts of the exact solver (engine/search/solver.py), each alone: the possible results and the order
they are probed in, the root's bisection, and the prover's window, table and transposition cut-off."""
import math

from engine.deadline import Deadline
from engine.games import connect4, tictactoe
from engine.result import Stats
from engine.search.scores import WIN
from engine.search.solver import Prover, RootBisection, next_probe, possible_results, root_ranking


def prover(game, state, tt_capacity=1000):
    return Prover(game, state, Deadline(None), True, tt_capacity, None, Stats())


def test_possible_results_run_from_the_soonest_loss_to_the_soonest_win():
    assert possible_results(4) == ([-(WIN - 2), -(WIN - 4), 0, WIN - 3, WIN - 1], 2)
    assert possible_results(5) == ([-(WIN - 2), -(WIN - 4), 0, WIN - 5, WIN - 3, WIN - 1], 2)


def test_the_probes_go_near_the_extremes_first_then_to_the_draw():
    assert next_probe(0, 42, 0, 21) == 11                 # a soon loss? (the median would be the draw)
    assert next_probe(0, 42, 2, 21) == 21                 # after two: a win at all?
    assert next_probe(0, 21, 2, 21) == 20                 # no win: at least a draw?
    assert next_probe(22, 42, 2, 21) == 32                # the draw ruled out: plain bisection


def test_a_bound_is_rounded_to_the_result_it_implies():
    game, state = tictactoe.load({"board": ["X.O", "...", "..."]})
    root = RootBisection(prover(game, state), state, game.actions(state))
    results = root.results
    assert root.rank_of(0.5, upper=True) == root.draw and root.rank_of(0.5, upper=False) == root.draw + 1
    assert root.rank_of(results[3], upper=True) == root.rank_of(results[3], upper=False) == 3


def test_the_root_bisection_finds_the_score_and_moves_the_proving_move_first():
    game, state = tictactoe.load({"board": ["XX.", "OO.", "..."]})     # X wins at once in the corner
    root = RootBisection(prover(game, state), state, [5, 6, 2, 7, 8])
    assert root.solve() == WIN - 1 and root.ranking[0] == 2 and root.lower[2] == WIN - 1
    assert root.upper[5] <= WIN - 3 and root.upper[6] <= WIN - 3    # searched before it, failing low


def test_the_root_ranking_has_an_immediate_win_first_then_the_callers_then_the_rest():
    game, state = connect4.load({"moves": "445566"})                   # the first player wins in column 7
    win = game.immediate_win(state)
    ranking = root_ranking(game, state, [0, 1], game.immediate_win)
    assert ranking[:3] == [win, 0, 1] and sorted(ranking) == sorted(game.actions(state))
    assert root_ranking(game, state, [0, 1], None)[:2] == [0, 1]


def test_a_position_with_a_win_at_once_is_a_leaf():
    game, state = connect4.load({"moves": "445566"})
    solver = prover(game, state)
    assert solver.probe(state, -math.inf, math.inf, 4, True) == WIN - 5
    assert solver.stats.leaves == 1 and solver.stats.nodes == 1
    assert solver.probe(state, -math.inf, math.inf, 4, False) != WIN - 5   # the caller knows it cannot


def test_the_strategy_bounds_narrow_the_window():
    game, state = connect4.load({"moves": ""})
    solver = prover(game, state)
    win_by_end, loss_by_end = WIN - solver.end, -(WIN - solver.end)
    assert solver.strategy_window((0, 1), -5.0, 5.0) == (0, 5.0)                  # at least a draw
    assert solver.strategy_window((-1, 0), -5.0, 5.0) == (-5.0, 0)                # at most a draw
    assert solver.strategy_window((1, 1), -5.0, 5.0) == (win_by_end, win_by_end)  # a win: above beta
    assert solver.strategy_window((-1, -1), -5.0, 5.0) == (loss_by_end, loss_by_end)
    assert solver.strategy_window((-1, 1), -5.0, 5.0) == (-5.0, 5.0)              # nothing known


def test_a_child_whose_entry_refutes_the_reply_cuts_at_once():
    game, state = connect4.load({"moves": "4455"})
    solver = prover(game, state)
    children = game.safe_children(state)
    _, move, child = children[1]
    solver.tt[game.key(child)] = (-math.inf, -10.0, None)   # the reply's score is at most -10
    assert solver.transposition_cutoff(children, 10.0) == (10.0, move)
    assert solver.stats.nodes == 1 and solver.stats.tt_hits == 1
    assert solver.transposition_cutoff(children, 11.0) is None


def test_a_full_table_keeps_its_newer_half():
    game, state = connect4.load({"moves": ""})
    solver = prover(game, state, tt_capacity=4)
    for key in "abcd":
        solver.store(key, None, 0.0, None, -1.0, 1.0)
    solver.store("e", None, 5.0, 3, -1.0, 1.0)
    assert list(solver.tt) == ["c", "d", "e"]
    assert solver.tt["e"] == (5.0, math.inf, 3)                       # a fail-high: a lower bound
    solver.store("c", solver.tt["c"], -3.0, 2, -1.0, 1.0)             # a fail-low tightens the upper bound
    assert solver.tt["c"] == (0.0, -3.0, None)
