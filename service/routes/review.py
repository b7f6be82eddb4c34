"""``POST /v1/review`` and ``POST /v1/review/stream``: a game played, judged ply by ply (engine/review.py).

The body is checked first (errors are ordinary problem+json answers: 422 naming ``moves[i]``, ``pgn``,
``state``...), and the review admitted as a search is (service/routes/search.py: ``admitted``, 503 when the
worker has no room). Its searches then run one at a time, each in its own turn of the worker's admission
and of the client's share (service/turns.py), so a review never starves the single searches; the time of
the whole review (``time_limit_ms``, counted from the request's arrival) is spread over them. The stream
sends a ``ply`` event for each decision judged, then a ``result`` event whose data is exactly the body
``/v1/review`` would have answered; an error a search raises arrives as an ``error`` event carrying the
problem+json object.
"""
import time

from flask import Blueprint, Response, current_app, jsonify, stream_with_context

import engine.api
from engine.errors import EngineError

from service.body import json_body
from service.departure import ClientGone
from service.errors import engine_problem
from service.request_log import note_search, streamed_search
from service.routes.search import admitted, effective_algorithm
from service.routes.stream import ERROR, HEADERS, RESULT, event
from service.schemas import DEFAULT_REVIEW_ALGORITHM, MAX_REVIEW_PLIES, REVIEW_TIME_FACTOR, ReviewRequestSchema
from service.turns import Turns

blueprint = Blueprint("review", __name__)

# A review's default time: this much a move, at most its maximum (REVIEW_TIME_FACTOR x MAX_TIME_LIMIT_MS).
DEFAULT_REVIEW_MS_PER_PLY = 100
PLY = "ply"


def review_request() -> dict:
    """The review's arguments, its body checked (a PGN read into a start and moves) and admitted."""
    max_time_limit_ms = current_app.config["SETTINGS"].max_time_limit_ms
    max_ms = REVIEW_TIME_FACTOR * max_time_limit_ms

    def read() -> dict:
        body = ReviewRequestSchema(max_time_limit_ms).load(json_body())
        state, moves = (engine.api.from_pgn(body["pgn"]) if "pgn" in body else (body["state"], body["moves"]))
        if len(moves) > MAX_REVIEW_PLIES:
            raise EngineError("pgn", f"has {len(moves)} plies; a review takes at most {MAX_REVIEW_PLIES}")
        if not moves:
            raise EngineError("pgn", "has no moves to review")
        time_limit_ms = body.get("time_limit_ms", min(max_ms, DEFAULT_REVIEW_MS_PER_PLY * len(moves)))
        return {"game_id": body["game"], "state_json": state, "moves": moves, "pgn": "pgn" in body,
                "algorithm": effective_algorithm(body.get("algorithm", DEFAULT_REVIEW_ALGORITHM)), "options": body.get("options"),
                "time_limit_ms": time_limit_ms, "trace": False}
    return admitted(read)


def start(request: dict):
    """``(review, turns)``: the review of ``request``, checked (its errors raised now), its searches to be
    run by ``turns``, each for its share of the time left but never longer than ``MAX_TIME_LIMIT_MS``."""
    turns = Turns()
    search_of = {k: request[k] for k in ("game_id", "algorithm", "options", "trace", "limits")}
    longest_ms = current_app.config["SETTINGS"].max_time_limit_ms

    def search(state_json, time_limit_ms):  # no search of a review holds a slot longer than a single one may
        return turns.run({**search_of, "state_json": state_json, "time_limit_ms": min(time_limit_ms, longest_ms)})
    try:
        review = engine.api.review(request["game_id"], request["state_json"], request["moves"],
                                   request["algorithm"], search, request["time_limit_ms"], request["limits"],
                                   request["options"])
    except EngineError as exc:
        if request["pgn"]:  # the start and the moves came from the PGN: the client sent no other field
            exc.errors = {("pgn" if field.split(".")[0].split("[")[0] in ("state", "moves") else field): messages
                          for field, messages in exc.errors.items()}
        raise
    return review, turns


def body(request: dict, review, turns: Turns, plies: list, since: float) -> dict:
    """The answer: every decision judged (``complete``; else those judged before the time ran out), the
    summary per side, how they were judged, and the searches' totals."""
    return {"game": request["game_id"], "players": list(review.game.players), "complete": review.complete,
            "plies": plies,
            "summary": review.summary(), "judge": review.judge.to_json(),
            "stats": {"searches": turns.searches, "nodes": turns.nodes, "timed_out": turns.timed_out,
                      "time_ms": round((time.perf_counter() - since) * 1000.0, 3)},
            "options": request["options"] or {}, "algorithm": request["algorithm"]}


@blueprint.post("/v1/review")
def review_game():
    request = review_request()
    since = time.perf_counter()
    review, turns = start(request)
    plies = list(review.plies())
    note_search(request["game_id"], request["algorithm"]["name"], turns.nodes, turns.timed_out)
    return jsonify(body(request, review, turns, plies, since))


@blueprint.post("/v1/review/stream")
def review_stream():
    request = review_request()
    since = time.perf_counter()
    review, turns = start(request)   # the request's errors, before the stream
    log = streamed_search()          # the request's log line waits for the stream, and has its figures

    def events():
        plies = []
        try:
            for judged in review.plies():
                plies.append(judged)
                yield event(PLY, judged)
            yield event(RESULT, body(request, review, turns, plies, since))
        except ClientGone:   # its search is stopped: nobody is left to tell
            return
        except EngineError as exc:
            yield event(ERROR, engine_problem(exc))
        finally:
            note_search(request["game_id"], request["algorithm"]["name"], turns.nodes, turns.timed_out, into=log)
    return Response(stream_with_context(events()), mimetype="text/event-stream", headers=HEADERS)
