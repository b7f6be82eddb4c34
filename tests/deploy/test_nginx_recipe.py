"""The load-balanced recipe, run for real on loopback (bench/load/cluster.py): nginx (Debian's package)
with deploy/nginx/tactician.conf in front of three instances of the service, sharing one Redis (Debian's
redis-server) for the per-client limits, each instance with the recipe's settings
(deploy/nginx/tactician.env). Every wait and every load loop is bounded."""
import http.client
import json
import os
from pathlib import Path
import threading
import time

import pytest
import requests

from bench.load.cluster import Cluster
from tests.debian import require

INSTANCES = 3
SEARCH = {"game": "connect4", "state": {"moves": "4453"}, "algorithm": {"name": "alphabeta"},
          "time_limit_ms": 200}
RULES = {"state": {"moves": "4453"}}
SEARCHES = "tactician_searches_total"
RECIPE_ENV = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "tactician.env"
LOAD_CLIENTS = 4
# The clients' keys, listed as the recipe suggests: each load client has a share of its own.
API_KEYS = ",".join(["hog", "not-the-hog", *(f"load-{n}" for n in range(LOAD_CLIENTS))])


def recipe_settings() -> dict:
    """The instances' settings the recipe gives (``NAME=value`` lines; ``#`` comments), but the Redis's
    address, which is the cluster's own."""
    lines = [line.strip() for line in RECIPE_ENV.read_text().splitlines()]
    settings = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    settings.pop("RATE_LIMIT_STORAGE_URI")
    return settings


RECIPE = recipe_settings()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("recipe")
    os.chmod(workdir, 0o755)
    built = Cluster(workdir, instances=INSTANCES, workers=1,
                    env={**RECIPE, "MAX_TIME_LIMIT_MS": "5000", "API_KEYS": API_KEYS},
                    nginx=require("nginx"), redis_server=require("redis-server"))
    try:
        yield built
    finally:
        built.close()


class Load:
    """Clients sending a mix of searches and rules calls through nginx until stopped (bounded: at most
    ``seconds``); every answer that is not a 200 is kept."""

    def __init__(self, base: str, clients: int = LOAD_CLIENTS, seconds: float = 60):
        self.base, self.stop_at = base, time.monotonic() + seconds
        self.stopped = threading.Event()
        self.ok, self.failures = 0, []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(n,), daemon=True) for n in range(clients)]

    def run(self, n: int) -> None:
        # A connection a request: an nginx reload closes idle keep-alive connections, and a client that
        # sends on one at that instant sees a reset before nginx has read anything (clients retry that;
        # this load counts it as a failure, so it does not reuse connections across the reloads).
        session = requests
        i = 0
        while not self.stopped.is_set() and time.monotonic() < self.stop_at:
            i += 1
            try:
                if (i + n) % 2:
                    response = session.post(f"{self.base}/v1/search", json=SEARCH, timeout=20,
                                            headers={"X-API-Key": f"load-{n}"})
                else:
                    response = session.post(f"{self.base}/v1/games/connect4/legal-moves", json=RULES, timeout=20,
                                            headers={"X-API-Key": f"load-{n}"})
                outcome = response.status_code
            except requests.RequestException as exc:
                outcome = type(exc).__name__
            with self.lock:
                if outcome == 200:
                    self.ok += 1
                else:
                    self.failures.append(outcome)

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        for t in self.threads:
            t.join(timeout=30)


def test_a_mixed_load_spreads_over_every_instance(cluster):
    before = [i.metric(SEARCHES) for i in cluster.instances]
    with Load(cluster.base) as load:
        time.sleep(4)
    after = [i.metric(SEARCHES) for i in cluster.instances]
    assert load.failures == [] and load.ok > 20
    assert all(a > b for a, b in zip(after, before)), (before, after)


def test_nginx_errors_are_problem_json(cluster):
    response = requests.get(f"{cluster.base}/v1/games?" + "x" * 70_000, timeout=5)
    assert response.status_code == 414
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["status"] == 414


