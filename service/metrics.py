"""Prometheus metrics. Under gunicorn, ``PROMETHEUS_MULTIPROC_DIR`` (set by ``gunicorn.conf.py`` before
any worker starts) makes every worker write its samples to files there, and ``/metrics`` adds them up,
so the numbers are right whichever worker answers the scrape."""
import os
import time

from flask import Blueprint, Flask, Response, request
from prometheus_client import (CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Gauge, Histogram,
                               generate_latest, multiprocess)

import engine.api
from service.admission import arrived

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
UNMATCHED = "unmatched"  # the route label of requests that matched no route, so 404s cannot explode it

REQUESTS = Counter("tactician_http_requests_total", "HTTP requests answered.", ["method", "route", "status"])
LATENCY = Histogram("tactician_http_request_duration_seconds", "Time to answer an HTTP request.",
                    ["method", "route", "status"],
                    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
SEARCHES = Counter("tactician_searches_total", "Searches run.", ["game", "algorithm", "core"])
NODES = Counter("tactician_search_nodes_total", "Game states visited by searches.", ["game", "algorithm", "core"])
# 1 when the compiled core (native/) is built and loaded in this process, else 0: the Python core runs all.
NATIVE_CORE = Gauge("tactician_native_core", "Whether the compiled search core is loaded.", multiprocess_mode="min")
# Searches running now, summed over the live workers (an autoscaler's signal: one per worker is full load).
IN_FLIGHT = Gauge("tactician_searches_in_flight", "Searches running now.", multiprocess_mode="livesum")
TIMEOUTS = Counter("tactician_search_timeouts_total", "Searches stopped by their time limit.",
                   ["game", "algorithm"])

blueprint = Blueprint("metrics", __name__)

_children: dict[tuple, Counter | Gauge | Histogram] = {}  # (metric, label values): the child metric.labels() gives


def child(metric, *labels: str):
    """``metric.labels(*labels)``, remembered: prometheus_client converts, checks and locks on every call
    (10k instructions; five a search) to find the child it made the first time. This holds a key for each
    child the metric holds, no more."""
    key = (metric, labels)
    found = _children.get(key)
    if found is None:
        found = _children[key] = metric.labels(*labels)
    return found


def record_search(game: str, algorithm: str, nodes: int, timed_out: bool, core: str) -> None:
    """Count one finished search, run on ``core`` ("native" or "python")."""
    child(SEARCHES, game, algorithm, core).inc()
    child(NODES, game, algorithm, core).inc(nodes)
    if timed_out:
        child(TIMEOUTS, game, algorithm).inc()


def observe(response: Response) -> Response:
    """Count the answered request by its route template (not its URL) and status."""
    route = request.url_rule.rule if request.url_rule is not None else UNMATCHED
    count_request(request.method, route, response.status_code, arrived())
    return response


def count_request(method: str, route: str, status: int, started: float) -> None:
    """One request answered with ``status``, and its latency since it ``started`` (a
    ``time.perf_counter()``)."""
    labels = (method, route, str(status))
    child(REQUESTS, *labels).inc()
    child(LATENCY, *labels).observe(time.perf_counter() - started)


@blueprint.get("/metrics")
def metrics() -> Response:
    """The text exposition format, aggregated over workers in multiprocess mode."""
    if os.environ.get(MULTIPROC_ENV):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    return Response(generate_latest(registry), mimetype=None, content_type=CONTENT_TYPE_LATEST)


def register(app: Flask) -> None:
    NATIVE_CORE.set(1 if engine.api.cores_status()["native"] else 0)
    app.after_request(observe)
    app.register_blueprint(blueprint)
