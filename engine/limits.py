"""Caps that keep every request bounded in memory and time."""
from dataclasses import dataclass

# The deepest a tree may be made to be (MAX_TREE_DEPTH at most): the Python core searches a ply in a few
# frames, and the service sends a state to a search process nested two levels a ply (service/body.py:
# SENT_NESTING), each within Python's limits at this depth.
LARGEST_TREE_DEPTH = 2_000
# The most root moves an answer lists (chess has at most 218, a 19 x 19 board 361): a tree's root of 80,000
# children took a second past the deadline to write, and 8 MB (engine.api.listed_moves).
MAX_LISTED_MOVES = 500


@dataclass(frozen=True)
class Limits:
    """Server-wide caps; the service builds them from its settings."""

    max_tree_nodes: int = 100_000
    max_tree_depth: int = 1_000
    tt_max_entries: int = 1_000_000
    max_trace_entries: int = 10_000
    max_trace_bytes: int = 256 * 1024

    def __post_init__(self):
        if self.max_tree_depth > LARGEST_TREE_DEPTH:
            raise ValueError(f"MAX_TREE_DEPTH must be at most {LARGEST_TREE_DEPTH}")
