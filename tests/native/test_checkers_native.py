"""English checkers' compiled core (native/src/games/checkers.hpp) against the Python reference
(engine/games/checkers/, its kings.py, and the searches of engine/search/): perft as published and
as the Python rules count it, the same rules and knowledge along random games (states with their draw
flags and histories, legal moves in order, ordering, evaluation, bounds, keys), the same two-kings table,
and the same searches at fixed depths (values, best moves, lines and node counts) and seeded MCTS.

Build the module first (see native/) and put it on the path: ``PYTHONPATH=build/dev``.
"""
import math

from hypothesis import given, settings, strategies as st
import pytest

from engine.deadline import Deadline
from engine.games.checkers import kings as checkers_kings
from engine.games.checkers import load
from engine.search import alphabeta, mcts, minimax

from tests.native import equivalence
from tests.native.conftest import needs_native
from tests.native.equivalence import TT, assert_same

tn = pytest.importorskip("tactician_native")

PUBLISHED = [7, 49, 302, 1469, 7361, 36768, 179740]    # perft from the start, depths 1-7 (tests/engine)
OPENSPIEL_RULE = {"no_progress_plies": 40, "man_move_resets": False}
SHORT_DRAW = {"no_progress_plies": 6}                   # the no-progress draw within a search's sight
# The start, the game type's samples (kings, a crowning jump, a history with a repetition near), and
# positions with multi-jumps (two paths to one result) and kings on both sides.
STATES = [{}, {"fen": "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"}, {"fen": "W:W9,10,11,19,K2:B5,6,13,14,15,22,K31"},
          {"fen": "W:W27,K19:B7,8,14,15,23,24,K30"},
          {"board": ["........", "B.......", "........", "........", ".....W..", "....W...", "........", "......B."],
           "to_move": "w", "history": ["B:WK19,K23:BK1,K32", "W:WK19,K23:BK5,K32", "B:WK23,K24:BK5,K32",
                                       "W:WK23,K24:BK1,K32", "B:WK19,K23:BK1,K32"]},
          {"fen": "B:W6,7,15,23,24:BK10,2"}, {"fen": "B:W14,15,22,23:BK10"}, {"fen": "B:WK19,K23,16:BK1,K32,12"},
          {"fen": "W:WK27,K3:BK14"}]
OPTIONS = [{}, OPENSPIEL_RULE, SHORT_DRAW, {"no_progress_plies": 9, "man_move_resets": False}]


@pytest.fixture(autouse=True)
def checkers_core():
    """Skip (fail under CI) where the built core has no checkers (an older build)."""
    needs_native("checkers")


def start(index=0, options=0):
    return load(STATES[index], **OPTIONS[options])


def fields(state):
    """The Python state's fields that bindings/checkers.cpp's checkers_state reports first."""
    black, white, kings, turn, history, drawn = state
    return black, white, kings, turn, len(history), drawn


def native_of(game, state):
    return tn.checkers_state(game.native_state(state))


def decoded(game, codes):
    return [game.from_native_move(code) for code in codes]


# --- the rules -----------------------------------------------------------------------------------

def test_perft_as_published():
    game, state = start()
    native = game.native_state(state)
    assert [tn.checkers_perft(native, depth) for depth in range(1, 8)] == PUBLISHED


@settings(max_examples=25, deadline=None)
@given(st.integers(0, len(STATES) - 1), st.integers(0, len(OPTIONS) - 1), st.lists(st.integers(0, 99), max_size=60))
def test_perft_from_random_positions(index, options, picks):
    game, state = start(index, options)
    state = equivalence.play_out(game, picks, state)[-1]
    assert tn.checkers_perft(game.native_state(state), 3) == equivalence.python_perft(game, state, 3)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(STATES) - 1), st.integers(0, len(OPTIONS) - 1), st.lists(st.integers(0, 99), max_size=120))
