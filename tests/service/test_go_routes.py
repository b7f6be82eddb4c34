"""Go through the service: the rules routes in both state forms (moves and SGF), searches with their
ownership, review, batch and streaming, and the 422s, each naming its field (every response is checked
against the spec by the validating client)."""
from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

from tests.service.support import ValidatingClient, make_app, parse_events
from tests.service.test_bad_inputs import unprocessable

KO = ["A3", "B3", "B4", "C4", "B2", "C2", "pass", "D3", "C3"]
SMALL = {"size": 5, "komi": 0.5, "moves": KO}


def test_legal_moves_carry_the_board_captures_and_sgf(client):
    response = client.post("/v1/games/go/legal-moves", json={"state": SMALL})
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["to_move"] == "W" and "B3" not in body["legal_moves"] and body["legal_moves"][-1] == "pass"
    assert body["board"] == [".....", ".XO..", "X.XO.", ".XO..", "....."]
    assert body["captures"] == {"B": 1, "W": 0}
    assert body["sgf"] == "(;GM[1]FF[4]CA[UTF-8]SZ[5]KM[0.5];B[ac];W[bc];B[bb];W[cb];B[bd];W[cd];B[];W[dc];B[cc])"


def test_apply_answers_in_the_form_it_was_sent(client):
    response = client.post("/v1/games/go/apply", json={"state": {"size": 9}, "move": "e5"})
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["state"] == {"size": 9, "komi": 7.5, "moves": ["E5"]} and body["to_move"] == "W"
    response = client.post("/v1/games/go/apply", json={"state": {"sgf": "(;GM[1]SZ[9]KM[7.5];B[ee])"},
                                                       "moves": ["pass", "pass"]})
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["state"] == {"sgf": "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7.5]RE[B+73.5];B[ee];W[];B[])"}
    assert body["terminal"] and body["result"] == {"winner": "B", "reason": "two passes in a row",
                                                   "score": "B+73.5"}
    assert body["utilities"] == {"B": 1.0, "W": -1.0}


@pytest.mark.parametrize("move, message", [
    ("B3", "superko"), ("C3", "occupied"), ("I2", "letter I"), ("F1", "off the 5 x 5 board"), (7, "not a vertex"),
])
def test_bad_moves_are_422_naming_the_move(client, move, message):
    messages = unprocessable(client.post("/v1/games/go/apply", json={"state": SMALL, "move": move}), "move")
    assert any(message in m for m in messages), messages


@pytest.mark.parametrize("state, field", [
    ({"size": 25}, "state.size"), ({"komi": 1e308}, "state.komi"), ({"size": 9, "moves": ["E5", "E5"]}, "state.moves[1]"),
    ({"sgf": "(;GM[1]SZ[9];B[ee]"}, "state.sgf"), ({"size": 9, "handicap": 12}, "state.handicap"),
])
def test_bad_states_are_422_naming_the_field(client, state, field):
    for route, body in (("/v1/games/go/legal-moves", {"state": state}),
                        ("/v1/search", {"game": "go", "state": state, "algorithm": {"name": "mcts"}})):
        unprocessable(client.post(route, json=body), field)


def test_an_mcts_search_reports_visits_win_rates_ownership_and_the_score_lead(client):
    response = client.post("/v1/search", json={"game": "go", "state": SMALL,
                                               "algorithm": {"name": "mcts", "iterations": 300, "seed": 3,
                                                                             "core": "python"}})
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["perspective"] == "W" and body["move"] != "B3"
    assert sum(m["visits"] for m in body["moves"]) == 300
    assert all(0 <= m["win_probability"] <= 1 for m in body["moves"])
    assert len(body["ownership"]) == 5 and all(len(row) == 5 for row in body["ownership"])
    assert body["board"] == [".....", ".XO..", "X.XO.", ".XO..", "....."] and body["captures"] == {"B": 1, "W": 0}
    assert isinstance(body["score_lead"], float)


def test_auto_plays_mcts_at_a_level(client):
    response = client.post("/v1/search", json={"game": "go", "state": {"size": 9, "moves": ["E5"]},
                                               "algorithm": {"name": "auto", "level": 3, "seed": 1},
                                               "time_limit_ms": 300})
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["algorithm"]["chosen"]["name"] == "mcts"


def test_review_batch_and_stream_cover_go(client):
    response = client.post("/v1/review", json={"game": "go", "state": {"size": 5, "komi": 0.5},
                                               "moves": ["C3", "B2", "pass"],
                                               "algorithm": {"name": "mcts", "iterations": 100, "seed": 1}})
    assert response.status_code == 200, response.get_json()
    assert len(response.get_json()["plies"]) == 3
    search = {"game": "go", "state": SMALL, "algorithm": {"name": "alphabeta", "depth": 1}}
    response = client.post("/v1/search/batch", json={"searches": [search, {**search, "state": {"size": 3}}]})
    assert response.status_code == 200 and len(response.get_json()["results"]) == 2
    response = client.post("/v1/search/stream", json={**search, "algorithm": {"name": "mcts", "iterations": 50, "core": "python"}})
    events = parse_events(response.get_data(as_text=True))
    assert events[-1][0] == "result" and "ownership" in events[-1][1]


SERVICE = ValidatingClient(make_app(DEFAULT_TIME_LIMIT_MS=30, MAX_TIME_LIMIT_MS=50))
numbers = st.one_of(st.integers(-3, 400), st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
                    st.text(max_size=3), st.sampled_from([10**400, 2**64, 1.7e308]))
vertices = st.one_of(st.from_regex(r"\A[A-Za-z]{1,2}[0-9]{0,3}\Z"), st.sampled_from(["pass", "PASS", "", "I9", "T19"]),
                     numbers)
sgf_text = st.one_of(st.text(alphabet="();[]BWABSZKMHAPLee0123456789 tz", max_size=40),
                     st.sampled_from(["(;GM[1]SZ[9];B[ee])", "(;SZ[19]HA[9];W[dd])", "(;SZ[1])", "(;SZ[30];B[aa])"]))
go_states = st.one_of(
    st.fixed_dictionaries({}, optional={"size": numbers, "komi": numbers, "handicap": numbers,
                                        "moves": st.one_of(st.lists(vertices, max_size=12), numbers),
                                        "setup": st.one_of(st.fixed_dictionaries(
                                            {}, optional={"black": st.lists(vertices, max_size=4),
                                                          "white": st.lists(vertices, max_size=4)}), numbers)}),
    st.fixed_dictionaries({"sgf": sgf_text}))


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(go_states, vertices, st.sampled_from(["alphabeta", "mcts", "auto"]))
def test_near_miss_states_and_moves_are_never_a_server_error(state, move, algorithm):
    for response in (SERVICE.post("/v1/games/go/legal-moves", json={"state": state}),
                     SERVICE.post("/v1/games/go/apply", json={"state": state, "move": move}),
                     SERVICE.post("/v1/search", json={"game": "go", "state": state, "algorithm": {"name": algorithm}})):
        assert response.status_code in (200, 422), response.get_data(as_text=True)
