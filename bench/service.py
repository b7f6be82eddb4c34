"""Service benchmarks: a local gunicorn (2 workers, 127.0.0.1, a free port) that the benchmark starts and
stops itself, bounded in time, and a loopback client.

- HTTP overhead: the same trivial tree search through ``POST /v1/search`` and through ``engine.api.search``
  in this process, alternating; overhead = p50(HTTP) - p50(direct).
- Throughput: a bounded load generator (processes x threads of ``http.client``, a fixed duration and a cap
  on requests), plus Debian's ``wrk`` when it is installed (never required).
- Deadline overshoot: searches that cannot finish within ``time_limit_ms``; overshoot = response time
  measured at the client - time_limit_ms.
- Search overhead: what HTTP adds to searches of 1 ms to 10 s beyond their own ``stats.time_ms``, and the
  nodes a time-limited search reaches through HTTP against the same search in this process.
- Tic-tac-toe over HTTP: the textbook searches through ``POST /v1/search`` against OpenSpiel's Python ones.
"""
import http.client
import json
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

from bench import ours
from bench.report import make_row
from bench.stats import median, percentile, summary

REPO_ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 20

# AIMA figure 5.2: a MAX root over three MIN nodes.
TRIVIAL_TREE = {"root": {"type": "max", "children": [
    {"id": "B", "type": "min", "children": [{"value": 3}, {"value": 12}, {"value": 8}]},
    {"id": "C", "type": "min", "children": [{"value": 2}, {"value": 4}, {"value": 6}]},
    {"id": "D", "type": "min", "children": [{"value": 14}, {"value": 5}, {"value": 2}]}]}}
TRIVIAL_ALGORITHM = {"name": "alphabeta"}
TRIVIAL_REQUEST = {"game": "tree", "state": TRIVIAL_TREE, "algorithm": TRIVIAL_ALGORITHM}


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def exported(ref: str, into: str) -> Path:
    """The tree of commit ``ref``, exported into the directory ``into``."""
    archive = subprocess.run(["git", "archive", "--format=tar", ref], cwd=REPO_ROOT, check=True,
                             capture_output=True).stdout
    with tempfile.TemporaryFile() as fh:
        fh.write(archive)
        fh.seek(0)
        with tarfile.open(fileobj=fh) as tar:
            tar.extractall(into, filter="data")
    return Path(into)


