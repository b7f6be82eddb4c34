"""Go's compiled core (native/src/games/go.hpp) against OpenSpiel's go and hand-built positions.

A native state is engine/games/go's native_state: (size, komi, setup_black, setup_white, move_codes), points
row * size + col with row 0 the bottom row, PASS size * size; OpenSpiel numbers its actions the same way.
OpenSpiel's rules differ in one thing: a move that repeats an earlier whole-board position (other than a
simple ko, which it refuses) is legal there and ends the game as a draw; here positional superko makes it
illegal. Along random games the legal sets are compared with those moves taken out of OpenSpiel's, each
checked to end OpenSpiel's game as a draw, and counted.

The Python engine's go (engine/games/go) is not in this tree yet; its equality with this core is to come.
"""
import random

import pytest

from tests.native.conftest import needs_native

tn = pytest.importorskip("tactician_native")


@pytest.fixture(autouse=True)
def _native():
    needs_native("go")


def state(size, moves=(), black=(), white=(), komi=7.5):
    return (size, komi, tuple(black), tuple(white), tuple(moves))


def spiel_game(size, komi=7.5):
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game("go", {"board_size": size, "komi": komi, "max_game_length": 100 * size * size})


def spiel_board(spiel_state, size):
    """OpenSpiel's board as go_state's: a value a point in code order, 0 empty, 1 Black, 2 White (its
    observation's planes are Black's stones, White's, the empty points and the player to move)."""
    planes = spiel_state.observation_tensor(0)
    points = size * size
    return tuple(1 if planes[p] else 2 if planes[points + p] else 0 for p in range(points))


def area(board, size):
    """Black's area minus White's, Tromp-Taylor, by a flood fill of its own."""
    score, seen = 0, set()
    for p, colour in enumerate(board):
        score += {1: 1, 2: -1}.get(colour, 0)
        if colour or p in seen:
            continue
        region, reach, todo = 0, set(), [p]
        seen.add(p)
        while todo:
            q = todo.pop()
            region += 1
            r, c = divmod(q, size)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < size and 0 <= cc < size:
                    n = rr * size + cc
                    if board[n]:
                        reach.add(board[n])
                    elif n not in seen:
                        seen.add(n)
                        todo.append(n)
        score += region if reach == {1} else -region if reach == {2} else 0
    return score


def superko_draw(spiel_state, move):
    """Whether `move` ends OpenSpiel's game as a draw (its answer to a repeated position)."""
    child = spiel_state.clone()
    child.apply_action(move)
    return child.is_terminal() and child.returns() == [0.0, 0.0]


# --- the rules against OpenSpiel's --------------------------------------------------------------

def compare_along_a_random_game(size, seed):
    """Play a seeded random game on both; the number of OpenSpiel's moves that repeat a position."""
    rng = random.Random(seed)
    komi = rng.choice([7.5, 0.5, 0.0, 6.0]) if size < 19 else 7.5
    theirs = spiel_game(size, komi).new_initial_state()
    moves, superko_moves, captured = [], 0, [0, 0]
    passes = size * size
    while True:
        ours = state(size, moves, komi=komi)
        board, to_move, captures, over = tn.go_state(ours)
        assert board == spiel_board(theirs, size)
        assert over == theirs.is_terminal()
        assert captures == tuple(captured)
        if over:
            break
        assert to_move == theirs.current_player()
        legal = tn.go_actions(ours)
        spiel_legal = theirs.legal_actions()
        assert set(legal) <= set(spiel_legal) and legal == sorted(legal) and legal[-1] == passes
        for move in set(spiel_legal) - set(legal):
            assert superko_draw(theirs, move), move
            superko_moves += 1
        # Play on: stones (the game long enough to fill the board and capture again and again), a pass now
        # and then but never two in a row, until the game is three times the board's size; then two passes.
        stones, passed = legal[:-1], moves[-1:] == [passes]
        pass_now = not stones or len(moves) >= 3 * passes or (not passed and rng.random() < 0.03)
        move = passes if pass_now else rng.choice(stones)
        after = tn.go_result(ours, move)
        theirs.apply_action(move)
        if move != passes:  # the stones OpenSpiel took off
            captured[to_move] += board.count(2 - to_move) - spiel_board(theirs, size).count(2 - to_move)
        moves.append(move)
        assert after == tn.go_state(state(size, moves, komi=komi))
    score = tn.go_score(ours)
    assert score == area(board, size) - komi
    assert [tn.go_utility(ours, p) for p in (0, 1)] == theirs.returns()
    # OpenSpiel's area difference is ours too: the same game with komi half a point under it is Black's,
    # half a point over it White's.
    for half, winner in ((-0.5, [1.0, -1.0]), (0.5, [-1.0, 1.0])):
        replayed = spiel_game(size, score + komi + half).new_initial_state()
        for move in moves:
            replayed.apply_action(move)
        assert replayed.is_terminal() and replayed.returns() == winner
    return superko_moves


