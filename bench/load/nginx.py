"""The scale-out bench (issue 18): the deploy/ recipe (bench/load/cluster.py: nginx with
deploy/nginx/tactician.conf, instances of gunicorn, one Redis) on loopback, driven through nginx by locust
headless (bench/load/scale_users.py).

    pip install -r requirements-bench.txt          # and Debian's nginx and redis-server
    /work/wt/bench-run -n 2 -- python -m bench.load.nginx [--seconds 20] [--json bench/load/scale.json]

Scenarios, every instance with the production settings (service/gunicorn.conf.py, two workers: one per
core of this machine), Redis for the per-client limits unless said otherwise:

- ``scale``: one instance, then three, behind nginx: rules calls only (``cheap``, eight clients back to
  back), then one-second searches only (six clients back to back); throughput, latency, the search nodes
  per search and per second (from the instances' /metrics), and the CPU each part used (nginx, gunicorn,
  Redis, locust, and the rest of the machine).
- ``rolling``: three instances under a mixed load while each is restarted in turn (out of nginx's
  upstream, SIGTERM, started again, back in): the failed requests, the goal being none.
- ``storage``: one instance with the per-client counts in memory (per worker), then in Redis: the same
  rules calls and tiny searches side by side; then, in this process, the limiter's own time per search
  (``Fairness.search`` entered and left) and a tiny search through Flask's test client with each storage.
- ``memory``: two single-worker instances, each given a 10 s search (MAX_TIME_LIMIT_MS) of the kinds
  that keep the most in memory (alpha-beta's transposition table, the MCTS tree), two at a time: the
  peak RSS of a worker, with the peak over every other scenario.

Prints Markdown tables (bench/RESULTS.md, "Scale out") and writes every figure to the JSON file."""
import argparse
import csv
from concurrent.futures import ThreadPoolExecutor
import json
import logging
import os
from pathlib import Path
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import psutil
import requests

from bench.load.bodies import SEARCH_TINY
from bench.load.cluster import ROOT, Cluster

USERS_FILE = Path(__file__).with_name("scale_users.py")
WORKERS = 2
NODES, SEARCHES = "tactician_search_nodes_total", "tactician_searches_total"
# Searches that keep the most in memory for their whole time (the memory scenario), two at a time.
HEAVY = [({"game": "connect4", "state": {"moves": ""}, "algorithm": {"name": "alphabeta"}},
          {"game": "connect4", "state": {"moves": ""}, "algorithm": {"name": "mcts"}}),
         ({"game": "chess", "state": {}, "algorithm": {"name": "alphabeta"}},
          {"game": "checkers", "state": {}, "algorithm": {"name": "alphabeta"}})]
MAX_TIME_LIMIT_MS = 10_000
# The rolling restart takes about 15 s on two dedicated cores (three drains and boots); the load outlasts it.
ROLLING_SECONDS = 45


class Sampler:
    """Every half second: the CPU time of each process of the cluster and of locust (their children
    included, so recycled gunicorn workers count) and of this process (``bench``, without its children),
    and the peak RSS of each gunicorn worker."""

    def __init__(self, roles):
        self.roles = roles            # a callable: [(role, pid)] of the processes to follow now
        self.cpu = {}                 # pid -> [role, cpu seconds when first seen, latest cpu seconds]
        self.worker_rss = {}          # gunicorn worker pid -> peak RSS, bytes
        self.running = True
        self.machine_start = psutil.cpu_times()
        self.started = time.monotonic()
        self.first = True
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while self.running:
            self.sample()
            self.first = False
            time.sleep(0.5)

    def sample(self):
        for role, pid in self.roles():
            try:
                parent = psutil.Process(pid)
                family = [parent] if role == "bench" else [parent, *parent.children(recursive=True)]
            except psutil.Error:
                continue
            for process in family:
                try:
                    times = process.cpu_times()
                    used = times.user + times.system
                    if role == "gunicorn" and process.pid != pid:
                        rss = process.memory_info().rss
                        self.worker_rss[process.pid] = max(self.worker_rss.get(process.pid, 0), rss)
                except psutil.Error:
                    continue
                seen = self.cpu.setdefault(process.pid, [role, used if self.first else 0.0, used])
                seen[2] = used

    def stop(self) -> dict:
        """CPU seconds by role over the sampled time, the machine's busy CPU seconds, the wall time."""
        self.sample()
        self.running = False
        self.thread.join(timeout=5)
        wall = time.monotonic() - self.started
        by_role = {}
        for role, first, last in self.cpu.values():
            by_role[role] = by_role.get(role, 0.0) + (last - first)
        end = psutil.cpu_times()
        spent = {f: getattr(end, f) - getattr(self.machine_start, f) for f in end._fields}
        # Busy: not idle, and not taken by the hypervisor (steal); guest time is already in user time.
        busy = sum(v for f, v in spent.items() if f not in ("idle", "iowait", "steal", "guest", "guest_nice"))
        # Interrupts (loopback networking's softirq among them) belong to no process.
        by_role["interrupts"] = spent.get("irq", 0.0) + spent.get("softirq", 0.0)
        by_role["other processes"] = max(0.0, busy - sum(by_role.values()))
        by_role["steal"] = spent.get("steal", 0.0)
        return {"wall_s": round(wall, 1), "cpu_s": {k: round(v, 1) for k, v in by_role.items()},
                "machine_busy_cores": round(busy / wall, 2)}


