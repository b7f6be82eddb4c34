"""gunicorn settings for Tactician: ``gunicorn -c service/gunicorn.conf.py``.

Searches are CPU-bound, so there is one worker per core (WEB_CONCURRENCY overrides), each running at most
SEARCHES_PER_WORKER searches at once (service/admission.py). Workers are threaded (service/worker.py,
gunicorn's gthread with problem+json errors and a draining SIGTERM): while searches run (each in one of the
worker's search processes, service/search_pool.py), the threads read requests and answer health checks and cheap
routes, and the searches waiting beyond MAX_WAITING_SEARCHES are refused with 503 at once. Each search ends
by its own deadline (at most MAX_TIME_LIMIT_MS); gunicorn's timeout is only a backstop well above it. On
SIGTERM a worker answers /readyz and new searches with 503, answers the connections still in the listen
backlog, finishes the requests in hand, and exits. With HEALTH_BIND set, the arbiter answers /livez and
/readyz on a port of their own (service/health_listener.py).
"""
import gc
import os
import shutil
import tempfile

from service import health_listener, lifecycle

# Prometheus' multiprocess mode must be chosen before prometheus_client is imported anywhere: the workers
# import it with the app, after this file has run in the arbiter.
_own_metrics_dir = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _own_metrics_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="tactician-metrics-")
_metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"]

_max_time_limit_s = int(os.environ.get("MAX_TIME_LIMIT_MS", "10000")) / 1000.0

wsgi_app = "service.wsgi:app"
bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
# "host:port" of the health listener that the arbiter runs (service/health_listener.py); empty: none.
_health_bind = os.environ.get("HEALTH_BIND", "").strip()
_health_server = None
worker_class = "service.worker.Worker"
workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
# SEARCHES_PER_WORKER threads search and MAX_WAITING_SEARCHES wait; the rest read requests, answer health checks
# and cheap routes, and refuse searches. A client that stops sending holds one for up to READ_TIMEOUT_MS,
# so there are plenty (an idle thread costs little): README, "Settings", says how to size them.
threads = int(os.environ.get("THREADS", "64"))
# Searches (only they count: service/worker.py) before a worker is recycled: RSS stays bounded.
max_requests = int(os.environ.get("MAX_REQUESTS", "1000"))
# Workers under an even load reach max_requests together; a wide jitter keeps them from restarting at once
# (while one restarts, the others serve).
max_requests_jitter = max(1, max_requests // 2)
# The app (the engine's modules and tables: over a second of CPU) is loaded once, in the arbiter, and every
# worker is a fork of it: a recycled worker's replacement serves at once instead of after importing it all
# again (while the machine is busy, tens of seconds during which that worker's share of requests waited),
# and the workers share the loaded pages.
preload_app = True
timeout = int(3 * _max_time_limit_s + 30)
graceful_timeout = int(_max_time_limit_s + 10)
control_socket_disable = True  # gunicorn >= 25.1 opens a control socket by default; nothing here uses it
accesslog = None  # the app logs every request as one JSON line (service/request_log.py)
errorlog = "-"


def on_starting(server):
    """Start from an empty metrics directory: old files would be added to the new counts. Make the
    directory where retiring workers note their pids (service/worker.py); the workers inherit its name."""
    os.makedirs(_metrics_dir, exist_ok=True)
    for name in os.listdir(_metrics_dir):
        os.unlink(os.path.join(_metrics_dir, name))
    os.environ[lifecycle.RETIRING_DIR_ENV] = tempfile.mkdtemp(prefix="tactician-retiring-")


def when_ready(server):
    """In the arbiter, its signal handlers set: a stop signal marks the server stopping at once
    (service/lifecycle.py); the health listener starts."""
    global _health_server
    lifecycle.install_in_arbiter()
    if _health_bind:
        _health_server = health_listener.start(server, _health_bind)


def pre_fork(server, worker):
    """The loaded app's objects (the engine's modules and tables, tens of thousands) move to the
    collector's permanent generation before each fork: a worker's full collections no longer walk them
    (tens of milliseconds each, holding the worker's interpreter: the flood bench's worst refusals and
    health checks), nor write to their pages, which the workers then keep sharing with the arbiter."""
    gc.freeze()


def post_fork(server, worker):
    health_listener.close_in_worker(_health_server)


def retiring_workers(server) -> int:
    """How many of the running workers are retiring after ``max_requests`` (each noted its pid in the
    directory; the notes of those that have exited are removed)."""
    directory = os.environ.get(lifecycle.RETIRING_DIR_ENV)
    if not directory or not os.path.isdir(directory):
        return 0
    count = 0
    for name in os.listdir(directory):
        if int(name) in server.WORKERS:
            count += 1
        else:
            os.unlink(os.path.join(directory, name))
    return count


def nworkers_changed(server, new_value, old_value):
    """The number of workers is always ``workers`` plus one for each worker still retiring: a retiring
    worker's SIGTTIN (service/worker.py) forks its replacement at once, and when it has exited the count
    comes back (``child_exit``). Two retiring workers' SIGTTINs may arrive as one signal, so the count is
    recomputed rather than counted. (So an operator's SIGTTIN and SIGTTOU change nothing: set
    WEB_CONCURRENCY.)"""
    target = server.cfg.workers + retiring_workers(server)
    if old_value is not None and new_value != target:
        server.num_workers = target


def child_exit(server, worker):
    """A dead worker's live gauges must not be reported (its counters stay, as they should). When it
    was a retiring worker, its replacement is already running: the count of workers comes back."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
    server.num_workers = server.cfg.workers + retiring_workers(server)
    lifecycle.read_wakeup_pipe()  # each exit wrote a byte to it (SIGCHLD): it must not fill up


def on_exit(server):
    if _own_metrics_dir:
        shutil.rmtree(_metrics_dir, ignore_errors=True)
    shutil.rmtree(os.environ.get(lifecycle.RETIRING_DIR_ENV, ""), ignore_errors=True)