def test_rules_and_knowledge_along_random_games(index, options, picks):
    game, state = start(index, options)
    for state in equivalence.play_out(game, picks, state):
        native = game.native_state(state)
        here = tn.checkers_state(native)
        assert tuple(here[:6]) == fields(state)
        assert tn.checkers_is_terminal(native) == game.is_terminal(state)
        for player in (0, 1):
            assert tn.checkers_evaluate(native, player) == game.evaluate(state, player)
            assert tn.checkers_utility(native, player) == game.utility(state, player)
        assert tn.checkers_plies_bound(native) == game.plies_bound(state)
        assert decoded(game, tn.checkers_actions(native)) == game.actions(state)
        assert decoded(game, tn.checkers_ordered_actions(native)) == game.ordered_actions(state)
        if game.is_terminal(state):
            continue
        for code, move in zip(tn.checkers_actions(native), game.actions(state)):
            child = game.result(state, move)
            assert tn.checkers_result(native, code) == native_of(game, child)   # the tail and key too
            assert tuple(tn.checkers_result(native, code)[:6]) == fields(child)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([7, 8, 4]), st.integers(0, len(OPTIONS) - 1), st.lists(st.integers(0, 3), max_size=60))
def test_keys_tell_apart_what_pythons_keys_tell_apart(index, options, picks):
    """Kings stepping to and fro transpose: two states share a native key exactly where their Python keys
    (position, count and the earlier positions that can come back) are equal."""
    game, state = start(index, options)
    states = equivalence.play_out(game, picks, state)
    keys = [(game.key(s), native_of(game, s)[-1]) for s in states]
    for python_a, native_a in keys:
        for python_b, native_b in keys:
            assert (python_a == python_b) == (native_a == native_b)


def test_multi_jumps_and_their_paths_decode_to_pythons_moves():
    for fen, expected in [("B:W6,7,15,23,24:BK10,2", ["2x9", "2x11x18x27", "10x1", "10x3", "10x19x26", "10x19x28"]),
                          ("W:W9,10,11,19,K2:B5,6,13,14,15,22,K31", ["10x1"])]:
        game, state = load({"fen": fen})
        assert [game.move_to_json(m) for m in decoded(game, tn.checkers_actions(game.native_state(state)))] == expected
    game, state = load({"fen": "B:W14,15,22,23:BK10"})
    moves = [game.move_to_json(m) for m in decoded(game, tn.checkers_actions(game.native_state(state)))]
    assert "10x19x26x17x10" in moves and "10x17x26x19x10" in moves


def test_repetition_draws_as_in_python():
    """The sample whose history holds a position twice over four plies: every line of three plies from it,
    some of which bring a position back a third time, has the same draw flags in both cores."""
    game, state = start(4)
    drawn = 0
    lines = [[state]]
    for _ in range(3):
        lines = [line + [game.result(line[-1], m)] for line in lines if not game.is_terminal(line[-1])
                 for m in game.actions(line[-1])]
    for line in lines:
        native = game.native_state(line[0])
        for before, after in zip(line, line[1:]):
            code = tn.checkers_actions(native)[game.actions(before).index(after_move(game, before, after))]
            assert tn.checkers_result(native, code) == native_of(game, after)
            native = game.native_state(after)
        drawn += line[-1][5] and not game.utility(line[-1], 0)
    assert drawn


def after_move(game, state, child):
    return next(m for m in game.actions(state) if game.result(state, m) == child)


def test_the_two_kings_table_is_pythons():
    assert tn.checkers_kings_table() == checkers_kings.table()


@pytest.mark.parametrize("state", [(1, 2, 0, 0, (), 80), (1, 1, 0, 0, (), 80, True), (1, 2, 4, 0, (), 80, True),
                                   (1, 2, 0, 0, (), 0, True), (1 << 8, 2, 0, 0, (), 80, True),
                                   (1, 2, 0, 0, ((1, 2, 0, 0),), 80, True)])
def test_bad_native_states_are_refused(state):
    with pytest.raises((ValueError, TypeError)):
        tn.checkers_state(state)


def test_an_illegal_move_code_is_refused():
    game, state = start()
    with pytest.raises(ValueError):
        tn.checkers_result(game.native_state(state), 12345)


# --- the searches ---------------------------------------------------------------------------------

def native_search(game, state, algorithm="alphabeta", **settings):
    answer = equivalence.native_search(game, state, algorithm, **settings)
    convert = game.from_native_move
    answer["move"], answer["pv"] = convert(answer["move"]), [convert(m) for m in answer["pv"]]
    answer["moves"] = [(convert(m[0]), *m[1:]) for m in answer["moves"]]
    return answer


