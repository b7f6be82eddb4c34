"""The deploy/ recipe on loopback: nginx (Debian's package) with deploy/nginx/tactician.conf in front of
several instances of the service (one gunicorn each), sharing one Redis (Debian's redis-server) for the
per-client limits. The load-balancing test (tests/deploy/test_nginx_recipe.py) and the scale-out bench
(``python -m bench.load.nginx``) both run it. Every wait is bounded; :meth:`Cluster.close` stops and reaps
every process it started."""
import os
from pathlib import Path
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import requests

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "deploy" / "nginx" / "tactician.conf"
BOOT_SECONDS = 60
STOP_SECONDS = 30
# The recipe's upstream lines, replaced by the cluster's own ports.
UPSTREAM_SERVERS = re.compile(r"(    server 127\.0\.0\.1:800\d [^\n]*\n)+")
# Variables nginx must hand to its workers: bench-run (/work/wt/bench-run or any such wrapper) finds the
# processes of a timed benchmark by them, and nginx clears its workers' environment otherwise.
PASSED_ENV = ("TACTICIAN_BENCH", "TACTICIAN_BENCH_CPUS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def program(name: str) -> str | None:
    """Where a Debian package's program is (nginx lives in /usr/sbin and stockfish in /usr/games, often not on
    a user's PATH)."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/usr/games")


def wait_for(url: str, process, seconds: float = BOOT_SECONDS) -> None:
    """Until ``url`` answers 200; fails if ``process`` exits or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited during start-up")
        try:
            if requests.get(url, timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up in {seconds} s")


def stop(process, timeout: float = STOP_SECONDS) -> None:
    """SIGTERM, then SIGKILL after ``timeout``; reaped either way."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout)


class Instance:
    """One gunicorn of the service (service/gunicorn.conf.py) on its own loopback port."""

    def __init__(self, workdir: Path, port: int, env: dict):
        self.workdir, self.port, self.env = workdir, port, env
        self.process = None
        self.log = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        metrics = self.workdir / f"metrics-{self.port}"
        shutil.rmtree(metrics, ignore_errors=True)
        metrics.mkdir(parents=True)
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(metrics), **self.env}
        self.log = open(self.workdir / f"gunicorn-{self.port}.log", "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "service/gunicorn.conf.py", "--bind", f"127.0.0.1:{self.port}"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        wait_for(f"{self.base}/readyz", self.process)

    def stop(self, timeout: float = STOP_SECONDS) -> int:
        """SIGTERM, then wait for the drain to end; the exit code."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        finally:
            self.log.close()

    def metric(self, name: str) -> float:
        """A counter of /metrics, summed over its labels (and this instance's workers)."""
        text = requests.get(f"{self.base}/metrics", timeout=5).text
        return sum(float(v) for v in re.findall(rf"^{name}(?:\{{[^}}]*\}})? ([0-9.e+]+)$", text, re.M))


class Cluster:
    """Redis, ``instances`` gunicorns of ``workers`` workers each (their other settings in ``env``), and
    nginx in front of them, all on loopback. ``storage`` is the instances' RATE_LIMIT_STORAGE_URI: the
    cluster's Redis by default."""

    def __init__(self, workdir: Path, instances: int = 3, workers: int = 1, env: dict | None = None,
                 storage: str | None = None, nginx: str | None = None, redis_server: str | None = None):
        self.workdir = workdir
        self.nginx_program = nginx or program("nginx")
        self.redis_port, self.nginx_port = free_port(), free_port()
        self.nginx = None
        self.redis = subprocess.Popen([redis_server or program("redis-server"), "--port", str(self.redis_port),
                                       "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        settings = {"WEB_CONCURRENCY": str(workers), "RATE_LIMIT_STORAGE_URI": storage or self.redis_url,
                    "FORWARDED_ALLOW_IPS": "127.0.0.1", **(env or {})}
        self.instances = [Instance(workdir, free_port(), settings) for _ in range(instances)]
        try:
            for instance in self.instances:
                instance.start()
            self.write_config()
            self.nginx = subprocess.Popen([self.nginx_program, "-p", str(workdir), "-c", str(workdir / "nginx.conf")],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          stdin=subprocess.DEVNULL)
            wait_for(f"{self.base}/livez", self.nginx)
        except BaseException:
            self.close()
            raise

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}"

    def processes(self) -> list:
        """Every process this cluster started, by role: ``[(role, pid)]``."""
        return ([("nginx", self.nginx.pid)] if self.nginx else []) + [("redis", self.redis.pid)] + [
            ("gunicorn", i.process.pid) for i in self.instances if i.process is not None and i.process.poll() is None]

    def write_config(self, down=()) -> None:
        """The recipe's configuration with this cluster's ports (instances in ``down`` marked so), in an
        nginx.conf that keeps every file nginx writes in the work directory; a running nginx reloads it."""
        servers = "\n".join(f"    server 127.0.0.1:{i.port} max_fails=1 fail_timeout=2s{' down' if i in down else ''};"
                            for i in self.instances)
        conf = UPSTREAM_SERVERS.sub(servers + "\n", CONF.read_text())
        conf = conf.replace("listen 8080;", f"listen 127.0.0.1:{self.nginx_port};")
        (self.workdir / "tactician.conf").write_text(conf)
        for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.workdir / temp).mkdir(exist_ok=True)
            os.chmod(self.workdir / temp, 0o777)
        passed = "".join(f"env {name};\n" for name in PASSED_ENV if name in os.environ)
        (self.workdir / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
{passed}pid {self.workdir}/nginx.pid;
error_log {self.workdir}/nginx-error.log warn;
events {{ worker_connections 1024; }}
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

    def rolling_restart(self) -> None:
        """One instance at a time: out of the upstream (reload), SIGTERM (it finishes what it holds), start
        again, back in."""
        for instance in self.instances:
            self.write_config(down=(instance,))
            code = instance.stop()
            if code != 0:
                raise RuntimeError(f"instance on port {instance.port} exited with {code}")
            instance.start()
            self.write_config()

    def close(self) -> None:
        for process in [self.nginx, *(i.process for i in self.instances), self.redis]:
            if process is not None:
                stop(process)
        for instance in self.instances:
            if instance.log is not None:
                instance.log.close()
