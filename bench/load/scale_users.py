"""Locust users of the scale-out bench (``python -m bench.load.nginx``), each a client with an API key of
its own, sending back to back (no think time: the bench measures what the cluster serves, not a user's
pace). Request names group the statistics: ``cheap`` (a game's description and legal moves), ``search 1s``
and ``search tiny`` (bench/load/bodies.py)."""
import itertools

from locust import FastHttpUser, constant, task

from bench.load.bodies import CONNECT4, SEARCH_1S, SEARCH_TINY

USER_NUMBERS = itertools.count()


class Client(FastHttpUser):
    abstract = True
    wait_time = constant(0)

    def on_start(self):
        self.key = {"X-API-Key": f"scale-{next(USER_NUMBERS)}"}


class Cheap(Client):
    """Rules calls only, half descriptions and half legal moves."""

    @task
    def describe(self):
        self.client.get("/v1/games/connect4", headers=self.key, name="cheap")

    @task
    def legal_moves(self):
        self.client.post("/v1/games/connect4/legal-moves", json={"state": CONNECT4}, headers=self.key, name="cheap")


class Searcher(Client):
    """One-second searches."""

    @task
    def search(self):
        self.client.post("/v1/search", json=SEARCH_1S, headers=self.key, name="search 1s")


class TinySearcher(Client):
    """Searches that cost the route's fixed costs and next to nothing in the engine."""

    @task
    def search(self):
        self.client.post("/v1/search", json=SEARCH_TINY, headers=self.key, name="search tiny")


class RollingCheap(Cheap):
    """The rolling restart's load: four clients of rules calls, paced ..."""

    fixed_count = 4
    wait_time = constant(0.05)


class RollingSearcher(Searcher):
    """... and three of one-second searches, back to back (three instances of two workers each: half of
    the search slots busy)."""

    fixed_count = 3
