"""``POST /v1/search``: validate, check the client's share (429) and wait for the worker's search slot (or
be refused at once, 503), run the engine under the time limit (on the Python core, in one of the worker's
search processes: service/search_pool.py), serialise."""
from contextlib import contextmanager

import flask
from flask import Blueprint, current_app, jsonify

import engine.api
from engine.api import hard_cap_ms

from service import departure, schemas
from service.admission import SEARCH_STARTED, TICKET, admission, arrived
from service.body import big_body, deep_body, json_body
from service.fairness import fairness
from service.metrics import IN_FLIGHT, record_search
from service.request_log import note_search
from service.schemas import SearchRequestSchema
from service.search_pool import GRACE_SECONDS, RESULT, clock, pool_for, remaining_ms
from service.search_threads import SearchThread
from service.serialize import search_response

blueprint = Blueprint("search", __name__)

SCHEMA = "tactician.search_request_schema"

# The defaults a search's answer echoes (engine.api.echoed_defaults: alphabeta's enhancements, which API.md
# gives a default of true, and expectimax's risk attitude, whose units the values are in); the engine is
# sent them explicitly.
ECHOED_DEFAULTS = {name: engine.api.echoed_defaults(name) for name in engine.api.ALGORITHM_MODULES}


def effective_algorithm(algorithm: dict) -> dict:
    """The settings the client sent (never a None), plus the documented defaults that are echoed."""
    defaults = ECHOED_DEFAULTS[algorithm["name"]]
    return {**algorithm, **{k: v for k, v in defaults.items() if k not in algorithm}}


def request_schema() -> SearchRequestSchema:
    """The app's schema of a search request (its time limit bounded by the app's setting), built once:
    building one deep-copies its fields, which cost a small search's request as much as the rest of it."""
    extensions = current_app.extensions
    if SCHEMA not in extensions:
        extensions[SCHEMA] = SearchRequestSchema(current_app.config["SETTINGS"].max_time_limit_ms)
    return extensions[SCHEMA]


def search_request() -> dict:
    """The body of ``POST /v1/search`` (and of its stream), validated: the engine's arguments, the
    ``time_limit_ms`` counted from the request's arrival (given by the server, service/worker.py, when it
    can), and the algorithm with its documented defaults. A search the worker has no room for
    (service/admission.py) is refused before its body is read (503); one it has room for is let in (its
    ticket: given by the server's door, or taken here once the body is read)."""
    return admitted(lambda: engine_arguments(schemas.load(request_schema(), json_body())))


def engine_arguments(search: dict) -> dict:
    """A validated search body as the engine's arguments: the algorithm with its echoed defaults, under
    a ``clock`` the time limit it allows (:func:`clock_limit_ms`), and the root moves it may play."""
    clock = search.get("clock")
    optional = {key: search[key] for key in ("clock", "search_moves", "exclude_moves") if key in search}
    return {"game_id": search["game"], "state_json": search["state"],
            "algorithm": effective_algorithm(search["algorithm"]), "options": search.get("options"),
            "time_limit_ms": search.get("time_limit_ms") if clock is None else clock_limit_ms(clock),
            "trace": search.get("trace", False), **optional}


def clock_limit_ms(clock) -> float:
    """The time limit of a search under ``clock``: the most its move may ever take (engine.clock), within
    the server's maximum; the engine allots its time inside it."""
    return min(hard_cap_ms(clock), current_app.config["SETTINGS"].max_time_limit_ms)


def admitted(read) -> dict:
    """The search that ``read()`` makes of the request (the engine's arguments; ``time_limit_ms`` None for
    the server's default), admitted as every search is: refused at once (503) when the worker has no room,
    else let in once read, its time limit counted from the request's arrival. Every route that searches
    reads its request through this."""
    environ = flask.request.environ
    started = arrived()
    settings = current_app.config["SETTINGS"]
    gate, ticket = admission(current_app), environ.get(TICKET)
    if ticket is None:
        gate.check()
    request = read()
    environ[TICKET] = gate.enter(ticket)
    time_limit_ms = request["time_limit_ms"]
    if time_limit_ms is None:
        time_limit_ms = settings.default_time_limit_ms
    return {**request, "time_limit_ms": remaining_ms(time_limit_ms, started), "limits": settings.limits()}