def test_a_body_too_large_for_nginx_is_problem_json(cluster):
    response = requests.post(f"{cluster.base}/v1/search", data=b"x" * (3 << 20), timeout=10,
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["status"] == 413


def test_no_instance_to_answer_is_problem_json(cluster):
    """Every instance out of the upstream: nginx's own 502, as problem+json; then all back."""
    try:
        cluster.write_config(down=cluster.instances)
        response = requests.post(f"{cluster.base}/v1/games/connect4/legal-moves", json=RULES, timeout=10)
    finally:
        cluster.write_config()
    assert response.status_code == 502
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["status"] == 502
    assert requests.post(f"{cluster.base}/v1/games/connect4/legal-moves", json=RULES, timeout=10).status_code == 200


def test_stopping_an_instance_under_load_loses_nothing(cluster):
    """SIGTERM to one instance mid-load: it finishes what it holds, nginx sends the rest elsewhere."""
    victim = cluster.instances[0]
    with Load(cluster.base) as load:
        time.sleep(1.5)
        assert victim.stop() == 0
        served_by_others = [i.metric(SEARCHES) for i in cluster.instances[1:]]
        time.sleep(2.5)
    assert load.failures == [] and load.ok > 10
    assert [i.metric(SEARCHES) for i in cluster.instances[1:]] > served_by_others
    victim.start()


def test_a_rolling_restart_under_load_fails_no_request(cluster):
    """One at a time: out of the upstream (reload), SIGTERM (it finishes what it holds), start, back in."""
    with Load(cluster.base) as load:
        cluster.rolling_restart()
        time.sleep(1)
    assert load.failures == [] and load.ok > 20


def test_the_recipe_switches_the_per_client_limits_on():
    assert int(RECIPE["MAX_SEARCHES_PER_CLIENT"]) >= 1 and int(RECIPE["SEARCH_SECONDS_PER_CLIENT_MINUTE"]) >= 1
    assert RECIPE["TRUSTED_PROXIES"] == "127.0.0.1"  # nginx, in front of the instances on the same machine


LONG_SEARCH = dict(SEARCH, state={"moves": ""}, time_limit_ms=3000)


def holding(count: int, send) -> tuple:
    """``count`` threads, started, each calling ``send()`` (a long search's status) once; and the list
    their statuses go to."""
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(send())) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, answers


def test_a_client_over_its_limit_on_one_instance_is_over_it_on_all(cluster):
    """The per-client limits live in the shared Redis: while a client holds its MAX_SEARCHES_PER_CLIENT
    searches on one instance, its next concurrent search is refused on every other one, and another
    client is served."""
    first, others = cluster.instances[0], cluster.instances[1:]
    hogs, answers = holding(int(RECIPE["MAX_SEARCHES_PER_CLIENT"]), lambda: requests.post(
        f"{first.base}/v1/search", json=LONG_SEARCH, headers={"X-API-Key": "hog"}, timeout=20).status_code)
    try:
        time.sleep(1.0)
        for other in others:
            refused = requests.post(f"{other.base}/v1/search", json=SEARCH, headers={"X-API-Key": "hog"}, timeout=10)
            assert refused.status_code == 429 and "Retry-After" in refused.headers
            assert refused.headers["Content-Type"].startswith("application/problem+json")
        served = requests.post(f"{others[0].base}/v1/search", json=SEARCH, headers={"X-API-Key": "not-the-hog"},
                               timeout=10)
        assert served.status_code == 200
    finally:
        for hog in hogs:
            hog.join(timeout=20)
    assert answers == [200] * len(hogs)


def search_from(cluster, source: str, body: dict = SEARCH) -> int:
    """The status of a search of ``body`` sent through nginx from the loopback address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", cluster.nginx_port, timeout=20,
                                            source_address=(source, 0))
    try:
        connection.request("POST", "/v1/search", json.dumps(body), {"Content-Type": "application/json"})
        return connection.getresponse().status
    finally:
        connection.close()


def test_behind_nginx_each_user_is_a_client_of_its_own(cluster):
    """Behind the recipe's nginx every user was nginx (127.0.0.1), sharing one share: the instances now
    trust nginx's X-Forwarded-For (TRUSTED_PROXIES), so a user over its limit is refused and another is
    served."""
    hogs, answers = holding(int(RECIPE["MAX_SEARCHES_PER_CLIENT"]),
                            lambda: search_from(cluster, "127.0.0.2", LONG_SEARCH))
    try:
        time.sleep(1.0)
        assert search_from(cluster, "127.0.0.2") == 429
        assert search_from(cluster, "127.0.0.3") == 200
    finally:
        for hog in hogs:
            hog.join(timeout=20)
    assert answers == [200] * len(hogs)
