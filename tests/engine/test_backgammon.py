"""Backgammon: the rules against OpenSpiel's and against a brute force, the notation, the scoring, and
expectimax with Star1 and Star2 against plain expectiminimax."""
import math
import random
import re

from hypothesis import given, settings, strategies as st
import pytest

from engine import api
from engine.deadline import Deadline
from engine.errors import IllegalMove, InvalidState
from engine.game import CHANCE, MOVE_ORDERING
from engine.games.backgammon import GAME, plays
from engine.search import expectimax
from bench.spiel_backgammon import spiel_dice, spiel_position, turn_ends
from tests.engine import reference_chance as reference
from tests.engine.strategies_chance import chance_trees

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
CLOSE = {"rel_tol": 1e-9, "abs_tol": 1e-9}


def state(points, to_move="X", dice=None, bar=(0, 0), off=None):
    """A JSON state; ``off`` defaults to whatever makes 15 checkers a side. O needs a checker somewhere
    (else it has won): a board without O gets them all on the board's point 13, out of the way."""
    if not any(n < 0 for n in points) and not bar[1] and off is None:
        points = list(points)
        points[12] = -15
    if off is None:
        x = sum(n for n in points if n > 0) + bar[0]
        o = -sum(n for n in points if n < 0) + bar[1]
        off = (15 - x, 15 - o)
    return {"points": points, "bar": {"X": bar[0], "O": bar[1]}, "off": {"X": off[0], "O": off[1]},
            "to_move": to_move, "dice": dice}


def legal(json_state):
    return api.legal_moves("backgammon", json_state)["legal_moves"]


def after(json_state, move):
    return api.apply("backgammon", json_state, move)["state"]


# --- the rules by hand --------------------------------------------------------------------------------

def test_the_start_is_a_chance_node_of_21_rolls():
    game, s = api.load("backgammon", {})
    assert game.to_move(s) == CHANCE
    outcomes = game.chance_outcomes(s)
    assert len(outcomes) == 21 and math.isclose(sum(p for _, p in outcomes), 1.0)
    probs = {game.move_to_json(o): p for o, p in outcomes}
    assert probs["6-6"] == pytest.approx(1 / 36) and probs["6-5"] == pytest.approx(2 / 36)
    rolled = after({}, "5-6")
    assert rolled["dice"] == [6, 5] and rolled["points"] == START and rolled["to_move"] == "X"


def test_opening_plays_and_notation():
    moves = legal(state(START, dice=[3, 1]))
    assert "8/5 6/5" in moves and len(moves) == 16
    child = after(state(START, dice=[6, 5]), "24/18 18/13")
    assert child["points"][23] == 1 and child["points"][12] == 6 and child["to_move"] == "O"
    assert child["dice"] is None
    # O's notation counts from O's side: its 24-point is the board's point 1.
    o_child = after(state(START, to_move="O", dice=[6, 5]), "24/13")
    assert o_child["points"][0] == -1 and o_child["points"][11] == -6


def test_every_spelling_of_a_play_is_the_same_move():
    s = state(START, dice=[6, 5])
    target = after(s, "24/18 18/13")
    for spelling in ("18/13 24/18", "24/13", "24/18/13", " 24/18   18/13 "):
        assert after(s, spelling) == target
    doubles = state(START, dice=[2, 2])
    assert after(doubles, "13/11(2) 6/4(2)") == after(doubles, "6/4 13/11 6/4 13/11")
    for wrong in ("24/17", "24/18", "13/11 13/11", "8/2 8/2", "bar/22", "25/20", "24/18 18/13 13/7", "off",
                  "24/18* 18/13", "24/13*", "24/18/13*"):           # a false hit mark (issue 35)
        with pytest.raises(IllegalMove):
            after(s, wrong)


def test_bar_entry_comes_first_and_hits_are_marked():
    points = [0] * 24
    points[0], points[5], points[12], points[20] = 2, 5, 5, -1    # an O blot on the board's point 21
    s = state(points, dice=[4, 1], bar=(1, 0))
    moves = legal(s)
    assert all(m.startswith("bar/") for m in moves) and "bar/21* 21/20" in moves and "bar/24 13/9" in moves
    hit = after(s, "bar/21 21/20")
    assert hit["bar"] == {"X": 0, "O": 1} and hit["points"][19] == 1 and hit["points"][20] == 0


def test_a_closed_board_means_a_pass():
    points = [0] * 24
    for i in range(18, 24):
        points[i] = -2                     # O holds its whole home board: X on the bar cannot enter
    points[5] = 13
    s = state(points, dice=[6, 5], bar=(1, 0))
    assert legal(s) == ["pass"]
    child = after(s, "pass")
    assert child["to_move"] == "O" and child["points"] == points and child["dice"] is None


