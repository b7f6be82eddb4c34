"""Multi-PV (``algorithm.multi_pv``): the N best root moves, each exact with its line, against hand-computed
textbook trees and slow, obviously correct references (a full minimax or expectimax of each root child)."""
import random

from hypothesis import assume, given, settings, strategies as st
import pytest

from engine.api import apply, load, search
from engine.errors import AlgorithmMismatch, EngineError
from engine.games.tree import FIGURE_5_2
from engine.search import native
from engine.search.multipv import MAX_MULTI_PV, ranked, threshold
from engine.result import EXACT, ESTIMATE, UPPER, MoveValue
from tests.engine import reference, reference_chance
from tests.engine.strategies import game_trees
from tests.engine.strategies_chance import chance_trees
from tests.engine.test_alphabeta_properties import random_position

TEXTBOOK = {"name": "alphabeta", "move_ordering": False, "transposition_table": False}
ALPHABETA = [TEXTBOOK, {"name": "alphabeta"}, {"name": "alphabeta", "move_ordering": False},
             {"name": "alphabeta", "transposition_table": False}]
RESULTS = {1: "win", 0: "draw", -1: "loss"}


def label(child, index):
    """A tree edge's move label (API.md: its ``move``, else its ``id``, else its index)."""
    return child.get("move", child.get("id", index))


def child_values(tree, value_of) -> dict:
    """``{move: value}`` of every root child, each valued by ``value_of`` on its own."""
    return {label(child, i): value_of(child) for i, child in enumerate(tree["root"]["children"])}


def assert_best_lines(lines, truth: dict, n: int, maximize: bool = True, approx: bool = False):
    """``lines`` are the ``n`` best of ``truth`` (``{move: value}``), best first, each with its true value
    and a line that starts with its move."""
    assert len(lines) == min(n, len(truth))
    values = sorted(truth.values(), reverse=maximize)[:n]
    same = (lambda a, b: a == pytest.approx(b)) if approx else (lambda a, b: a == b)
    assert all(same(line.value, truth[line.move]) for line in lines)
    assert all(same(line.value, v) for line, v in zip(lines, values))
    assert len({line.move for line in lines}) == len(lines)
    assert all(line.pv[0] == line.move and line.bound == EXACT for line in lines)


def test_figure_5_2_values_all_three_root_moves():
    """AIMA fig. 5.2: B = 3, C = 2, D = 2, in that order (C and D tie: the first in natural order first)."""
    for algorithm in ALPHABETA + [{"name": "expectimax", "opponent_model": "minimax"}]:
        r = search("tree", FIGURE_5_2, {**algorithm, "multi_pv": 3})
        assert [(line.move, line.value) for line in r.lines] == [("B", 3.0), ("C", 2.0), ("D", 2.0)], algorithm
        assert (r.move, r.value) == ("B", 3.0)
    textbook = search("tree", FIGURE_5_2, {**TEXTBOOK, "multi_pv": 3})
    assert [line.pv for line in textbook.lines] == [["B", 0], ["C", 0], ["D", 2]]  # the leaves of value 3, 2, 2


def test_one_line_is_the_ordinary_search_node_for_node():
    """multi_pv 1 is the default search: AIMA's 11 nodes, and no lines."""
    r = search("tree", FIGURE_5_2, {**TEXTBOOK, "multi_pv": 1})
    assert (r.stats.nodes, r.lines) == (11, None)
    two = search("tree", FIGURE_5_2, {**TEXTBOOK, "multi_pv": 2})
    assert two.stats.nodes > 11 and [line.move for line in two.lines] == ["B", "C"]


def test_a_min_root_lists_the_lowest_first():
    tree = {"root": {"type": "min", "children": [{"value": 4}, {"value": -1}, {"value": 7}, {"value": 0}]}}
    for algorithm in ALPHABETA:
        r = search("tree", tree, {**algorithm, "multi_pv": 2})
        assert [(line.move, line.value) for line in r.lines] == [(1, -1.0), (3, 0.0)], algorithm


