"""``python -m bench.native_connect4 [--l2r2 N] [--l1r2 N] [--python N]``: Connect Four's compiled core
against the Python engine (build it first: see native/; ``PYTHONPATH=build/dev`` or an installed
``tactician_native``).

Prints the nodes per second of both (CPU time) on the same search (alpha-beta depth 8 from "4453": the same nodes
visited; exact solves of the first Test_L2_R2 positions), then the compiled solver on Pons' test sets
(``bench.c4sets``): every result checked against the set's score, the mean time per position.
"""
import argparse
import statistics
import time

import tactician_native

from bench import c4sets
from engine.deadline import Deadline
from engine.games import connect4
from engine.limits import Limits
from engine.result import Stats
from engine.search import alphabeta
from engine.search.solver import exact_solve

GAME = connect4.GAME
TT = Limits().tt_max_entries


def native(moves, algorithm="alphabeta", **settings):
    """``(CPU seconds, result dict)`` of a native search of the position after ``moves``."""
    cpu, _, result = timed_native(moves, algorithm, **settings)
    return cpu, result


def timed_native(moves, algorithm="alphabeta", **settings):
    """``(CPU seconds, wall seconds, result dict)``: the search runs in this thread, the GIL released, so
    the thread's CPU time is the search's (on a shared machine the wall time also counts the waiting)."""
    state = GAME.native_state(connect4.parse_moves(moves))
    cpu, start = time.thread_time(), time.perf_counter()
    result = tactician_native.search("connect4", state, algorithm, {**settings, "tt_max_entries": TT}, None,
                                     tactician_native.Token(), None)
    return time.thread_time() - cpu, time.perf_counter() - start, result


def python_solve(moves):
    """``(CPU seconds, SearchResult)`` of the Python exact solver on the position after ``moves``."""
    state = connect4.parse_moves(moves)
    start = time.thread_time()
    result = exact_solve(GAME, state, Deadline(None), True, TT, None, GAME.ordered_actions(state), Stats())
    return time.thread_time() - start, result


def rate(nodes, seconds):
    return nodes / seconds if seconds > 0 else float("inf")


def depth8(repeat=20):
    runs = [native("4453", depth=8) for _ in range(repeat)]  # (a few milliseconds each: the mean of many)
    seconds, ours = statistics.mean(t for t, _ in runs), runs[0][1]
    state = connect4.parse_moves("4453")
    start = time.thread_time()
    theirs = alphabeta.search(GAME, state, alphabeta.Settings(depth=8), deadline=Deadline(None))
    py_seconds = time.thread_time() - start
    same = ours["stats"]["nodes"] == theirs.stats.nodes and ours["move"] == theirs.move
    n, p = rate(ours["stats"]["nodes"], seconds), rate(theirs.stats.nodes, py_seconds)
    print(f"alpha-beta depth 8 from 4453: {ours['stats']['nodes']} nodes (Python {theirs.stats.nodes}, "
          f"{'same' if same else 'DIFFERENT'}); native {n:,.0f} nodes/s, Python {p:,.0f} nodes/s: x{n / p:.0f}")


def solve_rates(count):
    positions = c4sets.load_set("Test_L2_R2", count)
    if positions is None:
        print("Test_L2_R2 missing: no solver rate")
        return
    native(positions[0][0], solve=True)               # (the thread's solver table allocated once)
    nodes = py_nodes = seconds = py_seconds = 0
    for moves, _ in positions:
        t, ours = native(moves, solve=True)
        pt, theirs = python_solve(moves)
        assert ours["value"] == theirs.value and ours["plies_to_end"] == theirs.plies_to_end, moves
        nodes, seconds = nodes + ours["stats"]["nodes"], seconds + t
        py_nodes, py_seconds = py_nodes + theirs.stats.nodes, py_seconds + pt
    n, p = rate(nodes, seconds), rate(py_nodes, py_seconds)
    print(f"exact solve, first {count} of Test_L2_R2: native {n:,.0f} nodes/s ({nodes / count:,.0f} nodes, "
          f"{1000 * seconds / count:.1f} ms a position), Python {p:,.0f} nodes/s ({py_nodes / count:,.0f} nodes, "
          f"{1000 * py_seconds / count:.0f} ms): x{n / p:.0f} in nodes/s, x{py_seconds / seconds:.0f} in time")


def test_set(name, count):
    positions = c4sets.load_set(name, count)
    if positions is None:
        print(f"{name} missing in {c4sets.data_dir()}")
        return
    cpu_times, times, nodes, wrong = [], [], [], []
    for moves, score in positions:
        cpu, t, ours = timed_native(moves, solve=True)
        cpu_times.append(cpu)
        times.append(t)
        nodes.append(ours["stats"]["nodes"])
        if (ours["outcome"], ours["plies_to_end"]) != c4sets.expected(moves, score):
            wrong.append(moves)
    label, pons_ms, pons_nodes = c4sets.SETS[name]
    print(f"{name} ({label}), {len(positions)} positions: {len(positions) - len(wrong)} exact; mean "
          f"{1000 * statistics.mean(times):.2f} ms (max {1000 * max(times):.0f} ms; CPU time "
          f"{1000 * statistics.mean(cpu_times):.2f} ms), mean "
          f"{statistics.mean(nodes):,.0f} nodes (Pons' C++ solver: {pons_ms} ms, {pons_nodes:,} nodes)"
          + (f"; WRONG: {wrong[:5]}" if wrong else ""))


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.native_connect4", description=__doc__.split("\n\n")[0])
    p.add_argument("--python", type=int, default=5, help="Test_L2_R2 positions solved by both (default 5)")
    p.add_argument("--l2r2", type=int, default=1000, help="Test_L2_R2 positions (default all 1000)")
    p.add_argument("--l1r2", type=int, default=100, help="Test_L1_R2 positions (default the first 100)")
    args = p.parse_args(argv)
    depth8()
    solve_rates(args.python)
    test_set("Test_L2_R2", args.l2r2)
    test_set("Test_L1_R2", args.l1r2)


if __name__ == "__main__":
    main()
