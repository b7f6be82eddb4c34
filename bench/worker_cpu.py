"""Where a cheap request's CPU goes: the CPU seconds (user + system, as psutil reads them) that one gunicorn
worker spends per request, over N sequential requests each on a new connection, for Tactician's worker
(service/worker.py, as service/gunicorn.conf.py configures it) and, for scale, gunicorn's own ``gthread``
worker (the same threads) and ``sync`` worker on the same app.

    python -m bench.worker_cpu [--requests 2000] [--rounds 2] [--workers ours,gthread,sync] [--routes livez,search]
                               [--instructions]

Each run starts its own server (one worker, ``MAX_REQUESTS`` out of reach so that it is not recycled mid-run),
warms it up, then counts the worker's CPU over the requests; the client is raw sockets, so its own cost is
small, but it shares the machine: run it under the benchmark runner, one core. Rounds alternate the workers.
With ``--instructions``, ``perf stat`` also counts the worker's instructions per request (user and kernel):
a figure that, unlike CPU time, holds on a loaded machine. Linux only. Prints a Markdown table."""
import argparse
import json
import signal
import socket
import subprocess
import time

import psutil

from bench.service import HOST, TRIVIAL_REQUEST, Server
from bench.stats import median

WORKERS = {"ours": [], "gthread": ["--worker-class", "gthread"], "sync": ["--worker-class", "sync"]}
WARMUP = 200


def raw_request(port: int, route: str) -> bytes:
    """The bytes of ``GET /livez``, or of the trivial search (bench/service.py), closing its connection."""
    if route == "livez":
        return f"GET /livez HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode()
    body = json.dumps(TRIVIAL_REQUEST).encode()
    return (f"POST /v1/search HTTP/1.1\r\nHost: {HOST}:{port}\r\nX-API-Key: bench\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            ).encode() + body


def exchange(port: int, data: bytes) -> int:
    """Send ``data`` on a new connection, read the response to its end; its status."""
    with socket.create_connection((HOST, port), timeout=10) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return int(b"".join(chunks)[9:12])


def start_counting(pid: int) -> subprocess.Popen:
    """``perf stat`` counting the instructions of process ``pid`` until it is interrupted."""
    return subprocess.Popen(["perf", "stat", "-x", ",", "-e", "instructions", "-p", str(pid)],
                            stderr=subprocess.PIPE, text=True)


def stop_counting(perf: subprocess.Popen) -> int:
    """The instructions ``perf`` counted."""
    perf.send_signal(signal.SIGINT)
    _, err = perf.communicate(timeout=30)
    for line in err.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("instructions"):
            return int(fields[0])
    raise RuntimeError(f"perf stat counted no instructions: {err.strip()}")


def measure(worker: str, route: str, requests: int, instructions: bool = False) -> dict:
    """One server with one worker of kind ``worker``: its CPU per request of ``route``, in milliseconds
    (and its instructions per request, when ``instructions``)."""
    env = {"WEB_CONCURRENCY": "1", "MAX_REQUESTS": "1000000"}
    if worker == "sync":
        env["THREADS"] = "1"  # gunicorn runs gthread instead of sync when threads > 1
    with Server(workers=1, env=env, args=WORKERS[worker]) as server:
        port = server.port
        data = raw_request(port, route)
        for _ in range(WARMUP):
            exchange(port, data)
        arbiter = psutil.Process(server.proc.pid)
        (process,) = arbiter.children()
        perf = start_counting(process.pid) if instructions else None
        time.sleep(0.2 if perf else 0)  # perf attaches
        before = process.cpu_times()
        started = time.perf_counter()
        failed = sum(exchange(port, data) != 200 for _ in range(requests))
        elapsed = time.perf_counter() - started
        time.sleep(0.3)  # the last closes
        after = process.cpu_times()
        counted = stop_counting(perf) if perf else None
        if arbiter.children() != [process]:
            raise RuntimeError("the worker was replaced during the run")
    ms = 1000.0 / requests
    user, system = (after.user - before.user) * ms, (after.system - before.system) * ms
    return {"worker": worker, "route": route, "requests": requests, "failed": failed,
            "cpu_ms": user + system, "user_ms": user, "sys_ms": system, "wall_ms": elapsed * ms,
            "instructions": counted // requests if counted else None}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.worker_cpu", description=__doc__.split("\n\n")[0])
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--workers", default="ours,gthread,sync")
    p.add_argument("--routes", default="livez,search")
    p.add_argument("--instructions", action="store_true", help="count instructions per request with perf")
    args = p.parse_args(argv)
    rows = []
    for _ in range(args.rounds):
        for worker in args.workers.split(","):
            for route in args.routes.split(","):
                row = measure(worker, route, args.requests, args.instructions)
                print(json.dumps(row), flush=True)
                rows.append(row)
    print("\n| worker | route | CPU ms/request (each round) | median | user / sys ms (median) "
          "| instructions/request (median) | failed |")
    print("|---|---|---|---|---|---|---|")
    for worker in args.workers.split(","):
        for route in args.routes.split(","):
            runs = [r for r in rows if r["worker"] == worker and r["route"] == route]
            each = ", ".join(f"{r['cpu_ms']:.2f}" for r in runs)
            print(f"| {worker} | {route} | {each} | "
                  f"{median([r['cpu_ms'] for r in runs]):.2f} | {median([r['user_ms'] for r in runs]):.2f} / "
                  f"{median([r['sys_ms'] for r in runs]):.2f} | {instructions_text(runs)} "
                  f"| {sum(r['failed'] for r in runs)} |")


def instructions_text(runs: list[dict]) -> str:
    counts = [r["instructions"] for r in runs if r["instructions"]]
    return f"{median(counts) / 1e6:.2f} M" if counts else "-"


if __name__ == "__main__":
    main()
