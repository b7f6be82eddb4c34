"""``python -m bench.go_speed [--rounds 7] [--seconds 1]``: the compiled core's Go playouts a second, light
against guided (native/src/games/go.hpp's policies), side by side.

Each round times ``tactician_native.go_playouts`` from the empty 9 x 9 and 19 x 19 boards (komi 7) for
about ``--seconds`` per policy, the policies taking turns within the round, so that a change of the
machine's load falls on both alike. Prints per board and policy the median rate over the rounds, its
range, and the plies a playout, as a Markdown table.
"""
import argparse
import time

import tactician_native

from bench import stats

POLICIES = ("light", "guided")
SIZES = (9, 19)


def rate(size: int, policy: str, seconds: float, seed: int) -> tuple:
    """``(playouts a second, plies a playout)`` of batches of playouts from the empty board until
    ``seconds`` have passed."""
    state, batch, playouts, plies = (size, 7.0, (), (), ()), 256 if size == 9 else 32, 0, 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        plies += tactician_native.go_playouts(state, batch, seed + playouts, policy)
        playouts += batch
    return playouts / elapsed, plies / playouts


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.go_speed", description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--seconds", type=float, default=1.0, help="timed a policy a board a round")
    args = p.parse_args(argv)
    rates = {(size, policy): [] for size in SIZES for policy in POLICIES}
    plies = {}
    for r in range(args.rounds):
        for size in SIZES:
            for policy in POLICIES:
                rates[size, policy].append((x := rate(size, policy, args.seconds, 1000 * r))[0])
                plies[size, policy] = x[1]
    rows = [[f"{size} x {size}", policy, stats.fmt_count(stats.median(xs)),
             f"{stats.fmt_count(min(xs))}-{stats.fmt_count(max(xs))}", f"{plies[size, policy]:.1f}"]
            for (size, policy), xs in rates.items()]
    print(stats.format_table(["board", "playouts", "per second (median)", "range", "plies a playout"], rows,
                             markdown=True))


if __name__ == "__main__":
    main()
