"""Liveness and readiness on the service's port. Readiness turns 503 once the server or this worker is told
to stop (SIGTERM: service/lifecycle.py, service/worker.py), so a load balancer stops sending it traffic
while it drains. Both are answered by a worker thread of their own while the searches run
(:mod:`service.admission`); the same answers, from a process that never searches, are on the health
listener's port (service/health_listener.py, ``HEALTH_BIND``). Readiness also says whether the compiled
core is loaded (``cores``): without it the service runs, more slowly, on the Python core; and whether chess's
learned net is (``chess_nnue``): without it chess's ``"nnue"`` evaluation is refused, the classic one unaffected."""
from flask import Blueprint, Flask, current_app, jsonify

import engine.api
from service import lifecycle
from service.admission import admission
from service.errors import problem

blueprint = Blueprint("health", __name__)


@blueprint.get("/livez")
def livez():
    return jsonify({"status": "ok"})


@blueprint.get("/readyz")
def readyz():
    if admission(current_app).draining or lifecycle.stop_requested():
        return problem(503, "Service Unavailable", "This worker is shutting down and finishing its requests.",
                       kind="shutting-down")
    return jsonify({"status": "ready", "cores": engine.api.cores_status(), "chess_nnue": engine.api.chess_nnue_status()})


def register(app: Flask) -> None:
    app.register_blueprint(blueprint)
