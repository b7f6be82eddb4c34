"""Python-core searches through HTTP, this tree's search pool (service/search_pool.py) beside another
tree's service (``--other``: an export of main, whose searches ran 5 ms inline, then again in a process
forked for each), both on one gunicorn worker each, with ``SEARCH_NICE=0`` (the figures are of the
mechanism, not of the priorities; in-process searches run at this process's priority) and one request in
flight at a time, the servers and the in-process reference taking turns round after round.

- Overhead: a request's wall time at the client minus the ``stats.time_ms`` it answers, p50, for short
  searches (finished within a few milliseconds) and long ones (time-limited).
- Nodes: the nodes of a time-limited search at 10 ms and 100 ms, as a share of the same search run in this
  process (``engine.api.search``), median of the rounds' ratios; also through a pool of this process's own,
  without HTTP (``direct pool``), to tell the pool's share from the server's (the time limit counts from the
  request's arrival: reading and checking it comes off the search's time).

``python -m bench.search_pool --other /tmp/main-export [--rounds 30]`` (export main with
``git archive main | tar -x -C /tmp/main-export``). Prints a table and, with ``--json``, writes the figures.
"""
import argparse
import http.client
import json
import time

import engine.api
from bench.service import HOST, Server
from bench.stats import median
from engine.limits import Limits
from service.search_pool import SearchPool

OTHELLO = engine.api.describe_game("othello")["initial_state"]
TWENTY48 = engine.api.describe_game("2048")["initial_state"]
TREE = {"root": {"type": "max", "children": [
    {"type": "min", "children": [{"value": 3}, {"value": 12}, {"value": 8}]},
    {"type": "min", "children": [{"value": 2}, {"value": 4}, {"value": 6}]},
    {"type": "min", "children": [{"value": 14}, {"value": 5}, {"value": 2}]}]}}

# name: (game, state, algorithm, time_limit_ms)
SHORT = {"tree alphabeta": ("tree", TREE, {"name": "alphabeta"}, 1000),
         "othello alphabeta depth 2": ("othello", OTHELLO, {"name": "alphabeta", "depth": 2}, 1000),
         "2048 expectimax depth 2": ("2048", TWENTY48, {"name": "expectimax", "depth": 2}, 1000),
         "othello alphabeta depth 4": ("othello", OTHELLO, {"name": "alphabeta", "depth": 4}, 1000)}
TIMED = {"othello alphabeta": ("othello", OTHELLO, {"name": "alphabeta"}),
         "2048 expectimax": ("2048", TWENTY48, {"name": "expectimax"})}
LIMITS_MS = (10, 100)


def post(port: int, body: dict) -> tuple:
    """(wall ms, stats) of one ``POST /v1/search``."""
    data = json.dumps(body).encode()
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        started = time.perf_counter()
        conn.request("POST", "/v1/search", body=data, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        payload = response.read()
        wall = (time.perf_counter() - started) * 1000.0
    finally:
        conn.close()
    if response.status != 200:
        raise RuntimeError(f"{response.status}: {payload[:300]!r}")
    return wall, json.loads(payload)["stats"]


def body(game, state, algorithm, limit_ms) -> dict:
    return {"game": game, "state": state, "algorithm": algorithm, "time_limit_ms": limit_ms}


def run(servers: dict, rounds: int) -> dict:
    figures = {"overhead_p50_ms": {}, "nodes_share": {}}
    for name, (game, state, algorithm, limit) in {**SHORT, **{f"{k} {LIMITS_MS[-1]} ms": (*v, LIMITS_MS[-1])
                                                               for k, v in TIMED.items()}}.items():
        overheads = {label: [] for label in servers}
        for _ in range(rounds):
            for label, server in servers.items():
                wall, stats = post(server.port, body(game, state, algorithm, limit))
                overheads[label].append(wall - stats["time_ms"])
        figures["overhead_p50_ms"][name] = {label: round(median(v), 2) for label, v in overheads.items()}
    for name, (game, state, algorithm) in TIMED.items():
        for limit in LIMITS_MS:
            ratios = {label: [] for label in servers}
            for _ in range(rounds):
                here = engine.api.search(game, state, algorithm, limit).stats.nodes
                for label, server in servers.items():
                    ratios[label].append(post(server.port, body(game, state, algorithm, limit))[1]["nodes"] / here)
            figures["nodes_share"][f"{name} {limit} ms"] = {label: round(median(v), 3) for label, v in ratios.items()}
    figures["nodes_share_direct_pool"] = direct(rounds)
    return figures


def direct(rounds: int) -> dict:
    """The nodes of the timed searches on a pool of this process (no HTTP), as a share of in-process."""
    pool, shares = SearchPool(1).start(), {}
    try:
        for name, (game, state, algorithm) in TIMED.items():
            for limit in LIMITS_MS:
                ratios = []
                for _ in range(rounds):
                    here = engine.api.search(game, state, algorithm, limit).stats.nodes
                    request = {"game_id": game, "state_json": state, "algorithm": algorithm,
                               "time_limit_ms": limit, "trace": False, "limits": Limits()}
                    with pool.search(request, wait_s=10) as search:
                        ratios.append(search.result().stats.nodes / here)
                shares[f"{name} {limit} ms"] = {"direct pool": round(median(ratios), 3)}
    finally:
        pool.close()
    return shares


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, help="the tree of the service to compare with (an export of main)")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args(argv)
    engine.api.preload()
    env = {"SEARCH_NICE": "0", "MAX_SEARCHES_PER_CLIENT": "100", "WEB_CONCURRENCY": "1"}
    with Server(workers=1, env=env, root=args.other) as other, Server(workers=1, env=env) as pool:
        servers = {"fork per search (other)": other, "pool (this tree)": pool}
        for server in servers.values():  # warm: the pool's processes, the worker's first requests
            for game, state, algorithm, _ in SHORT.values():
                post(server.port, body(game, state, algorithm, 1000))
        figures = run(servers, args.rounds)
    for section, rows in figures.items():
        print(section)
        for name, values in rows.items():
            print(f"  {name:40s} " + "  ".join(f"{label}: {value}" for label, value in values.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=2)


if __name__ == "__main__":
    main()