@pytest.mark.parametrize("size,seed", [(5, s) for s in range(8)] + [(7, s) for s in range(4)]
                         + [(9, s) for s in range(3)] + [(19, 0)])
def test_rules_along_random_games_equal_openspiels(size, seed):
    compare_along_a_random_game(size, seed)


def test_rules_along_random_games_on_tiny_boards_where_positions_repeat():
    repeats = [compare_along_a_random_game(size, seed) for size in (2, 3) for seed in range(6)]
    assert sum(repeats) > 0  # OpenSpiel's superko draws met, and left out of the comparison


def perft(spiel_state, depth, size):
    """OpenSpiel's move sequences of `depth` plies, less those through a repetition (a draw there)."""
    PASS = size * size
    if depth == 0 or spiel_state.is_terminal():
        return 1
    total = 0
    for move in spiel_state.legal_actions():
        child = spiel_state.clone()
        child.apply_action(move)
        if move == PASS or not superko_draw(spiel_state, move):
            total += perft(child, depth - 1, size)
    return total


@pytest.mark.parametrize("size,seed,plies,depth", [(3, 0, 0, 4), (4, 1, 5, 3), (5, 2, 12, 3), (5, 3, 30, 2),
                                                    (9, 4, 40, 2)])
def test_perft_from_random_positions_equals_openspiels(size, seed, plies, depth):
    rng = random.Random(seed)
    theirs, moves = spiel_game(size, 0.5).new_initial_state(), []
    for _ in range(plies):
        move = rng.choice(tn.go_actions(state(size, moves, komi=0.5))[:-1])
        moves.append(move)
        theirs.apply_action(move)
    assert tn.go_perft(state(size, moves, komi=0.5), depth) == perft(theirs, depth, size)


# --- hand-built positions (5x5; A1 is 0, B1 1, A2 5, ...) ---------------------------------------

PASS5 = 25
# Black B1 A2 B3, White C1 B2 D2 C3: White's B2 has one liberty, C2, where Black takes it; a ko.
KO = {"black": (1, 5, 11), "white": (2, 6, 8, 12)}


def test_ko_the_retake_waits_a_move():
    taken = state(5, [7], **KO)
    assert tn.go_state(taken)[0][6] == 0 and tn.go_state(taken)[2] == (1, 0)
    assert 6 not in tn.go_actions(taken)
    with pytest.raises(ValueError):
        tn.go_result(taken, 6)
    with pytest.raises(ValueError):
        tn.go_state(state(5, [7, 6], **KO))
    later = state(5, [7, 24, 23], **KO)  # a move each elsewhere: the retake no longer repeats a position
    assert 6 in tn.go_actions(later)
    assert tn.go_state(state(5, [7, 24, 23, 6], **KO))[0][7] == 0


# On 2x2 (A1 0, B1 1, A2 2, B2 3, PASS 4): Black A1, White A2, Black B2 (taking A2), White passes, Black
# B1, White A2 (taking Black's three stones): Black's A1 now would bring back the position of the second
# ply, Black A1 and White A2.
SUPERKO = (2, (0, 2, 3, 4, 1, 2))


