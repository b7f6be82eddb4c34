"""Game options have one canonical place on every route, the request's ``options`` (issue 35.4): a search
and its stream read them there as the rules routes do, still take them in ``algorithm`` (their place
before), echo them in the answer's ``options``, and name the field a bad one came in."""
import pytest

from tests.service.support import parse_events

BOARD = {"board": [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}
ONLY_FOURS = {"tile_probabilities": {"4": 1.0}}
EXPECTIMAX = {"name": "expectimax", "depth": 2, "core": "python"}


def search(client, route="/v1/search", **body):
    return client.post(route, json={"game": "2048", "state": BOARD, "time_limit_ms": 5000, **body})


def test_a_search_reads_options_in_options_and_in_algorithm_alike(client):
    canonical = search(client, algorithm=EXPECTIMAX, options=ONLY_FOURS).get_json()
    older = search(client, algorithm={**EXPECTIMAX, **ONLY_FOURS}).get_json()
    both = search(client, algorithm={**EXPECTIMAX, **ONLY_FOURS}, options=ONLY_FOURS).get_json()
    default = search(client, algorithm=EXPECTIMAX).get_json()
    assert canonical["value"] == older["value"] == both["value"] != default["value"]
    assert canonical["options"] == older["options"] == both["options"] == ONLY_FOURS
    assert default["options"] == {}
    assert "tile_probabilities" not in canonical["algorithm"] and older["algorithm"]["tile_probabilities"] == {"4": 1.0}


def test_the_stream_reads_options_too(client):
    response = search(client, "/v1/search/stream", algorithm=EXPECTIMAX, options=ONLY_FOURS)
    events = parse_events(response.get_data(as_text=True))
    plain = search(client, algorithm=EXPECTIMAX, options=ONLY_FOURS).get_json()
    assert events[-1][0] == "result" and events[-1][1]["options"] == ONLY_FOURS
    assert events[-1][1]["value"] == plain["value"]


@pytest.mark.parametrize("body, field", [
    ({"options": {"tile_probabilities": {"2": 0.5}}}, "options.tile_probabilities"),
    ({"algorithm": {**EXPECTIMAX, "tile_probabilities": {"2": 0.5}}}, "algorithm.tile_probabilities"),
    ({"options": ONLY_FOURS, "algorithm": {**EXPECTIMAX, "tile_probabilities": {"2": 1.0}}},
     "options.tile_probabilities"),
    ({"options": {"no_such_option": 1}}, "options.no_such_option"),
    ({"options": {"no_progress_plies": 40}}, "options.no_progress_plies"),     # checkers', not 2048's
])
def test_a_bad_option_is_a_422_naming_where_it_was_sent(client, body, field):
    response = search(client, **{"algorithm": EXPECTIMAX, **body})
    assert response.status_code == 422
    assert list(response.get_json()["errors"]) == [field]


def test_an_option_of_another_game_is_refused_in_the_engine_s_words(client):
    response = search(client, algorithm=EXPECTIMAX, options={"man_move_resets": False})
    assert response.get_json()["errors"]["options.man_move_resets"] == \
        ["2048 has no option 'man_move_resets'; its options: ['tile_probabilities']"]


def test_checkers_options_sent_in_options_are_named_there(client):
    response = client.post("/v1/search", json={"game": "checkers", "state": {},
                                               "algorithm": {"name": "alphabeta", "depth": 1},
                                               "options": {"no_progress_plies": 0}})
    assert response.status_code == 422 and list(response.get_json()["errors"]) == ["options.no_progress_plies"]
