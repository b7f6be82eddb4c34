"""Go's rules on hand-built positions (ko, superko, suicide, seki, dame, handicap stones, scoring), its
state and SGF forms, its playout policy and its bounds."""
import random
import time

from hypothesis import given, settings, strategies as st
import pytest

import engine.api
from engine.errors import IllegalMove, InvalidState
from engine.games.go import BOARD, CAPTURES, MOVES, game_of, load
from engine.games.go.board import BLACK, EMPTY, parse_vertex, play, rows, vertex
from engine.games.go.load import handicap_points
from engine.games.go.playout import diagonals, is_eye
from engine.games.go import scoring

# Black takes a ko at C3 (capturing B3); White may not take back at B3 at once.
KO = ["A3", "B3", "B4", "C4", "B2", "C2", "pass", "D3", "C3"]
# On 2 x 2 the position after move 2 comes back if Black plays B2: a repetition longer than a ko.
SUPERKO = ["B2", "B1", "A1", "pass", "A2", "B1"]


def loaded(moves, size=5, komi=0.5, **more):
    return load({"size": size, "komi": komi, "moves": moves, **more})


def refusal(state_json):
    with pytest.raises(InvalidState) as caught:
        load(state_json)
    return caught.value.errors


def test_a_ko_cannot_be_retaken_at_once_and_the_refusal_names_the_move_it_repeats():
    game, state = loaded(KO)
    assert state[CAPTURES] == (1, 0)
    assert parse_vertex("B3", 5) not in game.actions(state)
    errors = refusal({"size": 5, "komi": 0.5, "moves": KO + ["B3"]})
    assert errors == {"state.moves[9]": ["B3 would recreate the position after move 8 (D3 by W): positional "
                                         "superko forbids it"]}
    # After a move elsewhere by each side, the ko may be taken back.
    game, state = loaded(KO + ["E5", "E1", "B3"])
    assert state[CAPTURES] == (1, 1)


def test_positional_superko_refuses_a_longer_repetition_that_openspiel_ends_as_a_draw():
    game, state = loaded(SUPERKO, size=2)
    b2 = parse_vertex("B2", 2)
    assert b2 not in game.actions(state)
    with pytest.raises(IllegalMove, match=r"the position after move 2 \(B1 by W\)"):
        game.move_from_json("B2", state)
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("go", {"board_size": 2, "komi": 0.5}).new_initial_state()
    for move in state[MOVES]:
        spiel.apply_action(move)
    assert b2 in spiel.legal_actions()
    spiel.apply_action(b2)
    assert spiel.is_terminal() and spiel.returns() == [0.0, 0.0]


def test_suicide_is_illegal_unless_the_play_captures():
    errors = refusal({"size": 5, "moves": ["C3", "A2", "D3", "B1", "A1"]})
    assert errors == {"state.moves[4]": ["A1 would be suicide for B: its group would have no liberty and it "
                                         "captures nothing"]}
    # The same point is legal where it takes the last liberty of a white stone first.
    game, state = loaded(["B2", "A2", "C1", "B1", "A3", "pass", "A1"])
    assert rows(state[BOARD], 5)[-3:] == ["X....", ".X...", "X.X.."] and state[CAPTURES] == (2, 0)


def test_a_region_reaching_both_colours_counts_for_neither():
    """Two walls and the empty column between them: the column is nobody's, and with a whole-number komi
    of 0 the game is a draw, "0"."""
    setup = {"black": [f"B{r}" for r in range(1, 6)], "white": [f"D{r}" for r in range(1, 6)]}
    game, state = load({"size": 5, "komi": 0, "setup": setup, "moves": ["pass", "pass"]})
    assert scoring.owners(state[BOARD], 5)[:5] == [1, 1, 0, -1, -1]
    assert game.is_terminal(state) and game.utilities(state) == (0.0, 0.0)
    assert game.result_extras(state) == {"score": "0"}
    game, state = load({"size": 5, "komi": 0.5, "setup": setup, "moves": ["pass", "pass"]})
    assert game.result_extras(state) == {"score": "W+0.5"} and game.utilities(state) == (-1.0, 1.0)


# A seki in the corner of 5 x 5: White's A2-A3 and Black's B1-C1, each walled in by the other's outer stones,
# share their only liberties A1 and B2; whoever fills one puts its own group in atari.
SEKI = {"black": ["A4", "B4", "C4", "B3", "C3", "B1", "C1"], "white": ["C2", "D2", "D1", "D3", "A2", "A3"]}


def test_a_seki_s_shared_liberties_count_for_neither_and_filling_one_loses_the_group():
    game, state = load({"size": 5, "komi": 0.5, "setup": SEKI, "moves": ["pass", "pass"]})
    owners = scoring.owners(state[BOARD], 5)
    assert owners[parse_vertex("A1", 5)] == owners[parse_vertex("B2", 5)] == 0
    assert game.result_extras(state) == {"score": "B+0.5"}          # seven stones to six, the rest dame
    game, state = load({"size": 5, "komi": 0.5, "setup": SEKI, "moves": ["A1", "B2"]})   # legal, and fatal
    assert state[CAPTURES] == (0, 3) and rows(state[BOARD], 5)[-1] == "...O."