SEARCHED = [(index, options) for index in range(len(STATES)) for options in (0, 1)] + [(0, 2), (4, 2), (8, 3)]


@pytest.mark.parametrize("index, options", SEARCHED[::2])
@pytest.mark.parametrize("depth", [1, 3])
def test_minimax(index, options, depth):
    game, state = start(index, options)
    python = minimax.search(game, state, minimax.Settings(depth=depth), deadline=Deadline(None))
    assert_same(native_search(game, state, "minimax", depth=depth), python)


@pytest.mark.parametrize("index, options", SEARCHED)
@pytest.mark.parametrize("depth", [2, 5])
def test_textbook_alphabeta(index, options, depth):
    game, state = start(index, options)
    textbook = alphabeta.Settings(depth=depth, move_ordering=False, transposition_table=False)
    python = alphabeta.search(game, state, textbook, deadline=Deadline(None))
    assert_same(native_search(game, state, depth=depth, move_ordering=False, transposition_table=False), python)


@pytest.mark.parametrize("index, options", SEARCHED)
@pytest.mark.parametrize("depth", [1, 4, 7])
@pytest.mark.parametrize("ordering, table", [(True, True), (True, False), (False, True)])
def test_enhanced_alphabeta(index, options, depth, ordering, table):
    game, state = start(index, options)
    python = alphabeta.search(game, state, alphabeta.Settings(depth=depth, move_ordering=ordering,
                                                              transposition_table=table), deadline=Deadline(None))
    assert_same(native_search(game, state, depth=depth, move_ordering=ordering, transposition_table=table), python)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, len(STATES) - 1), st.integers(0, len(OPTIONS) - 1), st.lists(st.integers(0, 99), max_size=80),
       st.integers(1, 6))
def test_searches_from_random_positions(index, options, picks, depth):
    game, state = start(index, options)
    state = equivalence.play_out(game, picks, state)[-1]
    if game.is_terminal(state):
        return
    python = alphabeta.search(game, state, alphabeta.Settings(depth=depth), deadline=Deadline(None))
    assert_same(native_search(game, state, depth=depth), python)


@pytest.mark.parametrize("index, options", [(0, 0), (1, 1), (4, 0), (8, 2)])
@pytest.mark.parametrize("rollout, iterations", [("random", 300), ("heuristic", 40)])
def test_mcts(index, options, rollout, iterations):
    """Seeded, with an iteration cap: the same tree, so the same visits, values and statistics."""
    game, state = start(index, options)
    settings_ = {"iterations": iterations, "seed": 7, "rollout": rollout}
    python = mcts.search(game, state, mcts.Settings(**settings_), deadline=Deadline(None))
    native = native_search(game, state, "mcts", exploration=math.sqrt(2), **settings_)
    assert (native["move"], native["value"], native["outcome"]) == (python.move, python.value, python.outcome)
    assert [tuple(m) for m in native["moves"]] == [(m.move, m.value, m.bound, m.visits) for m in python.moves]
    assert {key: native["stats"][key] for key in ("nodes", "leaves", "max_depth", "iterations", "stop_reason")} == {
        "nodes": python.stats.nodes, "leaves": python.stats.leaves, "max_depth": python.stats.max_depth,
        "iterations": python.stats.iterations, "stop_reason": python.stats.stop_reason}


def test_long_no_progress_limits_are_left_to_the_python_core():
    """A native state holds at most 128 earlier positions: above that limit the Python core runs."""
    game, state = load({}, no_progress_plies=500)
    why = tn.unfit("checkers", game.native_state(state), "alphabeta", {"tt_max_entries": TT, "depth": 2})
    assert why is not None and "not native yet" in why
    game, state = load({}, no_progress_plies=128)
    assert tn.unfit("checkers", game.native_state(state), "alphabeta", {"tt_max_entries": TT, "depth": 2}) is None


def test_a_timed_search_answers_in_time():
    import time
    game, state = start()
    began = time.perf_counter()
    answer = native_search(game, state, seconds=0.2)
    assert time.perf_counter() - began < 1.0
    assert answer["stats"]["depth_completed"] >= 3 and answer["stats"]["stop_reason"] == "time_limit"