class Server:
    """``gunicorn -c service/gunicorn.conf.py --bind 127.0.0.1:PORT --workers 2 service.wsgi:app``, in its
    own process group, logging to a temporary file; :meth:`stop` ends exactly that process group."""

    def __init__(self, workers=2, env=None, python=None, args=(), root=None):
        self.workers = workers
        self.root = Path(root) if root else REPO_ROOT  # the tree whose service runs (another commit's export)
        self.args = list(args)  # more of gunicorn's options, e.g. ["--worker-class", "sync"]
        self.python = python or sys.executable
        self.port = free_port()
        self.proc = None
        self.log_path = None
        self.env = env or {}

    def start(self):
        conf = self.root / "service" / "gunicorn.conf.py"
        cmd = [self.python, "-m", "gunicorn"]
        if conf.is_file():
            cmd += ["-c", str(conf)]
        cmd += ["--bind", f"{HOST}:{self.port}", "--workers", str(self.workers), *self.args, "service.wsgi:app"]
        fd, self.log_path = tempfile.mkstemp(prefix="tactician-bench-gunicorn-", suffix=".log")
        env = dict(os.environ, **self.env)
        env.pop("BIND", None)
        with os.fdopen(fd, "w") as log:
            self.proc = subprocess.Popen(cmd, cwd=self.root, stdout=log, stderr=subprocess.STDOUT, env=env,
                                         start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}: {self.log_tail()}")
            try:
                status, _ = request("GET", self.port, "/livez", timeout=2)
                if status == 200:
                    # both workers: a few more probes so that neither is still importing
                    for _ in range(4):
                        request("GET", self.port, "/livez", timeout=5)
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"gunicorn did not answer /livez within {START_TIMEOUT_S} s: {self.log_tail()}")

    def log_tail(self, n=15):
        try:
            return "".join(Path(self.log_path).read_text(errors="replace").splitlines(True)[-n:])
        except OSError:
            return ""

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # the master: it stops its workers gracefully
            try:
                self.proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # our own process group only
                self.proc.wait(5)
        try:
            os.killpg(self.proc.pid, 0)
        except ProcessLookupError:
            pass
        else:  # a worker outlived the master
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.log_path:
            try:
                os.unlink(self.log_path)
            except OSError:
                pass
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def proc_stats():
    """Each live process's pid and the fields of its ``/proc/<pid>/stat`` after the command (Linux): state
    ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ..."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                yield int(entry), fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue


def group_cpu_seconds(leader):
    """CPU seconds (user + system) used so far by the process group ``leader`` leads: every live member,
    plus the reaped children the leader has waited for (gunicorn's recycled workers). Linux /proc only;
    None elsewhere."""
    total = 0
    try:
        for pid, fields in proc_stats():
            if int(fields[2]) == leader:                           # its process group
                total += int(fields[11]) + int(fields[12])        # utime, stime
                if pid == leader:
                    total += int(fields[13]) + int(fields[14])    # cutime, cstime
    except OSError:
        return None
    return total / os.sysconf("SC_CLK_TCK")


def request(method, port, path, body=None, timeout=30, client="bench"):
    """One request on a fresh connection, from the client named ``client`` (its API key: the service
    limits each client to MAX_SEARCHES_PER_CLIENT searches at once). Returns (status, body)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        headers = {"X-API-Key": client, **({"Content-Type": "application/json"} if body is not None else {})}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def timed_post(port, body, timeout=30, client="bench"):
    t0 = time.perf_counter()
    status, data = request("POST", port, "/v1/search", body, timeout, client)
    return (time.perf_counter() - t0) * 1000.0, status, data


# --- HTTP overhead -------------------------------------------------------------------------------------

def http_overhead(ctx, server):
    n = 100 if ctx.quick else 400
    body = json.dumps(TRIVIAL_REQUEST).encode()
    for _ in range(20):  # warm both workers
        timed_post(server.port, body)
        ours.search("tree", TRIVIAL_TREE, TRIVIAL_ALGORITHM)
    http_ms, direct_ms, bad = [], [], 0
    for i in range(n):
        pair = ("http", "direct") if i % 2 == 0 else ("direct", "http")
        for kind in pair:
            if kind == "http":
                ms, status, _ = timed_post(server.port, body)
                if status != 200:
                    bad += 1
                http_ms.append(ms)
            else:
                t0 = time.perf_counter()
                ours.search("tree", TRIVIAL_TREE, TRIVIAL_ALGORITHM)
                direct_ms.append((time.perf_counter() - t0) * 1000.0)
    p50_http, p50_direct = median(http_ms), median(direct_ms)
    overhead = p50_http - p50_direct
    ctx.details["http-overhead"] = {"requests": n, "http_ms": summary(http_ms), "direct_ms": summary(direct_ms),
                                    "non_200": bad}
    note = (f"AIMA fig. 5.2 tree, alphabeta, {n} requests, a new connection each; HTTP p50 {p50_http:.2f} ms "
            f"(p90 {percentile(http_ms, 90):.2f}), direct engine.api.search p50 {p50_direct * 1000:.0f} µs")
    if bad:
        note += f"; {bad} responses were not 200"
    return make_row("http-overhead", "p50(HTTP) - p50(direct)", ours_ms=overhead,
                    goal="<= 2 ms at p50", met=overhead <= 2.0 and not bad, note=note)


# --- a search's own overhead, by length ---------------------------------------------------------------

# Time-limited searches that never finish early (Connect Four from the empty board, default alpha-beta),
# each limit with its number of requests (full run, quick run): what HTTP adds to a search beyond its own
# ``stats.time_ms``, and the nodes it reaches against the same search in this process.
OVERHEAD_LIMITS_MS = {1: (100, 30), 10: (60, 20), 100: (20, 8), 1000: (6, 3), 10000: (2, 0)}
OVERHEAD_SEARCH = {"game": "connect4", "state": {"moves": ""}, "algorithm": {"name": "alphabeta"}}
NODES_SHARE_GOAL = 0.9           # at 10 ms and 100 ms


def search_overhead(ctx, server):
    """Per limit: p50 of (wall time - ``stats.time_ms``) through ``POST /v1/search``, goal <= 2 ms; at 10
    and 100 ms also the median nodes through HTTP over the median nodes in process, goal >= 90%."""
    rows = []
    for limit, (full, quick) in OVERHEAD_LIMITS_MS.items():
        n = quick if ctx.quick else full
        if not n:
            continue
        body = json.dumps({**OVERHEAD_SEARCH, "time_limit_ms": limit}).encode()
        timed_post(server.port, body)
        overheads, http_nodes, direct_nodes, cores = [], [], [], set()
        for _ in range(n):
            ms, status, data = timed_post(server.port, body, timeout=limit / 1000 + 30)
            if status == 200:
                answer = json.loads(data)
                overheads.append(ms - answer["stats"]["time_ms"])
                http_nodes.append(answer["stats"]["nodes"])
                cores.add(answer["stats"]["core"])
            direct = ours.search(OVERHEAD_SEARCH["game"], OVERHEAD_SEARCH["state"], OVERHEAD_SEARCH["algorithm"],
                                 time_limit_ms=limit)
            direct_nodes.append(direct.stats.nodes)
        label = f"connect4 alpha-beta, time_limit_ms {limit}"
        if not overheads:
            rows.append(make_row("search-overhead", label, met=False, goal="<= 2 ms at p50", note="no 200 answer"))
            continue
        p50 = median(overheads)
        note = (f"{len(overheads)} of {n} requests answered 200, core {'/'.join(sorted(cores))}; overhead p50 "
                f"{p50:.2f} ms, p90 {percentile(overheads, 90):.2f} ms")
        rows.append(make_row("search-overhead", label, ours_ms=p50, goal="<= 2 ms at p50", met=p50 <= 2.0,
                             note=note, overheads_ms=overheads))
        if limit in (10, 100):
            share = median(http_nodes) / max(1, median(direct_nodes))
            rows.append(make_row("search-overhead", f"nodes through HTTP / in process, {limit} ms",
                                 ours_text=f"{share:.0%}", ours_nodes=int(median(http_nodes)),
                                 peer_nodes=int(median(direct_nodes)), peer="in process",
                                 goal=f">= {NODES_SHARE_GOAL:.0%}", met=share >= NODES_SHARE_GOAL,
                                 note=f"median nodes of {n} searches each way"))
    return rows


# Tic-tac-toe's textbook searches through HTTP against OpenSpiel's Python searches in this process.
TICTACTOE_HTTP = [
    ("textbook alpha-beta, empty 3x3", {"name": "alphabeta", "move_ordering": False, "transposition_table": False},
     "alpha_beta_search"),
    ("minimax, empty 3x3", {"name": "minimax"}, "expectiminimax"),
]


def tictactoe_http(ctx, server):
    """The textbook searches of the empty 3x3 board through ``POST /v1/search``, p50 of the wall time,
    against OpenSpiel's Python search (median in process): goal <= 0.1x."""
    from bench import peers
    ok, info = peers.available("open_spiel")
    n = 10 if ctx.quick else 30
    rows = []
    for label, algorithm, peer in TICTACTOE_HTTP:
        body = json.dumps({"game": "tictactoe", "state": {"board": ["...", "...", "..."]},
                           "algorithm": algorithm}).encode()
        timed_post(server.port, body)
        walls = [timed_post(server.port, body)[0] for _ in range(n)]
        peer_ms = None
        if ok:
            run = peers.os_alpha_beta if peer == "alpha_beta_search" else None
            fn = (lambda: run("tic_tac_toe")) if run else peers.os_tictactoe_expectiminimax
            samples = []
            for _ in range(max(3, n // 5)):
                t0 = time.perf_counter()
                fn()
                samples.append((time.perf_counter() - t0) * 1000.0)
            peer_ms = median(samples)
        ours_ms = median(walls)
        r = None if peer_ms is None else ours_ms / peer_ms
        rows.append(make_row("tictactoe-http", label, peer=f"OpenSpiel {peer} (Python, in process)"
                             if ok else f"OpenSpiel (missing: {info})", ours_ms=ours_ms, peer_ms=peer_ms, ratio=r,
                             goal="ratio <= 0.1", met=None if r is None else r <= 0.1,
                             note=f"p50 wall time of {n} requests, a new connection each"))
    return rows


# --- throughput ----------------------------------------------------------------------------------------

def _load_worker(port, body, duration, threads, cap, out):
    """One client process: ``threads`` threads posting back to back until ``duration`` or ``cap``."""
    stop_at = time.perf_counter() + duration
    lock = threading.Lock()
    counts = {"ok": 0, "bad": 0, "err": 0}
    lat = []

    def loop():
        client = f"load-{os.getpid()}-{threading.get_ident()}"  # each thread a client of its own
        while time.perf_counter() < stop_at:
            with lock:
                if counts["ok"] + counts["bad"] + counts["err"] >= cap:
                    return
            try:
                ms, status, _ = timed_post(port, body, timeout=10, client=client)
            except OSError:
                with lock:
                    counts["err"] += 1
                continue
            with lock:
                counts["ok" if status == 200 else "bad"] += 1
                lat.append(ms)

    ts = [threading.Thread(target=loop) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    out.put((counts, lat))


def python_load(port, body, duration, processes, threads, cap):
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    procs = [ctx.Process(target=_load_worker, args=(port, body, duration, threads, cap // processes, q))
             for _ in range(processes)]
    t0 = time.perf_counter()
    for p in procs:
        p.start()
    results = [q.get(timeout=duration + 60) for _ in procs]
    for p in procs:
        p.join(10)
        if p.is_alive():
            p.kill()
    elapsed = time.perf_counter() - t0
    ok = sum(r[0]["ok"] for r in results)
    bad = sum(r[0]["bad"] for r in results)
    err = sum(r[0]["err"] for r in results)
    lat = [x for r in results for x in r[1]]
    return {"ok": ok, "bad": bad, "errors": err, "seconds": elapsed, "rps": ok / elapsed,
            "latency_ms": summary(lat)}


WRK_LUA = """wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[%s]]
"""


def wrk_load(port, body, duration, connections):
    """Debian's ``wrk`` (if installed): ``wrk -t2 -cN -dDs -s post.lua``. Returns None when absent."""
    exe = shutil.which("wrk")
    if not exe:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as fh:
        fh.write(WRK_LUA % body.decode())
        script = fh.name
    try:
        out = subprocess.run([exe, "-t2", f"-c{connections}", f"-d{int(duration)}s", "--latency", "-s", script,
                              f"http://{HOST}:{port}/v1/search"], capture_output=True, text=True,
                             timeout=duration + 30)
    finally:
        os.unlink(script)
    text = out.stdout
    rps = None
    non2xx = 0
    for line in text.splitlines():
        if line.startswith("Requests/sec:"):
            rps = float(line.split()[1])
        if "Non-2xx" in line:
            non2xx = int(line.split()[-1])
    return {"rps": rps, "non_2xx": non2xx, "output": text}


def throughput(ctx, server):
    duration = 3.0 if ctx.quick else 10.0
    cap = 200_000
    processes, threads = 2, 4
    body = json.dumps(TRIVIAL_REQUEST).encode()
    rows = []
    cpu0 = group_cpu_seconds(server.proc.pid)
    py = python_load(server.port, body, duration, processes, threads, cap)
    cpu1 = group_cpu_seconds(server.proc.pid)
    served = py["ok"] + py["bad"]
    if cpu0 is not None and cpu1 is not None and served:
        py["server_cpu_ms_per_request"] = (cpu1 - cpu0) * 1000 / served
    ctx.details["http-throughput/python"] = py
    note = (f"Python client: {processes} processes x {threads} threads of http.client, {duration:.0f} s, new "
            f"connection per request, on the same 2 cores as the server; {py['ok']} ok, {py['bad']} non-200, "
            f"{py['errors']} connection errors; latency p50 {py['latency_ms']['median']:.1f} ms, "
            f"p99 {py['latency_ms']['p99']:.1f} ms" if py["latency_ms"] else "no responses")
    if py.get("server_cpu_ms_per_request"):
        per = py["server_cpu_ms_per_request"]
        note += (f"; the server (master + workers) used {per:.2f} ms of CPU per request, so 2 dedicated cores "
                 f"would serve at most about {2000 / per:,.0f} req/s (an estimate, not a measurement)")
    rows.append(make_row("http-throughput", "trivial searches/s (Python client)", ours_text=f"{py['rps']:,.0f}/s",
                         goal=">= 1000 req/s", met=py["rps"] >= 1000 and not py["bad"], note=note,
                         requests_per_s=py["rps"]))
    cpu0 = group_cpu_seconds(server.proc.pid)
    wrk = wrk_load(server.port, body, duration, 8)
    cpu1 = group_cpu_seconds(server.proc.pid)
    if wrk is not None and wrk["rps"] is not None:
        ctx.details["http-throughput/wrk"] = wrk
        rows.append(make_row("http-throughput", "trivial searches/s (wrk)", ours_text=f"{wrk['rps']:,.0f}/s",
                             goal=">= 1000 req/s", met=wrk["rps"] >= 1000 and not wrk["non_2xx"],
                             note=f"wrk -t2 -c8 -d{duration:.0f}s; non-2xx {wrk['non_2xx']}; server CPU "
                                  f"{(cpu1 - cpu0) * 1000 / (wrk['rps'] * duration):.2f} ms per request"
                                  if cpu0 is not None and cpu1 is not None and wrk["rps"] else
                                  f"wrk -t2 -c8 -d{duration:.0f}s; non-2xx {wrk['non_2xx']}",
                             requests_per_s=wrk["rps"]))
    rows.append(beside_sync_workers(ctx, server, body, duration, processes, threads, cap))
    return rows


# The commit whose sync workers served 1,323-1,485 trivial searches/s on this machine (issue 33's goal):
# before the threaded worker, the search processes and the compiled core.
SYNC_WORKERS_COMMIT = "1c5c9c1"


def beside_sync_workers(ctx, server, body, duration, processes, threads, cap):
    """Trivial searches/s of this service and of ``SYNC_WORKERS_COMMIT``'s, the same client, in alternating
    rounds (the machine's speed drifts from hour to hour, so only a side-by-side ratio says which serves
    more). The row's times are milliseconds a request (1000 / rate), so its ratio reads like the others."""
    rounds, rate = 2, {"ours": [0, 0.0], "sync": [0, 0.0]}
    with tempfile.TemporaryDirectory(prefix="tactician-sync-workers-") as tree:
        try:
            other = Server(workers=2, python=getattr(ctx, "server_python", None),
                           root=exported(SYNC_WORKERS_COMMIT, tree)).start()
        except Exception as exc:  # noqa: BLE001 (a row that says why, not a failed bench)
            return make_row("http-throughput", f"trivial searches/s beside {SYNC_WORKERS_COMMIT}", met=False,
                            goal="ratio <= 1", note=f"could not start {SYNC_WORKERS_COMMIT}'s service: {exc}")
        try:
            for _ in range(rounds):
                for side, port in (("ours", server.port), ("sync", other.port)):
                    run = python_load(port, body, duration / rounds, processes, threads, cap)
                    rate[side][0] += run["ok"]
                    rate[side][1] += run["seconds"]
        finally:
            other.stop()
    ours, sync = (rate[side][0] / rate[side][1] for side in ("ours", "sync"))
    ratio = sync / ours if ours else None
    return make_row("http-throughput", f"trivial searches/s beside {SYNC_WORKERS_COMMIT} (sync workers)",
                    peer=f"{SYNC_WORKERS_COMMIT}'s service, same client", ours_text=f"{ours:,.0f}/s",
                    peer_text=f"{sync:,.0f}/s", ours_ms=1000 / ours if ours else None,
                    peer_ms=1000 / sync if sync else None, ratio=ratio, goal="ratio <= 1",
                    met=ratio is not None and ratio <= 1,
                    note=f"{rounds} rounds of {duration / rounds:.0f} s a side, alternating, the Python client "
                         f"above; the ratio is ms a request, ours / theirs (issue 33's 1,300/s was "
                         f"{SYNC_WORKERS_COMMIT}'s rate on this machine then)",
                    requests_per_s=ours, peer_requests_per_s=sync)


# --- deadline overshoot --------------------------------------------------------------------------------

def _deadline_cases():
    """Searches that cannot finish within a short limit, one per algorithm family."""
    return [
        ("connect4 alphabeta, no depth", {"game": "connect4", "state": {"moves": ""},
                                           "algorithm": {"name": "alphabeta"}}),
        ("connect4 mcts, no cap", {"game": "connect4", "state": {"moves": "4453"},
                                    "algorithm": {"name": "mcts", "seed": 1}}),
        ("tictactoe 5x5 k4 minimax", {"game": "tictactoe", "state": {"board": ["....."] * 5, "k": 4},
                                      "algorithm": {"name": "minimax"}}),
        ("2048 expectimax, no depth", {"game": "2048", "state": {"board": [[2, 0, 0, 0], [0, 0, 0, 0],
                                                                           [0, 0, 2, 0], [0, 0, 0, 0]]},
                                        "algorithm": {"name": "expectimax"}}),
        ("connect4 maxn, no depth", {"game": "connect4", "state": {"moves": ""},
                                      "algorithm": {"name": "maxn"}}),
    ]


def deadline_overshoot(ctx, server):
    n = 50 if ctx.quick else 200
    limit_ms = 100
    cases = _deadline_cases()
    over, per_case, not_timed_out, errors = [], {}, {}, {}
    # warm-up, not counted: a worker's first search of a game imports that game (2048 builds its tables)
    warm = []
    for _ in range(4):
        for label, req in cases:
            body = json.dumps(dict(req, time_limit_ms=limit_ms)).encode()
            ms, status, _ = timed_post(server.port, body, timeout=30)
            warm.append((ms - limit_ms, label))
    for i in range(n):
        label, req = cases[i % len(cases)]
        body = json.dumps(dict(req, time_limit_ms=limit_ms)).encode()
        ms, status, data = timed_post(server.port, body, timeout=30)
        if status != 200:
            errors[label] = f"{status}: {data[:200].decode(errors='replace')}"
            continue
        stats = json.loads(data).get("stats", {})
        if not stats.get("timed_out"):
            not_timed_out[label] = not_timed_out.get(label, 0) + 1
            continue
        over.append(ms - limit_ms)
        per_case.setdefault(label, []).append(ms - limit_ms)
    if not over:
        return [make_row("deadline-overshoot", f"{n} searches, limit {limit_ms} ms", goal="p99 <= 25 ms",
                         met=False, note=f"no search timed out; errors {errors}, finished early "
                                         f"{not_timed_out}")]
    p50, p99 = percentile(over, 50), percentile(over, 99)
    worst_warm = max(warm)
    ctx.details["deadline-overshoot"] = {"limit_ms": limit_ms, "overshoot_ms": summary(over),
                                         "warm_up_overshoot_ms": [round(w, 1) for w, _ in warm],
                                         "per_case_ms": {k: summary(v) for k, v in per_case.items()},
                                         "finished_early": not_timed_out, "errors": errors}
    parts = [f"{k}: p50 {percentile(v, 50):.1f}, max {max(v):.1f}" for k, v in per_case.items()]
    note = (f"{len(over)} timed-out searches (limit {limit_ms} ms, client-side response time minus the limit), "
            f"cycling over: " + "; ".join(parts) + f"; p50 {p50:.1f} ms, max {max(over):.1f} ms")
    note += (f"; before them, {len(warm)} warm-up requests (not counted) overshot by up to {worst_warm[0]:.0f} ms "
             f"({worst_warm[1]})")
    if not_timed_out:
        note += f"; finished before the limit (not counted): {not_timed_out}"
    if errors:
        note += f"; errors: {errors}"
    return [make_row("deadline-overshoot", f"p99 over {len(over)} timed-out searches", ours_ms=p99,
                     goal="p99 <= 25 ms", met=p99 <= 25.0 and len(over) >= n * 0.9, note=note)]


# deadline before throughput: the thousands of throughput requests make gunicorn recycle its workers
# (max_requests), and a fresh worker pays its imports on its first search of each game
SERVICE_WORKLOADS = ("http-overhead", "search-overhead", "tictactoe-http", "deadline-overshoot", "http-throughput")
FUNCS = {"http-overhead": http_overhead, "search-overhead": search_overhead, "tictactoe-http": tictactoe_http,
         "http-throughput": throughput, "deadline-overshoot": deadline_overshoot}


def run_service(ctx, names):
    """Start the server once for the chosen service workloads, run them, always stop it."""
    server = Server(workers=2, python=getattr(ctx, "server_python", None))
    try:
        server.start()
    except Exception as exc:
        return [make_row(name, "service", met=False, goal="-", note=f"could not start gunicorn: {exc}")
                for name in names]
    rows = []
    try:
        for name in names:
            ctx.log(f"[{name}]")
            try:
                rows += FUNCS[name](ctx, server) if name != "http-overhead" else [FUNCS[name](ctx, server)]
            except Exception as exc:
                rows.append(make_row(name, "service", met=False, note=f"failed: {type(exc).__name__}: {exc}; "
                                                                      f"server log: {server.log_tail(5)}"))
    finally:
        server.stop()
    return rows
