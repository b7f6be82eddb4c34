"""The load generator's floor: the flood's users (bench/load/locustfile.py) against a server that costs
next to nothing, so that the latencies locust reports for the service can be read beside its own share.

On this machine locust shares the service's two cores. A refusal it times includes the time locust takes
to start its users, open their connections, send their requests and read the answers, all in one process,
while the service works on the same cores. :class:`Floor` is nginx (Debian's package) with two worker
processes, like the service's two gunicorn workers. It answers every search at once with the service's own
refusal, the same 503 problem+json body with ``Retry-After`` and ``Connection: close``, and ``/livez`` with
200 on a service port and a health port. It has no state, no Python and no search. Whatever locust reports
against it is the client's part of the figure, measured in the same run as the service's.

It duck-types :class:`bench.load.__main__.Server` as far as :func:`bench.load.__main__.locust` needs:
``base``, ``health``, ``log_path`` (no request log of its own) and ``stop``."""
import math
import os
from pathlib import Path
import shutil
import subprocess
import tempfile

from bench.load.cluster import PASSED_ENV, free_port, program, stop, wait_for
from service.admission import Admission
from service.config import Settings
from service.errors import PROBLEM_JSON, problem_text


def service_refusal() -> tuple[str, int]:
    """The body and ``Retry-After`` seconds of the service's refusal of a search, with default settings."""
    settings = Settings()
    error = Admission(settings.searches_per_worker, settings.max_waiting_searches,
                      math.ceil(settings.default_time_limit_ms / 1000)).refusal()
    return problem_text(error.code, error.name, error.description), error.retry_after


def config(workdir: Path, port: int, health_port: int) -> str:
    """nginx.conf for the floor: every file nginx writes in ``workdir``."""
    body, retry_after = service_refusal()
    if "'" in body or "\\" in body or "$" in body:
        raise ValueError("the refusal's body cannot be quoted in nginx's configuration")
    livez = "location = /livez { default_type application/json; return 200 '{\"status\":\"ok\"}'; }"
    passed = "".join(f"env {name};\n" for name in PASSED_ENV if name in os.environ)
    return f"""
daemon off;
worker_processes 2;
{passed}pid {workdir}/nginx.pid;
error_log {workdir}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {workdir}/body;
    proxy_temp_path {workdir}/proxy;
    fastcgi_temp_path {workdir}/fastcgi;
    uwsgi_temp_path {workdir}/uwsgi;
    scgi_temp_path {workdir}/scgi;
    server {{
        listen 127.0.0.1:{port};
        location /v1/search {{
            keepalive_timeout 0;
            add_header Retry-After {retry_after} always;
            default_type {PROBLEM_JSON};
            return 503 '{body}';
        }}
        {livez}
    }}
    server {{
        listen 127.0.0.1:{health_port};
        {livez}
    }}
}}
"""


class Floor:
    """nginx answering as above on two loopback ports; :meth:`stop` ends it."""

    log_path = os.devnull

    def __init__(self, nginx: str | None = None):
        self.workdir = Path(tempfile.mkdtemp(prefix="tactician-floor-"))
        port, health_port = free_port(), free_port()
        self.base, self.health = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{health_port}"
        (self.workdir / "nginx.conf").write_text(config(self.workdir, port, health_port))
        nginx = nginx or program("nginx")
        if nginx is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx)")
        self.process = subprocess.Popen([nginx, "-p", str(self.workdir), "-c", str(self.workdir / "nginx.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        try:
            wait_for(f"{self.base}/livez", self.process)
            wait_for(f"{self.health}/livez", self.process)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> int:
        """Stop nginx and remove its work directory; nginx's exit code."""
        stop(self.process)
        shutil.rmtree(self.workdir, ignore_errors=True)
        return self.process.returncode
