"""The load-balanced recipe, run for real on loopback: nginx (Debian's package) with
deploy/nginx/tactician.conf in front of three instances of the service, sharing one Redis (Debian's
redis-server) for the per-client limits. Every wait and every load loop is bounded."""
import os
from pathlib import Path
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest
import requests

from tests.service.server import free_port, stop

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "deploy" / "nginx" / "tactician.conf"
BOOT_SECONDS = 30
INSTANCES = 3
SEARCH = {"game": "connect4", "state": {"moves": "4453"}, "algorithm": {"name": "alphabeta"},
          "time_limit_ms": 200}
RULES = {"state": {"moves": "4453"}}


def require(program: str) -> str:
    path = shutil.which(program) or shutil.which(program, path="/usr/sbin:/usr/bin")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{program} is not installed: scripts/test installs it with apt-get")
        pytest.skip(f"{program} is not installed (apt-get install nginx redis-server)")
    return path


def wait_for(url: str, process, seconds: float = BOOT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, f"{process.args[0]} exited during start-up"
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} did not come up in {seconds} s")


class Instance:
    """One gunicorn of the service on its own loopback port."""

    def __init__(self, workdir: Path, port: int, redis_url: str):
        self.workdir, self.port, self.redis_url = workdir, port, redis_url
        self.process = None
        self.log = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        metrics = self.workdir / f"metrics-{self.port}"
        shutil.rmtree(metrics, ignore_errors=True)
        metrics.mkdir(parents=True)
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(metrics), "WEB_CONCURRENCY": "1",
               "MAX_TIME_LIMIT_MS": "5000", "RATE_LIMIT_STORAGE_URI": self.redis_url,
               "FORWARDED_ALLOW_IPS": "127.0.0.1"}
        self.log = open(self.workdir / f"gunicorn-{self.port}.log", "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "service/gunicorn.conf.py", "--bind", f"127.0.0.1:{self.port}"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        wait_for(f"{self.base}/readyz", self.process)

    def stop(self, timeout: float = 20) -> int:
        """SIGTERM, then wait for a clean exit; the exit code."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        finally:
            self.log.close()

    def searches_served(self) -> float:
        text = requests.get(f"{self.base}/metrics", timeout=5).text
        return sum(float(v) for v in re.findall(r'^tactician_searches_total\{[^}]*\} ([0-9.e+]+)$', text, re.M))


class Cluster:
    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.redis_port, self.nginx_port = free_port(), free_port()
        self.redis = subprocess.Popen([require("redis-server"), "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                       "--save", "", "--appendonly", "no"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.instances = [Instance(workdir, free_port(), redis_url) for _ in range(INSTANCES)]
        for instance in self.instances:
            instance.start()
        self.nginx = None
        self.write_config()
        self.nginx = subprocess.Popen([require("nginx"), "-p", str(workdir), "-c", str(workdir / "nginx.conf")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        wait_for(f"{self.base}/livez", self.nginx)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}"

    def write_config(self, down=()) -> None:
        """The recipe's configuration with this cluster's ports (instances in ``down`` marked so), in an
        nginx.conf that keeps every file nginx writes in the work directory."""
        conf = CONF.read_text()
        servers = "\n".join(f"    server 127.0.0.1:{i.port} max_fails=1 fail_timeout=2s{' down' if i in down else ''};"
                            for i in self.instances)
        conf = re.sub(r"(    server 127\.0\.0\.1:800\d [^\n]*\n)+", servers + "\n", conf)
        conf = conf.replace("listen 8080;", f"listen 127.0.0.1:{self.nginx_port};")
        (self.workdir / "tactician.conf").write_text(conf)
        for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.workdir / temp).mkdir(exist_ok=True)
            os.chmod(self.workdir / temp, 0o777)
        (self.workdir / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
pid {self.workdir}/nginx.pid;
error_log {self.workdir}/nginx-error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {self.workdir}/body;
    proxy_temp_path {self.workdir}/proxy;
    fastcgi_temp_path {self.workdir}/fastcgi;
    uwsgi_temp_path {self.workdir}/uwsgi;
    scgi_temp_path {self.workdir}/scgi;
    include {self.workdir}/tactician.conf;
}}
""")
        if self.nginx is not None:
            self.nginx.send_signal(signal.SIGHUP)      # reload: new workers take the new upstream list
            time.sleep(0.5)

    def close(self) -> None:
        for process in [self.nginx, *(i.process for i in self.instances), self.redis]:
            if process is not None:
                stop(process)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("recipe")
    os.chmod(workdir, 0o755)
    built = Cluster(workdir)
    try:
        yield built
    finally:
        built.close()