def test_scores_are_written_as_sgf_writes_them():
    assert [scoring.result_text(x) for x in (3.5, -0.5, 0.0, 12.0, -7.0)] == ["B+3.5", "W+0.5", "0", "B+12", "W+7"]
    game, state = load({"size": 9, "komi": 7.5, "moves": ["E5", "pass", "pass"]})
    assert game.result_extras(state) == {"score": "B+73.5"}
    assert engine.api.legal_moves("go", game.state_to_json(state))["result"] == {
        "winner": "B", "reason": "two passes in a row", "score": "B+73.5"}


def test_gtp_fixed_handicap_placement():
    names = [vertex(p, 19) for p in handicap_points(19, 9)]
    assert sorted(names) == sorted(["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"])
    assert [vertex(p, 19) for p in handicap_points(19, 2)] == ["D4", "Q16"]
    assert sorted(vertex(p, 9) for p in handicap_points(9, 5)) == sorted(["C3", "G7", "C7", "G3", "E5"])
    assert sorted(vertex(p, 13) for p in handicap_points(13, 4)) == sorted(["D4", "K10", "D10", "K4"])
    for size, stones in ((19, 10), (8, 5), (7, 5), (6, 2), (9, 1)):
        with pytest.raises(ValueError):
            handicap_points(size, stones)
    game, state = load({"size": 9, "handicap": 2, "moves": ["pass"]})
    assert game.native_state(state) == (9, 7.5, tuple(sorted(handicap_points(9, 2))), (), (81,))


@pytest.mark.parametrize("state, field, words", [
    ({"size": 1}, "state.size", "2 to 19"),
    ({"size": 20}, "state.size", "2 to 19"),
    ({"size": 9.0}, "state.size", "integer"),
    ({"komi": float("nan")}, "state.komi", "finite"),
    ({"komi": 1000}, "state.komi", "at most 361"),
    ({"komi": "7.5"}, "state.komi", "finite number"),
    ({"size": 9, "moves": ["I5"]}, "state.moves[0]", "skip the letter I"),
    ({"size": 9, "moves": ["E5", "K5"]}, "state.moves[1]", "off the 9 x 9 board"),
    ({"size": 9, "moves": ["E5", "E5"]}, "state.moves[1]", "occupied"),
    ({"size": 9, "moves": ["E55"]}, "state.moves[0]", "off the 9 x 9 board"),
    ({"size": 9, "moves": [5]}, "state.moves[0]", "not a vertex"),
    ({"size": 9, "moves": ["pass", "pass", "E5"]}, "state.moves[2]", "game is over"),
    ({"size": 9, "moves": "E5"}, "state.moves", "list"),
    ({"size": 9, "handicap": 10}, "state.handicap", "2 to 9"),
    ({"size": 9, "setup": {"black": ["E5"], "white": ["E5"]}}, "state.setup.white[0]", "already holds"),
    ({"size": 3, "setup": {"black": ["B2"], "white": ["A2", "C2", "B1", "B3"]}}, "state.setup", "no liberty"),
    ({"size": 9, "board": []}, "state", "unknown keys"),
    ({"sgf": "(;GM[1]SZ[9];B[ee];W[c"}, "state.sgf", "not a readable SGF"),
    ({"sgf": "(;GM[1]SZ[9];B[ee]) trailing"}, "state.sgf", "nothing before or after"),
    ({"sgf": "(;GM[1]SZ[9];B[ee])(;GM[1]SZ[9])"}, "state.sgf", "nothing before or after"),
    ({"sgf": "(;GM[1]SZ[21])"}, "state.sgf", "2 to 19"),
    ({"sgf": "(;GM[1]SZ[9];B[zz])"}, "state.sgf", "not a point"),
    ({"sgf": "(;GM[1]SZ[9];B[ee];B[cc])"}, "state.sgf", "alternate"),
    ({"sgf": "(;GM[1]SZ[9];B[ee];W[ee])"}, "state.sgf", "move 2: E5 is occupied"),
    ({"sgf": "(;GM[1]SZ[9];B[ee];AB[cc])"}, "state.sgf", "setup is read in the root only"),
    ({"sgf": "(;GM[1]SZ[9]KM[abc])"}, "state.sgf", "root"),
    ({"sgf": "(;GM[1]SZ[9])", "size": 9}, "state.sgf", "sgf alone"),
])
def test_bad_states_name_their_field_and_say_why(state, field, words):
    errors = refusal(state)
    assert list(errors) == [field] and words in errors[field][0], errors


def test_an_sgf_state_reads_its_root_and_main_line_and_answers_in_sgf():
    record = "(;GM[1]FF[4]SZ[9]KM[6.5]HA[2]AB[cg][gc];W[ee];B[cc](;W[dd])(;W[ff]))"
    game, state = load({"sgf": record})
    assert game.state_to_json(state) == {"size": 9, "komi": 6.5, "moves": ["pass", "E5", "C7", "D6"], "handicap": 2}
    written = game.sgf(state)
    assert written == "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]HA[2]AB[cg][gc];B[];W[ee];B[cc];W[dd])"
    assert load({"sgf": written})[1] == state
    applied = engine.api.apply("go", {"sgf": record}, "pass")
    assert applied["state"] == {"sgf": written[:-1] + ";B[])"} and applied["sgf"] == applied["state"]["sgf"]


