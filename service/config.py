"""Settings, read from the environment once at start-up (README, "Settings")."""
from dataclasses import dataclass, fields
import os

from engine.api import Limits


@dataclass(frozen=True)
class Settings:
    """What an operator may tune. Field names are the environment variables, lower-cased; every one is a
    positive integer but the rate-limit storage URI."""

    default_time_limit_ms: int = 1_000
    max_time_limit_ms: int = 10_000
    max_content_length: int = 1 << 20
    max_tree_nodes: int = 100_000
    max_tree_depth: int = 1_000
    tt_max_entries: int = 1_000_000
    max_trace_entries: int = 10_000
    max_trace_bytes: int = 256 * 1024
    max_waiting_searches: int = 2
    read_timeout_ms: int = 5_000
    max_searches_per_client: int = 1
    search_seconds_per_client_minute: int = 60
    rate_limit_storage_uri: str = "memory://"

    def __post_init__(self):
        for f in fields(self):
            if f.type is int and getattr(self, f.name) < 1:
                raise ValueError(f"{f.name.upper()} must be a positive integer")
        if self.default_time_limit_ms > self.max_time_limit_ms:
            raise ValueError("DEFAULT_TIME_LIMIT_MS must not exceed MAX_TIME_LIMIT_MS")

    @classmethod
    def from_env(cls, environ=os.environ) -> "Settings":
        """Each setting from its upper-case environment variable, where set; a bad value stops start-up."""
        values = {}
        for f in fields(cls):
            raw = environ.get(f.name.upper())
            if raw is not None and raw.strip() and f.type is str:
                values[f.name] = raw.strip()
            elif raw is not None and raw.strip():
                try:
                    values[f.name] = int(raw)
                except ValueError:
                    raise ValueError(f"{f.name.upper()} must be an integer, not {raw!r}") from None
        return cls(**values)

    def limits(self) -> Limits:
        """The engine's caps."""
        return Limits(max_tree_nodes=self.max_tree_nodes, max_tree_depth=self.max_tree_depth,
                      tt_max_entries=self.tt_max_entries, max_trace_entries=self.max_trace_entries)
