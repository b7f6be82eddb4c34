"""Issue 50 items 5 and 6 through the server: an answer's value is that of the move it plays, and says
whether it is exact, a bound or an estimate (``bound``), or that there is none."""
import pytest


def search(client, **body):
    response = client.post("/v1/search", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_level_s_mistake_answers_its_own_value_and_says_it_is_a_bound(client, seed):
    body = search(client, game="tictactoe", state={"board": ["X..", ".O.", "..."]},
                  algorithm={"name": "auto", "level": 1, "seed": seed}, time_limit_ms=1000)
    listed = next(mv for mv in body["moves"] if mv["move"] == body["move"])
    assert (body["value"], body["bound"], body["score"]) == (listed["value"], listed["bound"], listed["score"])
    assert body["bound"] == "upper" and body["outcome"] is None


def test_level_1_takes_the_win_in_one(client):
    body = search(client, game="tictactoe", state={"board": ["XX.", "OO.", "..."]},
                  algorithm={"name": "auto", "level": 1, "seed": 1}, time_limit_ms=1000)
    assert (body["move"], body["outcome"], body["bound"], body["score"]) == (2, "win", "exact", {"win_in": 1})


def test_a_full_search_s_value_is_exact(client):
    body = search(client, game="tictactoe", state={"board": ["X..", ".O.", "..."]},
                  algorithm={"name": "alphabeta"}, time_limit_ms=1000)
    assert body["bound"] == "exact"
