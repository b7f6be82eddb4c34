"""Pacman (CS188 multiagent): hand-checked mazes, the rules against a plain CS188 reference over random
play on the project's own layouts, and every search's choice against the reference searches of
``multiAgents.py`` (depth in rounds there, plies here: rounds x agents)."""
import random

import pytest

from bench.pacman_layouts import data_dir, read_layout
from engine import api
from engine.errors import EngineError, IllegalMove, InvalidState
from tests.engine import reference_pacman as ref

ONE_GHOST = ("testClassic", "openClassic", "smallClassic-1")
TWO_GHOSTS = ("smallClassic", "trappedClassic", "mediumClassic")


def layout(name: str) -> list:
    """A shared layout's rows, stripped as CS188's layout reader does; ``<name>-1`` keeps the first ghost
    of the file only. Skips when the shared data is absent."""
    base, _, keep = name.partition("-")
    rows = read_layout(base)
    if rows is None:
        pytest.skip(f"shared Pacman layouts not found in {data_dir()}")
    if keep:
        seen = 0
        for r, row in enumerate(rows):
            while "G" in row:
                seen += 1
                row = row.replace("G", " " if seen > int(keep) else "g", 1)
            rows[r] = row.replace("g", "G")
    return rows


def load(state):
    return api.load("pacman", state)


def play(state, *moves):
    """Apply moves in turn through the API; the final JSON state (with its description)."""
    for move in moves:
        state = api.apply("pacman", state, move)["state"]
    return state


def best(game_id_state, algorithm):
    return api.search("pacman", game_id_state, algorithm)


# --- hand-checked mazes ------------------------------------------------------------------------------

def test_start_state_coordinates_and_ghost_numbering():
    state = {"layout": ["%%%%%%", "%G..G%", "%.%%.%", "%P.oG%", "%%%%%%"]}
    game, s = load(state)
    out = game.state_to_json(s)
    assert out["pacman"] == {"position": [1, 1], "direction": "Stop"}
    # Ghosts sorted by (x, y): (1, 3), then (4, 1), then (4, 3).
    assert [g["start"] for g in out["ghosts"]] == [[1, 3], [4, 1], [4, 3]]
    assert out["capsules"] == [[3, 1]] and [2, 1] in out["food"] and out["to_move"] == "Pacman"
    assert game.players == ("Pacman", "Ghost1", "Ghost2", "Ghost3")
    assert api.legal_moves("pacman", state)["legal_moves"] == ["Stop", "East", "North"]
    assert api.legal_moves("pacman", {**state, "to_move": "Ghost1"})["legal_moves"] == ["East", "South"]


def test_ghost_one_cell_away():
    state = {"layout": ["%%%%%%%", "% PG .%", "%%%%%%%"]}
    assert api.apply("pacman", state, "East")["state"]["result"] == "loss"
    assert api.apply("pacman", state, "East")["state"]["score"] == -501
    after_stop = play(state, "Stop")
    assert api.legal_moves("pacman", after_stop)["legal_moves"] == ["West", "East"]   # no Stop for a ghost
    assert api.apply("pacman", after_stop, "West")["state"]["score"] == -501
    for algorithm in ({"name": "minimax", "depth": 2}, {"name": "alphabeta", "depth": 2},
                      {"name": "expectimax", "depth": 2}):
        result = best({**state}, algorithm)
        assert result.move == "West" and result.value == -1.0, algorithm


def test_food_in_a_dead_end():
    state = {"layout": ["%%%%%%%", "%. P G%", "%%%%%%%"]}
    result = best(state, {"name": "minimax", "depth": 4})
    assert result.move == "West" and result.value == 508.0
    won = play(state, "West", "West", "West")
    assert won["result"] == "win" and won["score"] == 508 and won["food"] == []
    assert api.legal_moves("pacman", won) == {"to_move": None, "players": ["Pacman", "Ghost1"],
                                              "legal_moves": [], "terminal": True,
                                              "utilities": {"Pacman": 508.0, "Ghost1": -508.0},
                                              "result": {"winner": "Pacman", "reason": "Pacman ate all the food"}}


