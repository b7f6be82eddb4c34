"""Othello: the rules against the published perft counts and OpenSpiel, the declarations that keep the
searches correct with passes, the evaluation's contract, and the endgame solver against a plain one."""
import random

import pytest

from engine import api
from engine.deadline import Deadline
from engine.errors import IllegalMove, InvalidState
from engine.games import othello
from engine.games.othello import GAME, PASS, initial_state, load
from engine.games.othello.board import final_score
from engine.result import EXACT, Stats
from engine.search.solver import can_solve

# Perft from the start, a forced pass counting as one ply (depths 1-7).
PERFT = [4, 12, 56, 244, 1396, 8200, 55092]

# Black to move has no square: "pass" is the only move, after which White has g8 and h8.
BLACK_PASSES = {"board": ["WWWWWWWW", "WWWWWWWW", "WWWWWWWW", "WWWWWWWW", "WWWWWWWW", "WWWWWWWW",
                          "WWWWWWBB", "WWWWWW.."], "to_move": "B"}


def perft(state, depth: int) -> int:
    """Leaves ``depth`` plies below ``state`` through ``actions`` and ``result`` (a pass is a ply; a game
    that ends sooner has no leaf there); the last ply is counted, not played."""
    moves = GAME.actions(state)
    if depth == 1:
        return len(moves)
    return sum(perft(GAME.result(state, m), depth - 1) for m in moves)


def random_state(rng, empties: int):
    """A position with ``empties`` empty squares reached by uniformly random play, not over."""
    while True:
        state = initial_state()
        while not GAME.is_terminal(state) and 64 - (state[0] | state[1]).bit_count() > empties:
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not GAME.is_terminal(state) and 64 - (state[0] | state[1]).bit_count() == empties:
            return state


@pytest.mark.parametrize("depth", range(1, len(PERFT) + 1))
def test_perft_from_the_start(depth):
    assert perft(initial_state(), depth) == PERFT[depth - 1]


def test_the_start_and_its_moves():
    game, state = load({})
    assert game.state_to_json(state) == othello.GAME_TYPE.initial_state
    assert [game.move_to_json(m) for m in game.actions(state)] == ["d3", "c4", "f5", "e6"]
    child = api.apply("othello", {}, "d3")
    assert child["state"]["board"][2:5] == ["...B....", "...BB...", "...BW..."]
    assert child["to_move"] == "W" and child["legal_moves"] == ["c3", "e3", "c5"]


def test_a_forced_pass_is_a_ply_and_the_only_move():
    game, state = load(BLACK_PASSES)
    assert game.actions(state) == [PASS] and game.move_to_json(PASS) == "pass"
    passed = game.result(state, PASS)
    assert game.to_move(passed) == 1 and game.key(passed) != game.key(state)
    assert [game.move_to_json(m) for m in game.actions(passed)] == ["g8", "h8"]
    assert api.legal_moves("othello", BLACK_PASSES)["legal_moves"] == ["pass"]
    with pytest.raises(IllegalMove) as e:
        game.move_from_json("pass", load({})[1])
    assert "may not pass" in str(e.value) and e.value.errors.keys() == {"move"}


def test_the_game_ends_when_neither_can_move():
    """h8 is empty but brackets nothing for either side: the game is over, and empty squares go to the
    winner in the final disc difference."""
    over = {"board": ["WWWWWWWW"] * 7 + ["BBBBBBB."], "to_move": "B"}
    info = api.legal_moves("othello", over)
    assert info["terminal"] and info["legal_moves"] == [] and info["utilities"] == {"B": -1.0, "W": 1.0}
    game, state = load(over)
    assert final_score(state[0], state[1]) == 7 - 56 - 1 and game.plies_bound(state) == 0


def test_declarations_keep_the_searches_correct():
    """A pass is a ply of its own, so the players alternate; it adds no disc, so the key does not fix the
    ply, and the win/draw/loss solver (whose table and windows assume both) stays off."""
    t = othello.GAME_TYPE
    assert t.alternating and not t.key_fixes_ply and t.outcomes
    assert not can_solve(GAME)


