"""English checkers: the rules against the published perft counts and against OpenSpiel's ``checkers``,
the draws (repetition, the no-progress rule), the JSON states and moves, and the searches on it, including
a check that a repetition draw cannot poison the transposition table."""
import random

import pytest

from bench.checkers import openspiel_moves
from engine.api import apply, legal_moves, load, search
from engine.errors import AlgorithmMismatch, IllegalMove, InvalidState
from engine.games.checkers import GAME_TYPE
from engine.games.checkers.kings import plies_to_win, table
from engine.search.solver import can_solve

PERFT = [7, 49, 302, 1469, 7361, 36768, 179740]  # depths 1-7 from the start (depth 8: 845931, in bench/)
TEXTBOOK = {"name": "alphabeta", "move_ordering": False, "transposition_table": False}


def perft(game, state, depth: int) -> int:
    moves = game.actions(state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.result(state, m), depth - 1) for m in moves)


def play(state_json: dict, *moves: str, **options) -> tuple:
    """``(game, state)`` after ``moves`` (PDN) from ``state_json``."""
    game, state = load("checkers", state_json, **options)
    for move in moves:
        state = game.result(state, game.move_from_json(move, state))
    return game, state


def pdn(game, state) -> list:
    return [game.move_to_json(m) for m in game.actions(state)]


# --- the rules -------------------------------------------------------------------------------------

def test_perft_from_the_start():
    game, state = load("checkers", {})
    assert [perft(game, state, d) for d in range(1, len(PERFT) + 1)] == PERFT


def test_the_start_and_its_moves():
    info = legal_moves("checkers", {})
    assert info["to_move"] == "b"
    assert info["legal_moves"] == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    assert load("checkers", GAME_TYPE.initial_state) == load("checkers", {})


def test_captures_are_forced_and_multi_jumps_completed():
    # Black's man on 2 must jump 7, then 15, then 23; his king on 10 has two paths through 19.
    game, state = load("checkers", {"fen": "B:W6,7,15,23,24:BK10,2"})
    assert pdn(game, state) == ["2x9", "2x11x18x27", "10x1", "10x3", "10x19x26", "10x19x28"]
    with pytest.raises(IllegalMove, match="skips a capture"):
        game.move_from_json("10-14", state)
    with pytest.raises(IllegalMove, match="not a legal move"):
        game.move_from_json("2x11", state)                  # stopping half-way


def test_a_man_crowned_by_a_jump_stops_there():
    # White's man on 10 jumps 6 onto 1 and is crowned; as a king he could jump 5 next, but his move ends.
    game, state = load("checkers", {"fen": "W:W9,10,11,19,K2:B5,6,13,14,15,22,K31"})
    assert pdn(game, state) == ["10x1"]
    after = game.result(state, game.actions(state)[0])
    assert game.state_to_json(after)["board"][0] == ".W.W...."
    assert game.to_move(after) == 0


def test_kings_move_both_ways_and_men_only_forward():
    game, state = load("checkers", {"fen": "B:W32:BK14,9"})
    assert pdn(game, state) == ["9-13", "14-10", "14-17", "14-18"]  # 10 and 13 taken by the other piece
    game, state = load("checkers", {"fen": "W:W18,K15:B1"})
    assert pdn(game, state) == ["15-10", "15-11", "15-19", "18-14"]


def test_capture_paths_to_the_same_result_are_different_moves():
    # Black's king on 10 can run round the square 15 either way, capturing the same four men.
    game, state = load("checkers", {"fen": "B:W14,15,22,23:BK10"})
    moves = pdn(game, state)
    assert "10x19x26x17x10" in moves and "10x17x26x19x10" in moves
    results = {game.result(state, game.move_from_json(m, state)) for m in ("10x19x26x17x10", "10x17x26x19x10")}
    assert len(results) == 1


def test_a_player_who_cannot_move_loses():
    info = legal_moves("checkers", {"fen": "W:W29:B25,K22"})        # White's man on 29 is blocked by 25
    assert info["terminal"] and info["utilities"] == {"b": 1.0, "w": -1.0}
    assert info["result"]["reason"] == "White cannot move"
    info = legal_moves("checkers", {"fen": "W:W:B25"})
    assert info["terminal"] and info["utilities"] == {"b": 1.0, "w": -1.0}
    assert info["result"]["reason"] == "White has no pieces left"


