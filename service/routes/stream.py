"""``POST /v1/search/stream``: the search of ``/v1/search`` as server-sent events.

The request is checked before the stream starts, so its errors are ordinary problem+json responses, and it
is admitted as ``/v1/search`` is (the client's share, 429; the worker's search slot, 503), holding both
until the search has ended (its last event is then sent: a client that asks again as soon as it has read the
result is not refused for the search it was just answered) or the stream is closed. The search then runs in
a thread of the worker when the compiled core runs it (it releases the interpreter lock:
service/search_threads.py), else in one of the worker's search processes (service/search_pool.py), while
this worker writes its events: an ``info`` event for every progress report (one per iteration of iterative deepening, every so many MCTS iterations), then a
``result`` event whose data is exactly the body ``/v1/search`` would have answered. An error the search
itself raises (an algorithm that does not fit the loaded tree) arrives as an ``error`` event carrying the
problem+json object. Between events a comment line every ``HEARTBEAT_SECONDS`` keeps proxies patient and
finds out when the client has gone, and so does a look at its socket every few milliseconds while the
search runs (service/departure.py): the search is then stopped (it answers as on a timeout), so the worker
is free at once.
"""
from contextlib import ExitStack
import json
import logging

from flask import Blueprint, Response, current_app

import engine.api
from engine.errors import EngineError

from service.departure import STOP_GRACE_SECONDS, ClientGone, Watch, next_message
from service.errors import INTERNAL_DETAIL, engine_problem, problem_body
from service.metrics import IN_FLIGHT, record_search
from service.request_log import note_search, streamed_search
from service.routes.search import reads_state_here, search_request, search_slot
from service.search_pool import GRACE_SECONDS, INFO, READY, UNDER_WAY, SearchFailed, pool_for
from service.search_threads import SearchThread
from service.serialize import progress_info, search_response

blueprint = Blueprint("stream", __name__)
log_errors = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 0.2
KEEP_ALIVE = b": keep-alive\n\n"
RESULT, ERROR = "result", "error"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@blueprint.post("/v1/search/stream")
def search_stream():
    request = search_request()
    held = ExitStack()  # the search's admission, released when the search ends or the response is closed
    held.enter_context(search_slot(request))
    try:
        start = starter(request, pool_for(current_app), held)  # the request's errors, before the stream
        response = Response(events(start, request, streamed_search(), held.close, Watch.of_request()),
                            mimetype="text/event-stream", headers=HEADERS)
    except BaseException:
        held.close()
        raise
    response.call_on_close(held.close)  # if the client went first: once the generator stopped its search
    return response


def starter(request: dict, pool, held: ExitStack):
    """A function that starts the search of ``request`` and gives the running search: in a thread
    (compiled core), or in one of ``pool``'s processes (Python core), which loads ``request`` itself. The
    request's errors are raised now, before the stream: the state is read here, or, when the worker does
    not read it (:func:`~service.routes.search.reads_state_here`: a big body), the search is started in a
    process now and its reading awaited (``READY``); that search is then closed with ``held`` too, should
    the stream never start."""
    if not reads_state_here(request):
        process = pool_for_search(pool, request, request["time_limit_ms"] / 1000.0)
        held.callback(process.close)
        process.next_message(None)    # READY, or the request's error raised
        return lambda: process
    prepared = engine.api.Search(**request)
    if prepared.runs_native or prepared.unread is not None:
        return lambda: SearchThread(prepared.run, stop=prepared.cancel)
    return lambda: pool_for_search(pool, request, prepared.deadline.remaining())


def events(start, request: dict, log: dict, release, watch: Watch):
    """The stream's bytes, the search of ``request`` started by ``start()`` (:func:`starter`). Closing
    the generator (the client went away) ends it, and so does the client's leaving seen on ``watch``
    (service/departure.py) while the search runs.
    ``log`` receives the search's figures for the request's log line (those of the stopped search too).
    ``release()`` gives back the search's admission once the search has answered, before the last event."""
    game_id, algorithm, trace = request["game_id"], request["algorithm"], request["trace"]
    process = None
    try:
        process = start()
        with IN_FLIGHT.track_inprogress():
            while True:
                message = next_message(process, watch, HEARTBEAT_SECONDS)
                if message is None:
                    yield KEEP_ALIVE
                    continue
                kind, data = message
                if kind == READY:
                    continue
                if kind == INFO:
                    yield event(INFO, progress_info(data, game_id))
                else:
                    record_search(game_id, algorithm["name"], data.stats.nodes, data.stats.timed_out, data.stats.core)
                    note_search(game_id, algorithm["name"], data.stats.nodes, data.stats.timed_out, into=log)
                    release()
                    yield event(RESULT, search_response(data, algorithm, trace, game_id))
                    return
    except ClientGone:   # the search is stopped: nobody is left to tell
        return
    except EngineError as exc:
        release()
        yield event(ERROR, engine_problem(exc))
    except SearchFailed as exc:  # our fault: logged, and described to the client without internals
        log_errors.error("a streamed search failed: %s", exc)
        release()
        yield event(ERROR, problem_body(500, "Internal Server Error", INTERNAL_DETAIL))
    finally:
        if process is not None:
            process.stop(STOP_GRACE_SECONDS)
            if not log:  # the client left first: the stopped search's figures, if its answer came in time
                for kind, data in process.leftovers():
                    if kind not in UNDER_WAY:
                        note_search(game_id, algorithm["name"], data.stats.nodes, data.stats.timed_out, into=log,
                                    stop_reason=data.stats.stop_reason)
            process.close()


def pool_for_search(pool, request: dict, left_s: float | None):
    """The search of ``request`` on one of ``pool``'s processes, with ``left_s`` seconds left, sending its
    progress."""
    left_ms = None if left_s is None else max(0.0, left_s) * 1000.0
    return pool.search({**request, "time_limit_ms": left_ms}, progress=True,
                       wait_s=None if left_s is None else max(0.0, left_s) + GRACE_SECONDS)


def event(name: str, data: dict) -> bytes:
    """One server-sent event; its data is one line of strict JSON."""
    return f"event: {name}\ndata: {json.dumps(data, allow_nan=False, separators=(',', ':'))}\n\n".encode()
