"""Locust users for the load and abuse scenarios of issue 17 (run by ``python -m bench.load``).

Each class is one kind of client; ``bench/load/__main__.py`` picks the classes of a scenario. Request names
group the statistics: ``cheap`` (game descriptions and legal moves), ``search 1s`` and so on."""
import itertools
import os
import time

from locust import FastHttpUser, between, constant, task

from bench.load import HEALTH_URL_ENV, user_key

BIG_BOARD = {"board": ["." * 7] * 7, "k": 4}  # minimax cannot finish it: every search runs to its limit
SMALL = {"board": ["X.O", "...", "..."]}


USER_NUMBERS = itertools.count()


class Client(FastHttpUser):
    """A user with an API key of its own (all users come from one address): the per-client limits apply
    to each user, as they would to distinct clients. Users are locust's ``FastHttpUser``: the client shares
    the two cores with the server, and this one spends a fraction of the CPU a request that ``HttpUser``
    (requests) does, which it would otherwise add to the latencies it reports."""

    abstract = True

    def on_start(self):
        self.key = {"X-API-Key": user_key("user", next(USER_NUMBERS))}

    def retry_after(self, response) -> None:
        """A refused client waits as told, as a well-behaved client does."""
        time.sleep(float(response.headers.get("Retry-After", "1")))


def search_body(time_limit_ms: int) -> dict:
    return {"game": "tictactoe", "state": BIG_BOARD, "algorithm": {"name": "minimax"},
            "time_limit_ms": time_limit_ms}


class Mixed(Client):
    """Scenario "mixed": cheap requests and 1 s searches."""

    wait_time = between(0.1, 0.5)

    @task(3)
    def cheap(self):
        self.client.get("/v1/games/tictactoe", headers=self.key, name="cheap")
        self.client.post("/v1/games/tictactoe/legal-moves", json={"state": SMALL}, headers=self.key, name="cheap")

    @task(1)
    def search(self):
        self.client.post("/v1/search", json=search_body(1000), headers=self.key, name="search 1s")


class LongSearcher(Client):
    """Scenario "flood": 5 s searches, as many as there are users; refusals (503) are expected, and
    honoured (the user waits ``Retry-After``)."""

    wait_time = constant(0)

    @task
    def search(self):
        with self.client.post("/v1/search", json=search_body(5000), headers=self.key, name="search 5s",
                              catch_response=True) as response:
            if response.status_code == 503:
                response.success()
                self.environment.events.request.fire(
                    request_type="POST", name="search 5s refused (503)", context={}, exception=None,
                    response_time=response.request_meta["response_time"], response_length=len(response.content))
                self.retry_after(response)


class Prober(Client):
    """Health checks, ten a second, during every scenario: on the service's port, and on the health
    listener's when there is one."""

    fixed_count = 1
    wait_time = constant(0.1)

    @task
    def livez(self):
        self.client.get("/livez", headers=self.key, name="/livez")
        if os.environ.get(HEALTH_URL_ENV):
            self.client.get(f"{os.environ[HEALTH_URL_ENV]}/livez", headers=self.key, name="/livez (health port)")


class Hog(FastHttpUser):
    """Scenario "starve": one client (one API key) with two 10 s searches at a time."""

    fixed_count = 2
    wait_time = constant(0)

    @task
    def search(self):
        with self.client.post("/v1/search", json=search_body(10000), headers={"X-API-Key": "hog"},
                              name="hog search 10s", catch_response=True) as response:
            if response.status_code in (429, 503):
                response.success()


class Victim(Client):
    """Scenario "starve" (and "slowloris"): another client's 100 ms searches."""

    fixed_count = 1
    wait_time = constant(0.2)

    @task
    def search(self):
        self.client.post("/v1/search", json=search_body(100), headers={"X-API-Key": "victim"},
                         name="victim search 100ms")
