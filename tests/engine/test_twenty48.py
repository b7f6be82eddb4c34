"""2048: the rules (slides, merges, spawns), the chance-node JSON, validation and the evaluation's bounds."""
import random

from hypothesis import assume, given, settings, strategies as st
import pytest

from engine import api
from engine.errors import AlgorithmMismatch, EngineError, IllegalMove, InvalidState
from engine.game import CHANCE

EMPTY = [[0] * 4 for _ in range(4)]


def board(*rows):
    return [list(r) for r in rows] + [[0] * 4 for _ in range(4 - len(rows))]


def after(rows, move):
    """The board after ``move`` and before the new tile."""
    game, state = api.load("2048", {"board": rows})
    return game.state_to_json(game.result(state, game.move_from_json(move, state)))["board"]


def slide_row(row):
    """A plain-list model of a move to the left, written independently of the engine's tables."""
    tiles = [t for t in row if t]
    out = []
    while tiles:
        if len(tiles) > 1 and tiles[0] == tiles[1]:
            out.append(2 * tiles[0])
            tiles = tiles[2:]
        else:
            out.append(tiles.pop(0))
    return out + [0] * (4 - len(out))


@pytest.mark.parametrize("row, expected", [
    ([2, 2, 2, 2], [4, 4, 0, 0]),
    ([4, 4, 8, 0], [8, 8, 0, 0]),      # no double merge: the new 8 does not merge again
    ([2, 0, 0, 2], [4, 0, 0, 0]),
    ([2, 4, 2, 4], [2, 4, 2, 4]),
    ([0, 0, 0, 2], [2, 0, 0, 0]),
    ([8, 8, 8, 0], [16, 8, 0, 0]),     # the pair nearer the wall merges first
    ([16384, 16384, 0, 0], [32768, 0, 0, 0]),
])
def test_left_slides_and_merges(row, expected):
    rows = board(row, [2, 4, 8, 16])
    if expected == row:
        assert "left" not in api.legal_moves("2048", {"board": rows})["legal_moves"]
    else:
        assert after(rows, "left") == board(expected, [2, 4, 8, 16])


def test_every_direction():
    rows = [[2, 2, 0, 4], [0, 0, 0, 4], [0, 2, 0, 8], [2, 0, 0, 8]]
    assert after(rows, "right") == [[0, 0, 4, 4], [0, 0, 0, 4], [0, 0, 2, 8], [0, 0, 2, 8]]
    assert after(rows, "up") == [[4, 4, 0, 8], [0, 0, 0, 16], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert after(rows, "down") == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8], [4, 4, 0, 16]]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0, 0, 0, 2, 4, 8, 16, 2048]), min_size=4, max_size=4),
                min_size=4, max_size=4))
def test_slides_match_a_plain_model(rows):
    assume(any(map(any, rows)))
    transposed = [list(col) for col in zip(*rows)]
    expected = {
        "left": [slide_row(r) for r in rows],
        "right": [slide_row(r[::-1])[::-1] for r in rows],
        "up": [list(c) for c in zip(*[slide_row(col) for col in transposed])],
        "down": [list(c) for c in zip(*[slide_row(col[::-1])[::-1] for col in transposed])],
    }
    game, state = api.load("2048", {"board": rows})
    legal = [m for m in ("up", "down", "left", "right") if expected[m] != rows]
    assert [game.move_to_json(m) for m in game.actions(state)] == legal
    assert game.is_terminal(state) == (not legal)
    for move in legal:
        assert after(rows, move) == expected[move]


def test_afterstate_is_a_chance_node_with_spawn_outcomes():
    game, state = api.load("2048", {"board": board([2, 2, 4, 8], [4, 8, 16, 32], [2, 4, 8, 16],
                                                   [4, 8, 16, 32])})
    afterstate = game.result(state, "left")
    assert game.to_move(afterstate) == CHANCE and not game.is_terminal(afterstate)
    outcomes = game.chance_outcomes(afterstate)
    assert [(game.move_to_json(o), p) for o, p in outcomes] == [
        ({"cell": [0, 3], "tile": 2}, 0.9), ({"cell": [0, 3], "tile": 4}, pytest.approx(0.1))]
    spawned = game.result(afterstate, outcomes[1][0])
    assert game.state_to_json(spawned) == {"board": [[4, 4, 8, 4], [4, 8, 16, 32], [2, 4, 8, 16],
                                                     [4, 8, 16, 32]]}


