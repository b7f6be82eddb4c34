"""Issue 53: a search restricted to some root moves (``search_moves``, ``exclude_moves``: engine/root.py) is
the same search on both cores: the same answer, root moves and statistics, node counts included, for every
algorithm whose root loop the compiled core restricts (minimax, textbook and enhanced alpha-beta, MCTS)."""
import pytest

import engine.api
from engine.search.native import RESTRICTED_ALGORITHMS
from tests.native.conftest import needs_native
from tests.native.equivalence import assert_same_results

CASES = [
    ("tictactoe", {"board": ["X..", ".O.", "..."]}, {"name": "minimax"}, {"search_moves": [2, 6, 8]}),
    ("tictactoe", {"board": ["...", "...", "..."]},
     {"name": "alphabeta", "move_ordering": False, "transposition_table": False}, {"exclude_moves": [4]}),
    ("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 8}, {"search_moves": [0, 6, 2]}),
    ("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 7, "multi_pv": 2}, {"exclude_moves": [3, 4]}),
    ("connect4", {"moves": "44"}, {"name": "mcts", "iterations": 400, "seed": 3}, {"search_moves": [0, 6]}),
    ("othello", {}, {"name": "alphabeta", "depth": 5}, {"search_moves": ["f5", "c4"]}),
    ("chess", {}, {"name": "alphabeta", "depth": 3}, {"search_moves": ["a2a3", "h2h4", "g1f3"]}),
    ("chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", {"name": "alphabeta", "depth": 3},
     {"exclude_moves": ["a1a8"]}),
    ("checkers", {}, {"name": "alphabeta", "depth": 5}, {"exclude_moves": ["11-15"]}),
]


def on(core: str, game: str, state, algorithm: dict, restriction: dict):
    needs_native(game)
    result = engine.api.search(game, state, {**algorithm, "core": core}, **restriction)
    assert result.stats.core == core
    return result


@pytest.mark.parametrize("game, state, algorithm, restriction", CASES,
                         ids=[f"{c[0]}-{c[2]['name']}-{next(iter(c[3]))}" for c in CASES])
def test_a_restricted_search_is_the_same_on_both_cores(game, state, algorithm, restriction):
    python, compiled = (on(core, game, state, algorithm, restriction) for core in ("python", "native"))
    assert_same_results(python, compiled)
    listed = {m.move for m in python.moves}
    if "search_moves" in restriction:
        assert listed <= set(restriction["search_moves"])
    assert not listed & set(restriction.get("exclude_moves", ()))


def test_the_restriction_changes_the_search():
    """Excluding the one winning move (a back-rank mate) leaves a search that does not find a mate."""
    needs_native("chess")
    state, algorithm = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", {"name": "alphabeta", "depth": 3, "core": "native"}
    free = engine.api.search("chess", state, algorithm)
    assert (free.move, free.outcome) == ("a1a8", "win")
    restricted = engine.api.search("chess", state, algorithm, exclude_moves=["a1a8"])
    assert restricted.move != "a1a8" and restricted.outcome is None
    assert restricted.stats.nodes != free.stats.nodes


def test_a_restricted_expectimax_runs_on_the_python_core():
    assert "expectimax" not in RESTRICTED_ALGORITHMS
    result = engine.api.search("2048", {"board": [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]},
                               {"name": "expectimax", "depth": 2}, search_moves=["up", "down"])
    assert result.stats.core == "python" and {m.move for m in result.moves} == {"up", "down"}


def test_the_compiled_go_core_searches_the_allowed_vertices_alone():
    """Go's MCTS differs between the cores (their playouts), but its root holds the allowed moves alone."""
    needs_native("go")
    result = engine.api.search("go", {"size": 5, "komi": 0.5, "moves": ["C3"]},
                               {"name": "mcts", "iterations": 300, "seed": 2, "core": "native"},
                               search_moves=["B2", "D4", "pass"])
    assert result.stats.core == "native" and [m.move for m in result.moves] == ["B2", "D4", "pass"]
