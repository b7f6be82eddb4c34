"""``GET /v1/games/chess/eval?fen=...&multi_pv=...``: a position's evaluation in the shape of Lichess's
cloud-eval (``{"fen", "knodes", "depth", "pvs": [{"moves": "e2e4 e7e5", "cp": 30} | {..., "mate": 3}]}``),
for curl users.

It is one bounded search, admitted as every search is (service/routes/search.py: the client's share, 429;
the worker's search slot, 503), within ``time_limit_ms`` (default ``DEFAULT_TIME_LIMIT_MS``, at most
``MAX_TIME_LIMIT_MS``). With ``multi_pv`` k > 1 it is the search's own multi-PV (``algorithm.multi_pv``,
engine.search.multipv): the k best root moves, each searched with a full window above the k-th best
value, so that every line's score is exact at the depth reached.
"""
import math
from typing import Any

import chess
from flask import Blueprint, current_app, jsonify, request as http_request
from marshmallow import fields, validate
from werkzeug.exceptions import NotFound

import engine.api
from engine.errors import EngineError

from service.request_log import note_search
from service.routes.games import known_game
from service.routes.search import admitted, slotted_search
from service.schemas import StrictSchema
from service.fields import JSONString

blueprint = Blueprint("analysis", __name__)

MAX_MULTI_PV = 5
ALGORITHM: dict[str, Any] = {"name": "alphabeta", "move_ordering": True, "transposition_table": True}


class EvalQuerySchema(StrictSchema):
    """The query of ``GET /v1/games/chess/eval`` (its values are strings: the numbers are read from them)."""

    fen = JSONString(required=True)
    multi_pv = fields.Integer(strict=False, validate=validate.Range(min=1, max=MAX_MULTI_PV))
    time_limit_ms = fields.Integer(strict=False)

    def __init__(self, max_time_limit_ms: int, **kwargs):
        super().__init__(**kwargs)
        self.fields["time_limit_ms"].validators = [validate.Range(min=1, max=max_time_limit_ms)]


def read_query() -> dict:
    query = EvalQuerySchema(current_app.config["SETTINGS"].max_time_limit_ms).load(http_request.args.to_dict())
    board = engine.api.chess_board(query["fen"], "fen")
    if board.is_game_over(claim_draw=False):
        raise EngineError("fen", "the game is over in this position: there is nothing to evaluate")
    k = query.get("multi_pv", 1)
    return {"game_id": "chess", "state_json": board.fen(), "trace": False,
            "algorithm": {**ALGORITHM, **({"multi_pv": k} if k > 1 else {})},
            "time_limit_ms": query.get("time_limit_ms")}


def lichess_line(pv: list, value: float, outcome: str | None, plies: int | None, black: bool) -> dict:
    """``{"moves", "cp" | "mate"}`` of a line whose ``value`` (pawns), ``outcome`` and ``plies`` to the end
    are the side to move's, turned to White's side as Lichess gives its scores."""
    sign = -1 if black else 1
    entry: dict[str, str | int] = {"moves": " ".join(pv)}
    if outcome in ("win", "loss") and plies is not None:
        entry["mate"] = sign * math.ceil(plies / 2) * (1 if outcome == "win" else -1)
    else:
        entry["cp"] = 0 if outcome == "draw" else sign * round(value * 100)
    return entry


@blueprint.get("/v1/games/chess/eval")
def evaluate():
    request = admitted(read_query)
    result = slotted_search(request)
    note_search("chess", ALGORITHM["name"], result.stats.nodes, result.stats.timed_out)
    black = chess.Board(request["state_json"]).turn == chess.BLACK
    lines = result.lines or [result]                 # one line: the search's answer is it
    pvs = [lichess_line(list(line.pv), line.value, line.outcome, line.plies_to_end, black) for line in lines
           if line.value is not None]                # none: no move valued in the time given
    return jsonify({"fen": request["state_json"], "knodes": result.stats.nodes // 1000,
                    "depth": result.stats.depth_completed or 0, "pvs": pvs})


@blueprint.get("/v1/games/<game>/eval")
def evaluate_other(game):
    """The evaluation route of another game (chess's own rule is matched first): a 404 that says whose
    route it is, or that the game does not exist."""
    raise NotFound(f"The evaluation route is for chess alone (GET /v1/games/chess/eval?fen=...); a "
                   f"{known_game(game)} position is evaluated by POST /v1/search.")
