"""The application factory."""
import logging
import os

from flask import Flask, request
from flask_cors import CORS

import engine.api

from service import admission, errors, fairness, metrics, request_log
from service.config import Settings
from service.json_provider import StrictJSONProvider
from service.routes import analysis, batch, docs, games, health, play, review, search, stream
from service.spec import served_spec, to_yaml

log = logging.getLogger("tactician")


def create_app(config: dict | None = None) -> Flask:
    """A Tactician app. ``config`` overrides environment settings by their variable names
    (``{"MAX_TIME_LIMIT_MS": 500}``)."""
    environ = {**os.environ, **{k: str(v) for k, v in (config or {}).items()}}
    settings = Settings.from_env(environ)
    engine.api.preload()
    announce_cores()
    app = Flask(__name__)
    app.json_provider_class = StrictJSONProvider
    app.json = StrictJSONProvider(app)
    app.config.update(SETTINGS=settings, MAX_CONTENT_LENGTH=settings.max_content_length,
                      OPENAPI_YAML=to_yaml(served_spec(settings)))
    errors.register(app)
    allow_cors(app, settings)
    admission.register(app)
    fairness.register(app)
    metrics.register(app)
    request_log.register(app)
    health.register(app)
    docs.register(app)
    app.register_blueprint(search.blueprint)
    app.register_blueprint(stream.blueprint)
    app.register_blueprint(play.blueprint)
    app.register_blueprint(games.blueprint)
    app.register_blueprint(analysis.blueprint)
    app.register_blueprint(review.blueprint)
    app.register_blueprint(batch.blueprint)
    return app


def announce_cores() -> None:
    """Say at start-up which core runs the searches: a server without its compiled core is slower, and
    should never be so silently; and whether chess's learned net is loaded (read now, before any fork)."""
    status = engine.api.cores_status()
    if status["native"]:
        log.info("compiled core loaded: native searches for %s", ", ".join(status["games"]))
    else:
        log.warning("running on the python core only: %s", status["reason"])
    net = engine.api.chess_nnue_status()
    if net["loaded"]:
        log.info("chess nnue loaded: %d hidden units, sha256 %s", net["hidden"], net["sha256"])
    else:
        log.warning("chess nnue unavailable (the classic evaluation is unaffected): %s", net["reason"])


# How long a browser may cache a preflight's answer.
PREFLIGHT_MAX_AGE_S = 600
# The methods the routes take (a preflight advertises no other), and the response headers a page on another
# origin may read beside the CORS-safelisted ones: the wait before asking again, the request's id.
CORS_METHODS = ["GET", "HEAD", "POST", "OPTIONS"]
EXPOSED_HEADERS = ["Retry-After", "X-Request-ID"]


def allow_cors(app: Flask, settings: Settings) -> None:
    """Let browser pages from ``CORS_ORIGINS`` call the API (flask-cors answers preflights and stamps every
    response, problems included). No credentials: the API is stateless and public, so ``*`` is safe. Pages may
read ``Retry-After`` and ``X-Request-ID``; preflights advertise only the methods the routes take. A request
without an ``Origin`` header (not a browser's cross-origin call: curl, a server, a same-origin page) gets no
CORS headers, and skips flask-cors's work on its response (a tenth of a trivial request's)."""
    origins = settings.allowed_origins()
    CORS(app, origins=origins, send_wildcard=origins == ["*"], supports_credentials=False, always_send=False,
         max_age=PREFLIGHT_MAX_AGE_S, methods=CORS_METHODS, expose_headers=EXPOSED_HEADERS)
    hooks = app.after_request_funcs[None]
    hooks[-1] = only_cross_origin(hooks[-1])


def only_cross_origin(cors_after_request):
    """flask-cors's response hook (the last one ``CORS`` registered), run only for requests with an
    ``Origin`` header: with ``always_send=False`` it adds nothing to the others, but still matches their
    path against its resources and reads its options."""
    if cors_after_request.__name__ != "cors_after_request":
        raise RuntimeError("flask-cors registered its response hook otherwise than expected")

    def cors_if_cross_origin(response):
        return cors_after_request(response) if "Origin" in request.headers else response
    return cors_if_cross_origin