@pytest.mark.parametrize("bad, field", [
    ({"board": ["........"] * 8, "to_move": "B"}, "state.board"),
    ({"board": ["........"] * 7, "to_move": "B"}, "state.board"),
    ({"board": ["........"] * 3 + ["...WB..."] + ["...BW...."] + ["........"] * 3, "to_move": "B"},
     "state.board[4]"),
    ({"board": ["........"] * 3 + ["...WB..."] + ["...BX..."] + ["........"] * 3, "to_move": "B"},
     "state.board[4]"),
    ({"board": ["........"] * 3 + ["...WB..."] + ["...B...."] + ["........"] * 3, "to_move": "B"},
     "state.board"),
    ({"board": othello.GAME_TYPE.initial_state["board"], "to_move": "X"}, "state.to_move"),
    ({"to_move": None}, "state.to_move"),                          # issue 34: null was taken as Black
    ({"board": othello.GAME_TYPE.initial_state["board"], "to_move": None}, "state.to_move"),
    ({"board": othello.GAME_TYPE.initial_state["board"]}, "state.to_move"),
    ({"to_move": "W"}, "state.to_move"),
    ({"moves": "d3"}, "state"),
])
def test_bad_states_name_their_field(bad, field):
    with pytest.raises(InvalidState) as e:
        load(bad)
    assert list(e.value.errors) == [field]


@pytest.mark.parametrize("move", ["d9", "i3", "D3", "", 19, None, "d4", "a1"])
def test_bad_moves_name_the_move(move):
    with pytest.raises(IllegalMove) as e:
        api.apply("othello", {}, move)
    assert list(e.value.errors) == ["move"]


def test_legal_moves_boards_and_results_agree_with_openspiel():
    """Random games played in lockstep with OpenSpiel's othello: the same legal moves (passes included),
    the same board after every move, the same end and winner, over a few thousand positions."""
    pyspiel = pytest.importorskip("pyspiel")
    from bench.othello_reference import board_of
    spiel = pyspiel.load_game("othello")
    rng = random.Random(13)
    positions = 0
    while positions < 3000:
        ours, theirs = initial_state(), spiel.new_initial_state()
        while not theirs.is_terminal():
            assert not GAME.is_terminal(ours)
            moves = GAME.actions(ours)
            assert moves == theirs.legal_actions()
            assert GAME.to_move(ours) == theirs.current_player()
            assert GAME.state_to_json(ours)["board"] == board_of(theirs)
            move = rng.choice(moves)
            ours, positions = GAME.result(ours, move), positions + 1
            theirs.apply_action(move)
        assert GAME.is_terminal(ours)
        assert GAME.utilities(ours) == tuple(theirs.returns())


def test_random_playout_plays_as_actions_and_result():
    rng = random.Random(5)
    for seed in range(20):
        state = random_state(rng, rng.randrange(0, 50))
        draws = random.Random(seed)
        utilities, plies = GAME.random_playout(state, draws.random)
        draws, s, n = random.Random(seed), state, 0
        while not GAME.is_terminal(s):
            moves = GAME.actions(s)
            s, n = GAME.result(s, moves[int(draws.random() * len(moves))]), n + 1
        assert (utilities, plies) == (GAME.utilities(s), n)


def test_evaluation_is_inside_the_outcomes_and_zero_sum():
    rng = random.Random(7)
    for _ in range(200):
        state = random_state(rng, rng.randrange(1, 59))
        value = GAME.evaluate(state, 0)
        assert -1 < value < 1 and GAME.evaluate(state, 1) == -value
        assert sorted(GAME.ordered_actions(state)) == sorted(GAME.actions(state))


def test_endgame_solver_agrees_with_a_plain_solver():
    """Positions with 8 empty squares from random play: the solver's disc difference, with and without
    its ordering and table, is the plain alpha-beta's on OpenSpiel's rules; its line reaches that score."""
    pyspiel = pytest.importorskip("pyspiel")
    from bench.othello_reference import solve
    spiel = pyspiel.load_game("othello")
    rng = random.Random(11)
    for _ in range(6):
        ours, theirs = initial_state(), spiel.new_initial_state()
        while 64 - (ours[0] | ours[1]).bit_count() > 8 or GAME.is_terminal(ours):
            if GAME.is_terminal(ours):
                ours, theirs = initial_state(), spiel.new_initial_state()
                continue
            move = rng.choice(GAME.actions(ours))
            ours = GAME.result(ours, move)
            theirs.apply_action(move)
        expected = solve(theirs)
        for ordering, capacity in ((True, 1000), (False, 0)):
            solution = GAME.solve_endgame(ours, Deadline(), ordering, capacity, Stats())
            assert solution.score == expected
        end = ours
        for move in solution.pv:
            end = GAME.result(end, move)
        assert GAME.is_terminal(end)
        sign = 1 if (len(solution.pv) % 2 == 0) else -1           # the root mover is to move again if even
        assert sign * final_score(end[0], end[1]) == expected
        assert solution.moves[0][1:] == (expected, EXACT)
        assert all(score <= expected for _, score, _ in solution.moves)


