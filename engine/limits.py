"""Caps that keep every request bounded in memory and time."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Server-wide caps; the service builds them from its settings."""

    max_tree_nodes: int = 100_000
    max_tree_depth: int = 1_000
    tt_max_entries: int = 1_000_000
    max_trace_entries: int = 10_000
    max_trace_bytes: int = 256 * 1024
