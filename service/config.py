"""Settings, read from the environment once at start-up (README, "Settings")."""
from dataclasses import dataclass, fields
import os

from engine.api import Limits

ANY_ORIGIN = "*"


@dataclass(frozen=True)
class Settings:
    """What an operator may tune. Field names are the environment variables, lower-cased. Every setting is
    a positive integer except ``search_nice``, 0 to 19 (how many nice levels below the worker's other
    processes a search runs in: service/search_processes.py; 0: the same priority), and two strings: ``cors_origins``, ``*`` (any origin, without credentials) or a
    comma-separated list of origins (``https://example.org,http://localhost:3000``) whose browser pages may
    call the API; and ``rate_limit_storage_uri``, where the per-client counts live."""

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
    max_searches_per_client: int = 1
    search_seconds_per_client_minute: int = 60
    rate_limit_storage_uri: str = "memory://"
    cors_origins: str = ANY_ORIGIN
    search_nice: int = 5

    def __post_init__(self):
        for f in fields(self):
            if f.type is int and f.name != "search_nice" and getattr(self, f.name) < 1:
                raise ValueError(f"{f.name.upper()} must be a positive integer")
        if not 0 <= self.search_nice <= 19:
            raise ValueError("SEARCH_NICE must be an integer from 0 to 19")
        if self.default_time_limit_ms > self.max_time_limit_ms:
            raise ValueError("DEFAULT_TIME_LIMIT_MS must not exceed MAX_TIME_LIMIT_MS")
        origins = self.allowed_origins()
        if not origins or (ANY_ORIGIN in origins and len(origins) > 1):
            raise ValueError("CORS_ORIGINS must be * or a comma-separated list of origins")

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
        return [origin.strip().rstrip("/") for origin in self.cors_origins.split(",") if origin.strip()]

    def limits(self) -> Limits:
        """The engine's caps."""
        return Limits(max_tree_nodes=self.max_tree_nodes, max_tree_depth=self.max_tree_depth,
                      tt_max_entries=self.tt_max_entries, max_trace_entries=self.max_trace_entries,
                      max_trace_bytes=self.max_trace_bytes)
