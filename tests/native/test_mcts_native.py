"""The native MCTS (native/src/search/mcts.hpp) against engine.search.mcts: with the same seed and iteration cap,
the same move, the same visits and values per root move and the same statistics; and its generator against
Python's random.Random."""
import math
import random

import pytest
from hypothesis import given, settings, strategies as st

tn = pytest.importorskip("tactician_native")

from engine.deadline import Deadline  # noqa: E402
from engine.games import connect4  # noqa: E402
from engine.games.tictactoe import load  # noqa: E402
from engine.limits import Limits  # noqa: E402
from engine.search import mcts  # noqa: E402


@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 - 1, 2**32, 2**63 + 12345, 2**64 - 1])
def test_the_generator_is_pythons(seed):
    python = random.Random(seed)
    assert tn.random_floats(seed, 2000) == [python.random() for _ in range(2000)]


def native_mcts(game_id, game, state, options: dict, seconds=None):
    return tn.search(game_id, game.native_state(state), "mcts", {"tt_max_entries": 1_000_000, **options},
                     seconds, tn.Token(), None)


def assert_same_search(game_id, game, state, options: dict):
    python = mcts.search(game, state, mcts.Settings(**options), deadline=Deadline(None))
    native = native_mcts(game_id, game, state, {"exploration": math.sqrt(2), "rollout": "random", **options})
    assert native["move"] == python.move
    assert native["value"] == python.value
    assert native["outcome"] == python.outcome
    assert [tuple(m) for m in native["moves"]] == [(m.move, m.value, m.bound, m.visits) for m in python.moves]
    stats = python.stats
    assert {key: native["stats"][key] for key in ("nodes", "leaves", "max_depth", "iterations", "stop_reason")} \
        == {"nodes": stats.nodes, "leaves": stats.leaves, "max_depth": stats.max_depth,
            "iterations": stats.iterations, "stop_reason": stats.stop_reason}


TICTACTOE = [({"board": ["...", "...", "..."]}, 2000), ({"board": ["X..", ".O.", "..."]}, 500),
             ({"board": ["XO.", ".X.", "..O"]}, 300),  # X to move wins: the solver proves it
             ({"board": ["....", ".X..", "..O.", "...."], "k": 3}, 400),
             ({"board": ["....."] * 5, "k": 4}, 300),
             ({"board": ["." * 9] * 4 + ["....X...."] + ["." * 9] * 4, "k": 5}, 150),
             ({"board": ["." * 15] * 7 + ["......XO......."] + ["." * 15] * 7, "k": 5}, 60)]


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from(TICTACTOE), seed=st.integers(0, 2**64 - 1), rollout=st.sampled_from(["random", "heuristic"]),
       exploration=st.sampled_from([math.sqrt(2), 0.5, 0.0]))
def test_tictactoe_search_equals_pythons(case, seed, rollout, exploration):
    state_json, iterations = case
    game, state = load(state_json)
    if rollout == "heuristic":
        iterations = max(10, iterations // 10 if game.cells <= 25 else iterations // 20)
    assert_same_search("tictactoe", game, state, {"iterations": iterations, "seed": seed, "rollout": rollout,
                                                  "exploration": exploration})


def test_a_solved_root_stops_with_the_outcome():
    game, state = load({"board": ["XO.", ".X.", "..O"]})
    native = native_mcts("tictactoe", game, state, {"iterations": 100000, "seed": 3})
    assert (native["outcome"], native["stats"]["stop_reason"]) == ("win", "solved")
    assert_same_search("tictactoe", game, state, {"iterations": 100000, "seed": 3})


def test_a_full_tree_still_iterates_like_pythons():
    game, state = load({"board": ["....", ".X..", "..O.", "...."], "k": 3})
    options = {"iterations": 600, "seed": 9}
    python = mcts.search(game, state, mcts.Settings(**options), deadline=Deadline(None),
                         limits=Limits(tt_max_entries=50))
    native = tn.search("tictactoe", game.native_state(state), "mcts", {**options, "tt_max_entries": 50},
                       None, tn.Token(), None)
    assert [tuple(m) for m in native["moves"]] == [(m.move, m.value, m.bound, m.visits) for m in python.moves]
    assert native["stats"]["nodes"] == python.stats.nodes


def test_a_time_limit_alone_ends_the_search_and_progress_is_reported():
    game, state = load({"board": ["....."] * 5, "k": 4})
    reports = []
    native = tn.search("tictactoe", game.native_state(state), "mcts", {"seed": 1}, 0.2, tn.Token(), reports.append)
    assert native["stats"]["stop_reason"] == "time_limit" and native["stats"]["timed_out"]
    assert reports and reports[0]["iterations"] == 1024 and native["move"] in game.actions(state)


def test_no_budget_is_refused():
    game, state = load({"board": ["...", "...", "..."]})
    with pytest.raises(ValueError):
        tn.search("tictactoe", game.native_state(state), "mcts", {}, None, tn.Token(), None)


@settings(max_examples=8, deadline=None)
@given(moves=st.sampled_from(["", "4453", "44444", "3343442", "5562347631247347631431"]),
       seed=st.integers(0, 2**64 - 1), rollout=st.sampled_from(["random", "heuristic"]))
def test_connect4_search_equals_pythons(moves, seed, rollout):
    game, state = connect4.load({"moves": moves})
    assert_same_search("connect4", game, state, {"iterations": 1500 if rollout == "random" else 150, "seed": seed,
                                                 "rollout": rollout})