def test_a_solved_position_reports_the_disc_difference():
    """Through the API: alphabeta without a depth gives the position to the endgame solver, whose value is
    the final disc difference for the player to move, with the outcome and the plies of its line."""
    state = {"board": ["WWWWWWWW", "WBBBBBWW", "WBWBWWBW", "WBBWBWBW", "WBWBBBWW", "WBBBWB..",
                       "W.BBBB..", "WWWWWW.W"], "to_move": "B"}
    result = api.search("othello", state, {"name": "alphabeta"}, 5000)
    game, s = load(state)
    solution = GAME.solve_endgame(s, Deadline(), True, 1000, Stats())
    assert result.value == solution.score and result.value % 2 == 0 and abs(result.value) > 1
    assert result.outcome == ("win" if result.value > 0 else "loss")
    assert result.plies_to_end == len(result.pv) and result.stats.stop_reason == "solved"
    assert result.move == result.pv[0] and result.move in api.legal_moves("othello", state)["legal_moves"]


@pytest.mark.parametrize("core", ["python", "native"])
def test_solve_gives_the_endgame_solver_the_whole_time(core):
    """``solve`` applies to Othello too: its own endgame solver takes the whole time limit."""
    from engine.search import native
    if core not in native.game_cores(othello.GAME_TYPE):
        pytest.skip("the compiled core is not built")
    state = othello.GAME_TYPE.sample_states[2]                           # 12 empty squares
    result = api.search("othello", state, {"name": "alphabeta", "solve": True, "core": core}, 20_000)
    _, s = load(state)
    assert result.stats.stop_reason == "solved" and result.stats.core == core
    assert result.value == GAME.solve_endgame(s, Deadline(), True, 1000, Stats()).score


def test_the_solver_passes_at_the_root():
    """Black passes; White then wins every square, by h8 at once or by g8, a pass and h8."""
    result = api.search("othello", BLACK_PASSES, {"name": "alphabeta"}, 5000)
    assert result.move == "pass" and result.pv[0] == "pass"
    assert result.value == -64 and result.outcome == "loss" and result.plies_to_end in (2, 4)


def test_beyond_the_solver_s_reach_alphabeta_deepens_with_the_heuristic():
    result = api.search("othello", {}, {"name": "alphabeta"}, 300)
    assert result.outcome is None and -1 < result.value < 1 and result.stats.depth_completed >= 2


def positions_with_passes(count: int, plies: int) -> list:
    """Random positions (seeded) with a pass within ``plies`` plies along some line."""
    def has_pass(state, depth):
        if depth == 0 or GAME.is_terminal(state):
            return False
        return any(m == PASS or has_pass(GAME.result(state, m), depth - 1) for m in GAME.actions(state))
    rng, found = random.Random(3), []
    while len(found) < count:
        state = random_state(rng, rng.randrange(6, 20))
        if has_pass(state, plies):
            found.append(state)
    return found


def test_passes_keep_depth_limited_searches_exact():
    """Below a pass the searches stay correct: the principal-variation search (table, ordering, null
    windows) and the textbook alpha-beta value positions whose lines pass exactly as minimax does."""
    from engine.search import alphabeta, minimax
    for state in positions_with_passes(4, 3):
        expected = minimax.search(GAME, state, minimax.Settings(depth=3), deadline=Deadline()).value
        for settings in (alphabeta.Settings(depth=3),
                         alphabeta.Settings(depth=3, move_ordering=False, transposition_table=False)):
            assert alphabeta.search(GAME, state, settings, deadline=Deadline()).value == expected


@pytest.mark.parametrize("algorithm", [
    {"name": "alphabeta", "depth": 3}, {"name": "minimax", "depth": 2}, {"name": "expectimax", "depth": 2},
    {"name": "maxn", "depth": 2}, {"name": "mcts", "iterations": 200, "seed": 1}])
def test_every_algorithm_applies(algorithm):
    assert "othello" in [g["id"] for g in api.describe_games()]
    assert algorithm["name"] in api.describe_game("othello")["algorithms"]
    result = api.search("othello", {}, algorithm, 5000)
    assert result.move in ("d3", "c4", "f5", "e6")


