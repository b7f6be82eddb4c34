"""Per-client fairness, off by default (an internal service is limited by its instance's admission alone,
service/admission.py) and switched on where the service faces the public: a client may hold at most
``MAX_SEARCHES_PER_CLIENT`` searches at once and spend at most ``SEARCH_SECONDS_PER_CLIENT_MINUTE``
search-seconds a minute (0: no such limit); over either, 429 problem+json with ``Retry-After``.

Who a client is: its ``X-API-Key`` when the operator lists the valid keys (``API_KEYS``, or their SHA-256
digests in ``API_KEY_DIGESTS``) and it sends one of them; an unknown key is refused with 401 problem+json,
so that no client escapes its limit with a fresh key. Otherwise (no key sent, or no keys configured) its
address: the peer's, or, when the peer is one of the ``TRUSTED_PROXIES``, the address that proxy appended
to ``X-Forwarded-For`` (werkzeug's ``ProxyFix``, one hop).

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
import ipaddress
import math
import time

from flask import Flask, current_app, request
from limits import RateLimitItemPerMinute
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import TooManyRequests, Unauthorized
from werkzeug.middleware.proxy_fix import ProxyFix

from service.config import api_key_digest
from service.errors import of_kind
from service.shared_counts import SharedCounts

EXTENSION = "tactician.fairness"
API_KEY_HEADER = "X-API-Key"
NAMESPACE = "search-seconds"
MEMORY = "memory://"
# (client, worker) pairs the shared count of running searches can hold: more than a server's threads.
SHARED_CAPACITY = 4096


def client_key() -> str:
    """Who is asking (see the module's docstring): ``key:`` and a digest of a valid API key (the key
    itself is never stored), else ``addr:`` and the client's address."""
    return fairness(current_app).key_of(request.headers.get(API_KEY_HEADER), request.remote_addr)


class TrustedProxies:
    """WSGI middleware: werkzeug's ``ProxyFix`` (one hop of ``X-Forwarded-For`` and
    ``X-Forwarded-Proto``) for requests whose peer is in ``networks``; every other request keeps its own
    address, whatever headers it sends."""

    def __init__(self, app, networks: list):
        self.app, self.fixed, self.networks = app, ProxyFix(app, x_for=1, x_proto=1), networks

    def __call__(self, environ, start_response):
        handler = self.fixed if self.trusts(environ.get("REMOTE_ADDR")) else self.app
        return handler(environ, start_response)

    def trusts(self, address: str | None) -> bool:
        """Whether ``address`` is one of the trusted proxies'."""
        try:
            peer = ipaddress.ip_address(address or "")
        except ValueError:
            return False
        return any(peer in network for network in self.networks)


class Fairness:
    """The two per-client limits, over one storage, and who the clients are. The budget is counted in
    milliseconds in a fixed one-minute window."""

    def __init__(self, settings):
        self.key_digests = settings.key_digests()
        self.storage = storage_from_string(settings.rate_limit_storage_uri)
        self.strategy = FixedWindowRateLimiter(self.storage)
        self.max_running = settings.max_searches_per_client
        self.budget_s = settings.search_seconds_per_client_minute
        self.budget = RateLimitItemPerMinute(self.budget_s * 1000)
        # A worker that dies holding a count must not hold it for ever.
        self.running_expiry = math.ceil(settings.max_time_limit_ms / 1000) + 60
        self.shared = SharedCounts(SHARED_CAPACITY) if settings.rate_limit_storage_uri == MEMORY else None

    def key_of(self, api_key: str | None, address: str | None) -> str:
        """The key a client is counted by, from its ``X-API-Key`` header and its address: the key's
        digest when it is a valid one, else the address."""
        if api_key and self.key_digests and api_key_digest(api_key) in self.key_digests:
            return "key:" + api_key_digest(api_key)[:32]
        return "addr:" + (address or "unknown")

    def check_key(self) -> None:
        """Raise :class:`Unauthorized` (401) if the request sends an API key, and keys are configured but
        this one is not among them."""
        api_key = request.headers.get(API_KEY_HEADER)
        if api_key and self.key_digests and api_key_digest(api_key) not in self.key_digests:
            raise Unauthorized(f"The {API_KEY_HEADER} header does not name a key of this service; send a valid "
                               "key, or none.", www_authenticate=WWWAuthenticate("ApiKey", {"header": API_KEY_HEADER}))

    @contextmanager
    def search(self, time_limit_ms: int):
        """Hold one of the client's searches for the body of the ``with``, charged ``time_limit_ms`` and
        refunded what it did not use; or raise :class:`Unauthorized` for an unknown API key (401), or
        :class:`TooManyRequests` (429 with ``Retry-After``). A limit of 0 is not checked."""
        self.check_key()
        key = client_key()
        with self.charged(key, math.ceil(time_limit_ms)), self.running(key):
            yield

    @contextmanager
    def charged(self, key: str, charged_ms: int):
        """``charged_ms`` of the client's budget for the body of the ``with``, refunded what it did not
        use, or :class:`TooManyRequests`."""
        if not self.budget_s:
            yield
            return
        strategy, storage = self.strategy, self.storage
        if not strategy.hit(self.budget, NAMESPACE, key, cost=charged_ms):
            reset, _ = strategy.get_window_stats(self.budget, NAMESPACE, key)
            wait = max(1, math.ceil(reset - time.time()))
            raise of_kind(TooManyRequests(f"This client has spent its {self.budget_s} search-seconds of the "
                                          f"minute; retry in {wait} s.", retry_after=wait), "search-time-spent")
        started = time.perf_counter()
        try:
            yield
        finally:
            unused = charged_ms - math.ceil((time.perf_counter() - started) * 1000)
            if unused > 0:
                storage.incr(self.budget.key_for(NAMESPACE, key), self.budget.get_expiry(), amount=-unused)

    @contextmanager
    def running(self, key: str):
        """One of the client's running searches for the body of the ``with``, or :class:`TooManyRequests`."""
        if not self.max_running:
            yield
            return
        refusal = of_kind(TooManyRequests(f"This client already has {self.max_running} search(es) running; "
                                          "retry when one has answered.", retry_after=1), "too-many-searches")
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
    """The app's :class:`Fairness`."""
    return app.extensions[EXTENSION]


def register(app: Flask) -> None:
    """Install the limits on ``app``, with the client's address read through the trusted proxies."""
    settings = app.config["SETTINGS"]
    app.extensions[EXTENSION] = Fairness(settings)
    # Flask's documented way to put WSGI middleware in front of the app; mypy sees only a method replaced.
    app.wsgi_app = TrustedProxies(app.wsgi_app, settings.proxy_networks())  # type: ignore[method-assign]
