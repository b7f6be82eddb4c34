"""The games and their rules: descriptions, legal moves, applying a move (service/rules.py)."""
from flask import Blueprint, current_app, jsonify
from werkzeug.exceptions import NotFound

import engine.api

from service import rules

blueprint = Blueprint("games", __name__)


def known_game(game: str) -> str:
    """``game`` if the engine has it; otherwise the resource does not exist: 404."""
    if game not in engine.api.GAME_MODULES:
        raise NotFound(f"There is no game {game!r}; GET /v1/games lists them.")
    return game


def fitted(description: dict) -> dict:
    """A game's description with its example request's time limit within this server's maximum, so that
    the example can be sent as it is."""
    example = description.get("example_request")
    limit = current_app.config["SETTINGS"].max_time_limit_ms
    if isinstance(example, dict) and example.get("time_limit_ms", 0) > limit:
        description = {**description, "example_request": {**example, "time_limit_ms": limit}}
    return description


@blueprint.get("/v1/games")
def list_games():
    return jsonify({"games": [fitted(d) for d in engine.api.describe_games()]})


@blueprint.get("/v1/games/<game>")
def describe_game(game):
    return jsonify(fitted(engine.api.describe_game(known_game(game))))


@blueprint.post("/v1/games/<game>/legal-moves")
def legal_moves(game):
    return jsonify(rules.respond("legal-moves", known_game(game)))


@blueprint.post("/v1/games/<game>/apply")
def apply(game):
    return jsonify(rules.respond("apply", known_game(game)))
