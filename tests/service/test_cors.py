"""CORS: browser pages on other origins may call the API (``CORS_ORIGINS``, default ``*`` without
credentials); preflights are answered, and an origin the setting excludes gets no permission."""
import pytest

from service.config import Settings
from tests.service.support import FIGURE_5_2, make_app

FRONT = "https://front.example"
SEARCH = {"game": "tree", "state": FIGURE_5_2, "algorithm": {"name": "minimax"}}


def preflight(client, origin, path="/v1/search"):
    return client.options(path, headers={"Origin": origin, "Access-Control-Request-Method": "POST",
                                         "Access-Control-Request-Headers": "content-type"})


def test_by_default_any_origin_may_call_without_credentials():
    client = make_app().test_client()
    answer = preflight(client, FRONT)
    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]
    assert answer.headers["Access-Control-Allow-Headers"].lower() == "content-type"
    assert "Access-Control-Allow-Credentials" not in answer.headers
    response = client.post("/v1/search", json=SEARCH, headers={"Origin": FRONT})
    assert response.status_code == 200 and response.headers["Access-Control-Allow-Origin"] == "*"
    problem = client.post("/v1/search", json={}, headers={"Origin": FRONT})  # errors are readable too
    assert problem.status_code == 422 and problem.headers["Access-Control-Allow-Origin"] == "*"


def test_only_the_listed_origins_may_call():
    client = make_app(CORS_ORIGINS=f"{FRONT}, http://localhost:3000").test_client()
    allowed = preflight(client, FRONT)
    assert allowed.headers["Access-Control-Allow-Origin"] == FRONT and "Origin" in allowed.headers["Vary"]
    assert client.post("/v1/search", json=SEARCH, headers={"Origin": FRONT}).headers[
        "Access-Control-Allow-Origin"] == FRONT
    for origin in ("https://elsewhere.example", "https://front.example.evil"):
        assert "Access-Control-Allow-Origin" not in preflight(client, origin).headers
        refused = client.post("/v1/search", json=SEARCH, headers={"Origin": origin})
        assert "Access-Control-Allow-Origin" not in refused.headers  # the browser withholds the answer


def test_the_stream_may_be_called_across_origins():
    client = make_app().test_client()
    assert preflight(client, FRONT, "/v1/search/stream").headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("value", [",", "*, https://front.example"])
def test_a_bad_setting_stops_start_up(value):
    with pytest.raises(ValueError, match="CORS_ORIGINS"):
        Settings.from_env({"CORS_ORIGINS": value})


def test_a_page_may_read_retry_after_and_the_request_id():
    client = make_app().test_client()
    response = client.post("/v1/search", json=SEARCH, headers={"Origin": FRONT})
    exposed = {h.strip().lower() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"retry-after", "x-request-id"} <= exposed
    problem = client.post("/v1/search", json={}, headers={"Origin": FRONT})
    assert "retry-after" in problem.headers["Access-Control-Expose-Headers"].lower()


def test_the_preflight_advertises_only_the_methods_the_routes_take():
    answer = preflight(make_app().test_client(), FRONT)
    methods = {m.strip() for m in answer.headers["Access-Control-Allow-Methods"].split(",")}
    assert methods == {"GET", "HEAD", "POST", "OPTIONS"}


@pytest.mark.parametrize("origins", ["*", FRONT])
def test_a_request_without_origin_gets_no_cors_headers(origins):
    """Only a browser's cross-origin call (it sends ``Origin``) needs them; the others skip flask-cors."""
    client = make_app(CORS_ORIGINS=origins).test_client()
    for response in (client.post("/v1/search", json=SEARCH), client.post("/v1/search", json={}),
                     client.get("/livez")):
        assert not [name for name, _ in response.headers if name.lower().startswith("access-control-")]
    assert client.get("/livez", headers={"Origin": FRONT}).headers["Access-Control-Allow-Origin"] in ("*", FRONT)
