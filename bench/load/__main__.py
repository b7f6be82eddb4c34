"""Load and abuse scenarios of issue 17 against a real gunicorn with two workers, driven by locust headless
(``bench/load/locustfile.py``); the slow clients and the SIGTERM drain by sockets and threads.

    pip install -r requirements-bench.txt
    python -m bench.load [--quick] [--redis redis://127.0.0.1:6379] [--json bench/load/results.json]

Prints two Markdown tables per scenario (the figures of bench/RESULTS.md, "Load and abuse"): locust's, as
its clients saw them, and the server's own, from its request log (each request from its arrival at its
worker to its answer; the clients' latencies add their own delays: here, the load generator shares the
server's cores). The scenario "floor" is the flood's users against nginx answering every search with the
service's refusal at once (bench/load/floor.py): locust's own share of the flood's figures. Then the peak
RSS of each worker process and of the largest search process (sampled every half second over the whole
run; workers are recycled after MAX_REQUESTS, so there may be more than two)."""
import argparse
import csv
import json
import os
from pathlib import Path
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import psutil
import requests

from bench.load.clients import slow_clients
from bench.load.floor import Floor
from bench.load import HEALTH_URL_ENV, PUBLIC_LIMITS, api_keys, user_key
from bench.stats import nearest_rank

ROOT = Path(__file__).resolve().parents[2]
LOCUSTFILE = Path(__file__).with_name("locustfile.py")
SEARCH = {"game": "tictactoe", "state": {"board": ["." * 7] * 7, "k": 4}, "algorithm": {"name": "minimax"}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """gunicorn with service/gunicorn.conf.py and two workers; samples its workers' RSS, and keeps its log
    (the request log's lines: :meth:`requests_logged`)."""

    def __init__(self, python: str, env: dict, log_path: str = os.devnull):
        self.port, self.health_port = free_port(), free_port()
        self.log_path = log_path
        self.base = f"http://127.0.0.1:{self.port}"
        self.health = f"http://127.0.0.1:{self.health_port}"
        self.metrics = tempfile.mkdtemp(prefix="tactician-bench-")
        self.process = subprocess.Popen(
            [python, "-m", "gunicorn", "-c", "service/gunicorn.conf.py", "--bind", f"127.0.0.1:{self.port}"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(log_path, "ab"), stdin=subprocess.DEVNULL,
            env={**os.environ, "WEB_CONCURRENCY": "2", "MAX_TIME_LIMIT_MS": "10000",
                 "HEALTH_BIND": f"127.0.0.1:{self.health_port}", "PROMETHEUS_MULTIPROC_DIR": self.metrics, **env})
        self.peak_rss = {}
        self.peak_search_rss = 0  # the largest search process (each search runs in a child of its worker)
        self.sampling = True
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.base}/readyz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                time.sleep(0.2)
        self.sampler = threading.Thread(target=self.sample, daemon=True)
        self.sampler.start()

    def sample(self):
        parent = psutil.Process(self.process.pid)
        while self.sampling and self.process.poll() is None:
            try:
                for child in parent.children():
                    rss = child.memory_info().rss
                    self.peak_rss[child.pid] = max(self.peak_rss.get(child.pid, 0), rss)
                    for search in child.children():
                        self.peak_search_rss = max(self.peak_search_rss, search.memory_info().rss)
            except psutil.Error:
                pass
            time.sleep(0.5)

    def log_size(self) -> int:
        return os.path.getsize(self.log_path)

    def requests_logged(self, since: int) -> dict:
        """The server's own latencies, by route and status, of the requests its log has recorded after
        byte ``since`` (a :meth:`log_size`): each from the request's arrival at its worker to its answer.
        A client's latency adds the network and its own delays (on this machine, the load generator's
        own CPU on the same cores)."""
        durations = {}
        with open(self.log_path, "rb") as log:
            log.seek(since)
            for line in log:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue  # gunicorn's own lines
                if isinstance(entry, dict) and entry.get("duration_ms") is not None:
                    name = f"{entry['method']} {entry['route']} {entry['status']}"
                    durations.setdefault(name, []).append(entry["duration_ms"])
        return {name: {"count": len(ms), "p50_ms": nearest_rank(ms, 50), "p99_ms": nearest_rank(ms, 99),
                       "max_ms": max(ms)} for name, ms in sorted(durations.items())}

    def stop(self, sig=signal.SIGTERM, timeout=60) -> int:
        self.sampling = False
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout=timeout)


def locust(server: Server, classes: list, users: int, seconds: int, prefix: str) -> dict:
    """Run locust headless; the statistics per request name (count, failures, p50, p99, max in ms), and
    the server's own (``server``: :meth:`Server.requests_logged`) when it keeps a log. ``server`` may be
    the load generator's floor (bench/load/floor.py)."""
    logged = server.log_path != os.devnull
    since = server.log_size() if logged else 0
    subprocess.run([sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), *classes, "--headless",
                    "-u", str(users), "-r", str(users), "-t", f"{seconds}s", "--host", server.base, "--csv", prefix,
                    "--only-summary", "--stop-timeout", "15", "--loglevel", "WARNING"],
                   cwd=ROOT, check=False, stdout=subprocess.DEVNULL,
                   env={**os.environ, HEALTH_URL_ENV: server.health})
    rows = {}
    with open(f"{prefix}_stats.csv") as f:
        for row in csv.DictReader(f):
            if row["Name"] != "Aggregated":
                rows[row["Name"]] = {"count": int(row["Request Count"]), "failures": int(row["Failure Count"]),
                                     "p50_ms": float(row["50%"]), "p99_ms": float(row["99%"]),
                                     "max_ms": float(row["Max Response Time"])}
    if logged:
        rows["server"] = server.requests_logged(since)
    return rows