@settings(max_examples=300, deadline=None)
@given(game_trees(kinds=("max", "min")), st.integers(1, 5))
def test_alphabeta_lines_are_the_minimax_values_of_the_best_children(tree, n):
    assume("children" in tree["root"])
    truth = child_values(tree, reference.minimax)
    for algorithm in ALPHABETA:
        r = search("tree", tree, {**algorithm, "multi_pv": n})
        if n == 1:
            assert r.lines is None
            continue
        assert_best_lines(r.lines, truth, n, tree["root"]["type"] == "max")
        assert r.lines[0].value == r.value, algorithm


@settings(max_examples=200, deadline=None)
@given(game_trees(kinds=("max", "min"), with_eval=True), st.integers(2, 4), st.integers(1, 3))
def test_depth_limited_lines_are_the_h_minimax_values(tree, n, depth):
    assume("children" in tree["root"])
    truth = child_values(tree, lambda child: reference.minimax(child, depth - 1))
    for algorithm in ALPHABETA:
        r = search("tree", tree, {**algorithm, "multi_pv": n, "depth": depth})
        assert_best_lines(r.lines, truth, n, tree["root"]["type"] == "max")


@settings(max_examples=200, deadline=None)
@given(chance_trees(kinds=("max", "min", "chance")), st.integers(2, 4), st.booleans())
def test_expectimax_lines_are_the_expectimax_values_of_the_best_children(tree, n, pruning):
    root = tree["root"]
    truth = child_values(tree, lambda child: reference_chance.expectimax(
        {"root": {"type": root["type"], "children": [child]}}))
    r = search("tree", tree, {"name": "expectimax", "opponent_model": "minimax", "multi_pv": n, "pruning": pruning})
    assert_best_lines(r.lines, truth, n, root["type"] == "max", approx=True)
    assert all(line.pv == [line.move] for line in r.lines)


def solved_children(position) -> dict:
    """``{move: (result for the mover, plies to the end)}`` of every legal move of a tic-tac-toe position,
    by brute force."""
    game, state = load("tictactoe", position)
    mover = game.players[game.to_move(state)]
    out = {}
    for move in [game.move_to_json(a) for a in game.actions(state)]:
        after = apply("tictactoe", position, move)
        if after["terminal"]:
            out[move] = (int(after["utilities"][mover]), 1)
        else:
            result, plies = reference.solve_board(after["state"]["board"], 3)
            out[move] = (-result, plies + 1)
    return out


def test_tictactoe_lines_prove_each_move_s_result_and_distance():
    """The enhanced search's lines without a depth: each move's value, outcome and plies to the end are
    those of a brute-force solve of the position after it (the winner hurrying, the loser delaying)."""
    rng = random.Random(3)
    for _ in range(40):
        position = random_position(rng)
        truth = solved_children(position)
        n = rng.randint(2, 5)
        r = search("tictactoe", position, {"name": "alphabeta", "multi_pv": n})
        assert_best_lines(r.lines, {m: float(v) for m, (v, _) in truth.items()}, n)
        for line in r.lines:
            assert (line.outcome, line.plies_to_end) == (RESULTS[truth[line.move][0]], truth[line.move][1]), position
        textbook = search("tictactoe", position, {**TEXTBOOK, "multi_pv": n})
        assert_best_lines(textbook.lines, {m: float(v) for m, (v, _) in truth.items()}, n)
        assert all(line.outcome == RESULTS[truth[line.move][0]] for line in textbook.lines)


@pytest.mark.parametrize("game_id, position", [("connect4", {"moves": "4453"}),
                                               ("connect4", {"moves": "44444"}),
                                               ("tictactoe", {"board": ["X...", ".O..", "....", "...."], "k": 3})])
@pytest.mark.parametrize("table", [True, False])
def test_fixed_depth_lines_equal_a_separate_search_of_each_move(game_id, position, table):
    """The issue's evidence: each line's value is that of a search of the position after its move, one
    ply shallower (the enhanced search's game knowledge, Connect Four's immediate wins, makes it differ
    from plain h-minimax; the textbook search is h-minimax: checked against minimax)."""
    depth, n = 5, 4
    algorithm = {"name": "alphabeta", "transposition_table": table, "core": "python"}
    r = search(game_id, position, {**algorithm, "depth": depth, "multi_pv": n})
    game, state = load(game_id, position)
    separate = {}
    for a in game.actions(state):
        move = game.move_to_json(a)
        child = apply(game_id, position, move)
        separate[move] = (float(child["utilities"][r.perspective]) if child["terminal"] else
                          -search(game_id, child["state"], {**algorithm, "depth": depth - 1}).value)
    assert_best_lines(r.lines, separate, n)
    textbook = search(game_id, position, {**TEXTBOOK, "depth": depth, "multi_pv": n})
    minimax = {m.move: m.value for m in search(game_id, position, {"name": "minimax", "depth": depth}).moves}
    assert_best_lines(textbook.lines, minimax, n)


