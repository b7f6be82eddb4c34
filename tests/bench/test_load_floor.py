"""The load generator's floor (bench/load/floor.py), run for real: nginx must answer a search exactly as
the service refuses one, so that locust's figures against it and against the service compare."""
import pytest
import requests

from bench.load.floor import Floor, service_refusal
from service.app import create_app
from tests.debian import require
from tests.service.test_door import app_refusal

SEARCH = {"game": "tictactoe", "state": {"board": ["." * 7] * 7, "k": 4}, "algorithm": {"name": "minimax"},
          "time_limit_ms": 5000}


@pytest.fixture(scope="module")
def floor():
    server = Floor(require("nginx"))
    yield server
    server.stop()


def test_the_floor_refuses_a_search_with_the_service_s_refusal(floor):
    body, retry_after = service_refusal()
    response = requests.post(f"{floor.base}/v1/search", json=SEARCH, timeout=5)
    assert response.status_code == 503
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.headers["Retry-After"] == str(retry_after)
    assert response.headers["Connection"] == "close"
    assert response.text == body


def test_the_service_s_refusal_is_the_one_the_app_gives():
    response = app_refusal(create_app(), {})
    body, retry_after = service_refusal()
    assert response.status_code == 503
    assert response.get_data(as_text=True) == body
    assert response.headers["Retry-After"] == str(retry_after)


def test_the_floor_answers_livez_on_both_ports(floor):
    for base in (floor.base, floor.health):
        response = requests.get(f"{base}/livez", timeout=5)
        assert response.status_code == 200
        assert response.json() == {"status": "ok"}