def test_spawn_probabilities_are_uniform_over_empty_cells_and_sum_to_one():
    game, state = api.load("2048", {"board": board([2, 0, 0, 0], [0, 0, 2, 0])})
    outcomes = game.chance_outcomes(game.result(state, "down"))
    assert len(outcomes) == 2 * 14
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert sorted({p for _, p in outcomes}) == pytest.approx([0.1 / 14, 0.9 / 14])


def test_tile_probabilities_override():
    rows = board([2, 0, 0, 0])
    game, state = api.load("2048", {"board": rows}, tile_probabilities={"2": 0.5, "8": 0.5, "4": 0})
    outcomes = game.chance_outcomes(game.result(state, "right"))
    assert [game.move_to_json(o)["tile"] for o, _ in outcomes[:2]] == [2, 8]
    assert {p for _, p in outcomes} == {0.5 / 15}
    for bad in ({"3": 1.0}, {"2": 0.5}, {"2": 1.5, "4": -0.5}, {"1": 1.0}, {}, {"02": 1.0}, [0.9, 0.1],
                {"65536": 1.0}, {"2": True}):
        with pytest.raises(AlgorithmMismatch) as error:
            api.load("2048", {"board": rows}, tile_probabilities=bad)
        assert "options.tile_probabilities" in error.value.errors


def test_tile_probabilities_reach_the_game_through_search():
    state = {"board": board([2, 0, 0, 0])}
    r = api.search("2048", state, {"name": "expectimax", "depth": 2, "tile_probabilities": {"4": 1.0}})
    assert r.move in ("down", "right")
    with pytest.raises(AlgorithmMismatch):
        api.search("tictactoe", {"board": ["..."] * 3}, {"name": "expectimax", "tile_probabilities": {"2": 1}})


def test_stateless_apply_through_the_chance_state():
    moved = api.apply("2048", {"board": board([2, 2, 0, 0])}, "left")
    assert moved["state"] == {"board": board([4, 0, 0, 0]), "to_move": "chance", "score": 4}
    assert moved["to_move"] == "chance" and len(moved["legal_moves"]) == 30
    spawned = api.apply("2048", moved["state"], {"cell": [3, 3], "tile": 4})
    assert spawned["state"] == {"board": [[4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]], "score": 4}
    assert spawned["to_move"] == "player" and spawned["legal_moves"] == ["up", "down", "left", "right"]
    assert api.legal_moves("2048", {"board": board([2, 2, 0, 0]), "to_move": "player"})["legal_moves"] == [
        "down", "left", "right"]
    for illegal in ({"cell": [0, 0], "tile": 2}, {"cell": [1, 1], "tile": 8}, "up"):
        with pytest.raises(IllegalMove):
            api.apply("2048", moved["state"], illegal)
    with pytest.raises(IllegalMove):
        api.apply("2048", {"board": board([2, 4, 8, 16])}, "up")


@pytest.mark.parametrize("rows, move, points", [
    (board([2, 2, 4, 4], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 2]), "left", 4 + 8 + 4),
    (board([2, 2, 2, 2]), "right", 4 + 4),
    (board([2, 0, 0, 0], [2, 0, 0, 0], [4, 0, 0, 0], [4, 0, 0, 0]), "up", 4 + 8),
    (board([4, 4, 8, 0]), "left", 8),                     # the new 8 does not merge again
    (board([2, 4, 8, 16]), "down", 0),
])
def test_apply_carries_the_game_s_score_forward(rows, move, points):
    """Issue 50 item 6: the state carries the game's score (each merge scores the tile it makes)."""
    assert api.apply("2048", {"board": rows}, move)["state"]["score"] == points
    assert api.apply("2048", {"board": rows, "score": 100}, move)["state"]["score"] == 100 + points
    game, state = api.load("2048", {"board": rows, "score": 100})
    assert (game, state) == api.load("2048", {"board": rows})  # the search does not read the score


def test_a_line_of_moves_and_tiles_adds_up_its_score():
    answer = api.apply("2048", {"board": board([2, 2, 4, 4]), "score": 20},
                       moves_json=["left", {"cell": [1, 1], "tile": 4}, "left"])
    assert answer["state"] == {"board": board([4, 8, 0, 0], [4, 0, 0, 0]), "to_move": "chance", "score": 32}