def one_checker_each_die():
    """X: one checker on 24, blocked for a 6 and a 5 (O holds the board's 18 and 19), one on 10, 13 off.
    From 10 either die plays (10/4, 10/5), but then neither the other die from there (bearing off needs
    every checker home) nor anything from 24."""
    points = [0] * 24
    points[23], points[9] = 1, 1
    points[17], points[18] = -2, -2
    return points


def test_the_larger_die_when_only_one_can_be_used():
    assert legal(state(one_checker_each_die(), dice=[6, 5])) == ["10/4"]
    assert legal(state(one_checker_each_die(), dice=[5, 4])) != ["10/5"]   # 24/20 then 20/15: both dice


def test_both_dice_when_possible():
    moves = legal(state(one_checker_each_die(), dice=[6, 3]))
    assert moves and all(len(m.split()) == 2 for m in moves) and "10/4 4/1" in moves


def test_bearing_off():
    points = [0] * 24
    points[1], points[3] = 1, 1            # X on 2 and 4, 13 off
    assert legal(state(points, dice=[6, 5])) == ["4/off 2/off"]   # a higher die, from the highest point
    points = [0] * 24
    points[5], points[0] = 1, 1            # X on 6 and 1: a 5 cannot bear off the 1 while 6 is occupied
    assert legal(state(points, dice=[5, 2])) == ["6/1 1/off"]
    points = [0] * 24
    points[7], points[0] = 1, 1            # a checker on 8, outside: 1/off only once it is home
    assert set(legal(state(points, dice=[6, 1]))) == {"8/2 2/1", "8/2 1/off"}


@pytest.mark.parametrize("x_off, o_bar, o_points, expected", [
    (14, 0, {5: -2}, 1),        # O has borne off: a single game (o off set below)
    (14, 0, {12: -15}, 2),      # O has borne off nothing: a gammon
    (14, 0, {3: -1, 12: -14}, 3),   # and still has a checker in X's home board: a backgammon
    (14, 1, {12: -14}, 3),      # or on the bar
])
def test_single_gammon_backgammon(x_off, o_bar, o_points, expected):
    points = [0] * 24
    points[0] = 1
    for i, n in o_points.items():
        points[i] = n
    o_on_board = -sum(o_points.values()) + o_bar
    s = state(points, dice=[2, 1], bar=(0, o_bar), off=(x_off, 15 - o_on_board))
    end = api.apply("backgammon", s, "1/off")
    assert end["terminal"] and end["utilities"] == {"X": float(expected), "O": float(-expected)}


def test_state_validation():
    for bad, field in [({"points": START[:23]}, "state.points"),
                       ({"points": [16] + [0] * 22 + [-15]}, "state.points[0]"),
                       ({"points": [[2, -1]] + START[1:]}, "state.points[0]"),
                       ({"points": START, "bar": {"X": 1, "O": 0}}, "state.points"),
                       ({"dice": [0, 3]}, "state.dice[0]"), ({"dice": [3, 7]}, "state.dice[1]"),
                       ({"dice": [3]}, "state.dice"), ({"to_move": "Y"}, "state.to_move"),
                       ({"off": {"X": 15, "O": 15}, "points": [0] * 24}, "state.off"),
                       ({"board": []}, "state")]:
        with pytest.raises(InvalidState) as error:
            api.load("backgammon", bad)
        assert field in error.value.errors, (bad, error.value.errors)
    with pytest.raises(IllegalMove):
        api.apply("backgammon", {}, "24/18 13/11")        # dice null: a roll is expected
    with pytest.raises(IllegalMove):
        api.apply("backgammon", {"dice": [3, 1]}, "24/16")


def test_json_round_trip_and_keys():
    game, s = api.load("backgammon", state(START, to_move="O", dice=[1, 4]))
    again = api.load("backgammon", game.state_to_json(s))[1]
    assert again == s and game.state_to_json(s)["dice"] == [4, 1]


# --- against independent rules ---------------------------------------------------------------------------

def brute_force_positions(board, a, b):
    """Distinct positions after X plays ``a`` and ``b`` from ``board`` (signed, index i = point i + 1),
    with no checker on the bar and none able to bear off (the opening): single-checker steps in both
    orders, both dice whenever any order allows it."""
    def moves(bd, die):
        for i in range(24):
            j = i - die
            if bd[i] > 0 and j >= 0 and bd[j] >= -1:
                nb = list(bd)
                nb[i] -= 1
                nb[j] = 1 if nb[j] == -1 else nb[j] + 1   # a hit blot would go to O's bar
                yield tuple(nb), nb[j] == 1 and bd[j] == -1
    two = set()
    for first, second in ((a, b), (b, a)):
        for mid, hit1 in moves(board, first):
            for end, hit2 in moves(mid, second):
                two.add((end, hit1 + hit2))
    if two:
        return {end for end, _ in two}
    return None