def test_superko_a_move_that_repeats_an_earlier_position_is_illegal():
    size, moves = SUPERKO
    theirs = spiel_game(size, 0.5).new_initial_state()
    boards = [spiel_board(theirs, size)]
    for move in moves:
        theirs.apply_action(move)
        boards.append(spiel_board(theirs, size))
    ours = state(size, moves, komi=0.5)
    assert 0 in theirs.legal_actions() and superko_draw(theirs, 0)  # not a simple ko: OpenSpiel lets it be
    child = theirs.clone()
    child.apply_action(0)
    earlier = boards.index(spiel_board(child, size))
    assert earlier < len(moves) - 1  # the position of more than two plies ago
    assert 0 not in tn.go_actions(ours)
    with pytest.raises(ValueError):
        tn.go_result(ours, 0)


def test_suicide_is_illegal_and_a_capture_is_not_suicide():
    corner = state(5, [PASS5], black=(5, 1))        # White to move: A1 has only Black's stones around
    assert 0 not in tn.go_actions(corner)
    two = state(5, [PASS5], black=(10, 6, 2), white=(0, 1))  # White's A1 B1 would fill their last liberty A2
    assert 5 not in tn.go_actions(two) and 5 in tn.go_actions(state(5, [], black=(10, 6, 2), white=(0, 1)))
    with pytest.raises(ValueError):
        tn.go_state(state(5, [PASS5, 5], black=(10, 6, 2), white=(0, 1)))
    assert 7 in tn.go_actions(state(5, [], **KO))   # Black's C2: no liberty of its own, but it takes B2


# Black's B1 C1 D1 and White's A2..E2 share the liberties A1 and E1, and neither has an eye: a seki, the
# two points neutral. Black's A3..E3 wall owns the two rows above.
SEKI = {"black": (1, 2, 3, 10, 11, 12, 13, 14), "white": (5, 6, 7, 8, 9)}


def test_seki_its_shared_liberties_score_for_neither():
    seki = state(5, [], komi=0.5, **SEKI)
    assert tn.go_score(seki) == (8 + 10) - 5 - 0.5
    assert tn.go_score(state(5, [PASS5, PASS5], komi=0.5, **SEKI)) == 12.5
    assert tn.go_utility(state(5, [PASS5, PASS5], komi=0.5, **SEKI), 1) == -1.0
    # White filling a shared liberty puts its string in atari; Black's other one takes the six stones.
    board, _, captures, _ = tn.go_state(state(5, [PASS5, 0, 4], komi=0.5, **SEKI))
    assert captures == (6, 0) and board.count(2) == 0


def test_an_exact_draw_with_integer_komi():
    over = state(2, [0, 4, 4])          # Black's A1 owns the 2x2 board: 4 points against komi 4
    assert tn.go_state(over)[3] and tn.go_score((2, 4.0, (), (), (0, 4, 4))) == 0.0
    assert [tn.go_utility((2, 4.0, (), (), (0, 4, 4)), p) for p in (0, 1)] == [0.0, 0.0]
    assert tn.go_actions((2, 4.0, (), (), (0, 4, 4))) == []


@pytest.mark.parametrize("bad", [(1, 7.5, (), (), ()), (20, 7.5, (), (), ()), (5, 7.5, (25,), (), ()),
                                 (5, 7.5, (3,), (3,), ()), (5, 7.5, (0,), (1, 5), ()), (5, 7.5, (), (), (26,)),
                                 (5, 7.5, (), (), (3, 3)), (5, 7.5, (), (), (25, 25, 0)), (5, 7.5, (), ()),
                                 (5, float("nan"), (), (), ()), (5, float("inf"), (), (), ())])
def test_bad_native_states_are_refused(bad):
    with pytest.raises((ValueError, TypeError)):
        tn.go_state(bad)


# --- the playout policy --------------------------------------------------------------------------

def own_eye(board, size, p, colour):
    r, c = divmod(p, size)
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < size and 0 <= cc < size and board[rr * size + cc] != colour:
            return False
    diagonals = [(r + dr, c + dc) for dr in (-1, 1) for dc in (-1, 1)]
    edge = any(not (0 <= rr < size and 0 <= cc < size) for rr, cc in diagonals)
    theirs = sum(board[rr * size + cc] == 3 - colour for rr, cc in diagonals if 0 <= rr < size and 0 <= cc < size)
    return theirs + edge < 2


