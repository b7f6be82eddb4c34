"""Pacman through the service: the rules for Pacman and each ghost, a CS188-depth search, and bad
input answered 422 with the field at fault (never a 500)."""
import pytest

from tests.service.test_bad_inputs import problem, unprocessable

MAZE = ["%%%%%%%%", "%G.o..G%", "%.%%%%.%", "%..P...%", "%%%%%%%%"]


def test_legal_moves_and_apply_work_for_pacman_and_each_ghost(client):
    response = client.post("/v1/games/pacman/legal-moves", json={"state": {"layout": MAZE}})
    assert response.status_code == 200
    assert response.get_json()["moves"] == ["West", "Stop", "East"]
    after = client.post("/v1/games/pacman/apply", json={"state": {"layout": MAZE}, "move": "West"}).get_json()
    assert after["to_move"] == "Ghost1" and after["state"]["score"] == -1 + 10
    assert after["moves"] == ["East", "South"]
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
    ({"layout": ["%%%%%", "%PG*%", "%%%%%"]}, None, "state.layout[1]"),                         # unknown char
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
