"""Per-client fairness: a client (its ``X-API-Key`` header when it sends one, else its address) may hold
at most ``MAX_SEARCHES_PER_CLIENT`` searches at once and spend at most ``SEARCH_SECONDS_PER_CLIENT_MINUTE``
search-seconds a minute; over either, 429 problem+json with ``Retry-After``.

The counts live in a storage of the ``limits`` library (``RATE_LIMIT_STORAGE_URI``; the library
flask-limiter is built on, used directly: flask-limiter would check its own limits, which we have none of,
on every request): ``memory://`` by default, which is
per worker process, except the count of searches running, which the workers of one gunicorn share
(:mod:`service.shared_counts`): a client cannot hold a search on every worker, leaving none for the
others; ``redis://host:6379`` shares both between the workers and the instances of a deployment, which
makes them exact. A search is charged its time limit,
in milliseconds, when it is admitted (the most it can spend) and refunded what it did not use when it
answers.
"""
from contextlib import contextmanager
import hashlib
import math
import time

from flask import Flask, request
from limits import RateLimitItemPerMinute
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from service.shared_counts import SharedCounts

EXTENSION = "tactician.fairness"
API_KEY_HEADER = "X-API-Key"
NAMESPACE = "search-seconds"
MEMORY = "memory://"
# (client, worker) pairs the shared count of running searches can hold: more than a server's threads.
SHARED_CAPACITY = 4096


def client_key() -> str:
    """Who is asking: a digest of the API key when one is sent (the key itself is never stored), else
    the address the connection came from."""
    return key_of(request.headers.get(API_KEY_HEADER), request.remote_addr)


def key_of(api_key: str | None, address: str | None) -> str:
    """:func:`client_key` from the request's ``X-API-Key`` header and its client's address."""
    if api_key:
        return "key:" + hashlib.sha256(api_key.encode()).hexdigest()[:32]
    return "addr:" + (address or "unknown")


class Fairness:
    """The two per-client limits, over one storage. The budget is counted in milliseconds in a fixed
    one-minute window."""

    def __init__(self, settings):
        self.storage = storage_from_string(settings.rate_limit_storage_uri)
        self.strategy = FixedWindowRateLimiter(self.storage)
        self.max_running = settings.max_searches_per_client
        self.budget_s = settings.search_seconds_per_client_minute
        self.budget = RateLimitItemPerMinute(self.budget_s * 1000)
        # A worker that dies holding a count must not hold it for ever.
        self.running_expiry = math.ceil(settings.max_time_limit_ms / 1000) + 60
        self.shared = SharedCounts(SHARED_CAPACITY) if settings.rate_limit_storage_uri == MEMORY else None

    @contextmanager
    def search(self, time_limit_ms: int):
        """Hold one of the client's searches for the body of the ``with``, charged ``time_limit_ms`` and
        refunded what it did not use; or raise :class:`TooManyRequests` (429 with ``Retry-After``)."""
        key = client_key()
        strategy, storage = self.strategy, self.storage
        charged = math.ceil(time_limit_ms)
        if not strategy.hit(self.budget, NAMESPACE, key, cost=charged):
            reset, _ = strategy.get_window_stats(self.budget, NAMESPACE, key)
            wait = max(1, math.ceil(reset - time.time()))
            raise TooManyRequests(f"This client has spent its {self.budget_s} search-seconds of the minute; "
                                  f"retry in {wait} s.", retry_after=wait)
        started = time.perf_counter()
        try:
            with self.running(key):
                yield
        finally:
            unused = charged - math.ceil((time.perf_counter() - started) * 1000)
            if unused > 0:
                storage.incr(self.budget.key_for(NAMESPACE, key), self.budget.get_expiry(), amount=-unused)

    @contextmanager
    def running(self, key: str):
        """One of the client's running searches for the body of the ``with``, or :class:`TooManyRequests`."""
        refusal = TooManyRequests(f"This client already has {self.max_running} search(es) running; retry when "
                                  "one has answered.", retry_after=1)
        if self.shared is not None:
            if not self.shared.increment(key, self.max_running):
                raise refusal
            try:
                yield
            finally:
                self.shared.decrement(key)
            return
        storage, running = self.storage, f"tactician/running/{key}"
        try:
            if storage.incr(running, self.running_expiry) > self.max_running:
                raise refusal
            yield
        finally:
            storage.incr(running, self.running_expiry, amount=-1)


def fairness(app: Flask) -> Fairness:
    return app.extensions[EXTENSION]


def register(app: Flask) -> None:
    app.extensions[EXTENSION] = Fairness(app.config["SETTINGS"])
