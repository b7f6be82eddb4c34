"""Rules requests on a big state against ``/livez`` (issue 34, item 8): ``CLIENTS`` clients post a
48,000-node tree (about 0.9 MB) to ``POST /v1/games/tree/legal-moves`` back to back for ``SECONDS``, while
``/livez`` is asked on the service's port every 20 ms; a local gunicorn with two workers
(bench/service.py's). Prints ``/livez`` p50 / p99 / max, the rules requests' count, statuses and p50, and
the CPU time the workers themselves (not their search processes) spent per answer: the time they held
their interpreter for it, which the machine's load does not inflate as it does the latencies.

    python -m bench.rules_big [--against REF] [--rounds N] [--clients 8] [--seconds 3]

With ``--against REF`` the same load also runs on that commit's service (its tree exported by ``git
archive``), in alternating rounds (this tree, then REF, N times): the machine's speed drifts, so the two
are compared side by side, round by round. Figures: bench/RESULTS.md ("Rules requests on big states")."""
import argparse
import json
import multiprocessing
import os
import random
import tempfile
import time

from bench.service import REPO_ROOT, Server, exported, proc_stats, request
from bench.stats import median, nearest_rank

ROUTE = "/v1/games/tree/legal-moves"
PROBE_PERIOD_S = 0.020
BRANCHING, DEPTH = 36, 3   # 1 + 36 + 1,296 + 46,656 = 47,989 nodes


def big_tree(seed: int = 34) -> dict:
    """A MAX/MIN tree of ``BRANCHING`` children a node, ``DEPTH`` plies, its leaves valued to the cent."""
    rng = random.Random(seed)

    def node(depth: int, kind: str) -> dict:
        if depth == DEPTH:
            return {"value": round(rng.uniform(-1000, 1000), 2)}
        other = "min" if kind == "max" else "max"
        return {"type": kind, "children": [node(depth + 1, other) for _ in range(BRANCHING)]}
    return {"root": node(0, "max")}


def client(port: int, body: bytes, until: float, out) -> None:
    """One client (a process of its own: the clients' reading and writing must not share the prober's
    interpreter): posts ``body`` back to back until ``until`` (a ``time.time()``)."""
    statuses, ms = {}, []
    while time.time() < until:
        since = time.perf_counter()
        try:
            status, _ = request("POST", port, ROUTE, body, timeout=60, client=f"rules-{id(out)}")
        except OSError:
            status = "error"
        ms.append((time.perf_counter() - since) * 1000.0)
        statuses[status] = statuses.get(status, 0) + 1
    out.put((statuses, ms))


def workers_cpu_s(master: int) -> float:
    """CPU seconds (user + system) used so far by the gunicorn workers of ``master`` themselves, without
    their search processes (Linux /proc)."""
    ticks = sum(int(fields[11]) + int(fields[12]) for _, fields in proc_stats() if int(fields[1]) == master)
    return ticks / os.sysconf("SC_CLK_TCK")


def one_run(port: int, body: bytes, clients: int, seconds: float, master: int) -> dict:
    """``clients`` clients posting ``body`` for ``seconds``, ``/livez`` probed meanwhile; the workers' own
    CPU time is counted over the run."""
    ctx = multiprocessing.get_context("fork")
    cpu_before = workers_cpu_s(master)
    out = ctx.Queue()
    until = time.time() + seconds
    posting = [ctx.Process(target=client, args=(port, body, until, out)) for _ in range(clients)]
    for p in posting:
        p.start()
    livez = []
    while time.time() < until:
        since = time.perf_counter()
        request("GET", port, "/livez", timeout=30)
        elapsed = time.perf_counter() - since
        livez.append(elapsed * 1000.0)
        time.sleep(max(0.0, PROBE_PERIOD_S - elapsed))
    results = [out.get(timeout=120) for _ in posting]
    for p in posting:
        p.join(10)
    cpu_s = workers_cpu_s(master) - cpu_before
    statuses, ms = {}, []
    for counts, each in results:
        ms += each
        for status, n in counts.items():
            statuses[status] = statuses.get(status, 0) + n
    return {"livez_p50": nearest_rank(livez, 50), "livez_p99": nearest_rank(livez, 99), "livez_max": max(livez),
            "probes": len(livez), "statuses": statuses, "rules_p50": median(ms) if ms else None,
            "worker_cpu_ms": cpu_s * 1000.0 / max(1, sum(statuses.values()))}  # (the probes' CPU included)


def line(label: str, run: dict) -> str:
    statuses = ", ".join(f"{n} x {s}" for s, n in sorted(run["statuses"].items(), key=str))
    rules = "- | -" if run["rules_p50"] is None else f"{run['rules_p50']:.0f} | {run['worker_cpu_ms']:.0f}"
    return (f"| {label} | {run['livez_p50']:.1f} | {run['livez_p99']:.1f} | {run['livez_max']:.1f} | "
            f"{run['probes']} | {statuses or '-'} | {rules} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REF", help="also run the service of this commit, alternating")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--clients", type=int, default=8, help="0: /livez alone, the machine's floor")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    body = json.dumps({"state": big_tree()}).encode()
    print(f"body: {len(body)} bytes, {sum(BRANCHING ** d for d in range(DEPTH + 1))} nodes; "
          f"{args.clients} clients, {args.seconds} s a run\n")
    print("| service | /livez p50 ms | p99 ms | max ms | probes | rules answers | rules p50 ms "
          "| workers' CPU ms an answer |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="tactician-rules-big-") as scratch:
        roots = [("this tree", REPO_ROOT)]
        if args.against:
            roots.append((args.against, exported(args.against, scratch)))
        for round_ in range(args.rounds):
            for label, root in roots:
                with Server(root=root) as server:
                    request("POST", server.port, ROUTE, body, timeout=60)  # both workers warm
                    request("POST", server.port, ROUTE, body, timeout=60)
                    run = one_run(server.port, body, args.clients, args.seconds, server.proc.pid)
                print(line(f"{label}, round {round_ + 1}", run), flush=True)


if __name__ == "__main__":
    main()
