"""Pacman through the service: the rules for Pacman and each ghost, a CS188-depth search, and bad
input answered 422 with the field at fault (never a 500)."""
from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

from tests.service.support import ValidatingClient, make_app
from tests.service.test_bad_inputs import problem, unprocessable

MAZE = ["%%%%%%%%", "%G.o..G%", "%.%%%%.%", "%..P...%", "%%%%%%%%"]


def test_legal_moves_and_apply_work_for_pacman_and_each_ghost(client):
    response = client.post("/v1/games/pacman/legal-moves", json={"state": {"layout": MAZE}})
    assert response.status_code == 200
    assert response.get_json()["legal_moves"] == ["West", "Stop", "East"]
    after = client.post("/v1/games/pacman/apply", json={"state": {"layout": MAZE}, "move": "West"}).get_json()
    assert after["to_move"] == "Ghost1" and after["state"]["score"] == -1 + 10
    assert after["legal_moves"] == ["East", "South"]
    ghost = client.post("/v1/games/pacman/apply", json={"state": after["state"], "move": "South"}).get_json()
    assert ghost["to_move"] == "Ghost2" and ghost["state"]["ghosts"][0]["position"] == [1, 2]


def test_cs188_depth_two_with_two_ghosts_is_depth_six(client):
    body = {"game": "pacman", "state": {"layout": MAZE},
            "algorithm": {"name": "alphabeta", "depth": 6, "move_ordering": False, "transposition_table": False,
                          "strict_cutoffs": True}}
    answer = client.post("/v1/search", json=body).get_json()
    assert answer["perspective"] == "Pacman" and answer["stats"]["depth_completed"] == 6
    assert answer["move"] in ("West", "Stop", "East")


@pytest.mark.parametrize("state, move, field", [
    ({"layout": ["%%%%%", "%.G.%", "%%%%%"]}, None, "state.layout"),                            # no Pacman
    ({"layout": ["%%%%%", "%PG.%", "%%%%%"], "ghosts": [{"position": [0, 1]}]}, None,
     "state.ghosts[0].position"),                                                              # ghost in a wall
    ({"layout": ["%%%%%", "%PG.%", "%%%%"]}, None, "state.layout[2]"),                          # ragged
    ({"layout": ["%%%%%", 5, "%%%%%"]}, None, "state.layout"),                                 # not a row
    ({"layout": ["%%%%%", "%PG.%", "%%%%%"], "to_move": "Ghost1"}, "Stop", "move"),             # wrong agent
])
def test_bad_pacman_input_is_422_naming_the_field(client, state, move, field):
    if move is None:
        response = client.post("/v1/games/pacman/legal-moves", json={"state": state})
    else:
        response = client.post("/v1/games/pacman/apply", json={"state": state, "move": move})
    unprocessable(response, field)
    search = client.post("/v1/search", json={"game": "pacman", "state": state,
                                             "algorithm": {"name": "expectimax", "depth": 2}})
    if move is None:
        unprocessable(search, field)


def test_bad_pacman_settings_are_422(client):
    state = {"layout": MAZE}
    unprocessable(client.post("/v1/search", json={"game": "pacman", "state": state,
                                                  "algorithm": {"name": "alphabeta", "strict_cutoffs": True}}),
                  "algorithm.strict_cutoffs")
    problem(client.post("/v1/search", json={"game": "pacman", "state": state,
                                            "algorithm": {"name": "expectimax", "evaluation": "best"}}), 422)


# --- no input, however malformed, is a server error -------------------------------------------------

ANYTHING = st.one_of(st.integers(-3, 40), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
                     st.none(), st.text(max_size=6), st.sampled_from(["West", "Stop", "Ghost1", "win", 10**400]),
                     st.lists(st.one_of(st.integers(-1, 9), st.floats(-1, 9), st.text(max_size=1)), max_size=3))
XY = st.lists(st.one_of(st.integers(-1, 8), st.sampled_from([0.5, 1.5, 2.5, 3.0, 1e308]), st.text(max_size=1)),
              min_size=0, max_size=3)
GHOST = st.fixed_dictionaries({}, optional={"position": XY, "direction": ANYTHING, "scared": ANYTHING,
                                            "start": XY, "extra": ANYTHING})
PACMAN_STATES = st.fixed_dictionaries(
    {"layout": st.one_of(st.lists(st.text(alphabet="%. oPGx", min_size=1, max_size=7), max_size=6),
                         st.just(MAZE), ANYTHING)},
    optional={"pacman": st.one_of(st.fixed_dictionaries({"position": XY}, optional={"direction": ANYTHING}),
                                  ANYTHING),
              "ghosts": st.one_of(st.lists(GHOST, max_size=3), ANYTHING),
              "food": st.one_of(st.lists(XY, max_size=3), ANYTHING), "capsules": st.lists(XY, max_size=2),
              "score": ANYTHING, "to_move": ANYTHING, "result": ANYTHING})
ALGORITHMS = st.fixed_dictionaries(
    {"name": st.sampled_from(["minimax", "alphabeta", "expectimax", "maxn", "mcts"])},
    optional={"depth": st.integers(1, 4), "depth_rounds": st.integers(1, 2), "strict_cutoffs": st.booleans(),
              "move_ordering": st.booleans(), "transposition_table": st.booleans(),
              "evaluation": st.sampled_from(["score", "better", "best"]), "iterations": st.integers(1, 30)})
APP = make_app(DEFAULT_TIME_LIMIT_MS=30, MAX_TIME_LIMIT_MS=50)
CLIENT = ValidatingClient(APP)


def no_server_error(response):
    assert response.status_code in (200, 422), response.get_data(as_text=True)


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(PACMAN_STATES, ALGORITHMS, st.sampled_from(["West", "Stop", "North", "x", 3]))
def test_malformed_pacman_input_is_never_a_server_error(state, algorithm, move):
    no_server_error(CLIENT.post("/v1/search", json={"game": "pacman", "state": state, "algorithm": algorithm}))
    no_server_error(CLIENT.post("/v1/games/pacman/legal-moves", json={"state": state}))
    no_server_error(CLIENT.post("/v1/games/pacman/apply", json={"state": state, "move": move}))


@pytest.mark.parametrize("route, extra", [("/v1/games/pacman/legal-moves", {}),
                                          ("/v1/games/pacman/apply", {"move": "East"})])
def test_a_layout_with_a_character_that_is_no_cell_is_a_422_naming_its_row(client, route, extra):
    """Issue 50: ``%PXG%`` was a maze with a floor where the X is."""
    response = client.post(route, json={"state": {"layout": ["%%%%%", "%PXG%", "%%%%%"]}, **extra})
    assert response.status_code == 422
    (message,) = response.get_json()["errors"]["state.layout[1]"]
    assert "'X' in column 2" in message
