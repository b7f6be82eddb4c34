"""The compiled core against the Python engine: MCTS, 2000 iterations from Connect Four "4453" (the Python core,
the native core and OpenSpiel's C++ MCTSBot with one random rollout per leaf, side by side), then nodes per
second, native against Python, for tic-tac-toe searches from 3 x 3 to 15 x 15.

    PYTHONPATH=build/dev python -m bench.native_mcts [--runs 7]

Every figure is the median of the runs (one warm-up run first); the searches are seeded, so that each run of
a core does the same work (and the two cores do the same, node for node: tests/native). One core at a time:
run it on a quiet machine."""
import argparse
import math
import time

import tactician_native

from bench.peers import os_mcts_cpp
from bench.stats import median
from engine.deadline import Deadline
from engine.games import connect4
from engine.games.tictactoe import load
from engine.search import alphabeta, minimax, mcts

MOVES, ITERATIONS, SEED = "4453", 2000, 1

SETTINGS = {"mcts": mcts.Settings, "alphabeta": alphabeta.Settings, "minimax": minimax.Settings}
# (label, board, k, algorithm, settings) for the nodes/s table.
TICTACTOE = [
    ("3x3 minimax", ["..."] * 3, 3, "minimax", {}),
    ("3x3 textbook alpha-beta", ["..."] * 3, 3, "alphabeta", {"move_ordering": False, "transposition_table": False}),
    ("5x5 k4 alpha-beta depth 4", ["....."] * 5, 4, "alphabeta", {"depth": 4}),
    ("3x3 mcts 20000 random", ["..."] * 3, 3, "mcts", {"iterations": 20000, "seed": SEED}),
    ("9x9 k5 mcts 2000 random", ["." * 9] * 4 + ["....X...."] + ["." * 9] * 4, 5, "mcts",
     {"iterations": 2000, "seed": SEED}),
    ("15x15 k5 mcts 30 heuristic", ["." * 15] * 7 + ["......XO......."] + ["." * 15] * 7, 5, "mcts",
     {"iterations": 30, "seed": SEED, "rollout": "heuristic"}),
]


def timed(fn, runs: int) -> tuple:
    """The median seconds of ``runs`` calls after one warm-up, and the warm-up's result."""
    result = fn()
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        seconds.append(time.perf_counter() - start)
    return median(seconds), result


def python_search(game, state, algorithm: str, options: dict):
    module = {"mcts": mcts, "alphabeta": alphabeta, "minimax": minimax}[algorithm]
    result = module.search(game, state, SETTINGS[algorithm](**options), deadline=Deadline(None))
    return result.move, result.stats.nodes


def native_search(game_id: str, game, state, algorithm: str, options: dict):
    settings = {"exploration": math.sqrt(2), "rollout": "random", "tt_max_entries": 1_000_000, **options}
    result = tactician_native.search(game_id, game.native_state(state), algorithm, settings, None,
                                     tactician_native.Token(), None)
    return result["move"], result["stats"]["nodes"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs

    game, state = connect4.load({"moves": MOVES})
    options = {"iterations": ITERATIONS, "seed": SEED}
    py_s, (py_move, py_nodes) = timed(lambda: python_search(game, state, "mcts", options), runs)
    nat_s, (nat_move, nat_nodes) = timed(lambda: native_search("connect4", game, state, "mcts", options), runs)
    os_s, os_result = timed(lambda: os_mcts_cpp(MOVES, ITERATIONS, SEED), runs)
    print(f'MCTS, {ITERATIONS} iterations from Connect Four "{MOVES}" (median of {runs})\n')
    print("| core | time | move | nodes | vs OpenSpiel C++ |")
    print("|---|---|---|---|---|")
    for name, seconds, move, nodes in (("Python (engine/search/mcts.py)", py_s, py_move, py_nodes),
                                       ("native (native/src/search/mcts.hpp)", nat_s, nat_move, nat_nodes),
                                       ("OpenSpiel C++ MCTSBot", os_s, os_result["move"], None)):
        print(f"| {name} | {seconds * 1000:.2f} ms | {move} | {nodes if nodes is not None else '-'} | "
              f"{seconds / os_s:.2f}x |")

    print("\nTic-tac-toe: nodes per second (median of runs)\n")
    print("| search | nodes | Python nodes/s | native nodes/s | speed-up |")
    print("|---|---|---|---|---|")
    for label, board, k, algorithm, options in TICTACTOE:
        game, state = load({"board": board, "k": k})
        py_s, (_, py_nodes) = timed(lambda: python_search(game, state, algorithm, options), max(1, runs // 3))
        nat_s, (_, nat_nodes) = timed(lambda: native_search("tictactoe", game, state, algorithm, options), runs)
        nodes = py_nodes if py_nodes == nat_nodes else f"{py_nodes} / {nat_nodes}"
        print(f"| {label} | {nodes} | {py_nodes / py_s:,.0f} | {nat_nodes / nat_s:,.0f} | {py_s / nat_s:.0f}x |")


if __name__ == "__main__":
    main()