def test_opening_counts_match_a_brute_force():
    game = GAME
    _, s = api.load("backgammon", {})
    for roll in game.actions(s):
        if roll[0] == roll[1]:
            continue
        n = len(game.actions(game.result(s, roll)))
        expected = brute_force_positions(tuple(START), *roll)
        assert n == len(expected), roll


def test_plays_match_openspiel():
    """Every turn of random OpenSpiel games: the positions our plays reach are the positions OpenSpiel's
    action sequences (it splits doubles into two actions) reach by the end of the turn."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(2024)
    spiel_game = pyspiel.load_game("backgammon")
    seen = {"positions": 0, "bar": 0, "partial": 0, "one_die": 0, "bear_off": 0, "pass": 0}
    while seen["positions"] < 2000:
        s = spiel_game.new_initial_state()
        fresh = False
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
                fresh = True
                continue
            if fresh:
                compare(s, seen)
                fresh = False
            s.apply_action(rng.choice(s.legal_actions()))
    assert min(seen.values()) >= 5, seen


def compare(s, seen):
    player = s.current_player()
    x, o = spiel_position(s)
    assert [x[24 - p] for p in range(24)] == [s.board(0, p) for p in range(24)]   # the decoding, checked
    assert [o[p + 1] for p in range(24)] == [s.board(1, p) for p in range(24)]
    assert (x[0], o[0]) == tuple(map(int, re.search(r"Scores, X: (\d+), O: (\d+)", str(s)).groups()))
    dice = spiel_dice(s)
    me, op = (x, o) if player == 0 else (o, x)
    ours = plays(me, op, dice)
    theirs = {}
    turn_ends(s, player, theirs)
    assert {(m, q) if player == 0 else (q, m) for m, q, _ in ours} == set(theirs), (player, dice, x, o)
    seen["positions"] += 1
    seen["bar"] += me[25] > 0
    used = len(ours[0][2])
    seen["pass"] += used == 0
    seen["partial"] += 0 < used < (4 if dice[0] == dice[1] else 2)
    seen["one_die"] += used == 1 and dice[0] != dice[1]
    seen["bear_off"] += any(to == 0 for _, _, parts in ours for _, to, _ in parts)


# --- expectimax: Star1 and Star2 against plain expectiminimax --------------------------------------------

def search(game, s, **settings_):
    return expectimax.search(game, s, expectimax.Settings(**settings_), deadline=Deadline())


@settings(max_examples=80, deadline=None)
@given(chance_trees(with_eval=True), st.sampled_from([None, 1, 2, 3]))
def test_star2_equals_plain_expectiminimax_on_trees(tree, depth):
    """The tree game, told that it orders its moves (natural order), so that Star2 probes."""
    game, s = api.load("tree", tree)
    game.capabilities = game.capabilities | {MOVE_ORDERING}
    expected = reference.expectimax(tree, "minimax", depth=depth)
    plain = search(game, s, opponent_model="minimax", pruning=False, forward_pruning=0, depth=depth)
    star2 = search(game, s, opponent_model="minimax", forward_pruning=0, depth=depth)
    assert plain.value == expected
    assert math.isclose(star2.value, expected, **CLOSE)
    exact = {m.move: m.value for m in plain.moves}
    for m in star2.moves:
        truth = exact[m.move]
        assert {"exact": math.isclose(truth, m.value, **CLOSE), "upper": truth <= m.value + 1e-9,
                "lower": truth >= m.value - 1e-9}[m.bound]


def test_a_star2_probe_settles_a_chance_node():
    """After the first move's 5, each of the second move's outcomes leads to a MIN node whose first
    child is 0: the probes bound the chance node by 0 < 5 before either MIN node is searched. Star1
    alone cannot cut the first MIN node (the other outcome might be worth 100) and searches it whole."""
    def min_node(*leaves):
        return {"type": "min", "children": [{"value": v} for v in leaves]}
    tree = {"root": {"type": "max", "children": [
        {"type": "chance", "children": [dict(min_node(5, 6), p=0.5), dict(min_node(5, 7), p=0.5)]},
        {"type": "chance", "children": [dict(min_node(0, 90, 100), p=0.5), dict(min_node(0, 100), p=0.5)]}]}}
    game, s = api.load("tree", tree)
    star1 = search(game, s, forward_pruning=0)
    game.capabilities = game.capabilities | {MOVE_ORDERING}
    star2 = search(game, s, forward_pruning=0)
    assert star1.value == star2.value == 5.0
    assert star2.stats.nodes < star1.stats.nodes


def small_positions():
    """Positions of one to three checkers a side anywhere on the board (the rest borne off), so that
    plain expectiminimax to depth 3 stays quick; X to move with a roll."""
    def build(xs, os, dice):
        points = [0] * 24
        for p in xs:
            points[p] += 1
        for p in os:
            if points[p] <= 0:
                points[p] -= 1
        return state(points, dice=list(dice))
    spots = st.integers(0, 23)
    return st.builds(build, st.lists(spots, min_size=1, max_size=3), st.lists(spots, min_size=1, max_size=3),
                     st.tuples(st.integers(1, 6), st.integers(1, 6)))


@settings(max_examples=12, deadline=None)
@given(small_positions())
def test_star1_and_star2_equal_plain_expectiminimax_on_backgammon(json_state):
    game, s = api.load("backgammon", json_state)
    if game.is_terminal(s):
        return
    plain = search(game, s, depth=3, pruning=False, forward_pruning=0)
    pruned = search(game, s, depth=3, forward_pruning=0)
    assert math.isclose(pruned.value, plain.value, **CLOSE)


def positions_of_random_games(seed: int, count: int, on_board: int) -> list:
    """Player nodes with a choice of plays from random games (random rolls, random plays), each taken
    when at most ``on_board`` checkers of both sides are left on the board or the bar: one a game."""
    from engine.games.backgammon import ROLLS
    rng, found = random.Random(seed), []
    while len(found) < count:
        _, s = api.load("backgammon", {})
        while not GAME.is_terminal(s):
            if s[3] is None:
                s = GAME.result(s, rng.choices(ROLLS, [p for _, p in GAME.chance_outcomes(s)])[0])
                continue
            if sum(s[0][1:]) + sum(s[1][1:]) <= on_board and len(GAME.actions(s)) > 1:
                found.append(s)
                break
            s = GAME.result(s, rng.choice(GAME.actions(s)))
    return found


def test_star1_alone_and_with_star2_equal_plain_expectiminimax_on_positions_of_random_games():
    """Positions reached by random play (contact or race, 20 checkers or fewer left on the board), three
    plies deep with every play searched (no forward pruning): Star1 alone (the game without its move
    ordering, so nothing is probed), Star1 with Star2 probing, and the unpruned search give each root play
    the same value (or a bound on the right side of it, for a play that cannot be the best)."""
    import copy
    star1_game = copy.copy(GAME)
    star1_game.capabilities = GAME.capabilities - {MOVE_ORDERING}
    for s in positions_of_random_games(5, 6, 20):
        plain = search(GAME, s, depth=3, pruning=False, forward_pruning=0)
        exact = {m.move: m.value for m in plain.moves}
        for game in (star1_game, GAME):
            pruned = search(game, s, depth=3, forward_pruning=0)
            assert math.isclose(pruned.value, plain.value, **CLOSE) and exact[pruned.move] == pytest.approx(
                plain.value, abs=1e-9)
            for m in pruned.moves:
                truth = exact[m.move]
                assert {"exact": math.isclose(truth, m.value, **CLOSE), "upper": truth <= m.value + 1e-9,
                        "lower": truth >= m.value - 1e-9}[m.bound]


def test_forward_pruning_is_a_validated_setting():
    from engine.errors import AlgorithmMismatch
    for bad in (-1, 1.5, True, 1001):
        with pytest.raises(AlgorithmMismatch) as error:
            expectimax.Settings(forward_pruning=bad)
        assert "algorithm.forward_pruning" in error.value.errors
    r = api.search("backgammon", state(START, dice=[3, 1]), {"name": "expectimax", "depth": 3,
                                                              "forward_pruning": 2})
    assert len(r.moves) == 2 and r.stats.depth_completed == 3


def test_one_ply_picks_the_best_evaluated_play_and_makes_the_five_point():
    r = api.search("backgammon", state(START, dice=[3, 1]), {"name": "expectimax", "depth": 1})
    assert r.move == "8/5 6/5" and -3 < r.value < 3 and r.perspective == "X"


def test_a_linear_search_s_certainty_equivalent_is_its_value():
    """Backgammon's bounds are (-3, 3): a linear search's values are points, not points / 3."""
    r = api.search("backgammon", state(START, dice=[3, 1]), {"name": "expectimax", "depth": 1})
    assert r.certainty_equivalent == r.value and all(m.certainty_equivalent == m.value for m in r.moves)