def test_capsule_race_won_and_lost():
    # The ghost may not reverse, so after Pacman eats the capsule it must walk into him, scared.
    won = play({"layout": ["%%%%%%%", "%P o G%", "%%%%%%%"]}, "East", "West", "East")
    assert won["ghosts"][0]["scared"] == 40 and won["capsules"] == []
    eaten = play(won, "West")
    assert eaten["ghosts"][0] == {"position": [5, 1], "direction": "Stop", "scared": 0, "start": [5, 1]}
    assert eaten["score"] == -2 + 200 and "result" not in eaten
    # One cell further, the ghost reaches Pacman before he reaches the capsule.
    lost = play({"layout": ["%%%%%%%%", "%P  oG %", "%%%%%%%%"]}, "East", "West", "East", "West")
    assert lost["result"] == "loss" and lost["score"] == -2 - 500 and lost["capsules"] == [[4, 1]]


def test_scared_ghost_half_way_between_cells():
    state = {"layout": ["%%%%%%%%", "%P o  G%", "%%%%%%%%"]}
    s = play(state, "East", "West", "East")             # Pacman on the capsule, the ghost two cells away
    assert s["ghosts"][0]["position"] == [5, 1] and s["ghosts"][0]["scared"] == 40 and s["score"] == -2
    s = play(s, "West")                                 # half a cell when scared: 1.5 from Pacman
    assert s["ghosts"][0] == {"position": [4.5, 1], "direction": "West", "scared": 39, "start": [6, 1]}
    s = play(s, "East")                                 # 0.5 apart: a touch, and a scared ghost is eaten
    assert s["score"] == -3 + 200 and "result" not in s
    assert s["ghosts"][0] == {"position": [6, 1], "direction": "Stop", "scared": 0, "start": [6, 1]}
    # Half-way, a ghost can only keep going; on a cell with timer 1 it snaps to int(x + 0.5).
    half = {**state, "pacman": {"position": [1, 1], "direction": "Stop"}, "to_move": "Ghost1",
            "ghosts": [{"position": [4.5, 1], "direction": "East", "scared": 5}]}
    assert api.legal_moves("pacman", half)["legal_moves"] == ["East"]
    assert play(half, "East")["ghosts"][0]["position"] == [5, 1]
    west = {**half, "ghosts": [{"position": [4, 1], "direction": "West", "scared": 1}]}
    assert play(west, "West")["ghosts"][0] == {"position": [4, 1], "direction": "West", "scared": 0,
                                               "start": [6, 1]}
    east = {**half, "ghosts": [{"position": [4, 1], "direction": "East", "scared": 1}]}
    assert play(east, "East")["ghosts"][0]["position"] == [5, 1]


def test_win_and_loss_on_the_same_move_is_a_win():
    state = {"layout": ["%%%%%", "%P.G%", "%%%%%"], "ghosts": [{"position": [2, 1], "direction": "West"}]}
    s = play(state, "East")
    assert s["result"] == "win" and s["score"] == -1 + 10 + 500
    # Two ghosts that are not scared, touched on one move: -500 each (CS188 checks every ghost).
    two = {"layout": ["%%%%%%", "%P G.%", "%  G %", "%%%%%%"],
           "ghosts": [{"position": [2, 2], "direction": "West"}, {"position": [2, 2], "direction": "West"}]}
    s = play(two, "East")
    assert s["result"] == "loss" and s["score"] == -1 - 1000


def test_json_round_trip_and_turns():
    state = {"layout": layout("smallClassic")}
    game, s = load(state)
    rng = random.Random(5)
    for _ in range(300):
        if game.is_terminal(s):
            break
        again = load(game.state_to_json(s))[1]
        assert again == s
        s = game.result(s, rng.choice(game.actions(s)))
    assert load(game.state_to_json(s))[1] == s


def test_a_move_for_the_wrong_agent_is_illegal():
    state = {"layout": ["%%%%%%%", "% PG .%", "%%%%%%%"], "to_move": "Ghost1"}
    with pytest.raises(IllegalMove):
        api.apply("pacman", state, "Stop")              # a ghost never stops; Stop is Pacman's
    with pytest.raises(IllegalMove):
        api.apply("pacman", {**state, "to_move": "Pacman"}, "North")