# --- OpenSpiel ---------------------------------------------------------------------------------------

def test_legal_moves_agree_with_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    reference = pyspiel.load_game("checkers")
    rng = random.Random(13)
    positions = 0
    for _ in range(40):
        game, ours = load("checkers", {}, no_progress_plies=1000)
        theirs = reference.new_initial_state()
        while not theirs.is_terminal() and not game.is_terminal(ours):
            expected = openspiel_moves(theirs)
            assert sorted(pdn(game, ours)) == sorted(expected), game.state_to_json(ours)
            positions += 1
            move = rng.choice(game.actions(ours))
            for action in expected[game.move_to_json(move)]:
                theirs.apply_action(action)
            ours = game.result(ours, move)
        # OpenSpiel also draws after 40 plies without a capture, we by repetition; a win is a win for both.
        if theirs.is_terminal() and theirs.returns()[0]:
            assert game.is_terminal(ours) and game.utility(ours, 0) == theirs.returns()[0]
        elif not theirs.is_terminal():
            assert game.utility(ours, 0) == 0.0 and game.state_to_json(ours)["history"]
    assert positions >= 2000


# --- draws -----------------------------------------------------------------------------------------

SHUFFLE = ("1-5", "19-24", "5-1", "24-19")
KINGS = {"fen": "B:WK19,K23:BK1,K32"}


def test_threefold_repetition_draws():
    game, state = play(KINGS, *SHUFFLE, *SHUFFLE[:3])
    assert not game.is_terminal(state)
    state = game.result(state, game.move_from_json(SHUFFLE[3], state))   # the start position, third time
    assert game.is_terminal(state) and game.utility(state, 0) == 0.0
    assert game.end_reason(state) == "threefold repetition"
    # The same board without the history is not over.
    assert not game.is_terminal(load("checkers", {**game.state_to_json(state), "history": []})[1])


def test_the_no_progress_rule_is_a_game_option():
    moves = ("1-5", "19-15", "5-1", "23-19", "1-5")
    game, state = play(KINGS, *moves, no_progress_plies=5)
    assert game.is_terminal(state) and game.utility(state, 1) == 0.0
    assert game.end_reason(state) == "5 plies without a capture or a man's move"
    game, state = play(KINGS, *moves)
    assert not game.is_terminal(state)
    assert len(game.state_to_json(state)["history"]) == 5
    # A man's move or a capture starts the count again.
    game, state = play({"fen": "B:WK19,K23:BK1,K32,12"}, "1-5", "19-24", "12-16")
    assert game.state_to_json(state)["history"] == []


OPENSPIEL_RULE = {"no_progress_plies": 4, "man_move_resets": False}


def test_openspiel_rule_a_mans_move_does_not_start_the_count_again():
    men = {"fen": "B:WK19,K23,30:BK1,K32,12"}
    game, state = play(men, "1-5", "19-24", "12-16", "30-26", **OPENSPIEL_RULE)
    assert game.is_terminal(state) and game.utility(state, 0) == 0.0
    assert game.end_reason(state) == "4 plies without a capture"
    game, state = play(men, "1-5", "19-24", "12-16", **OPENSPIEL_RULE)
    as_json = game.state_to_json(state)
    assert len(as_json["history"]) == 3 and not game.is_terminal(state)
    assert load("checkers", as_json, **OPENSPIEL_RULE)[1] == state                # a man's step in it
    assert as_json["options"] == OPENSPIEL_RULE                       # the state carries its rule (issue 35)
    assert load("checkers", as_json)[1] == state
    bare = {k: v for k, v in as_json.items() if k != "options"}
    with pytest.raises(InvalidState) as caught:                       # not under the default rule
        load("checkers", bare)
    assert "state.history[2]" in caught.value.errors
    # A capture starts it again.
    game, state = play({"fen": "B:WK19,K23,16:BK1,K32,12"}, "1-5", "19-24", "12x19x26", **OPENSPIEL_RULE)
    assert game.state_to_json(state)["history"] == []
    with pytest.raises(AlgorithmMismatch) as caught:
        load("checkers", {}, man_move_resets="no")
    assert "options.man_move_resets" in caught.value.errors


