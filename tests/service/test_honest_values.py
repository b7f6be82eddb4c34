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


@pytest.mark.parametrize("core", ["native", "python"])
@pytest.mark.parametrize("name", ["minimax", "alphabeta"])
def test_a_search_that_finished_no_pass_has_no_value(client, name, core):
    """Issue 50 item 6: minimax at depth 50 on chess with 300 ms answered value 0.0, cp 0, win_probability
    0.5 and no root moves: numbers no search found."""
    algorithm = {"name": name, "depth": 50, "core": core}
    if name == "alphabeta":
        algorithm.update(move_ordering=False, transposition_table=False)
    body = search(client, game="chess", state={}, algorithm=algorithm, time_limit_ms=300)
    assert (body["value"], body["score"], body["win_probability"], body["bound"]) == (None, None, None, None)
    assert body["moves"] == [] and body["pv"] == [body["move"]]
    assert (body["stats"]["stop_reason"], body["stats"]["depth_completed"]) == ("time_limit", 0)


def test_a_review_whose_search_finds_no_value_stops_there(client):
    response = client.post("/v1/review", json={"game": "chess", "pgn": "1. e4 e5 2. Nf3 Nc6",
                                               "algorithm": {"name": "minimax", "depth": 50}, "time_limit_ms": 400})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["complete"] is False and body["plies"] == []


def test_chess_mcts_reports_its_playout_mean_as_a_win_rate_not_centipawns(client):
    """Issue 50 item 6: the start position's MCTS answered score cp 3333 and win_probability 0.999995, a
    mean of playout utilities (in [-1, 1]) written as pawns."""
    body = search(client, game="chess", state={}, time_limit_ms=5000,
                  algorithm={"name": "mcts", "iterations": 8, "seed": 1, "core": "python"})
    for answer in [body, *body["moves"]]:
        assert -1.0 <= answer["value"] <= 1.0 and set(answer["score"]) == {"value"}, answer
        assert answer["win_probability"] == pytest.approx((1.0 + answer["value"]) / 2), answer
    assert body["bound"] == "estimate"


def test_an_mcts_progress_report_keeps_its_scale():
    """A streamed ``info`` of chess MCTS: its mean stays a utility, scored as one (not cp)."""
    from engine import api
    from engine.result import Progress
    from service.serialize import progress_info
    game, _ = api.load("chess", {})
    report = api.to_json_progress(game, Progress(depth=1, value=0.5, move=0, pv=[0], nodes=9, time_ms=1.0,
                                                 value_scale="outcome"))
    info = progress_info(report, "chess")
    assert (info["value"], info["score"], info["win_probability"]) == (0.5, {"value": 0.5}, 0.75)


def test_a_2048_state_carries_its_score_through_apply(client):
    board = [[2, 2, 4, 4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    response = client.post("/v1/games/2048/apply", json={"state": {"board": board, "score": 8}, "move": "left"})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["state"]["score"] == 8 + 4 + 8
    response = client.post("/v1/games/2048/apply", json={"state": {"board": board, "score": -1}, "move": "left"})
    assert response.status_code == 422 and "state.score" in response.get_json()["errors"]
    assert search(client, game="2048", state={"board": board, "score": 8}, algorithm={"name": "expectimax", "depth": 1},
                  time_limit_ms=1000)["move"] in ("left", "right", "down")
