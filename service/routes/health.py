"""Liveness and readiness. Readiness turns 503 once the worker is told to stop (gunicorn's SIGTERM, see
``service/gunicorn.conf.py``), so a load balancer stops sending it traffic while it drains."""
from flask import Blueprint, Flask, current_app, jsonify

from service.errors import problem

blueprint = Blueprint("health", __name__)
EXTENSION = "tactician.readiness"


class Readiness:
    """Whether this worker should receive new traffic."""

    def __init__(self):
        self.draining = False

    def drain(self) -> None:
        self.draining = True


def readiness(app: Flask) -> Readiness:
    return app.extensions[EXTENSION]


@blueprint.get("/livez")
def livez():
    return jsonify({"status": "ok"})


@blueprint.get("/readyz")
def readyz():
    if readiness(current_app).draining:
        return problem(503, "Service Unavailable", "This worker is shutting down and finishing its requests.")
    return jsonify({"status": "ready"})


def register(app: Flask) -> None:
    app.extensions[EXTENSION] = Readiness()
    app.register_blueprint(blueprint)