def python_playout(size, komi, moves, draws):
    """The playout's contract, from the core's legal moves: at each ply, with m empty points, draw k =
    int(u * m) and play the first legal point from the k-th empty one on (round to the first) that is not
    the mover's eye; pass when none. The final utilities, the plies and the draws used."""
    moves, used, plies = list(moves), 0, 0
    while True:
        s = state(size, moves, komi=komi)
        board, to_move, _, over = tn.go_state(s)
        if over:
            break
        empty = [p for p, colour in enumerate(board) if colour == 0]
        move = size * size
        if empty:
            k = int(draws[used] * len(empty))
            used += 1
            legal = set(tn.go_actions(s))
            for p in empty[k:] + empty[:k]:
                if p in legal and not own_eye(board, size, p, to_move + 1):
                    move = p
                    break
        moves.append(move)
        plies += 1
    s = state(size, moves, komi=komi)
    return (tn.go_utility(s, 0), tn.go_utility(s, 1)), plies, used


@pytest.mark.parametrize("size,seed,start", [(5, 0, 0), (5, 1, 7), (7, 2, 10), (9, 3, 0), (9, 4, 25)])
def test_rules_of_the_playout_policy(size, seed, start):
    rng = random.Random(seed)
    moves = []
    for _ in range(start):
        moves.append(rng.choice(tn.go_actions(state(size, moves))[:-1]))
    draws = [rng.random() for _ in range(20 * size * size)]
    assert tn.go_random_playout(state(size, moves), draws) == python_playout(size, 7.5, moves, draws)


def test_the_benchmark_plays_the_playouts_of_its_seed():
    s = state(9, [40, 30])
    assert tn.go_playouts(s, 1, 11) == tn.go_random_playout(s, tn.random_floats(11, 2000))[1]


# --- MCTS ----------------------------------------------------------------------------------------

def mcts(s, seed=1, iterations=2000, **options):
    return tn.search("go", s, "mcts", {"iterations": iterations, "seed": seed, "tt_max_entries": 1_000_000,
                                       "exploration": 1.4, "rollout": "random", **options}, None, tn.Token(), None)


# White filled A1 in the seki, Black to move: Black's E1 takes six stones and the board (25 points);
# otherwise White's E1 takes Black's three (Black 15 to 10) or the game ends as it stands (Black 18 to 6).
# With komi 20.5, E1 is Black's one winning move.
MUST_TAKE = state(5, [PASS5, 0], komi=20.5, **SEKI)


def test_mcts_takes_the_stones_it_must_take():
    assert tn.go_score(state(5, [PASS5, 0, 4, PASS5, PASS5], komi=20.5, **SEKI)) == 4.5
    for seed in range(4):
        answer = mcts(MUST_TAKE, seed)
        assert answer["move"] == 4
        assert answer["stats"]["iterations"] == 2000 and sum(m[3] for m in answer["moves"]) == 2000


def test_rave_finds_the_move_in_fewer_iterations():
    rave = [mcts(MUST_TAKE, seed, 100, rave=True, exploration=0.5)["move"] for seed in range(20)]
    plain = [mcts(MUST_TAKE, seed, 100)["move"] for seed in range(20)]
    assert rave == [4] * 20 and plain.count(4) < 20


def test_rave_is_refused_where_playouts_do_not_tell_their_moves():
    with pytest.raises(ValueError):
        tn.search("connect4", (0, 0), "mcts", {"iterations": 10, "rave": True}, None, tn.Token(), None)
    with pytest.raises(ValueError):
        mcts(MUST_TAKE, rave=True, rave_equivalence=0)


def test_mcts_is_the_same_for_the_same_seed_and_answers_a_legal_move():
    s = state(9, [40, 30, 50])
    one, two = mcts(s, 7, 500), mcts(s, 7, 500)
    assert one == two and one["move"] in tn.go_actions(s)
    assert one["stats"]["nodes"] > 500 * 50   # every playout's plies counted as nodes


