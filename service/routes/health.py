"""Liveness and readiness. Readiness turns 503 once the worker is told to stop (SIGTERM, see
``service/worker.py``), so a load balancer stops sending it traffic while it drains. Both are answered by
a worker thread of their own, however busy the searches are (:mod:`service.admission`)."""
from flask import Blueprint, Flask, current_app, jsonify

from service.admission import admission
from service.errors import problem

blueprint = Blueprint("health", __name__)


@blueprint.get("/livez")
def livez():
    return jsonify({"status": "ok"})


@blueprint.get("/readyz")
def readyz():
    if admission(current_app).draining:
        return problem(503, "Service Unavailable", "This worker is shutting down and finishing its requests.")
    return jsonify({"status": "ready"})


def register(app: Flask) -> None:
    app.register_blueprint(blueprint)
