"""Chess's compiled core (native/src/games/chess.hpp) against the Python reference (engine/games/chess/
and the searches of engine/search/): perft counts as published and as python-chess counts them, the same
rules and knowledge along random games (states, legal moves in order, ordering, noisy moves and their
gains and exchanges, evaluation, null moves, repetitions and the fifty-move rule), and the same searches at fixed depths.

Build the module first (see native/) and put it on the path: ``PYTHONPATH=build/dev``.
"""
from functools import partial

import chess
from hypothesis import given, settings, strategies as st
import pytest

from engine.deadline import Deadline, Timeout
from engine.games.chess import GAME, notation
from engine.games.chess.position import (BOARD, CHECK, CLOCK, EG, EP, HISTORY, MG, PHASE, PLY, REPEATS, RIGHTS,
                                         STATUS, THREEFOLD, FIFTY_MOVES, passed)
from engine.search import alphabeta, minimax

from tests.native import equivalence
from tests.native.conftest import needs_native
from tests.native.equivalence import TT, assert_same

tn = pytest.importorskip("tactician_native")


@pytest.fixture(autouse=True)
def chess_core():
    """Skip (fail under CI) where the built core has no chess (an older build)."""
    needs_native("chess")

START = chess.STARTING_FEN
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
# The counts published by the Chess Programming Wiki ("Perft Results").
PUBLISHED = [(START, [20, 400, 8902, 197281, 4865609]), (KIWIPETE, [48, 2039, 97862, 4085603]),
             (POSITION_3, [14, 191, 2812, 43238, 674624]), (POSITION_4, [6, 264, 9467, 422333]),
             (POSITION_5, [44, 1486, 62379, 2103487]), (POSITION_6, [46, 2079, 89890, 3894594])]
FENS = [START, KIWIPETE, POSITION_3, POSITION_4, POSITION_5, POSITION_6,
        "8/P1k5/K7/8/8/8/6p1/8 w - - 0 1",                  # promotions on both sides
        "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",                # en passant at once
        "8/8/3k4/8/8/3K4/8/2B1B3 w - - 0 1",                # bishops of one colour: insufficient soon
        "4k3/8/2n5/8/8/8/8/2B1KB2 w - - 0 1",               # drawish material (drawish.py): two bishops
        "4k3/8/2b5/8/8/8/4P3/4K2R b - - 0 1",               #   against a knight; a rook and a pawn
        "4k3/3p4/8/8/3NN3/8/8/4K3 w - - 0 1"]               #   against a bishop; two knights


def state_of(fen):
    return notation.from_board(chess.Board(fen))


def fields(state):
    """position.py's fields that bindings/chess.cpp's chess_state reports, in its order."""
    return (state[BOARD], state[RIGHTS], state[EP], state[CLOCK], state[PLY], len(state[HISTORY]), state[CHECK],
            state[STATUS], state[REPEATS], state[MG], state[EG], state[PHASE])


def native_fields(native_state):
    return tuple(tn.chess_state(native_state)[:-1])          # (without the native key)


def play_out(fen, choices):
    return equivalence.play_out(GAME, choices, state_of(fen))


native_search = partial(equivalence.native_search, GAME)


# --- the rules -----------------------------------------------------------------------------------

@pytest.mark.parametrize("fen, counts", PUBLISHED)
def test_perft_as_published(fen, counts):
    native = GAME.native_state(state_of(fen))
    for depth, count in enumerate(counts, 1):
        assert tn.chess_perft(native, depth) == count


def python_chess_perft(board, depth):
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(FENS), st.lists(st.integers(0, 500), max_size=40))
def test_perft_as_python_chess_counts(fen, choices):
    state = play_out(fen, choices)[-1]
    board = notation.to_board(state)
    assert tn.chess_perft(GAME.native_state(state), 2) == python_chess_perft(board, 2)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FENS), st.lists(st.integers(0, 500), max_size=80))
