"""Settings, read from the environment once at start-up (README, "Settings")."""
from dataclasses import dataclass, fields
import hashlib
import ipaddress
import os
import re

from engine.api import Limits

ANY_ORIGIN = "*"
# Settings that may be 0: a per-client limit of 0 is no limit; SEARCH_NICE 0 is the worker's own priority.
MAY_BE_ZERO = ("max_searches_per_client", "search_seconds_per_client_minute", "search_nice")
SHA256_HEX = re.compile(r"^[0-9a-f]{64}$")


def api_key_digest(api_key: str) -> str:
    """An API key's SHA-256 digest, in hexadecimal: what ``API_KEY_DIGESTS`` lists."""
    return hashlib.sha256(api_key.encode()).hexdigest()


def listed(value: str) -> list:
    """A comma-separated setting as its items, blanks dropped."""
    return [item.strip() for item in value.split(",") if item.strip()]


@dataclass(frozen=True)
class Settings:
    """What an operator may tune. Field names are the environment variables, lower-cased. Every integer
    setting is positive except ``search_nice``, 0 to 19 (how many nice levels below the worker's other
    processes a search runs in: service/search_pool.py; 0: the same priority), and the two per-client
    limits, where 0 (the default) is no limit: an internal service is limited by its admission alone
    (service/admission.py), and a public one switches them on. A worker's search processes
    (service/search_pool.py) are replaced after ``search_process_max_searches`` searches, or once their
    resident memory exceeds ``search_process_max_rss_mb`` MiB; a worker retires (service/worker.py) once
    its own exceeds ``worker_max_rss_mb`` MiB after a request, even with its allocator's free memory given
    back (service/memory.py). The strings: ``cors_origins``, ``*`` (any
    origin, without credentials) or a comma-separated list of origins (``https://example.org``) whose
    browser pages may call the API; ``rate_limit_storage_uri``, where the per-client counts live;
    ``trusted_proxies``, the addresses or networks (``10.0.0.0/8,127.0.0.1``) whose ``X-Forwarded-For``
    names the client; ``api_keys`` and ``api_key_digests``, the valid ``X-API-Key`` values, or their
    SHA-256 digests in hexadecimal, comma-separated (service/fairness.py)."""

    default_time_limit_ms: int = 1_000
    max_time_limit_ms: int = 10_000
    max_content_length: int = 1 << 20
    max_tree_nodes: int = 100_000
    max_tree_depth: int = 1_000
    tt_max_entries: int = 1_000_000
    max_trace_entries: int = 10_000
    max_trace_bytes: int = 256 * 1024
    searches_per_worker: int = 2
    max_waiting_searches: int = 6
    read_timeout_ms: int = 5_000
    max_searches_per_client: int = 0
    search_seconds_per_client_minute: int = 0
    rate_limit_storage_uri: str = "memory://"
    trusted_proxies: str = ""
    api_keys: str = ""
    api_key_digests: str = ""
    cors_origins: str = ANY_ORIGIN
    search_nice: int = 5
    search_process_max_searches: int = 200
    search_process_max_rss_mb: int = 1024
    worker_max_rss_mb: int = 512

    def __post_init__(self):
        for f in fields(self):
            if f.type is int and getattr(self, f.name) < (0 if f.name in MAY_BE_ZERO else 1):
                qualifier = "0 or a positive" if f.name in MAY_BE_ZERO else "a positive"
                raise ValueError(f"{f.name.upper()} must be {qualifier} integer")
        self.limits()  # the engine's own checks of its caps (MAX_TREE_DEPTH at most 2000)
        if not 0 <= self.search_nice <= 19:
            raise ValueError("SEARCH_NICE must be an integer from 0 to 19")
        if self.default_time_limit_ms > self.max_time_limit_ms:
            raise ValueError("DEFAULT_TIME_LIMIT_MS must not exceed MAX_TIME_LIMIT_MS")
        origins = self.allowed_origins()
        if not origins or (ANY_ORIGIN in origins and len(origins) > 1):
            raise ValueError("CORS_ORIGINS must be * or a comma-separated list of origins")
        try:
            self.proxy_networks()
        except ValueError:
            raise ValueError("TRUSTED_PROXIES must be a comma-separated list of addresses or networks") from None
        if not all(SHA256_HEX.match(digest) for digest in listed(self.api_key_digests.lower())):
            raise ValueError("API_KEY_DIGESTS must be a comma-separated list of SHA-256 digests in hexadecimal")

    @classmethod
    def from_env(cls, environ=os.environ) -> "Settings":
        """Each setting from its upper-case environment variable, where set; a bad value stops start-up."""
        values = {}
        for f in fields(cls):
            raw = environ.get(f.name.upper())
            if raw is None or not raw.strip():
                continue
            if f.type is str:
                values[f.name] = raw.strip()
                continue
            try:
                values[f.name] = int(raw)
            except ValueError:
                raise ValueError(f"{f.name.upper()} must be an integer, not {raw!r}") from None
        return cls(**values)

    def allowed_origins(self) -> list:
        """``CORS_ORIGINS`` as a list: ``["*"]`` or the origins named."""
        return [origin.rstrip("/") for origin in listed(self.cors_origins)]

    def proxy_networks(self) -> list:
        """``TRUSTED_PROXIES`` as :mod:`ipaddress` networks (an address is a network of one)."""
        return [ipaddress.ip_network(proxy, strict=False) for proxy in listed(self.trusted_proxies)]

    def key_digests(self) -> frozenset:
        """The SHA-256 digests (hexadecimal) of the valid API keys: ``API_KEYS`` digested, and
        ``API_KEY_DIGESTS``. Empty: keys are not checked, and not used to tell clients apart."""
        digested = {api_key_digest(key) for key in listed(self.api_keys)}
        return frozenset(digested | set(listed(self.api_key_digests.lower())))

    def limits(self) -> Limits:
        """The engine's caps."""
        return Limits(max_tree_nodes=self.max_tree_nodes, max_tree_depth=self.max_tree_depth,
                      tt_max_entries=self.tt_max_entries, max_trace_entries=self.max_trace_entries,
                      max_trace_bytes=self.max_trace_bytes)