class Locust:
    """locust headless, in a process of its own, against ``base``."""

    def __init__(self, base: str, classes: list, users: int, seconds: int, prefix: str):
        self.prefix = prefix
        self.log = open(f"{prefix}.log", "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "locust", "-f", str(USERS_FILE), *classes, "--headless", "-u", str(users),
             "-r", str(users), "-t", f"{seconds}s", "--host", base, "--csv", prefix, "--only-summary",
             "--stop-timeout", "5", "--loglevel", "WARNING"],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def wait(self, timeout: float) -> dict:
        """The statistics per request name (count, failures, rate, percentiles in ms) and the failures
        by error."""
        try:
            self.process.wait(timeout=timeout)
        finally:
            self.log.close()
        rows = {}
        with open(f"{self.prefix}_stats.csv") as f:
            for row in csv.DictReader(f):
                if row["Name"] != "Aggregated":
                    rows[row["Name"]] = {
                        "count": int(row["Request Count"]), "failures": int(row["Failure Count"]),
                        "per_s": round(float(row["Requests/s"]), 1), "mean_ms": round(float(row["Average Response Time"]), 1),
                        "p50_ms": float(row["50%"]), "p90_ms": float(row["90%"]), "p99_ms": float(row["99%"]),
                        "max_ms": round(float(row["Max Response Time"]), 1)}
        with open(f"{self.prefix}_failures.csv") as f:
            errors = [{"name": r["Name"], "error": r["Error"], "count": int(r["Occurrences"])} for r in csv.DictReader(f)]
        return {"requests": rows, "errors": errors}


def measured(cluster: Cluster, classes: list, users: int, seconds: int, prefix: str, during=None) -> dict:
    """One locust run through the cluster's nginx, with its CPU use; ``during()`` runs meanwhile (the
    rolling restart) and its wall time is recorded."""
    load = Locust(cluster.base, classes, users, seconds, prefix)
    sampler = Sampler(lambda: [*cluster.processes(), ("locust", load.process.pid), ("bench", os.getpid())])
    result = {}
    if during is not None:
        time.sleep(3)
        started = time.monotonic()
        during()
        result["during_s"] = round(time.monotonic() - started, 1)
    result.update(load.wait(timeout=seconds + 60))
    result.update(sampler.stop())
    result["worker_rss_mb"] = sorted(round(v / 2**20, 1) for v in sampler.worker_rss.values())
    return result


def counters(cluster: Cluster) -> tuple:
    return tuple(sum(i.metric(name) for i in cluster.instances) for name in (SEARCHES, NODES))


def with_nodes(cluster: Cluster, run) -> dict:
    """``run()``'s figures plus the searches and nodes the instances counted meanwhile (their /metrics)."""
    searches_before, nodes_before = counters(cluster)
    result = run()
    searches, nodes = (a - b for a, b in zip(counters(cluster), (searches_before, nodes_before)))
    if searches:
        result["searches"] = int(searches)
        result["nodes_per_search"] = round(nodes / searches)
        result["nodes_per_s"] = round(nodes / result["wall_s"])
    return result