def floor(seconds: int, prefix: str) -> dict | None:
    """The flood's users against the load generator's floor (bench/load/floor.py), or None without nginx."""
    try:
        server = Floor()
    except RuntimeError as error:
        print(f"floor skipped: {error}", file=sys.stderr)
        return None
    try:
        return locust(server, ["LongSearcher", "Prober"], 51, seconds, prefix)
    finally:
        server.stop()


def drain(python: str, env: dict) -> dict:
    """Eight 3 s searches on two workers, SIGTERM at 0.5 s, then four more: every one answered?"""
    server = Server(python, env)
    answers, errors = [], []

    numbers = iter(range(12))

    def one():
        try:  # each its own client: the per-client limits are not what this scenario measures
            r = requests.post(f"{server.base}/v1/search", json={**SEARCH, "time_limit_ms": 3000}, timeout=60,
                              headers={"X-API-Key": user_key("drain", next(numbers))})
            answers.append(r.status_code)
        except requests.RequestException as error:
            errors.append(type(error).__name__)

    first = [threading.Thread(target=one) for _ in range(8)]
    for t in first:
        t.start()
    time.sleep(0.5)
    server.process.send_signal(signal.SIGTERM)
    started = time.perf_counter()
    ready = requests.get(f"{server.base}/readyz", timeout=5)
    ready_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    health_ready = requests.get(f"{server.health}/readyz", timeout=5)
    health_ready_ms = (time.perf_counter() - started) * 1000 + ready_ms
    later = [threading.Thread(target=one) for _ in range(4)]
    for t in later:
        t.start()
    for t in first + later:
        t.join(timeout=60)
    code = server.stop(timeout=60)
    return {"answers": sorted(answers), "errors": errors, "readyz_status": ready.status_code,
            "readyz_ms": round(ready_ms, 1), "health_port_readyz_status": health_ready.status_code,
            "health_port_readyz_ms": round(health_ready_ms, 1), "exit_status": code, "peak_rss": server.peak_rss}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.load")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--redis", help="RATE_LIMIT_STORAGE_URI for the per-client limits")
    parser.add_argument("--json", default=str(ROOT / "bench" / "load" / "results.json"))
    parser.add_argument("--server-python", default=sys.executable)
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the server (README, Settings), for instance SEARCH_NICE=5")
    args = parser.parse_args(argv)
    env = {**PUBLIC_LIMITS, "API_KEYS": api_keys(), **({"RATE_LIMIT_STORAGE_URI": args.redis} if args.redis else {})}
    env.update(setting.split("=", 1) for setting in args.env)
    scale = 0.25 if args.quick else 1.0
    out = tempfile.mkdtemp(prefix="tactician-locust-")
    report = {}
    server = Server(args.server_python, env, f"{out}/server.log")
    try:
        report["mixed"] = locust(server, ["Mixed", "Prober"], 9, int(60 * scale), f"{out}/mixed")
        report["flood"] = locust(server, ["LongSearcher", "Prober"], 51, int(20 * max(scale, 0.5)),
                                 f"{out}/flood")
        time.sleep(12)  # let the flood's last searches end
        report["floor"] = floor(int(20 * max(scale, 0.5)), f"{out}/floor")
        report["starve"] = locust(server, ["Hog", "Victim", "Prober"], 4, int(40 * max(scale, 0.5)),
                                  f"{out}/starve")
        time.sleep(12)
        socks = slow_clients(server.port)
        try:
            report["slowloris"] = locust(server, ["Victim", "Prober"], 2, int(20 * max(scale, 0.5)),
                                         f"{out}/slowloris")
        finally:
            for sock in socks:
                sock.close()
    finally:
        code = server.stop()
    report["peak_rss_mb"] = {pid: round(rss / 2**20, 1) for pid, rss in server.peak_rss.items()}
    report["peak_search_process_rss_mb"] = round(server.peak_search_rss / 2**20, 1)
    report["exit_status"] = code
    report["sigterm"] = drain(args.server_python, env)
    report["sigterm"]["peak_rss"] = {pid: round(rss / 2**20, 1) for pid, rss in report["sigterm"]["peak_rss"].items()}
    Path(args.json).write_text(json.dumps(report, indent=2))
    for scenario in ("mixed", "flood", "floor", "starve", "slowloris"):
        if report[scenario] is None:
            continue
        print(f"\n#### {scenario}\n\n| request | count | failures | p50 ms | p99 ms | max ms |\n"
              "| --- | --- | --- | --- | --- | --- |")
        for name, row in report[scenario].items():
            if name != "server":
                print(f"| {name} | {row['count']} | {row['failures']} | {row['p50_ms']:.0f} | {row['p99_ms']:.0f} | "
                      f"{row['max_ms']:.0f} |")
        if "server" not in report[scenario]:
            continue
        print("\nThe server's own, from a request's arrival at its worker to its answer (its request log):\n\n"
              "| request | count | p50 ms | p99 ms | max ms |\n| --- | --- | --- | --- | --- |")
        for name, row in report[scenario]["server"].items():
            print(f"| {name} | {row['count']} | {row['p50_ms']:.1f} | {row['p99_ms']:.1f} | {row['max_ms']:.1f} |")
    print("\nsigterm:", json.dumps(report["sigterm"]))
    print("peak RSS per worker (MB):", report["peak_rss_mb"])
    print("peak RSS of a search process (MB):", report["peak_search_process_rss_mb"])


if __name__ == "__main__":
    main()