def test_game_over_is_terminal_and_worse_than_any_live_board():
    over = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    info = api.legal_moves("2048", {"board": over})
    assert info["terminal"] and info["legal_moves"] == [] and info["to_move"] is None
    assert 0.0 <= info["utilities"]["player"] < 0.5
    game, state = api.load("2048", {"board": over})
    assert game.evaluate(state, 0) == game.utility(state, 0)


@pytest.mark.parametrize("state, field", [
    ({"board": [[0] * 4] * 3}, "state.board"),
    ({"board": [[0] * 4, [0] * 3, [0] * 4, [0] * 4]}, "state.board[1]"),
    ({"board": [[0] * 4, [0] * 4, [0, 0, 3, 0], [0] * 4]}, "state.board[2][2]"),
    ({"board": [[0] * 4, [0, 1, 0, 0], [0] * 4, [0] * 4]}, "state.board[1][1]"),
    ({"board": [[0] * 4, [0] * 4, [0] * 4, [0, 0, 0, 65536]]}, "state.board[3][3]"),
    ({"board": [[0] * 4, [0] * 4, [0] * 4, [0, 0, 0, True]]}, "state.board[3][3]"),
    ({"board": [[0] * 4, [0] * 4, [0] * 4, [0, 0, 0, 2.5]]}, "state.board[3][3]"),
    ({"board": EMPTY}, "state.board"),
    ({"board": board([2, 0, 0, 0]), "to_move": "MAX"}, "state.to_move"),
    ({"board": [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]], "to_move": "chance"}, "state.board"),
    ({"board": board([2, 0, 0, 0]), "points": 3}, "state"),
    ({"board": board([2, 0, 0, 0]), "score": -4}, "state.score"),
    ({"board": board([2, 0, 0, 0]), "score": 2.5}, "state.score"),
    ({"board": board([2, 0, 0, 0]), "score": True}, "state.score"),
    ({"board": board([2, 0, 0, 0]), "score": 2 ** 31}, "state.score"),
])
def test_invalid_states_name_the_field(state, field):
    with pytest.raises(InvalidState) as error:
        api.load("2048", state)
    assert field in error.value.errors


def test_a_cell_of_2_0_is_the_integer_2():
    """JSON's 2.0 is an integer, as it is in every other integer field (issue 17)."""
    assert api.load("2048", {"board": board([2.0, 4.0, 0.0, 0])}) == api.load("2048", {"board": board([2, 4, 0, 0])})


def test_evaluation_and_utility_stay_within_the_bounds():
    rng = random.Random(7)
    game, state = api.load("2048", {"board": board([2, 0, 0, 0])})
    lo, hi = game.utility_bounds
    for _ in range(2000):
        s = sum(rng.choice([0, 0, 1, 2, 3, 11, 15]) << (4 * i) for i in range(16)) or 1
        for t in (s, game.result(s, game.actions(s)[0]) if not game.is_terminal(s) else s):
            value = game.utility(t, 0) if game.is_terminal(t) else game.evaluate(t, 0)
            assert lo <= value <= hi
            assert (value < 0.5) == game.is_terminal(t)


def test_random_games_end_and_keep_the_tile_sum_growing():
    rng = random.Random(1)
    game, state = api.load("2048", api.describe_game("2048")["initial_state"])
    total, plies = 4, 0
    while not game.is_terminal(state):
        if game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            outcome = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            total += game.move_to_json(outcome)["tile"]
            state = game.result(state, outcome)
        else:
            state = game.result(state, rng.choice(game.actions(state)))
        plies += 1
        assert sum(map(sum, game.state_to_json(state)["board"])) == total
    assert plies > 20


def test_description_is_consistent():
    d = api.describe_game("2048")
    assert d["id"] == "2048" and d["players"] == ["player"] and d["algorithms"] == ["expectimax", "maxn", "mcts", "auto"]
    game, state = api.load("2048", d["initial_state"])
    assert sum(cell != 0 for row in d["initial_state"]["board"] for cell in row) == 2
    assert game.actions(state)
    r = api.search(d["example_request"]["game"], d["example_request"]["state"],
                   d["example_request"]["algorithm"], d["example_request"]["time_limit_ms"])
    assert r.move in ("up", "down", "left", "right")


def test_minimax_refuses_the_chance_game():
    with pytest.raises(EngineError):
        api.search("2048", {"board": board([2, 2])}, {"name": "alphabeta", "depth": 2})