def test_rules_and_knowledge_along_random_games(fen, choices):
    for state in play_out(fen, choices):
        native = GAME.native_state(state)
        assert native_fields(native) == fields(state)
        for player in (0, 1):
            assert tn.chess_evaluate(native, player) == GAME.evaluate(state, player)
            assert tn.chess_utility(native, player) == GAME.utility(state, player)
        if GAME.is_terminal(state):
            continue
        assert tn.chess_actions(native) == GAME.actions(state)
        assert tn.chess_ordered_actions(native) == GAME.ordered_actions(state)
        assert tn.chess_noisy_actions(native) == [tuple(n) for n in GAME.noisy_actions(state)]
        assert tn.chess_ordered_and_noisy_actions(native) == (tn.chess_ordered_actions(native),
                                                               tn.chess_noisy_actions(native))
        for _, a in GAME.noisy_actions(state):
            assert tn.chess_exchange(native, a) == GAME.exchange(state, a)
        for a in GAME.actions(state):
            assert tuple(tn.chess_result(native, a)[:-1]) == fields(GAME.result(state, a))
            assert tn.chess_forcing_move(native, a) == GAME.result(state, a)[CHECK]
        python_null = GAME.null_move(state)
        native_null = tn.chess_null_move(native)
        assert (native_null is None) == (python_null is None)
        if python_null is not None:
            assert tuple(native_null[:-1]) == fields(python_null)


# Checks that only special moves give: en passant opening the rank to a rook, castling's rook, a knight's
# promotion, and a discovered check by a knight.
SPECIAL_CHECKS = ["8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1", "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
                  "8/1P6/2k5/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1"]


def test_a_move_gives_check_when_its_result_is_in_check():
    """forcing_move (futility's test of the moves it would skip, without making them) against the check of
    each move's result, two plies deep from the perft positions and the special checks."""
    checks = 0
    for fen in [fen for fen, _ in PUBLISHED] + SPECIAL_CHECKS:
        level = [state_of(fen)]
        for _ in range(2):
            after = []
            for state in level:
                native = GAME.native_state(state)
                for a in GAME.actions(state):
                    child = GAME.result(state, a)
                    assert tn.chess_forcing_move(native, a) == child[CHECK], (fen, a)
                    checks += child[CHECK]
                    after.append(child)
            level = [state for state in after if not GAME.is_terminal(state)]
    assert checks > 100


def test_threefold_repetition_and_its_history():
    """Knights out and back twice: the start position a third time is a draw; the counts on the way."""
    state = state_of(START)
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]:
        state = GAME.result(state, notation.parse_move(uci, state))
        assert native_fields(GAME.native_state(state)) == fields(state)
    assert state[STATUS] == THREEFOLD and tn.chess_state(GAME.native_state(state))[7] == THREEFOLD


def test_fifty_move_rule():
    state = state_of("8/8/3k4/8/8/3K4/8/R7 w - - 98 80")
    for uci in ["a1a2", "d6d5"]:
        state = GAME.result(state, notation.parse_move(uci, state))
        assert native_fields(GAME.native_state(state)) == fields(state)
    assert state[STATUS] == FIFTY_MOVES


def test_the_key_follows_the_history():
    """Keys differ where only the history does (position.py's key), as the clock alone does too."""
    a = state_of(START)
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        a = GAME.result(a, notation.parse_move(uci, a))
    b = state_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3")
    assert tn.chess_state(GAME.native_state(a))[:4] == tn.chess_state(GAME.native_state(b))[:4]
    assert tn.chess_state(GAME.native_state(a))[-1] != tn.chess_state(GAME.native_state(b))[-1]
    c = passed(passed(b))
    assert tn.chess_state(GAME.native_state(c))[-1] != tn.chess_state(GAME.native_state(b))[-1]


