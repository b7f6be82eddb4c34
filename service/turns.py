"""Several searches of one request (a review, a batch), run one after another, each in a turn of its own.

The request is admitted once, as a search is (service/routes/search.py: ``admitted``). Each of its searches
then takes the client's share and the worker's slot as a single search does (``search_slot``: 429, 503, the
wait coming off the search's time) and gives them back when it ends; before the next one, the searches
waiting for a slot at that moment go first (:meth:`~service.admission.Admission.let_others_first`), while the
request keeps its place in the worker's bound (:meth:`~service.admission.Admission.keep_place`: it is
never refused halfway). So a request of many searches holds one slot at a time and never starves the single
searches; the client's fairness limits count each of its searches.
"""
import flask
from flask import current_app

from engine.api import SearchResult
from service.admission import TICKET, admission
from service.routes.search import slotted_search


class Turns:
    """The searches of the request in hand, each run by :meth:`run` in its turn; their totals for the
    request's log line."""

    def __init__(self):
        self.searches, self.nodes, self.timed_out = 0, 0, False

    def run(self, request: dict) -> SearchResult:
        """The engine's answer to ``request`` (the engine's arguments, as ``admitted`` gives them), run in
        this request's next turn. Errors in ``request`` are raised before its search."""
        gate = admission(current_app)
        if self.searches:
            gate.let_others_first(request["time_limit_ms"] / 1000.0)

        def keep_place():
            flask.request.environ[TICKET] = gate.keep_place()  # released when the request ends
        result = slotted_search(request, on_release=keep_place)
        self.searches += 1
        self.nodes += result.stats.nodes
        self.timed_out |= result.stats.timed_out
        return result
