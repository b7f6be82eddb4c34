"""gunicorn settings for Tactician: ``gunicorn -c service/gunicorn.conf.py``.

Searches are CPU-bound, so workers are sync, one per core (WEB_CONCURRENCY overrides). Each search ends
by its own deadline (at most MAX_TIME_LIMIT_MS); gunicorn's timeout is only a backstop well above it.
On SIGTERM a worker finishes the request in hand, answers /readyz with 503 meanwhile, and exits.
"""
import os
import shutil
import signal
import tempfile

# Prometheus' multiprocess mode must be chosen before prometheus_client is imported anywhere: the workers
# import it with the app, after this file has run in the arbiter.
_own_metrics_dir = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _own_metrics_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="tactician-metrics-")
_metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"]

_max_time_limit_s = int(os.environ.get("MAX_TIME_LIMIT_MS", "10000")) / 1000.0

wsgi_app = "service.wsgi:app"
bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
worker_class = "sync"
workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
max_requests = int(os.environ.get("MAX_REQUESTS", "1000"))
max_requests_jitter = max(1, max_requests // 10)
timeout = int(3 * _max_time_limit_s + 30)
graceful_timeout = int(_max_time_limit_s + 10)
control_socket_disable = True  # gunicorn >= 25.1 opens a control socket by default; nothing here uses it
accesslog = None  # the app logs every request as one JSON line (service/request_log.py)
errorlog = "-"


def on_starting(server):
    """Start from an empty metrics directory: old files would be added to the new counts."""
    os.makedirs(_metrics_dir, exist_ok=True)
    for name in os.listdir(_metrics_dir):
        os.unlink(os.path.join(_metrics_dir, name))


def post_worker_init(worker):
    """Mark the app as draining when this worker is told to stop, then let gunicorn stop it gracefully."""
    from service.routes.health import readiness

    stop = worker.handle_exit

    def drain_then_stop(sig, frame):
        readiness(worker.wsgi).drain()
        stop(sig, frame)

    signal.signal(signal.SIGTERM, drain_then_stop)
    signal.siginterrupt(signal.SIGTERM, False)


def child_exit(server, worker):
    """A dead worker's live gauges must not be reported (its counters stay, as they should)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _own_metrics_dir:
        shutil.rmtree(_metrics_dir, ignore_errors=True)