def test_the_table_key_keeps_what_the_future_depends_on():
    """Under OpenSpiel's rule two orders of the same men's moves share a key (the positions before a
    man's move cannot come back); king moves that visit different positions, which could repeat, do not."""
    opening = ("9-13", "24-20", "10-14", "23-19")
    game, one = play({}, *opening, **OPENSPIEL_RULE | {"no_progress_plies": 9})
    _, other = play({}, *opening[2:], *opening[:2], **OPENSPIEL_RULE | {"no_progress_plies": 9})
    assert one[:4] == other[:4] and one[4] != other[4] and game.key(one) == game.key(other) == (*one[:4], 4, ())
    start = {"fen": "B:WK29,K30:BK1,K4"}
    game, one = play(start, "1-5", "29-25", "4-8", "30-26")
    _, other = play(start, "4-8", "30-26", "1-5", "29-25")
    assert one[:4] == other[:4] and game.key(one) != game.key(other)
    men = {"fen": "B:WK29,K30,31:BK1,K4,12"}
    game, a = play(men, "1-5", "29-25", "5-1", "25-29", "12-16", **OPENSPIEL_RULE | {"no_progress_plies": 9})
    _, b = play(men, "4-8", "30-26", "8-4", "26-30", "12-16", **OPENSPIEL_RULE | {"no_progress_plies": 9})
    assert a[4] != b[4] and game.key(a) == game.key(b) == (*a[:4], 5, ())


def test_history_round_trips_and_is_checked():
    game, state = play(KINGS, *SHUFFLE)
    as_json = game.state_to_json(state)
    assert load("checkers", as_json)[1] == state
    assert load("checkers", {"fen": "B:WK19,K23:BK1,K32", "history": as_json["history"]})[1] == state
    with pytest.raises(InvalidState) as caught:                                # a position left out
        load("checkers", dict(as_json, history=[as_json["history"][0]] + as_json["history"][2:]))
    assert "state.history[0]" in caught.value.errors
    with pytest.raises(InvalidState) as caught:                                # not the side to move
        load("checkers", dict(as_json, history=as_json["history"][:3] + ["B:WK23,K24:BK1,K32"]))
    assert "state.history[2]" in caught.value.errors
    with pytest.raises(InvalidState) as caught:
        load("checkers", as_json, no_progress_plies=3)
    assert "state.history" in caught.value.errors


# --- JSON ------------------------------------------------------------------------------------------

def test_fen_and_board_agree():
    fen = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
    game, state = load("checkers", {"fen": fen})
    as_json = game.state_to_json(state)
    assert as_json == {"board": ["........", "........", "...W...b", "....W.b.", "...w...b", "..B...w.",
                                 ".B...w.w", "B......."], "to_move": "b", "history": []}
    assert load("checkers", as_json)[1] == state
    assert load("checkers", {"fen": "B:W21-32:B1-12"})[1] == load("checkers", {})[1]
    assert apply("checkers", {"fen": fen}, "16-19")["state"]["to_move"] == "w"


@pytest.mark.parametrize("state_json, field", [
    ({"board": ["b......."] + ["........"] * 7, "to_move": "w"}, "state.board[0]"),      # a light square
    ({"board": [".b.b.b.b"] + ["........"] * 6 + ["b......."], "to_move": "w"}, "state.board"),  # crowning row
    ({"board": ["........"] * 8, "to_move": "b"}, "state.board"),
    ({"board": ["........"] * 8}, "state.to_move"),
    ({"fen": "B:W18,24:B12,K22,33"}, "state.fen"),
    ({"fen": "B:W18,24:B18"}, "state.fen"),
    ({"fen": "X:W18:B12"}, "state.fen"),
    ({"fen": "B:W1:B12"}, "state.fen"),                                                       # white man on 1
    ({"fen": "B:W:B12"}, "state.fen"),                                        # White moved last, with no pieces?
    ({"fen": "B:W18:B12", "history": "W:W18:B8"}, "state.history"),
    ({"fen": "B:W18:B12", "extra": 1}, "state"),
])
def test_bad_states_name_the_field(state_json, field):
    with pytest.raises(InvalidState) as caught:
        load("checkers", state_json)
    assert field in caught.value.errors