@pytest.mark.parametrize("state", [("x" * 120, 0, 0, 0, 0, ()), ("",), (state_of(START)[BOARD], 16, 0, 0, 0, ())])
def test_bad_native_states_are_refused(state):
    with pytest.raises((ValueError, TypeError)):
        tn.chess_state(state)


# --- the searches ---------------------------------------------------------------------------------

SEARCHED = [START, KIWIPETE, POSITION_3, POSITION_4, POSITION_5, POSITION_6,
            "8/P1k5/K7/8/8/8/6p1/8 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",   # mate in one
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"]                                  # back-rank mate


@pytest.mark.parametrize("fen", SEARCHED[:4])
@pytest.mark.parametrize("depth", [1, 2])
def test_minimax(fen, depth):
    state = state_of(fen)
    python = minimax.search(GAME, state, minimax.Settings(depth=depth), deadline=Deadline(None))
    assert_same(native_search(state, "minimax", depth=depth), python)


@pytest.mark.parametrize("fen", SEARCHED)
@pytest.mark.parametrize("depth", [1, 3])
def test_textbook_alphabeta(fen, depth):
    state = state_of(fen)
    textbook = alphabeta.Settings(depth=depth, move_ordering=False, transposition_table=False)
    python = alphabeta.search(GAME, state, textbook, deadline=Deadline(None))
    assert_same(native_search(state, depth=depth, move_ordering=False, transposition_table=False), python)


@pytest.mark.parametrize("fen, depth", [(fen, depth) for fen in SEARCHED for depth in (1, 3)]
                         + [(START, 4), (POSITION_3, 5), (SEARCHED[-1], 4)])
@pytest.mark.parametrize("ordering, table", [(True, True), (True, False), (False, True)])
def test_enhanced_alphabeta(fen, depth, ordering, table):
    """pvs.py's enhanced search with chess's knowledge (quiescence, check extensions, null moves, late-move
    reductions, repetitions, aspiration windows): the same answer and node counts."""
    state = state_of(fen)
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth, move_ordering=ordering,
                                                              transposition_table=table), deadline=Deadline(None))
    assert_same(native_search(state, depth=depth, move_ordering=ordering, transposition_table=table), python)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(FENS), st.lists(st.integers(0, 500), max_size=60), st.integers(1, 4))
def test_searches_from_random_positions(fen, choices, depth):
    state = play_out(fen, choices)[-1]
    if GAME.is_terminal(state):
        return
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=depth), deadline=Deadline(None))
    assert_same(native_search(state, depth=depth), python)


def shared_bratko_kopec() -> dict:
    """The shared Bratko-Kopec positions (../shared/data/chess/bratko_kopec.epd) by id; empty when absent."""
    from bench.chess import data_dir, read_epd
    path = data_dir() / "bratko_kopec.epd"
    return {name: fen for fen, _, name in read_epd(path)} if path.is_file() else {}


@pytest.mark.parametrize("name", ["BK.01", "BK.06", "BK.08", "BK.14", "BK.16", "BK.23"])
def test_six_plies_from_bratko_kopec_positions(name):
    """Deeper than the searches above, where every pruning and ordering step of the enhanced search has
    its turn many times over (2,500-12,000 nodes each): the same answers and node counts on both cores."""
    fen = shared_bratko_kopec().get(name)
    if fen is None:
        pytest.skip("the shared Bratko-Kopec positions are not here")
    state = state_of(fen)
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=6), deadline=Deadline(None))
    assert_same(native_search(state, depth=6), python)


def test_repetitions_below_the_root_are_draws_as_in_python():
    """Knights out and back: the start position twice in the history, and lines that repeat it score 0
    in both cores."""
    state = state_of(START)
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        state = GAME.result(state, notation.parse_move(uci, state))
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=4), deadline=Deadline(None))
    assert_same(native_search(state, depth=4), python)