@contextmanager
def search_slot(request: dict):
    """For the body of the ``with``: one of the client's searches (or 429) and the worker's search slot
    (or 503), for every route that searches. Waiting for the slot comes off ``request["time_limit_ms"]``. The
    server is told that a search started (it counts them toward ``max_requests``)."""
    waiting_since, left_ms = clock(), request["time_limit_ms"]
    ticket = flask.request.environ.get(TICKET)
    with fairness(current_app).search(left_ms), admission(current_app).search(left_ms / 1000.0, ticket):
        request["time_limit_ms"] = remaining_ms(left_ms, waiting_since)
        flask.request.environ.get(SEARCH_STARTED, lambda: None)()
        yield


# A search with a big body and a limit this short is answered in the worker: sending a megabyte of state
# to a search process and back takes 25-40 ms (the README's margin is 25 ms), while reading it here is cut
# short by the deadline, so the worker's interpreter is held for at most about this long.
BIG_BODY_INLINE_MS = 25


def reads_state_here(request: dict) -> bool:
    """Whether the worker reads the state of search ``request`` itself: unless its body is big
    (``big_body``) and its limit leaves time to send the body to a search process unread; always when it is
    nested too deeply to be sent (``deep_body``: its game refuses it here, 422)."""
    return not big_body() or deep_body() or request["time_limit_ms"] <= BIG_BODY_INLINE_MS


def run_search(request: dict):
    """The engine's answer to ``request``. A search on the compiled core runs in a thread of this worker:
    it releases the interpreter lock while it searches. A search that its state bounds to a few
    milliseconds (``Search.small``: a textbook tree), which a search process would only delay, runs in this
    thread. Any other search on the Python core runs in one of the worker's search processes
    (service/search_pool.py), with the time left, so that the worker's threads are not kept waiting for the
    interpreter while it runs; so does any search whose body is too big for its state to be read in the
    worker (``big_body``: a tree of thousands of nodes), on whichever core, unread here, unless its limit is
    too short for that (``BIG_BODY_INLINE_MS``: sending its state would take its time and more; reading it
    here stops at the deadline, and the answer is the first move). Errors in the request are raised before
    any search. While it runs, a client that closes its connection stops it (service/departure.py:
    :class:`~service.departure.ClientGone`)."""
    limit_ms, since = request["time_limit_ms"], clock()
    if reads_state_here(request):
        prepared = engine.api.Search(**request)
        if prepared.small or prepared.unread is not None:  # the last: no time left
            return prepared.run()
        if prepared.runs_native:
            return awaited(SearchThread(prepared.run, stop=prepared.cancel, progress=False), request)
    left_ms = remaining_ms(limit_ms, since)
    return awaited(pool_for(current_app).search({**request, "time_limit_ms": left_ms},
                                                wait_s=left_ms / 1000.0 + GRACE_SECONDS), request)


def awaited(running, request: dict):
    """The result of ``running``, the search of ``request``, closed once it has answered; if the client
    leaves first, the search is stopped, its figures (if it answered in time) go to the request's log line,
    and :class:`~service.departure.ClientGone` is raised."""
    try:
        return departure.result(running, departure.Watch.of_request())
    except departure.ClientGone:
        for kind, data in running.leftovers():
            if kind == RESULT:
                note_search(request["game_id"], request["algorithm"]["name"], data.stats.nodes,
                            data.stats.timed_out, stop_reason=data.stats.stop_reason)
        raise
    finally:
        running.close()


def slotted_search(request: dict, on_release=lambda: None):
    """The engine's answer to ``request``, run in its ``search_slot`` and counted in the metrics: the
    steps of every route that answers one search at a time. ``on_release()`` runs when the search ends
    (or fails), while the slot is still held."""
    with search_slot(request), IN_FLIGHT.track_inprogress():
        try:
            result = run_search(request)
        finally:
            on_release()
    record_search(request["game_id"], request["algorithm"]["name"], result.stats.nodes, result.stats.timed_out,
                  result.stats.core)
    return result


@blueprint.post("/v1/search")
def search():
    request = search_request()
    result = slotted_search(request)
    game, algorithm = request["game_id"], request["algorithm"]
    note_search(game, algorithm["name"], result.stats.nodes, result.stats.timed_out)
    return jsonify(search_response(result, algorithm, request["trace"], game))