@pytest.mark.parametrize("move, message", [
    ("11_15", "not a move in PDN"), ("11-15-19", "not a move in PDN"), (11, "not a move in PDN"),
    ("11-40", "outside 1-32"), ("11-14", "not a legal move"), ("11x18", "not a jump"),
])
def test_bad_moves(move, message):
    game, state = load("checkers", {})
    with pytest.raises(IllegalMove, match=message):
        game.move_from_json(move, state)


def test_a_jump_may_be_named_by_its_ends_when_unambiguous():
    game, state = load("checkers", {})
    assert game.move_to_json(game.move_from_json("09-13", state)) == "9-13"
    game, state = load("checkers", {"fen": "B:W6,7,15,23,24:BK10,2"})
    assert game.move_to_json(game.move_from_json("2x27", state)) == "2x11x18x27"
    with pytest.raises(IllegalMove, match="ambiguous"):
        game.move_from_json("10x10", load("checkers", {"fen": "B:W14,15,22,23:BK10"})[1])


# --- searches ----------------------------------------------------------------------------------------

def test_declarations_a_multi_jump_is_one_ply_and_the_ply_is_not_in_the_key():
    """The players alternate (a multi-jump is one move, and no one passes), so mate-distance windows
    hold; a king's step adds nothing, so the key does not fix the ply and the exact solver (which stores
    scores counted from its root) stays away."""
    assert GAME_TYPE.alternating and not GAME_TYPE.key_fixes_ply and GAME_TYPE.outcomes
    game, state = load("checkers", {"fen": "B:W6,7,15,23,24:BK10,2"})
    after = game.result(state, game.move_from_json("2x11x18x27", state))
    assert game.to_move(after) == 1 - game.to_move(state)
    assert not can_solve(game)
    game, state = play(KINGS, *SHUFFLE)                      # the start's board after four plies
    assert state[:4] == load("checkers", KINGS)[1][:4] and game.key(state) != game.key(load("checkers", KINGS)[1])


def test_every_algorithm_plays_a_legal_move():
    state = {"fen": "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"}
    legal = legal_moves("checkers", state)["legal_moves"]
    for algorithm in ({"name": "alphabeta"}, {"name": "alphabeta", "depth": 4}, dict(TEXTBOOK, depth=3),
                      {"name": "minimax", "depth": 2}, {"name": "expectimax", "depth": 2},
                      {"name": "maxn", "depth": 2}, {"name": "mcts", "iterations": 30, "seed": 1}):
        assert search("checkers", state, algorithm, time_limit_ms=300).move in legal, algorithm


def test_alphabeta_finds_the_win_of_a_king_against_a_man():
    # White's king on 19 stops Black's man on 21 short of his crown: a win in a few moves.
    result = search("checkers", {"fen": "W:WK19:B21"}, {"name": "alphabeta"}, time_limit_ms=3000)
    assert result.outcome == "win" and result.plies_to_end is not None
    assert result.move in legal_moves("checkers", {"fen": "W:WK19:B21"})["legal_moves"]


def repetition_positions() -> list:
    """King end games a few plies from a repetition draw (the no-progress rule close too), so that
    transpositions with different histories meet inside a search."""
    rng = random.Random(7)
    found = []
    starts = ["B:WK19:BK1", "W:WK18:BK5", "B:WK14:BK30", "W:WK6:BK28"]
    for fen in starts:
        for _ in range(4):
            game, state = load("checkers", {"fen": fen}, no_progress_plies=LIMIT)
            for _ in range(rng.randrange(3, 6)):
                if game.is_terminal(state):
                    break
                state = game.result(state, rng.choice(game.actions(state)))
            if not game.is_terminal(state):
                found.append(game.state_to_json(state))
    return found