def test_the_mate_search_without_a_depth_limit():
    """No depth limit: the mate search proves the back-rank mate, as Python's does (times differ, so the
    node counts may too)."""
    state = state_of("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    python = alphabeta.search(GAME, state, alphabeta.Settings(), deadline=Deadline(5.0))
    native = native_search(state, seconds=5.0)
    assert (native["move"], native["value"], native["outcome"], native["plies_to_end"], native["pv"]) == (
        python.move, python.value, python.outcome, python.plies_to_end, python.pv)
    assert native["stats"]["stop_reason"] == python.stats.stop_reason == "solved"


@pytest.mark.parametrize("algorithm, settings", [("mcts", {}), ("minimax", {"depth": None}),
                                                 ("alphabeta", {"depth": None, "move_ordering": False,
                                                                "transposition_table": False})])
def test_searches_left_to_the_python_core(algorithm, settings):
    """MCTS, and the depth-first searches without a depth (their first line runs to the game's end)."""
    why = tn.unfit("chess", GAME.native_state(state_of(START)), algorithm, {"tt_max_entries": TT, **settings})
    assert why is not None and "not native yet" in why


def test_depth_first_searches_with_a_depth_run_natively():
    for algorithm, limits in [("minimax", {"depth": 2}), ("alphabeta", {"depth": 2, "move_ordering": False})]:
        assert tn.unfit("chess", GAME.native_state(state_of(START)), algorithm, {"tt_max_entries": TT, **limits}) is None


def test_a_timed_search_answers_in_time():
    """A game without a bound on its length: the search's tables grow with the plies it reaches (a table
    sized for MAX_ID_DEPTH plies once took 3 s before the first node). Generous slack for a loaded machine."""
    import time
    start = time.perf_counter()
    answer = native_search(state_of(START), seconds=0.2)
    assert time.perf_counter() - start < 1.0
    assert answer["stats"]["depth_completed"] >= 3 and answer["stats"]["stop_reason"] == "time_limit"


class StopAtNativePoll(Deadline):
    """A deadline that expires once the deepening has reported depth ``depth``, and stops the Python core
    where the compiled core, its token cancelled then, stops: at its next poll, every Budget::CHECK_EVERY
    (256) nodes, where Python polls every Deadline.CHECK_EVERY (16). No table: the compiled one also
    polls as it grows."""

    NATIVE_CHECK_EVERY = 256

    def __init__(self, depth):
        super().__init__(None, self.heard)
        self.depth, self.reported, self.at = depth, None, None

    def heard(self, progress):
        if progress.depth == self.depth:
            self.reported = progress
            self.at = progress.nodes + 2              # the next pass's own node is counted without a poll

    def check_room(self, seconds, nodes=0):
        if self.at is None:
            return
        self.at += -self.at % Deadline.CHECK_EVERY   # the node of this poll
        polled, self.at = self.at, self.at + 1
        if polled % self.NATIVE_CHECK_EVERY == 0:
            raise Timeout


def test_a_pass_the_deadline_stops_plays_the_better_move_it_found_as_python():
    """The deadline stops the second pass after it found a better move than the first pass's: both cores
    play it, with its deeper value and line, and report the first pass as the depth completed."""
    state = state_of("4r1k1/p4ppp/8/8/8/8/P4PPP/3R2K1 w - - 0 1")
    deadline = StopAtNativePoll(1)
    python = alphabeta.search(GAME, state, alphabeta.Settings(depth=8, transposition_table=False), deadline=deadline)
    token = tn.Token()
    native = tn.search("chess", GAME.native_state(state), "alphabeta",
                       {"tt_max_entries": TT, "depth": 8, "transposition_table": False}, None, token,
                       lambda report: token.cancel() if report["depth"] == 1 else None)
    assert_same(native, python)
    assert python.stats.timed_out and python.stats.depth_completed == 1
    assert python.move != deadline.reported.move and python.pv[0] == python.move
    assert python.value == next(m.value for m in python.moves if m.move == python.move)