def workdir() -> Path:
    path = Path(tempfile.mkdtemp(prefix="tactician-scale-"))
    os.chmod(path, 0o755)
    return path


def scale(seconds: int) -> dict:
    report = {}
    for instances in (1, 3):
        cluster = Cluster(workdir(), instances=instances, workers=WORKERS)
        try:
            prefix = f"{cluster.workdir}/locust"
            report[f"{instances} instance(s)"] = {
                "cheap": with_nodes(cluster, lambda: measured(cluster, ["Cheap"], 8, seconds, f"{prefix}-cheap")),
                "search": with_nodes(cluster, lambda: measured(cluster, ["Searcher"], 6, seconds, f"{prefix}-search"))}
        finally:
            cluster.close()
    return report


def rolling(seconds: int) -> dict:
    cluster = Cluster(workdir(), instances=3, workers=WORKERS)
    try:
        result = measured(cluster, ["RollingCheap", "RollingSearcher"], 7, seconds, f"{cluster.workdir}/locust",
                          during=cluster.rolling_restart)
    finally:
        cluster.close()
    result["restart_under_load"] = result["during_s"] + 3 < seconds
    return result


# The per-client limits on (off by default), too high to refuse anything: their storage's cost is measured.
LIMITS_ON = {"MAX_SEARCHES_PER_CLIENT": "1000", "SEARCH_SECONDS_PER_CLIENT_MINUTE": "1000000"}