LIMIT = 10


def test_repetition_draws_do_not_poison_the_table():
    """The enhanced search (table, ordering, iterative deepening) finds the exact value that the textbook
    search without a table finds, to the end of the game, where repetitions decide."""
    for state in repetition_positions():
        algorithm_options = {"no_progress_plies": LIMIT}
        plain = search("checkers", state, dict(TEXTBOOK, **algorithm_options), time_limit_ms=20000)
        enhanced = search("checkers", state, {"name": "alphabeta", **algorithm_options}, time_limit_ms=20000)
        assert not plain.stats.timed_out and not enhanced.stats.timed_out
        assert enhanced.value == plain.value, state
        assert enhanced.outcome == plain.outcome


def test_a_won_king_ending_is_converted_before_the_draw():
    """Three kings against one, refereed under OpenSpiel's rule (40 plies without a capture draw,
    whatever the men do): alpha-beta at a fixed depth, playing both sides, wins before the count runs
    out."""
    rules = {"no_progress_plies": 40, "man_move_resets": False}
    game, state = load("checkers", {"fen": "B:WK14:BK1,K3,K32"}, **rules)
    for _ in range(40):
        if game.is_terminal(state):
            break
        move = search("checkers", game.state_to_json(state), {"name": "alphabeta", "depth": 6, **rules},
                      time_limit_ms=120000).move
        state = game.result(state, game.move_from_json(move, state))
    assert game.is_terminal(state) and game.utility(state, 0) == 1.0, game.end_reason(state)


def two_kings_win_within(game, state, plies: int) -> bool:
    """The reference for the table: Black's two kings win within ``plies`` against White's lone king, a
    capture of one of them counting as no win (as in the table), by plain recursion over the rules."""
    moves = game.actions(state)
    if state[3] == 1:
        if not moves:
            return True
        if moves[0][2] or not plies:
            return False
        return all(two_kings_win_within(game, game.result(state, m), plies - 1) for m in moves)
    if any(m[2] for m in moves):
        return plies >= 1
    return plies > 1 and any(two_kings_win_within(game, game.result(state, m), plies - 1) for m in moves)


def test_the_two_kings_table_agrees_with_a_plain_search():
    """Short wins are exactly as long as the table says, positions it does not list are not won soon,
    and it reads the same with the colours swapped."""
    rng = random.Random(5)
    won = table()
    short = sorted(p for p, n in won.items() if n <= 5)
    game, _ = load("checkers", {})
    for two, one, turn in rng.sample(short, 40):
        state = (two, one, two | one, turn, (), False)
        n = won[two, one, turn]
        assert two_kings_win_within(game, state, n) and not two_kings_win_within(game, state, n - 1)
        assert plies_to_win(one, two, two | one, 1 - turn) == (1, n)        # the colours swapped
    squares = [1 << (n - 1 + (n - 1) // 8) for n in range(1, 33)]
    unlisted = [(a | b, c, t) for a, b, c in (rng.sample(squares, 3) for _ in range(300)) for t in (0, 1)
                if (a | b, c, t) not in won]
    for two, one, turn in unlisted[:20]:
        assert not two_kings_win_within(game, (two, one, two | one, turn, (), False), 5)
    assert len(won) > 20000 and max(won.values()) < 40


def test_two_kings_beat_one_in_the_double_corner():
    """The lone king in a double corner: alpha-beta at a fixed depth, playing both sides under
    OpenSpiel's rule, wins in the table's number of plies."""
    rules = {"no_progress_plies": 40, "man_move_resets": False}
    game, state = load("checkers", {"fen": "W:WK1:BK14,K23"}, **rules)
    expected = plies_to_win(*state[:4])[1]
    for _ in range(expected):
        move = search("checkers", game.state_to_json(state), {"name": "alphabeta", "depth": 2, **rules},
                      time_limit_ms=120000).move
        state = game.result(state, game.move_from_json(move, state))
    assert game.is_terminal(state) and game.utility(state, 0) == 1.0