@pytest.mark.parametrize("state, field", [
    ({"layout": ["%%%%", "%.G%", "%%%%"]}, "state.layout"),
    ({"layout": ["%%%%", "%PG%", "%%%"]}, "state.layout[2]"),
    ({"layout": ["%%%%", "%PG%", 7]}, "state.layout"),
    ({"layout": ["PG"]}, "state.layout"),                          # issue 34: CS188 layouts are walled in
    ({"layout": ["%%%%", ".PG%", "%%%%"]}, "state.layout"),
    ({"layout": ["%%%%", "%PG%", "%%.%"]}, "state.layout"),
    ({"layout": ["%%%%", "%PG%", "%%%%"], "ghosts": [{"position": [0, 1]}]}, "state.ghosts[0].position"),
    ({"layout": ["%%%%", "%PG%", "%%%%"], "ghosts": [{"position": [1.5, 1]}]}, "state.ghosts[0].position"),
    ({"layout": ["%%%%", "%PG%", "%%%%"], "to_move": "Ghost2"}, "state.to_move"),
    ({"layout": ["%%%%", "%PG%", "%%%%"], "food": [[3, 1]]}, "state.food[0]"),
    ({"layout": ["%%%%", "%PG%", "%%%%"], "result": "win", "food": [[1, 1]]}, "state.result"),
])
def test_bad_states_name_their_field(state, field):
    with pytest.raises(InvalidState) as error:
        load(state)
    assert field in error.value.errors


@pytest.mark.parametrize("name", ["smallClassic", "  mediumClassic\n", "testClassic.lay"])
def test_a_layouts_name_is_told_apart_from_a_maze(name):
    """``-l smallClassic`` is how CS188 picks a maze; here the maze itself is sent, and the error says so
    rather than that a one-row maze has an opening in its border."""
    with pytest.raises(InvalidState) as error:
        load({"layout": name})
    message = error.value.errors["state.layout"][0]
    assert "not the name of one" in message and repr(name.strip()) in message


def test_without_a_depth_an_endless_game_deepens_until_the_deadline():
    for name in ("minimax", "alphabeta"):
        result = api.search("pacman", {"layout": layout("smallClassic")},
                            {"name": name, "move_ordering": False, "transposition_table": False}
                            if name == "alphabeta" else {"name": name}, time_limit_ms=200)
        assert result.stats.timed_out and result.stats.depth_completed >= 1, name
        fixed = best({"layout": layout("smallClassic")}, {"name": name, "depth": result.stats.depth_completed})
        assert (result.move, result.value) == (fixed.move, fixed.value)


def test_depth_rounds_is_cs188_depth():
    state = {"layout": layout("smallClassic")}
    for name in ("minimax", "alphabeta", "expectimax", "maxn"):
        rounds = best(state, {"name": name, "depth_rounds": 2})
        plies = best(state, {"name": name, "depth": 6})
        assert (rounds.move, rounds.value, rounds.stats.nodes) == (plies.move, plies.value, plies.stats.nodes)
        assert rounds.stats.depth_completed == 6
        with pytest.raises(EngineError) as error:
            best(state, {"name": name, "depth": 6, "depth_rounds": 2})
        assert "algorithm.depth_rounds" in error.value.errors
    with pytest.raises(EngineError) as error:                 # a round is ambiguous with chance moves
        api.search("2048", {"board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]]},
                   {"name": "expectimax", "depth_rounds": 1})
    assert "algorithm.depth_rounds" in error.value.errors


def test_strict_cutoffs_belong_to_the_textbook_search():
    with pytest.raises(EngineError) as error:
        best({"layout": ["%%%%", "%PG%", "%%%%"]}, {"name": "alphabeta", "strict_cutoffs": True})
    assert "algorithm.strict_cutoffs" in error.value.errors


# --- the rules against the reference, over random play -------------------------------------------

def random_starts(names, count, seed):
    """``count`` JSON states from random play on the layouts, some with every ghost scared at first (so
    that ghosts stand half-way), every agent to move in turn."""
    rng = random.Random(seed)
    for i in range(count):
        rows = layout(names[i % len(names)])
        game, s = load({"layout": rows})
        if rng.random() < 0.4:
            start = game.state_to_json(s)
            for ghost in start["ghosts"]:
                ghost["scared"] = rng.randint(1, 40)
            game, s = load(start)
        for _ in range(rng.randint(0, 40)):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(game.actions(s)))
        yield game, s, rng


def changing_fields(state_json):
    return {k: v for k, v in state_json.items() if k != "layout"}


