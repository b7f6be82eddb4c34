"""``POST /v1/search/stream``: the search of ``/v1/search`` as server-sent events.

The request is checked before the stream starts, so its errors are ordinary problem+json responses, and
it is admitted as ``/v1/search`` is (the client's share, 429; the worker's search slot, 503), holding both
until the stream is closed. The
search then runs on a thread of its own while this worker writes its events: an ``info`` event for every
progress report (one per iteration of iterative deepening, every so many MCTS iterations), then a
``result`` event whose data is exactly the body ``/v1/search`` would have answered. An error the search
itself raises (an algorithm that does not fit the loaded tree) arrives as an ``error`` event carrying the
problem+json object. Between events a comment line every ``HEARTBEAT_SECONDS`` keeps proxies patient and
finds out soon when the client has gone: the server then closes this generator, which cancels the search
(it stops at its next deadline poll) and waits for its thread, so the worker is free at once.
"""
from contextlib import ExitStack
import json
import logging
from queue import Empty, SimpleQueue
import threading

from flask import Blueprint, Response, current_app

import engine.api
from engine.errors import EngineError

from service.errors import INTERNAL_DETAIL, problem_body, unprocessable_body
from service.metrics import IN_FLIGHT, record_search
from service.request_log import note_search, streamed_search
from service.routes.search import search_request, search_slot
from service.search_threads import lower_priority
from service.serialize import progress_info, search_response

blueprint = Blueprint("stream", __name__)
log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 0.2
KEEP_ALIVE = b": keep-alive\n\n"
INFO, RESULT, ERROR = "info", "result", "error"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@blueprint.post("/v1/search/stream")
def search_stream():
    request = search_request()
    algorithm, trace = request["algorithm"], request["trace"]
    held = ExitStack()  # the search's admission, released when the server closes the response
    held.enter_context(search_slot(request))
    try:
        prepared = engine.api.Search(**request)  # errors in the request are answered here, before the stream
        settings = current_app.config["SETTINGS"]
        response = Response(events(prepared, request["game_id"], algorithm, trace, settings.max_trace_bytes,
                                   settings.search_nice, streamed_search()),
                            mimetype="text/event-stream", headers=HEADERS)
    except BaseException:
        held.close()
        raise
    response.call_on_close(held.close)  # after the events' generator is closed (its search has ended)
    return response


def events(prepared: engine.api.Search, game_id: str, algorithm: dict, trace: bool, max_trace_bytes: int,
           search_nice: int, log: dict):
    """The stream's bytes, the search running ``search_nice`` levels lower (service/search_threads.py).
    Closing the generator (the client went away) cancels the search. ``log`` receives the search's figures
    for the request's log line (those of the cancelled search too)."""
    queue = SimpleQueue()
    worker = threading.Thread(target=run, args=(prepared, queue, search_nice), name="search", daemon=True)
    worker.start()
    try:
        while True:
            try:
                kind, data = queue.get(timeout=HEARTBEAT_SECONDS)
            except Empty:
                yield KEEP_ALIVE
                continue
            if kind == INFO:
                yield event(INFO, progress_info(data))
            elif kind == RESULT:
                record_search(game_id, algorithm["name"], data.stats.nodes, data.stats.timed_out)
                note_search(game_id, algorithm["name"], data.stats.nodes, data.stats.timed_out, into=log)
                yield event(RESULT, search_response(data, algorithm, trace, max_trace_bytes))
                return
            else:
                yield event(ERROR, data)
                return
    finally:
        prepared.cancel()
        worker.join()
        if not log:  # the client left first: the cancelled search's figures, if it got as far as a result
            while not queue.empty():
                kind, data = queue.get()
                if kind == RESULT:
                    note_search(game_id, algorithm["name"], data.stats.nodes, data.stats.timed_out, into=log)


def run(prepared: engine.api.Search, queue: SimpleQueue, nice: int) -> None:
    """The search thread, ``nice`` levels lower (service/search_threads.py): progress reports, then the
    result or the problem, into ``queue``."""
    lower_priority(nice)
    try:
        with IN_FLIGHT.track_inprogress():
            result = prepared.run(on_progress=lambda progress: queue.put((INFO, progress)))
    except EngineError as exc:
        queue.put((ERROR, unprocessable_body(exc.errors)))
    except Exception as exc:  # our fault: logged, and described to the client without internals
        log.exception("unhandled error in a streamed search", exc_info=exc)
        queue.put((ERROR, problem_body(500, "Internal Server Error", INTERNAL_DETAIL)))
    else:
        queue.put((RESULT, result))


def event(name: str, data: dict) -> bytes:
    """One server-sent event; its data is one line of strict JSON."""
    return f"event: {name}\ndata: {json.dumps(data, allow_nan=False, separators=(',', ':'))}\n\n".encode()
