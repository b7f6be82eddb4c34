"""Two checkouts' Python core side by side: the same fixed-depth searches, timed in turn (A, B, A, B...), so
that a loaded machine's drift falls on both. Prints each workload's median time per checkout and B / A.

    python -m bench.ab OLD_CHECKOUT NEW_CHECKOUT [--rounds 7]

Each timing runs in a fresh interpreter started in the checkout (its ``engine``), after one warm-up search,
and counts the process's CPU time (a loaded machine stretches the wall clock far more).
"""
import argparse
import json
import statistics
import subprocess
import sys

# (name, game, state, algorithm): fixed depths, so both checkouts do the same work (the node counts are
# compared too).
WORKLOADS = (
    ("connect4 alphabeta d9", "connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 9}),
    ("tictactoe 7x7 k4 alphabeta d4", "tictactoe",
     {"board": [".......", "...X...", "..OX...", "...O...", ".......", ".......", "......."], "k": 4},
     {"name": "alphabeta", "depth": 4}),
    ("othello alphabeta d7", "othello", {}, {"name": "alphabeta", "depth": 7}),
    ("checkers alphabeta d7", "checkers", {}, {"name": "alphabeta", "depth": 7}),
)

TIMER = """
import json, sys, time
from engine.api import search
game, state, algorithm = json.loads(sys.argv[1])
algorithm = {**algorithm, "core": "python"}
search(game, state, algorithm)
start = time.process_time()
result = search(game, state, algorithm)
print(json.dumps([time.process_time() - start, result.stats.nodes]))
"""


def timed(checkout: str, workload) -> tuple:
    """``(seconds, nodes)`` of one search of ``workload`` by ``checkout``'s engine."""
    _, game, state, algorithm = workload
    out = subprocess.run([sys.executable, "-c", TIMER, json.dumps([game, state, algorithm])], cwd=checkout,
                         capture_output=True, text=True, check=True).stdout
    return tuple(json.loads(out))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a", help="the checkout to compare against (A)")
    p.add_argument("b", help="the changed checkout (B)")
    p.add_argument("--rounds", type=int, default=7, help="timings per checkout and workload (default 7)")
    args = p.parse_args(argv)
    for workload in WORKLOADS:
        times, nodes = {"a": [], "b": []}, {"a": set(), "b": set()}
        for _ in range(args.rounds):
            for side in ("a", "b"):
                seconds, count = timed(getattr(args, side), workload)
                times[side].append(seconds)
                nodes[side].add(count)
        a, b = statistics.median(times["a"]), statistics.median(times["b"])
        print(f"{workload[0]}: A {a * 1000:.0f} ms, B {b * 1000:.0f} ms, B/A {b / a:.3f}; "
              f"nodes A {sorted(nodes['a'])} B {sorted(nodes['b'])}", flush=True)


if __name__ == "__main__":
    main()