def test_stable_discs_are_sound():
    """Corners and the edge runs they anchor are stable, a disc that can still be turned over is not; on
    a full board every disc is."""
    from engine.games.othello.evaluation import full_lines, stable_discs
    _, state = load({"board": ["BBB..W..", "B.......", "........", "...WB...", "...BW...", "........",
                               "........", "........"], "to_move": "W"})
    black = state[1]
    stable = stable_discs(black, full_lines(state[0] | state[1]))
    assert stable == (1 << 0 | 1 << 1 | 1 << 2 | 1 << 8)        # a1, b1, c1, a2; not d5 or e4
    _, full = load({"board": ["BW" * 4, "WB" * 4] * 4, "to_move": "B"})
    assert stable_discs(full[0], full_lines(full[0] | full[1])) == full[0]


def plain_solve(state) -> int:
    """The final disc difference with perfect play for the player to move (empty squares to the winner):
    plain negamax over ``actions`` and ``result``, no pruning, no ordering, no table."""
    if GAME.is_terminal(state):
        return final_score(state[0], state[1])
    return max(-plain_solve(GAME.result(state, m)) for m in GAME.actions(state))


SOLVING_PATHS = {
    "alphabeta (the endgame solver first)": {"name": "alphabeta"},
    "alphabeta with a depth (the heuristic deepening proves it)": {"name": "alphabeta", "depth": 30},
    "textbook alphabeta to the end": {"name": "alphabeta", "move_ordering": False, "transposition_table": False},
    "minimax to the end": {"name": "minimax"},
    "mcts solver": {"name": "mcts", "iterations": 200_000, "seed": 3},
    "auto": {"name": "auto"},
}


@pytest.mark.parametrize("path", SOLVING_PATHS)
def test_every_path_that_proves_a_result_reports_the_disc_difference(path):
    """Near-end positions (6 empty squares, random play): whichever search proves the result, the answer
    has the final disc difference for the player to move as its value (the plain solver's), the outcome
    of its sign, and a perfect line of ``plies_to_end`` plies that ends the game at that score."""
    rng = random.Random(29)
    for _ in range(3):
        state = random_state(rng, 6)
        expected = plain_solve(state)
        result = api.search("othello", GAME.state_to_json(state), SOLVING_PATHS[path], 20_000)
        assert result.outcome == ("win" if expected > 0 else "loss" if expected < 0 else "draw")
        assert result.value == expected
        assert result.plies_to_end == len(result.pv)
        end = state
        for move in result.pv:
            end = GAME.result(end, GAME.move_from_json(move, end))
        assert GAME.is_terminal(end)
        mover_at_end = state[2] ^ (len(result.pv) & 1)
        assert final_score(end[0], end[1]) * (1 if mover_at_end == state[2] else -1) == expected


def test_a_heuristic_proof_after_the_solver_ran_out_is_scored_too(monkeypatch):
    """The default search's solver phase gives up (as when its share of the time passes): the heuristic
    deepening proves the result on the win/loss scale, and the answer still carries the disc difference."""
    from engine.search import pvs
    monkeypatch.setattr(pvs, "endgame_solve", lambda *args: None)
    rng = random.Random(31)
    for _ in range(3):
        state = random_state(rng, 8)
        result = api.search("othello", GAME.state_to_json(state), {"name": "alphabeta", "forced_move_search": True,
                                                                     "core": "python"},
                            20_000)  # a forced move is searched too: the proof, not the 50 ms answer, is tested
        expected = plain_solve(state)
        assert result.value == expected and result.outcome is not None and result.plies_to_end == len(result.pv)


def test_a_proof_the_solver_cannot_score_in_time_reports_no_outcome():
    """When no time is left to score a proven result, the answer drops ``outcome`` and ``plies_to_end``
    rather than report a result whose value is not the disc difference."""
    from engine.result import SearchResult
    from engine.search.endgame import scored_outcome
    state = random_state(random.Random(5), 8)
    proven = SearchResult(move=GAME.actions(state)[0], value=1.0, perspective="B", outcome="win", plies_to_end=9)
    expired = Deadline(0.0)
    answer = scored_outcome(GAME, state, proven, expired, True, 1000)
    assert answer.outcome is None and answer.plies_to_end is None and answer.value == 1.0
