"""At a chance node the rules routes give each outcome's probability, and they take the game's options
(2048's ``tile_probabilities``) as a search does, so a front end draws chance as the search models it."""
from fractions import Fraction

import pytest

CHANCE_2048 = {"board": [[4, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]], "to_move": "chance"}
EMPTY_CELLS = 13


def rules(client, game, **body):
    response = client.post(f"/v1/games/{game}/legal-moves", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_2048_tiles_have_the_default_odds_spread_over_the_empty_cells(client):
    position = rules(client, "2048", state=CHANCE_2048)
    assert position["to_move"] == "chance" and len(position["legal_moves"]) == 2 * EMPTY_CELLS
    for move, p in zip(position["legal_moves"], position["probabilities"]):
        assert p == pytest.approx({2: 0.9, 4: 0.1}[move["tile"]] / EMPTY_CELLS)
    assert sum(position["probabilities"]) == pytest.approx(1.0)


def test_2048_custom_tile_probabilities_give_only_the_tiles_they_allow(client):
    position = rules(client, "2048", state=CHANCE_2048, options={"tile_probabilities": {"4": 1.0}})
    assert {m["tile"] for m in position["legal_moves"]} == {4}
    assert position["probabilities"] == pytest.approx([1 / EMPTY_CELLS] * EMPTY_CELLS)
    odds = rules(client, "2048", state=CHANCE_2048, options={"tile_probabilities": {"2": 0.5, "8": 0.5}})
    assert {m["tile"] for m in odds["legal_moves"]} == {2, 8}


def test_apply_takes_the_options_too_and_answers_the_afterstate_s_odds(client):
    response = client.post("/v1/games/2048/apply", json={
        "state": {"board": [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}, "move": "left",
        "options": {"tile_probabilities": {"4": 1.0}}})
    answer = response.get_json()
    assert response.status_code == 200, answer
    assert answer["to_move"] == "chance" and answer["state"]["board"][0] == [4, 0, 0, 0]
    assert {m["tile"] for m in answer["legal_moves"]} == {4} and len(answer["probabilities"]) == 15


def test_backgammon_rolls_are_one_in_36_for_doubles_and_one_in_18_otherwise(client):
    position = rules(client, "backgammon", state={"dice": None})
    assert position["to_move"] == "chance" and len(position["legal_moves"]) == 21
    for roll, p in zip(position["legal_moves"], position["probabilities"]):
        high, low = roll.split("-")
        assert Fraction(p).limit_denominator(100) == (Fraction(1, 36) if high == low else Fraction(1, 18)), roll
    after = rules(client, "backgammon", state={"dice": [6, 5]})
    assert after["to_move"] == "X" and "probabilities" not in after


def test_a_tree_s_chance_node_gives_its_children_s_p(client):
    state = {"root": {"type": "chance", "children": [{"move": "a", "p": 0.25, "value": 1},
                                                     {"move": "b", "p": 0.75, "value": 2}]}}
    position = rules(client, "tree", state=state)
    assert (position["legal_moves"], position["probabilities"]) == (["a", "b"], [0.25, 0.75])


def test_positions_where_a_player_moves_have_no_probabilities(client):
    assert "probabilities" not in rules(client, "2048", state={"board": CHANCE_2048["board"]})
    assert "probabilities" not in rules(client, "tictactoe", state={"board": ["...", "...", "..."]})


@pytest.mark.parametrize("game, state, options, field", [
    ("chess", {}, {"tile_probabilities": {"4": 1.0}}, "options.tile_probabilities"),
    ("2048", CHANCE_2048, {"tile_probabilities": {"2": 0.5}}, "options.tile_probabilities"),
    ("2048", CHANCE_2048, {"tile_probabilities": {"3": 1.0}}, "options.tile_probabilities"),
    ("2048", CHANCE_2048, {"depth": 2}, "options.depth"),
    ("checkers", {}, {"no_progress_plies": 0}, "options.no_progress_plies"),
])
def test_a_bad_option_is_a_422_naming_it(client, game, state, options, field):
    response = client.post(f"/v1/games/{game}/legal-moves", json={"state": state, "options": options})
    problem = response.get_json()
    assert response.status_code == 422, problem
    assert field in problem["errors"], problem
