"""``python -m bench.cores_cpu [--game GAME ...] [--rounds N]``: the searches of the cores workload
(bench/workloads.py CORE_SEARCHES) on both cores, side by side, timed in CPU time rather than wall time.

On a loaded machine a search of a few milliseconds waits for a core longer than it runs, so the wall-clock
ratio of the cores workload says more about the scheduler than about the cores; the process's CPU time
(``time.process_time``: the compiled core runs in the calling thread) does not count the waiting. Rounds
alternate the order of the cores; the first round is an untimed warm-up; the Python game's board caches
(workloads.PYTHON_CACHES) are emptied before every search, outside the timing. Both cores must visit the
same number of nodes and answer the same move and value, or the row says so.
"""
import argparse
import statistics
import time

from bench import ours, workloads


def measure(rows, rounds: int) -> list:
    """For each ``(game_id, state, algorithm, label)`` of ``rows``: ``{"label", "nodes", "same", "native_ms",
    "python_ms", "speedup"}``, the medians of ``rounds - 1`` timed runs a core (CPU milliseconds)."""
    results = []
    for game_id, state, algorithm, label in rows:
        cpu = {"native": [], "python": []}
        answers = {}
        for i in range(rounds):
            for core in ("native", "python") if i % 2 else ("python", "native"):
                for cached in workloads.PYTHON_CACHES.get(game_id, ()):
                    cached.cache_clear()
                start = time.process_time()
                r = ours.search(game_id, state, {**algorithm, "core": core}, time_limit_ms=600_000)
                if i:
                    cpu[core].append((time.process_time() - start) * 1000)
                answers[core] = (r.stats.nodes, r.move, r.value)
        native_ms, python_ms = statistics.median(cpu["native"]), statistics.median(cpu["python"])
        results.append({"label": f"{game_id}: {label}", "nodes": answers["native"][0],
                        "same": answers["native"] == answers["python"], "native_ms": native_ms,
                        "python_ms": python_ms, "speedup": python_ms / native_ms if native_ms > 0 else None})
    return results


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.cores_cpu", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", action="append", help="only this game's rows (repeatable; default: every row)")
    p.add_argument("--rounds", type=int, default=8, help="rounds, the first untimed (default 8)")
    args = p.parse_args(argv)
    if args.rounds < 2:
        p.error("--rounds must be >= 2 (the first is a warm-up)")
    rows = [r for r in workloads.CORE_SEARCHES if not args.game or r[0] in args.game]
    print("| search | nodes (both) | CPU ms native | CPU ms python | nodes/s native / python |")
    print("| --- | --- | --- | --- | --- |")
    for r in measure(rows, args.rounds):
        ratio = f"**{r['speedup']:.0f}x**" if r["same"] else "DIFFERENT answers"
        print(f"| {r['label']} | {r['nodes']:,} | {r['native_ms']:.2f} | {r['python_ms']:.1f} | "
              f"{r['nodes'] / r['native_ms'] * 1000:,.0f} / {r['nodes'] / r['python_ms'] * 1000:,.0f}: {ratio} |")


if __name__ == "__main__":
    main()