class Load:
    """Clients sending a mix of searches and rules calls through nginx until stopped (bounded: at most
    ``seconds``); every answer that is not a 200 is kept."""

    def __init__(self, base: str, clients: int = 4, seconds: float = 60):
        self.base, self.stop_at = base, time.monotonic() + seconds
        self.stopped = threading.Event()
        self.ok, self.failures = 0, []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(n,), daemon=True) for n in range(clients)]

    def run(self, n: int) -> None:
        # A connection a request: an nginx reload closes idle keep-alive connections, and a client that
        # sends on one at that instant sees a reset before nginx has read anything (clients retry that;
        # this load counts it as a failure, so it does not reuse connections across the reloads).
        session = requests
        i = 0
        while not self.stopped.is_set() and time.monotonic() < self.stop_at:
            i += 1
            try:
                if (i + n) % 2:
                    response = session.post(f"{self.base}/v1/search", json=SEARCH, timeout=20,
                                            headers={"X-API-Key": f"load-{n}"})
                else:
                    response = session.post(f"{self.base}/v1/games/connect4/legal-moves", json=RULES, timeout=20,
                                            headers={"X-API-Key": f"load-{n}"})
                outcome = response.status_code
            except requests.RequestException as exc:
                outcome = type(exc).__name__
            with self.lock:
                if outcome == 200:
                    self.ok += 1
                else:
                    self.failures.append(outcome)

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        for t in self.threads:
            t.join(timeout=30)


def test_a_mixed_load_spreads_over_every_instance(cluster):
    before = [i.searches_served() for i in cluster.instances]
    with Load(cluster.base) as load:
        time.sleep(4)
    after = [i.searches_served() for i in cluster.instances]
    assert load.failures == [] and load.ok > 20
    assert all(a > b for a, b in zip(after, before)), (before, after)


def test_nginx_errors_are_problem_json(cluster):
    response = requests.get(f"{cluster.base}/v1/games?" + "x" * 70_000, timeout=5)
    assert response.status_code == 414
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["status"] == 414


def test_stopping_an_instance_under_load_loses_nothing(cluster):
    """SIGTERM to one instance mid-load: it finishes what it holds, nginx sends the rest elsewhere."""
    victim = cluster.instances[0]
    with Load(cluster.base) as load:
        time.sleep(1.5)
        assert victim.stop() == 0
        served_by_others = [i.searches_served() for i in cluster.instances[1:]]
        time.sleep(2.5)
    assert load.failures == [] and load.ok > 10
    assert [i.searches_served() for i in cluster.instances[1:]] > served_by_others
    victim.start()


def test_a_rolling_restart_under_load_fails_no_request(cluster):
    """One at a time: out of the upstream (reload), SIGTERM (it finishes what it holds), start, back in."""
    with Load(cluster.base) as load:
        for instance in cluster.instances:
            cluster.write_config(down=(instance,))
            assert instance.stop() == 0
            instance.start()
            cluster.write_config()
        time.sleep(1)
    assert load.failures == [] and load.ok > 20


def test_a_client_over_its_limit_on_one_instance_is_over_it_on_all(cluster):
    """The per-client limits live in the shared Redis: while a client's search runs on one instance, its
    next concurrent search is refused on every other one (MAX_SEARCHES_PER_CLIENT is 1 by default), and
    another client is served."""
    first, others = cluster.instances[0], cluster.instances[1:]
    long_search = dict(SEARCH, state={"moves": ""}, time_limit_ms=3000)
    answers = []
    hog = threading.Thread(target=lambda: answers.append(requests.post(
        f"{first.base}/v1/search", json=long_search, headers={"X-API-Key": "hog"}, timeout=20).status_code))
    hog.start()
    try:
        time.sleep(1.0)
        for other in others:
            refused = requests.post(f"{other.base}/v1/search", json=SEARCH, headers={"X-API-Key": "hog"}, timeout=10)
            assert refused.status_code == 429 and "Retry-After" in refused.headers
            assert refused.headers["Content-Type"].startswith("application/problem+json")
        served = requests.post(f"{others[0].base}/v1/search", json=SEARCH, headers={"X-API-Key": "not-the-hog"},
                               timeout=10)
        assert served.status_code == 200
    finally:
        hog.join(timeout=20)
    assert answers == [200]