def test_a_time_limit_ends_a_19x19_search_and_progress_is_reported():
    s = state(19, [72, 288])
    reports = []
    answer = tn.search("go", s, "mcts", {"seed": 2, "tt_max_entries": 1_000_000}, 0.5, tn.Token(), reports.append)
    assert answer["stats"]["stop_reason"] == "time_limit" and answer["move"] in tn.go_actions(s)
    assert [r["iterations"] for r in reports] == [1024 * (k + 1) for k in range(answer["stats"]["iterations"] // 1024)]


def test_searches_other_than_mcts_are_refused():
    s = state(9)
    assert tn.unfit("go", s, "alphabeta", {}) is not None
    assert tn.unfit("go", s, "mcts", {"rollout": "heuristic"}) is not None
    assert tn.unfit("go", s, "mcts", {"iterations": 10}) is None


# --- the guided playouts (go.hpp's Policy::GUIDED) ------------------------------------------------

DRAWS = [[i / 10] * 8 for i in range(10)]   # ten draws of the same number each: the policy's choices


def guided_moves(s, playout="guided"):
    """The first playout move from `s` under each of DRAWS."""
    return [tn.go_playout_move(s, playout, draws)[0] for draws in DRAWS]


def test_a_string_in_atari_on_the_last_move_is_taken():
    # On 5 x 5, Black C2 B3 D3 around C3, where White has just played: its one liberty is C4.
    assert guided_moves(state(5, [PASS5, 12], black=(7, 11, 13))) == [17] * 10


def test_a_string_put_in_atari_escapes_where_it_gains_liberties():
    # White's D3 (by C2 B3) leaves Black's C3 one liberty, C4, where it gets three.
    assert guided_moves(state(5, [PASS5, 13], black=(12,), white=(7, 11))) == [17] * 10


def test_a_string_in_atari_is_freed_by_taking_a_string_in_atari_next_to_it():
    # White's B2 leaves Black's B1 the liberty C1; White's A1 next to it has one, A2: taking it frees B1.
    assert guided_moves(state(5, [PASS5, 6], black=(1,), white=(0, 7))) == [5] * 10


def test_the_move_after_the_last_completes_a_shape_next_to_it():
    # White's B3 between Black's B4 and D3 and White's C4: C3 cuts (a shape), as other points next to B3 do.
    moves = guided_moves(state(5, [PASS5, 11], black=(16, 13), white=(17,)))
    assert 12 in moves and set(moves) <= {5, 6, 7, 10, 12, 15, 16, 17}


def test_guided_playouts_fill_no_eye_of_their_own():
    # On 3 x 3 Black has all but A1 and C3, its two eyes: it passes.
    assert guided_moves(state(3, black=range(1, 8))) == [9] * 10


def test_guided_playouts_put_no_string_of_three_in_atari():
    # Black B1 C1 under White A2 B2 C2: Black's A1 would leave the three stones one liberty, D1.
    light = [tn.go_playout_move(state(5, black=(1, 2), white=(5, 6, 7)), "light", [i / 25])[0] for i in range(25)]
    guided = [tn.go_playout_move(state(5, black=(1, 2), white=(5, 6, 7)), "guided", [i / 25] * 4)[0]
              for i in range(25)]
    assert 0 in light and 0 not in guided


def test_mcts_with_guided_playouts_takes_the_stones_it_must_take_and_repeats_its_seed():
    for seed in range(4):
        answer = mcts(MUST_TAKE, seed, playout="guided")
        assert answer["move"] == 4 and answer == mcts(MUST_TAKE, seed, playout="guided")


def test_a_playout_policy_other_than_light_and_guided_is_refused():
    assert tn.unfit("go", state(9), "mcts", {"playout": "heavy"}) is not None
    assert tn.unfit("go", state(9), "mcts", {"playout": "guided"}) is None
    with pytest.raises(ValueError):
        tn.go_playouts(state(9), 1, 1, "heavy")