random_games = st.tuples(st.integers(2, 9), st.integers(0, 2**32 - 1), st.integers(0, 60))


def random_state(size, seed, plies):
    rng = random.Random(seed)
    game, state = load({"size": size, "komi": 5.5})
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
    return game, state


@settings(max_examples=40, deadline=None)
@given(random_games)
def test_states_round_trip_through_json_and_sgf(game_spec):
    game, state = random_state(*game_spec)
    assert load(game.state_to_json(state))[1] == state
    assert load({"sgf": game.sgf(state)})[1][BOARD] == state[BOARD]
    assert load({"sgf": game.sgf(state)})[1][MOVES] == state[MOVES]


@settings(max_examples=25, deadline=None)
@given(random_games)
def test_playouts_never_fill_their_own_eyes_and_pass_only_when_nothing_else_is_left(game_spec):
    """A playout's moves replayed by the rules' own play (superko aside, which playouts do not check): each
    point empty, no suicide, never the mover's eye, a pass only when every empty point is an eye or
    suicide; the final owners are the count of the final board."""
    game, state = random_state(*game_spec)
    if game.is_terminal(state):
        return
    size, near, diagonal = game.size, game.near, diagonals(game.size)
    played = []
    checks = []
    utilities, plies, owners = game.policy_playout(state, random.Random(game_spec[1]).random,
                                                   lambda: checks.append(1), played)
    assert len(checks) == (plies + 15) // 16
    board, player = state[BOARD], state[1]
    assert plies == len(played)
    for move in played:
        colour = BLACK + player
        sensible = [p for p in range(size * size) if board[p] == EMPTY and not is_eye(board, near, diagonal, p, colour)
                    and play(board, near, p, colour) is not None]
        if move == size * size:
            assert not sensible
        else:
            assert move in sensible
            board = play(board, near, move, colour)[0]
        player = 1 - player
    assert owners == scoring.owners(board, size)
    lead = sum(owners) - 5.5
    assert utilities == (scoring.outcome(lead), -scoring.outcome(lead))


def test_the_count_agrees_with_a_plain_flood_fill():
    """The big-integer count against the textbook's region fill, on random boards."""
    rng = random.Random(5)
    for size in (2, 3, 5, 9, 19):
        near = game_of(size).near
        for _ in range(20):
            board = bytes(rng.choice((0, 0, 1, 2)) for _ in range(size * size))
            expected = []
            for p, v in enumerate(board):
                if v:
                    expected.append(1 if v == BLACK else -1)
                    continue
                seen, stack, reaches = {p}, [p], set()
                while stack:
                    for r in near[stack.pop()]:
                        if board[r] == EMPTY and r not in seen:
                            seen.add(r)
                            stack.append(r)
                        elif board[r]:
                            reaches.add(board[r])
                expected.append(0 if len(reaches) != 1 else 1 if BLACK in reaches else -1)
            assert scoring.owners(board, size) == expected


def test_a_long_19_by_19_game_loads_fast():
    game, state = load({"size": 19, "komi": 7.5})
    rng = random.Random(3)
    for _ in range(700):
        points = game.actions(state)[:-1]
        state = game.result(state, rng.choice(points) if points else game.pass_move)
    written = game.state_to_json(state)
    began = time.perf_counter()
    assert load(written)[1] == state
    assert time.perf_counter() - began < 2.0


def test_an_mcts_answer_carries_the_position_ownership_and_score_lead():
    result = engine.api.search("go", {"size": 5, "komi": 0.5, "moves": KO},
                               {"name": "mcts", "iterations": 200, "seed": 1, "core": "python"})
    assert result.move in engine.api.legal_moves("go", {"size": 5, "komi": 0.5, "moves": KO})["legal_moves"]
    assert result.perspective == "W" and result.move != "B3"
    extras = result.move_extras
    assert extras["board"] == rows(loaded(KO)[1][BOARD], 5) and extras["captures"] == {"B": 1, "W": 0}
    assert len(extras["ownership"]) == 5 and all(-1 <= x <= 1 for row in extras["ownership"] for x in row)
    assert extras["score_lead"] == pytest.approx(sum(map(sum, extras["ownership"])) - 0.5, abs=0.05)
    assert result.stats.iterations == 200 and sum(mv.visits for mv in result.moves) == 200


def test_auto_picks_mcts_and_levels_play():
    for level in (1, 5, 10):
        result = engine.api.search("go", {"size": 7, "komi": 7.5, "moves": ["D4"]},
                                   {"name": "auto", "level": level, "seed": 2}, time_limit_ms=300)
        assert result.auto["chosen"]["name"] == "mcts"
        assert result.move in [vertex(p, 7) for p in range(50)]
