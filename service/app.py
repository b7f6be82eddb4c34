"""The application factory."""
import os

from flask import Flask

import engine.api

from service import errors, metrics, request_log
from service.config import Settings
from service.json_provider import StrictJSONProvider
from service.routes import docs, games, health, search
from service.spec import served_spec, to_yaml


def create_app(config: dict | None = None) -> Flask:
    """A Tactician app. ``config`` overrides environment settings by their variable names
    (``{"MAX_TIME_LIMIT_MS": 500}``)."""
    environ = {**os.environ, **{k: str(v) for k, v in (config or {}).items()}}
    settings = Settings.from_env(environ)
    engine.api.preload()
    app = Flask(__name__)
    app.json_provider_class = StrictJSONProvider
    app.json = StrictJSONProvider(app)
    app.config.update(SETTINGS=settings, MAX_CONTENT_LENGTH=settings.max_content_length,
                      OPENAPI_YAML=to_yaml(served_spec(settings)))
    errors.register(app)
    metrics.register(app)
    request_log.register(app)
    health.register(app)
    docs.register(app)
    app.register_blueprint(search.blueprint)
    app.register_blueprint(games.blueprint)
    return app
