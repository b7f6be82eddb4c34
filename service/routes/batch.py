"""``POST /v1/search/batch``: several searches, each a ``POST /v1/search`` body with its own settings,
answered together in the order given; ``POST /v1/search/batch/stream``: the same, each answer sent as an
event as its search finishes.

Every search is checked before any runs (an error is a 422 naming ``searches[i].<field>``). The batch is
admitted as a search is (503 when the worker has no room), then runs its searches one at a time, each in
its own turn of the worker's admission and of the client's share (service/turns.py): a batch holds one
slot at a time, lets the searches waiting for one go first between its own, and each of its searches counts
toward the client's limits. Each search's ``time_limit_ms`` (default ``DEFAULT_TIME_LIMIT_MS``) counts from
its turn, and its wait for the slot comes off it.
"""
from contextlib import contextmanager
import time

from flask import Blueprint, Response, current_app, jsonify, stream_with_context

import engine.api
from engine.errors import EngineError

from service.body import json_body
from service.departure import ClientGone
from service.errors import engine_problem
from service.request_log import note_search, streamed_search
from service.routes.search import admitted, engine_arguments
from service.routes.stream import ERROR, HEADERS, RESULT, event
from service.schemas import BatchRequestSchema
from service.serialize import search_response
from service.turns import Turns

blueprint = Blueprint("batch", __name__)
SEARCH = "search"


def checked(i: int, search: dict, limits) -> dict:
    """Search ``i`` of the batch as the engine's arguments, checked by loading it (its errors named
    ``searches[i].<field>``)."""
    request = {**engine_arguments(search), "limits": limits}
    with named(i):
        engine.api.Search(**{**request, "time_limit_ms": None, "clock": None})
    return request


@contextmanager
def named(i: int):
    """An engine error of search ``i`` with its fields named ``searches[i].<field>``."""
    try:
        yield
    except EngineError as exc:
        exc.errors = {f"searches[{i}].{field}": messages for field, messages in exc.errors.items()}
        raise


def batch_request() -> dict:
    settings = current_app.config["SETTINGS"]

    def read() -> dict:
        body = BatchRequestSchema(settings.max_time_limit_ms).load(json_body())
        searches = [checked(i, search, settings.limits()) for i, search in enumerate(body["searches"])]
        return {"searches": searches, "time_limit_ms": None}
    return admitted(read)


def answers(request: dict, turns: Turns):
    """Each search's ``/v1/search`` body, in the order sent, as it finishes."""
    default_ms = current_app.config["SETTINGS"].default_time_limit_ms
    for i, search in enumerate(request["searches"]):
        limit = search["time_limit_ms"] if search["time_limit_ms"] is not None else default_ms
        with named(i):  # found only as it runs: a trace past its limits
            result = turns.run({**search, "time_limit_ms": float(limit)})
        yield search_response(result, search["algorithm"], search["trace"], search["game_id"])


def body(results: list, turns: Turns, since: float) -> dict:
    return {"results": results, "stats": {"searches": turns.searches, "nodes": turns.nodes,
                                          "timed_out": turns.timed_out,
                                          "time_ms": round((time.perf_counter() - since) * 1000.0, 3)}}


@blueprint.post("/v1/search/batch")
def batch():
    request = batch_request()
    since, turns = time.perf_counter(), Turns()
    results = list(answers(request, turns))
    note_search("batch", "batch", turns.nodes, turns.timed_out)
    return jsonify(body(results, turns, since))


@blueprint.post("/v1/search/batch/stream")
def batch_stream():
    """The batch as server-sent events: a ``search`` event (``{"index", "result"}``) as each search finishes,
    then a ``result`` event whose data is the ``/v1/search/batch`` body."""
    request = batch_request()
    since, turns = time.perf_counter(), Turns()
    log = streamed_search()

    def events():
        results = []
        try:
            for index, answer in enumerate(answers(request, turns)):
                results.append(answer)
                yield event(SEARCH, {"index": index, "result": answer})
            yield event(RESULT, body(results, turns, since))
        except ClientGone:   # its search is stopped: nobody is left to tell
            return
        except EngineError as exc:
            yield event(ERROR, engine_problem(exc))
        finally:
            note_search("batch", "batch", turns.nodes, turns.timed_out, into=log)
    return Response(stream_with_context(events()), mimetype="text/event-stream", headers=HEADERS)
