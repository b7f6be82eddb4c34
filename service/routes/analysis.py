"""``GET /v1/games/chess/eval?fen=...&multi_pv=...``: a position's evaluation in the shape of Lichess's
cloud-eval (``{"fen", "knodes", "depth", "pvs": [{"moves": "e2e4 e7e5", "cp": 30} | {..., "mate": 3}]}``),
for curl users.

It is a bounded search, admitted as every search is (service/routes/search.py: the client's share, 429; the
worker's search slot, 503), within ``time_limit_ms`` (default ``DEFAULT_TIME_LIMIT_MS``, at most
``MAX_TIME_LIMIT_MS``). It does not use the search's ``algorithm.multi_pv`` (engine.search.multipv, which
skips the mate search that proves a mate before the deepening): with ``multi_pv`` k > 1 the time is split
in k equal shares; the first search (on the position) gives the best line, and its next best root moves
(by its scores, which for the moves other than the best are bounds; else in the engine's move order) are
then each searched on their own, in the position after that move, in a share of the time each.
"""
import math
import time
from typing import Any

import chess
from flask import Blueprint, current_app, jsonify, request as http_request
from marshmallow import fields, validate

import engine.api
from engine.errors import EngineError

from service.metrics import IN_FLIGHT, record_search
from service.request_log import note_search
from service.routes.search import admitted, remaining_ms, run_search, search_slot
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
    return {"game_id": "chess", "state_json": board.fen(), "algorithm": dict(ALGORITHM),
            "time_limit_ms": query.get("time_limit_ms"), "trace": False, "multi_pv": query.get("multi_pv", 1)}


def line(result, first_move=None) -> dict:
    """``{"moves", "cp" | "mate"}`` for a search's answer, from the side to move at its root; with
    ``first_move`` the answer is for the position after it, so the line and the score are turned back."""
    moves, value, outcome, plies = list(result.pv), result.value, result.outcome, result.plies_to_end
    if first_move is not None:
        moves.insert(0, first_move)
        value = -value
        outcome = {"win": "loss", "loss": "win"}.get(outcome, outcome)
        plies = None if plies is None else plies + 1
    entry: dict[str, str | int] = {"moves": " ".join(moves)}
    if outcome in ("win", "loss") and plies is not None:
        entry["mate"] = math.ceil(plies / 2) * (1 if outcome == "win" else -1)
    else:
        entry["cp"] = 0 if outcome == "draw" else round(value * 100)     # value: pawns
    return entry


def next_best(result, fen: str, count: int) -> list:
    """The ``count`` root moves after the best: those the search scored, by its scores (bounds for all
    but the best), then (a search that proved a mate at once scores no other) the other legal moves in
    the engine's move order (captures and promotions first, then the quiet moves the tables like best)."""
    scored = sorted((mv for mv in result.moves if mv.move != result.move), key=lambda mv: -mv.value)
    chosen = [mv.move for mv in scored]
    if len(chosen) < count:
        game, state = engine.api.load("chess", fen)
        chosen += [m for m in map(game.move_to_json, game.ordered_actions(state))
                   if m != result.move and m not in chosen]
    return chosen[:count]


def after_move(fen: str, move: str, board) -> dict | None:
    """The line of a move that ends the game at once (mate, stalemate...), else None."""
    board = board.copy(stack=False)
    board.push_uci(move)
    if board.is_checkmate():
        return {"moves": move, "mate": 1}
    if board.is_game_over(claim_draw=False):
        return {"moves": move, "cp": 0}
    return None


def score(entry: dict) -> float:
    """A line's rank for the side to move: a mate in n above every centipawn score, sooner first."""
    mate = entry.get("mate")
    if mate is None:
        return entry["cp"]
    return 1e6 - mate if mate > 0 else -1e6 - mate


def white_view(entry: dict, black: bool) -> dict:
    """Lichess gives scores from White's side."""
    if black:
        entry = {**entry, **({"mate": -entry["mate"]} if "mate" in entry else {"cp": -entry["cp"]})}
    return entry


@blueprint.get("/v1/games/chess/eval")
def evaluate():
    request = admitted(read_query)
    k = request.pop("multi_pv")
    fen = request["state_json"]
    board = engine.api.chess_board(fen, "fen")
    lines, nodes, depths, timed_out, core = [], 0, [], False, None
    with search_slot(request), IN_FLIGHT.track_inprogress():
        since, budget = time.perf_counter(), request["time_limit_ms"]
        result = run_search({**request, "time_limit_ms": budget / k})
        lines.append(line(result))
        nodes, timed_out, core = result.stats.nodes, result.stats.timed_out, result.stats.core
        depths.append(result.stats.depth_completed or 0)
        for n, move in enumerate(next_best(result, fen, k - 1)):
            done = after_move(fen, move, board)
            if done is not None:
                lines.append(done)
                continue
            share = remaining_ms(budget, since) / (k - 1 - n)
            child = {**request, "state_json": {"fen": fen, "moves": [move]}, "time_limit_ms": share}
            try:
                answer = run_search(child)
            except EngineError:                  # not expected: the child is a game in progress
                continue
            lines.append(line(answer, move))
            nodes += answer.stats.nodes
            timed_out |= answer.stats.timed_out
            depths.append((answer.stats.depth_completed or 0) + 1)
    record_search("chess", ALGORITHM["name"], nodes, timed_out, core)
    note_search("chess", ALGORITHM["name"], nodes, timed_out)
    lines[1:] = sorted(lines[1:], key=score, reverse=True)
    black = board.turn == chess.BLACK
    return jsonify({"fen": fen, "knodes": nodes // 1000, "depth": min(depths),
                    "pvs": [white_view(entry, black) for entry in lines]})
