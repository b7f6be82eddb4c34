"""``algorithm.nodes`` through the service: a budget out of bounds is a 422 naming the field, and on a real
server the same request gives the same answer however loaded the server is, on either core."""
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from engine.deadline import MAX_NODES
from tests.service.server import gunicorn
from tests.service.support import ValidatingClient, make_app

REQUEST = {"game": "connect4", "state": {"moves": "4453"}, "time_limit_ms": 9000}
ANSWER = ("move", "value", "pv")


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


@pytest.mark.parametrize("nodes", [0, -1, MAX_NODES + 1, 2.5, "100", True])
def test_a_budget_out_of_bounds_is_a_422_naming_it(client, nodes):
    response = client.post("/v1/search", json={**REQUEST, "algorithm": {"name": "alphabeta", "nodes": nodes}})
    assert response.status_code == 422 and "algorithm.nodes" in response.get_json()["errors"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    limits = {"MAX_SEARCHES_PER_CLIENT": 16, "SEARCH_SECONDS_PER_CLIENT_MINUTE": 3600}
    with gunicorn(tmp_path_factory.mktemp("nodes"), SEARCHES_PER_WORKER=4, **limits) as (base, _):
        yield base


@pytest.mark.parametrize("core", ["native", "python"])
def test_on_a_real_server_a_budget_gives_the_same_answer_at_any_load(server, core):
    body = {**REQUEST, "algorithm": {"name": "alphabeta", "nodes": 3000, "core": core}}

    def ask(_):
        return requests.post(f"{server}/v1/search", json=body, timeout=60).json()
    alone = ask(0)
    with ThreadPoolExecutor(6) as pool:
        crowded = list(pool.map(ask, range(6)))
    assert alone["stats"]["stop_reason"] == "node_limit" and alone["stats"]["core"] == core
    for answer in crowded:
        assert {k: answer[k] for k in ANSWER} == {k: alone[k] for k in ANSWER}
        assert answer["stats"]["nodes"] == alone["stats"]["nodes"]
        assert answer["stats"]["stop_reason"] == "node_limit"
