"""Issue 34 #3: the per-client limits are off by default (an internal service behind a load balancer is
limited by its instances' admission alone) and, switched on where the service faces the public, count
the right client: the address a trusted proxy forwards, and only the API keys the operator lists."""
from contextlib import contextmanager
import hashlib

import pytest

from service.config import Settings
from service.fairness import fairness
from tests.service.support import ValidatingClient, make_app
from tests.service.test_bad_inputs import problem

SEARCH = {"game": "tictactoe", "state": {"board": ["..."] * 3}, "algorithm": {"name": "minimax", "depth": 1},
          "time_limit_ms": 500}
PROXY, USER, OTHER_USER, STRANGER = "10.1.2.3", "203.0.113.7", "203.0.113.8", "198.51.100.9"


@contextmanager
def holding(app, api_key=None, address="127.0.0.1", time_limit_ms=1000):
    """One search of the client with ``api_key`` at ``address``, running for the body of the ``with``."""
    headers = {"X-API-Key": api_key} if api_key else {}
    with app.test_request_context(headers=headers, environ_base={"REMOTE_ADDR": address}):
        with fairness(app).search(time_limit_ms):
            yield


def post(client, api_key=None, peer="127.0.0.1", forwarded_for=None):
    headers = {"X-API-Key": api_key} if api_key else {}
    if forwarded_for:
        headers["X-Forwarded-For"] = forwarded_for
    return client.post("/v1/search", json=SEARCH, headers=headers, environ_base={"REMOTE_ADDR": peer})


def test_by_default_one_address_may_run_many_searches_and_spend_minutes_of_search():
    """A game server searching for its players from one address got 429 on its second concurrent
    search and after a minute of search time."""
    assert Settings().max_searches_per_client == 0 and Settings().search_seconds_per_client_minute == 0
    app = make_app()
    client = ValidatingClient(app)
    with holding(app, time_limit_ms=60_000), holding(app, time_limit_ms=60_000):
        assert post(client).status_code == 200


@pytest.mark.parametrize("name", ["MAX_SEARCHES_PER_CLIENT", "SEARCH_SECONDS_PER_CLIENT_MINUTE"])
def test_a_limit_is_0_or_positive(name):
    assert getattr(Settings.from_env({name: "0"}), name.lower()) == 0
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: "-1"})


@pytest.mark.parametrize("name, value", [("TRUSTED_PROXIES", "10.0.0.0/33"), ("TRUSTED_PROXIES", "nginx"),
                                         ("API_KEY_DIGESTS", "abc"), ("API_KEY_DIGESTS", "g" * 64)])
def test_a_bad_proxy_or_digest_stops_start_up(name, value):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})


def test_behind_a_trusted_proxy_each_forwarded_user_is_a_client_of_its_own():
    """Behind the nginx recipe every user shared the proxy's bucket: X-Forwarded-For was ignored."""
    app = make_app(MAX_SEARCHES_PER_CLIENT=1, TRUSTED_PROXIES="10.0.0.0/8, 127.0.0.1")
    client = ValidatingClient(app)
    with holding(app, address=USER):
        problem(post(client, peer=PROXY, forwarded_for=USER), 429)
        assert post(client, peer=PROXY, forwarded_for=f"{USER}, {OTHER_USER}").status_code == 200  # one hop
        assert post(client, peer=PROXY, forwarded_for=OTHER_USER).status_code == 200


def test_a_peer_that_is_not_a_trusted_proxy_keeps_its_own_address():
    """A client cannot name itself someone else with a forged X-Forwarded-For."""
    app = make_app(MAX_SEARCHES_PER_CLIENT=1, TRUSTED_PROXIES=PROXY)
    client = ValidatingClient(app)
    with holding(app, address=STRANGER):
        problem(post(client, peer=STRANGER, forwarded_for=OTHER_USER), 429)
    with holding(app, address=OTHER_USER):
        assert post(client, peer=STRANGER, forwarded_for=OTHER_USER).status_code == 200


@pytest.mark.parametrize("keys", [{"API_KEYS": "game-server,ci"},
                                  {"API_KEY_DIGESTS": hashlib.sha256(b"game-server").hexdigest().upper()
                                   + "," + hashlib.sha256(b"ci").hexdigest()}])
def test_where_keys_are_listed_an_unknown_key_is_refused_with_401(keys):
    """Any client could pick a fresh key to escape its limit."""
    app = make_app(MAX_SEARCHES_PER_CLIENT=1, **keys)
    client = ValidatingClient(app)
    answer = post(client, api_key="fresh")
    assert "X-API-Key" in problem(answer, 401)["detail"] and answer.headers["WWW-Authenticate"].lower().startswith("apikey")
    with holding(app, api_key="game-server"):
        problem(post(client, api_key="game-server"), 429)
        assert post(client, api_key="ci").status_code == 200
        assert post(client).status_code == 200  # no key: counted by address


def test_where_no_keys_are_listed_a_key_is_not_a_way_out_of_the_address_limit():
    app = make_app(MAX_SEARCHES_PER_CLIENT=1)
    client = ValidatingClient(app)
    with holding(app, api_key="first"):
        problem(post(client, api_key="second"), 429)


def test_without_keys_configured_no_request_pays_a_keys_digest(monkeypatch):
    """Every request is counted by address when no keys are configured: its key's SHA-256 digest, which
    the request log and the per-client limits each asked for, is not computed (issue 33: trivial searches
    a second)."""
    from service import fairness as fairness_module
    app = make_app()
    monkeypatch.setattr(fairness_module, "api_key_digest", lambda key: pytest.fail("digest computed"))
    assert fairness_module.fairness(app).key_of("some-key", "10.0.0.1") == "addr:10.0.0.1"