def test_mcts_lists_the_moves_by_visits_the_chosen_first():
    r = search("connect4", {"moves": "4453"}, {"name": "mcts", "iterations": 3000, "seed": 5, "multi_pv": 4})
    assert len(r.lines) == 4 and r.lines[0].move == r.move
    moves = {m.move: m for m in r.moves}
    visits = [line.visits for line in r.lines]
    assert visits == sorted(visits, reverse=True)
    assert max(m.visits for m in r.moves if m.move not in {line.move for line in r.lines}) <= visits[-1]
    for line in r.lines:
        assert (line.value, line.visits, line.bound) == (moves[line.move].value, moves[line.move].visits,
                                                         moves[line.move].bound)
        assert line.bound in (EXACT, ESTIMATE) and len(line.pv) >= 1
        game, state = load("connect4", {"moves": "4453"})
        for move in line.pv:                      # the line is legal, move after move
            assert move in [game.move_to_json(a) for a in game.actions(state)]
            state = game.result(state, game.move_from_json(move, state))


def test_mcts_proven_lines_carry_their_outcome():
    position = {"board": ["XX.", "OO.", "..."]}  # X wins at 2; O would win at 5
    r = search("tictactoe", position, {"name": "mcts", "iterations": 2000, "seed": 1, "multi_pv": 2})
    assert r.lines[0].move == 2 and r.lines[0].outcome == "win" and r.lines[0].bound == EXACT


def test_each_iteration_reports_its_lines():
    reports = []
    from engine.api import Search
    run = Search("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 4, "multi_pv": 2})
    result = run.run(reports.append)
    assert [p.depth for p in reports] == [1, 2, 3, 4]
    assert all(len(p.lines) == 2 and p.lines[0].move == p.move for p in reports)
    assert [(line.move, line.value) for line in reports[-1].lines] == \
        [(line.move, line.value) for line in result.lines]


@pytest.mark.parametrize("bad", [0, MAX_MULTI_PV + 1, -1, "2", 2.0, True])
def test_a_bad_multi_pv_is_an_error_naming_it(bad):
    with pytest.raises(EngineError) as caught:
        search("tictactoe", {"board": ["...", "...", "..."]}, {"name": "alphabeta", "multi_pv": bad})
    assert "algorithm.multi_pv" in caught.value.errors


def test_multi_pv_is_refused_where_it_does_not_apply():
    with pytest.raises(AlgorithmMismatch) as caught:
        search("tictactoe", {"board": ["...", "...", "..."]}, {"name": "alphabeta", "solve": True, "multi_pv": 2})
    assert "algorithm.multi_pv" in caught.value.errors
    for name in ("minimax", "maxn"):
        with pytest.raises(EngineError) as caught:
            search("tictactoe", {"board": ["...", "...", "..."]}, {"name": name, "multi_pv": 2})
        assert "algorithm.multi_pv" in caught.value.errors


def test_several_lines_run_on_the_python_core_and_say_so():
    r = search("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 3, "multi_pv": 2})
    assert r.stats.core == "python"
    if native.available():
        with pytest.raises(AlgorithmMismatch) as caught:
            search("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 3, "multi_pv": 2, "core": "native"})
        assert "algorithm.core" in caught.value.errors


def test_threshold_and_ranking():
    assert threshold([], 1) == float("-inf") and threshold([3, 9, 5], 2) == 5 and threshold([3], 2) == float("-inf")
    moves = [MoveValue("a", 1.0), MoveValue("b", 5.0, UPPER), MoveValue("c", 5.0), MoveValue("d", 5.0)]
    assert ranked(moves, 2) == [2, 3] and ranked(moves, 2, maximize=False) == [0, 2]