def limiter_costs(redis_url: str, repeat: int = 2000) -> dict:
    """In this process, per storage: the median time of ``Fairness.search`` entered and left (the
    limiter's work for one search: charge, count, uncount, refund) and of a tiny search through Flask's
    test client, in microseconds (medians of five batches)."""
    from service.app import create_app
    from service.fairness import fairness

    logging.getLogger("tactician.requests").disabled = True     # the same for both storages; not measured
    costs = {}
    for storage in ("memory://", redis_url):
        app = create_app({"RATE_LIMIT_STORAGE_URI": storage, **LIMITS_ON})
        limits = fairness(app)
        batches = []
        with app.test_request_context(headers={"X-API-Key": "bench"}):
            for _ in range(5):
                started = time.perf_counter()
                for _ in range(repeat // 5):
                    with limits.search(1000):
                        pass
                batches.append((time.perf_counter() - started) / (repeat // 5) * 1e6)
        client = app.test_client()
        routes = []
        for _ in range(5):
            started = time.perf_counter()
            for _ in range(repeat // 20):
                assert client.post("/v1/search", json=SEARCH_TINY, headers={"X-API-Key": "bench"}).status_code == 200
            routes.append((time.perf_counter() - started) / (repeat // 20) * 1e6)
        costs["redis" if storage.startswith("redis") else "memory"] = {
            "limiter_us": round(statistics.median(batches), 1), "tiny_search_route_us": round(statistics.median(routes))}
    return costs


def storage(seconds: int) -> dict:
    report = {}
    for kind in ("memory", "redis"):
        directory = workdir()
        cluster = Cluster(directory, instances=1, workers=WORKERS, env=LIMITS_ON,
                          storage="memory://" if kind == "memory" else None)
        try:
            report[kind] = {
                "cheap": measured(cluster, ["Cheap"], 8, seconds, f"{directory}/locust-cheap"),
                "tiny search": measured(cluster, ["TinySearcher"], 8, seconds, f"{directory}/locust-tiny")}
            if kind == "redis":
                report["in process"] = limiter_costs(cluster.redis_url)
        finally:
            cluster.close()
    return report


def memory() -> dict:
    """Each round: two heavy 10 s searches at once, one on each single-worker instance."""
    cluster = Cluster(workdir(), instances=2, workers=1, env={"MAX_TIME_LIMIT_MS": str(MAX_TIME_LIMIT_MS)})
    sampler = Sampler(cluster.processes)
    rounds = []
    try:
        with ThreadPoolExecutor(2) as pool:
            for pair in HEAVY:
                answers = pool.map(lambda job: requests.post(
                    f"{job[0].base}/v1/search", json={**job[1], "time_limit_ms": MAX_TIME_LIMIT_MS},
                    headers={"X-API-Key": f"heavy-{job[0].port}"}, timeout=60), zip(cluster.instances, pair))
                rounds.append([{"game": body["game"], "algorithm": body["algorithm"]["name"], "status": a.status_code,
                                "nodes": a.json().get("stats", {}).get("nodes") if a.ok else None}
                               for body, a in zip(pair, answers)])
    finally:
        sampler.stop()
        cluster.close()
    return {"searches": rounds, "worker_rss_mb": sorted(round(v / 2**20, 1) for v in sampler.worker_rss.values())}


def peak_worker_rss(report) -> float:
    """The largest worker RSS anywhere in the report."""
    if not isinstance(report, dict):
        return 0.0
    own = report.get("worker_rss_mb", [])
    return max([*own, *(peak_worker_rss(v) for k, v in report.items() if k != "worker_rss_mb")], default=0.0)


def print_tables(report: dict) -> None:
    print("\n#### scale\n\n| instances | load | request | count | failures | per s | p50 ms | p90 ms | p99 ms | "
          "nodes/search | nodes/s | CPU s: gunicorn / nginx / redis / locust / bench / interrupts / other / steal | machine busy cores |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for config, loads in report["scale"].items():
        for load, run in loads.items():
            cpu = run["cpu_s"]
            for name, row in run["requests"].items():
                print(f"| {config} | {load} | {name} | {row['count']} | {row['failures']} | {row['per_s']} | "
                      f"{row['p50_ms']:.0f} | {row['p90_ms']:.0f} | {row['p99_ms']:.0f} | {run.get('nodes_per_search', '-')} | "
                      f"{run.get('nodes_per_s', '-')} | {' / '.join(str(cpu.get(r, 0)) for r in ('gunicorn', 'nginx', 'redis', 'locust', 'bench', 'interrupts', 'other processes', 'steal'))} | "
                      f"{run['machine_busy_cores']} |")
    run = report["rolling"]
    print(f"\n#### rolling restart ({run['during_s']} s for the three, under load: {run['restart_under_load']})\n")
    for name, row in run["requests"].items():
        print(f"- {name}: {row['count']} requests, {row['failures']} failed, p50 {row['p50_ms']:.0f} ms, "
              f"p99 {row['p99_ms']:.0f} ms, max {row['max_ms']:.0f} ms")
    print(f"- errors: {run['errors']}")
    print("\n#### storage of the per-client limits\n\n| storage | load | request | count | failures | per s | mean ms | "
          "p50 ms | p99 ms |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for kind in ("memory", "redis"):
        for load, run in report["storage"][kind].items():
            for name, row in run["requests"].items():
                print(f"| {kind} | {load} | {name} | {row['count']} | {row['failures']} | {row['per_s']} | "
                      f"{row['mean_ms']} | {row['p50_ms']:.0f} | {row['p99_ms']:.0f} |")
    print("\nin process:", json.dumps(report["storage"]["in process"]))
    print("\n#### memory\n\n", json.dumps(report["memory"]))
    print("\npeak worker RSS over every scenario (MB):", report["peak_worker_rss_mb"])


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.load.nginx")
    parser.add_argument("--seconds", type=int, default=20, help="the length of each locust run")
    parser.add_argument("--only", action="append", choices=["scale", "rolling", "storage", "memory"])
    parser.add_argument("--json", default=str(ROOT / "bench" / "load" / "scale.json"))
    args = parser.parse_args(argv)
    scenarios = {"scale": lambda: scale(args.seconds), "rolling": lambda: rolling(max(args.seconds, ROLLING_SECONDS)),
                 "storage": lambda: storage(args.seconds), "memory": memory}
    report = {"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                       text=True).stdout.strip(),
              "cores": psutil.cpu_count(), "load_average": os.getloadavg()}
    for name in args.only or list(scenarios):
        report[name] = scenarios[name]()
    report["peak_worker_rss_mb"] = peak_worker_rss(report)
    Path(args.json).write_text(json.dumps(report, indent=2))
    if not args.only:
        print_tables(report)
    else:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