def test_rules_agree_with_the_cs188_reference_over_random_play():
    for game, s, rng in random_starts(ONE_GHOST + TWO_GHOSTS + ("minimaxClassic",), 120, seed=11):
        r = ref.parse(game.state_to_json(s))
        for _ in range(30):
            assert changing_fields(game.state_to_json(s)) == ref.to_json(r)
            moves = list(game.actions(s)) if not game.is_terminal(s) else []
            assert moves == ref.legal(r, r["turn"])
            if not moves:
                break
            move = rng.choice(moves)
            s, r = game.result(s, move), ref.successor(r, r["turn"], move)


# --- the searches against the reference searches ---------------------------------------------------

def search_cases(names, count, seed, rounds):
    """Non-terminal states with Pacman to move, and the depth in rounds for each."""
    cases = []
    for game, s, rng in random_starts(names, 4 * count, seed):
        if not game.is_terminal(s) and s[0] == 0:
            cases.append((game.state_to_json(s), rng.choice(rounds)))
        if len(cases) == count:
            break
    return cases


def agents(state_json):
    return 1 + len(state_json["ghosts"])


@pytest.mark.parametrize("names, count, rounds", [(ONE_GHOST, 120, (1, 2, 3)), (TWO_GHOSTS, 100, (1, 2)),
                                                  (TWO_GHOSTS, 12, (3,))])
def test_minimax_alphabeta_and_their_node_counts_equal_the_reference(names, count, rounds):
    for state, d in search_cases(names, count, seed=count + len(rounds), rounds=rounds):
        plies = d * agents(state)
        r = ref.parse(state)
        counter = ref.Counter()
        values = ref.root_values(r, d, counter)
        top = max(v for _, v in values)
        first = next(a for a, v in values if v == top)
        result = best(state, {"name": "minimax", "depth": plies})
        assert (result.move, result.value) == (first, top)
        assert result.stats.nodes == 1 + counter.generated
        for strict in (False, True):
            counter = ref.Counter()
            move, value = ref.alphabeta(r, d, counter, strict)
            result = best(state, {"name": "alphabeta", "depth": plies, "move_ordering": False,
                                  "transposition_table": False, "strict_cutoffs": strict})
            assert (result.move, result.value) == (move, value) == (first, top)
            assert result.stats.nodes == 1 + counter.generated
        enhanced = best(state, {"name": "alphabeta", "depth": plies})
        assert enhanced.value == top and dict(values)[enhanced.move] == top
        maxn = best(state, {"name": "maxn", "depth": plies})
        assert (maxn.move, maxn.value) == (first, top)


@pytest.mark.parametrize("names, count, rounds", [(ONE_GHOST, 100, (1, 2, 3)), (TWO_GHOSTS, 100, (1, 2)),
                                                  (TWO_GHOSTS, 12, (3,))])
def test_expectimax_equals_the_reference(names, count, rounds):
    for state, d in search_cases(names, count, seed=7 * count, rounds=rounds):
        values = ref.root_values(ref.parse(state), d, ref.Counter(), ghosts_average=True)
        top = max(v for _, v in values)
        result = best(state, {"name": "expectimax", "depth": d * agents(state)})
        assert result.value == pytest.approx(top, abs=1e-9)
        assert dict(values)[result.move] == pytest.approx(top, abs=1e-9)
        first_clear = next(a for a, v in values if v > top - 1e-9)
        assert result.move == first_clear or abs(dict(values)[first_clear] - dict(values)[result.move]) < 1e-9


def test_ghost_to_move_searches_for_the_ghosts_side():
    """At a ghost's turn the searcher is the ghosts' side: Ghost1 steps West, Ghost2 follows, Pacman can
    only stop (East is death), and Ghost1 catches him: -1 - 500 for Pacman, 501 for the ghosts."""
    state = {"layout": ["%%%%%%%", "%P G G%", "%%%%%%%"], "to_move": "Ghost1"}
    for algorithm in ({"name": "minimax", "depth": 4}, {"name": "alphabeta", "depth": 4},
                      {"name": "alphabeta", "depth": 4, "move_ordering": False, "transposition_table": False},
                      {"name": "maxn", "depth": 4}):
        result = best(state, algorithm)
        assert (result.perspective, result.move, result.value) == ("Ghost1", "West", 501.0), algorithm
