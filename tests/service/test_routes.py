"""The routes do what API.md says, and every response matches the spec (the ``client`` fixture)."""
import pytest
from openapi_core.validation.response.exceptions import InvalidData

import engine.api
from engine.search import native

from service.admission import admission
from tests.service.support import ValidatingClient, make_app


def search(client, **body):
    response = client.post("/v1/search", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_alphabeta_on_figure_5_2_gives_value_3_and_the_first_min_node(client, figure_5_2):
    body = search(client, game="tree", state=figure_5_2,
                  algorithm={"name": "alphabeta", "move_ordering": False, "transposition_table": False})
    assert (body["move"], body["value"], body["perspective"]) == ("B", 3.0, "MAX")
    assert body["stats"]["nodes"] == 11
    assert body["pv"][0] == "B"
    assert body["algorithm"] == {"name": "alphabeta", "move_ordering": False, "transposition_table": False}
    assert "trace" not in body and "values" not in body


def test_alphabeta_echoes_its_defaults_and_takes_8_0_as_an_integer(client):
    body = search(client, game="tictactoe", state={"board": ["X.O", "...", "..."]},
                  algorithm={"name": "alphabeta", "depth": 2.0})
    assert body["algorithm"] == {"name": "alphabeta", "depth": 2, "move_ordering": True,
                                 "transposition_table": True}
    assert body["stats"]["max_depth"] <= 2


def test_minimax_echoes_only_what_was_sent(client, figure_5_2):
    body = search(client, game="tree", state=figure_5_2, algorithm={"name": "minimax"})
    assert body["algorithm"] == {"name": "minimax"}
    assert [m["value"] for m in body["moves"]] == [3.0, 2.0, 2.0]


def test_a_trace_comes_only_when_asked_for(client, figure_5_2):
    body = search(client, game="tree", state=figure_5_2, algorithm={"name": "minimax"}, trace=True)
    assert body["trace"][0]["path"] == [] and len(body["trace"]) == body["stats"]["nodes"]


def test_an_mcts_trace_tells_each_iteration_and_matches_the_spec(client, figure_5_2):
    """Issue 54: ``trace`` with mcts was an empty list, without a word."""
    body = search(client, game="tree", state=figure_5_2, algorithm={"name": "mcts", "iterations": 8, "seed": 1},
                  trace=True)
    trace = body["trace"]
    assert [e["iteration"] for e in trace] == list(range(1, 9)) and body["stats"]["iterations"] == 8
    assert [e["path"][0] for e in trace[:3]] == ["B", "C", "D"]  # each move tried once, in turn
    visits = {m["move"]: m["visits"] for m in body["moves"]}
    last = trace[-1]
    assert last["backpropagation"][0]["n"] == 8
    assert {c["move"]: c["n"] for c in last["selection"][0]["children"]} == {
        move: n - (move == last["path"][0]) for move, n in visits.items()}


@pytest.mark.parametrize("algorithm, field, limit", [
    ({"name": "mcts", "iterations": 11}, "algorithm.iterations", "MAX_TRACE_ENTRIES (10)"),
    ({"name": "minimax"}, "trace", "MAX_TRACE_ENTRIES (10)"),
])
def test_a_trace_past_its_limits_is_a_422_naming_the_limit(algorithm, field, limit):
    client = ValidatingClient(make_app(MAX_TRACE_ENTRIES=10))
    response = client.post("/v1/search", json={"game": "tictactoe", "state": {"board": ["X..", "...", "..."]},
                                               "algorithm": algorithm, "trace": True})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert limit in response.get_json()["errors"][field][0]


def test_a_search_that_runs_out_of_time_answers_200_with_a_move(client):
    board = ["." * 7] * 7
    body = search(client, game="tictactoe", state={"board": board, "k": 4}, algorithm={"name": "minimax"},
                  time_limit_ms=50)
    assert body["stats"]["timed_out"] is True and body["stats"]["stop_reason"] == "time_limit"
    assert body["move"] in range(49)


def test_the_games_are_listed_with_everything_a_front_end_needs(client):
    response = client.get("/v1/games")
    assert response.status_code == 200
    games = response.get_json()["games"]
    assert [g["id"] for g in games] == list(engine.api.GAME_MODULES)
    for game in games:
        assert client.get(f"/v1/games/{game['id']}").get_json() == game


def test_each_game_s_initial_state_has_legal_moves(client):
    for game in client.get("/v1/games").get_json()["games"]:
        response = client.post(f"/v1/games/{game['id']}/legal-moves", json={"state": game["initial_state"]})
        assert response.status_code == 200, (game["id"], response.get_json())
        position = response.get_json()
        assert position["terminal"] is False and position["legal_moves"]


def test_each_game_s_example_request_runs(client):
    for game in client.get("/v1/games").get_json()["games"]:
        example = {**game["example_request"], "time_limit_ms": 200}
        response = client.post("/v1/search", json=example)
        assert response.status_code == 200, (game["id"], response.get_json())
        assert response.get_json()["move"] in client.post(
            f"/v1/games/{game['id']}/legal-moves", json={"state": example["state"]}).get_json()["legal_moves"]


def test_legal_moves_of_a_tictactoe_position(client):
    response = client.post("/v1/games/tictactoe/legal-moves", json={"state": {"board": ["X.O", "...", "..."]}})
    assert response.get_json() == {"to_move": "X", "players": ["X", "O"], "legal_moves": [1, 3, 4, 5, 6, 7, 8],
                                   "terminal": False, "utilities": None, "result": None}


def test_apply_a_winning_move(client):
    response = client.post("/v1/games/tictactoe/apply", json={"state": {"board": ["XX.", "OO.", "..."]}, "move": 2})
    body = response.get_json()
    assert response.status_code == 200
    assert body["state"]["board"][0] == "XXX"
    assert body["terminal"] is True and body["utilities"] == {"X": 1.0, "O": -1.0}


def test_apply_in_a_tree_descends_to_the_subtree(client, figure_5_2):
    body = client.post("/v1/games/tree/apply", json={"state": figure_5_2, "move": "C"}).get_json()
    assert body["to_move"] == "MIN" and body["legal_moves"] == [0, 1, 2]
    assert [c["value"] for c in body["state"]["root"]["children"]] == [2, 4, 6]


def test_liveness_and_readiness(client, app):
    assert client.get("/livez").get_json() == {"status": "ok"}
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "ready" and ready["cores"]["native"] == native.available()
    admission(app).drain()
    response = client.get("/readyz")
    assert response.status_code == 503 and response.mimetype == "application/problem+json"
    assert client.get("/livez").status_code == 200


def test_metrics_count_requests_and_searches(client, figure_5_2):
    def sample(text, name, **labels):
        wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
        for line in text.splitlines():
            if line.startswith(f"{name}{{{wanted}}} "):
                return float(line.rsplit(" ", 1)[1])
        return 0.0

    before = client.get("/metrics").get_data(as_text=True)
    search(client, game="tree", state=figure_5_2, algorithm={"name": "minimax"})
    after = client.get("/metrics").get_data(as_text=True)
    tree_minimax = {"algorithm": "minimax", "core": "python", "game": "tree"}
    assert sample(after, "tactician_searches_total", **tree_minimax) == sample(before, "tactician_searches_total", **tree_minimax) + 1
    assert (sample(after, "tactician_search_nodes_total", **tree_minimax)
            - sample(before, "tactician_search_nodes_total", **tree_minimax)) == 13
    route = {"method": "POST", "route": "/v1/search", "status": "200"}
    assert sample(after, "tactician_http_requests_total", **route) == sample(before, "tactician_http_requests_total", **route) + 1


def test_docs_are_swagger_ui_served_locally_without_a_validator_badge(client):
    response = client.get("/docs")
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "swagger-ui-bundle.js" in html and "/openapi.yaml" in html
    assert "http://" not in html and "https://" not in html
    assert '"validatorUrl": null' in html
    assert client.client.get("/docs/swagger-ui-bundle.js").status_code == 200  # an asset: not in the spec


def test_the_validating_client_rejects_a_response_that_is_off_spec(monkeypatch):
    monkeypatch.setattr(engine.api, "describe_game", lambda game_id: {"id": game_id})
    with pytest.raises(InvalidData):
        ValidatingClient(make_app()).get("/v1/games/tree")


def spec_examples(spec):
    """(path, body) for every request example in the spec; path examples are keyed by game id."""
    for path, item in spec["paths"].items():
        for operation in item.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                for key, example in operation["requestBody"]["content"]["application/json"]["examples"].items():
                    yield path.replace("{game}", key), example["value"]


def test_every_example_in_the_spec_is_answered_200(client, spec):
    for path, body in spec_examples(spec):
        if "time_limit_ms" in body:
            body = {**body, "time_limit_ms": min(body["time_limit_ms"], 300)}
        response = client.post(path, json=body)
        assert response.status_code == 200, (path, body, response.get_json())


def test_2048_alternates_a_move_and_a_new_tile(client):
    board = [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    after = client.post("/v1/games/2048/apply", json={"state": {"board": board}, "move": "left"}).get_json()
    assert after["to_move"] == "chance" and after["state"]["board"][0] == [4, 0, 0, 0]
    assert {"cell": [0, 1], "tile": 2} in after["legal_moves"]
    spawned = client.post("/v1/games/2048/apply", json={"state": after["state"], "move": {"cell": [0, 1], "tile": 2}})
    assert spawned.status_code == 200
    assert spawned.get_json()["state"]["board"][0] == [4, 2, 0, 0] and spawned.get_json()["to_move"] == "player"


def test_the_app_loads_every_game_and_algorithm_at_start_up_so_no_deadline_pays_for_an_import():
    """A fresh interpreter: after create_app, the first request finds every engine module loaded."""
    import subprocess
    import sys
    modules = [*engine.api.GAME_MODULES.values(), *engine.api.ALGORITHM_MODULES.values()]
    check = ("import sys; from service.app import create_app; create_app(); "
             f"missing = [m for m in {modules!r} if m not in sys.modules]; print(missing)")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("utility, choice, values, lottery_ce", [
    ("linear", "flat", (500.0, 500.0), 500.0),
    ({"power": 0.5}, "flat", (22.360679774997898, 15.811388300841896), 250.0),
    ({"power": 2}, "lottery", (250_000.0, 500_000.0), 707.1067811865476),
])
def test_expectimax_with_a_risk_attitude_reads_the_note_s_table(client, utility, choice, values, lottery_ce):
    """CS188's lottery [0.5, $0; 0.5, $1000] against a flat $500, through the service."""
    tree = {"root": {"type": "max", "children": [
        {"move": "flat", "value": 500},
        {"move": "lottery", "type": "chance", "children": [{"p": 0.5, "value": 0}, {"p": 0.5, "value": 1000}]}]}}
    body = search(client, game="tree", state=tree,
                  algorithm={"name": "expectimax", "utility": utility, "pruning": False})
    moves = {m["move"]: m for m in body["moves"]}
    assert body["move"] == choice and body["algorithm"]["utility"] == utility
    assert (moves["flat"]["value"], moves["lottery"]["value"]) == pytest.approx(values)
    assert moves["lottery"]["certainty_equivalent"] == pytest.approx(lottery_ce)
    assert body["certainty_equivalent"] == pytest.approx(moves[choice]["certainty_equivalent"])


@pytest.mark.parametrize("algorithm", [{"name": "expectimax", "utility": {"power": 0}},
                                       {"name": "expectimax", "utility": {"exponential": 0}},
                                       {"name": "expectimax", "utility": "quadratic"},
                                       {"name": "alphabeta", "utility": {"power": 2}}])
def test_a_bad_utility_is_a_422_naming_it(client, figure_5_2, algorithm):
    response = client.post("/v1/search", json={"game": "tree", "state": figure_5_2, "algorithm": algorithm})
    assert response.status_code == 422 and "algorithm.utility" in response.get_json()["errors"]


def test_connect4_apply_answers_in_the_moves_notation_and_the_answer_loads_back(client):
    """Issue 34 #7: a moves state (columns 1..7) answered a bare board; a move is the 0-based column."""
    applied = client.post("/v1/games/connect4/apply", json={"state": {"moves": "4453"}, "move": 3}).get_json()
    assert applied["state"]["moves"] == "44534" and applied["state"]["board"][-1] == "..OXX.."
    again = client.post("/v1/games/connect4/legal-moves", json={"state": applied["state"]})
    assert again.status_code == 200 and again.get_json()["to_move"] == applied["to_move"] == "O"
    disagreeing = {"moves": "4453", "board": applied["state"]["board"]}
    refused = client.post("/v1/games/connect4/legal-moves", json={"state": disagreeing})
    assert refused.status_code == 422 and "state.board" in refused.get_json()["errors"]


@pytest.mark.parametrize("values, r", [([100, 0], 1), ([1000, -1000], 0.05), ([1000, -1000], -0.05)])
def test_an_exponential_utility_that_saturates_answers_200(client, values, r):
    """Issue 34: U(x) rounds to its limit 1/r once r x passes ~37, and its inverse answered 500."""
    state = {"root": {"type": "max", "children": [{"value": v} for v in values]}}
    response = client.post("/v1/search", json={"game": "tree", "state": state,
                                               "algorithm": {"name": "expectimax", "utility": {"exponential": r}}})
    assert response.status_code == 200
    assert min(values) <= response.get_json()["certainty_equivalent"] <= max(values)


def test_a_small_tree_is_searched_in_the_worker_and_a_large_one_in_a_search_process(client, figure_5_2,
                                                                                     monkeypatch):
    """Issue 33: a textbook tree's search ends in microseconds, and a search process would only delay it
    (``Search.small``: states times passes bounded); a search that its state does not bound goes to one."""
    import service.routes.search as route
    used = []
    real = route.pool_for
    monkeypatch.setattr(route, "pool_for", lambda app: used.append(1) or real(app))
    search(client, game="tree", state=figure_5_2, algorithm={"name": "alphabeta"})
    assert used == []
    chain = {"value": 1}
    for _ in range(60):                        # 61 nodes, 60 plies deep, with evaluations: 60 passes
        chain = {"type": "max", "eval": 0, "children": [chain]}
    search(client, game="tree", state={"root": chain}, algorithm={"name": "expectimax"})
    assert used == [1]
