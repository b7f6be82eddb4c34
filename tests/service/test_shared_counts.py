"""service/shared_counts.py and its use by the per-client limits: the workers of one gunicorn (processes
forked from the arbiter that made the app) share each client's count of running searches. The starving-
client bench: with per-worker counts, a client with MAX_SEARCHES_PER_CLIENT = 1 held a search on each of
the two workers, and another client's searches had no worker left."""
import multiprocessing
from werkzeug.exceptions import TooManyRequests

from service.fairness import fairness
from service.shared_counts import SharedCounts
from tests.service.support import make_app

FORK = multiprocessing.get_context("fork")


def in_child(target, *args):
    """``target(*args)`` in a forked process (as a gunicorn worker is): what it returned."""
    results = FORK.Queue()
    child = FORK.Process(target=lambda: results.put(target(*args)))
    child.start()
    result = results.get(timeout=120)
    child.join(timeout=120)
    return result


def test_a_count_is_shared_with_forked_processes_and_kept_to_its_limit():
    counts = SharedCounts(16)
    assert counts.increment("hog", 1)
    assert in_child(counts.increment, "hog", 1) is False  # the parent's one is seen
    assert in_child(counts.increment, "victim", 1) is True  # another key is not limited (and its
    assert counts.increment("victim", 1)  # child died holding it: that entry is dropped)
    counts.decrement("hog")
    assert in_child(counts.increment, "hog", 1) is True


def test_counts_of_one_process_add_up_and_come_back():
    counts = SharedCounts(16)
    assert counts.increment("a", 2) and counts.increment("a", 2) and not counts.increment("a", 2)
    counts.decrement("a")
    assert counts.increment("a", 2)


def test_a_full_table_refuses():
    counts = SharedCounts(2)
    assert counts.increment("a", 5) and counts.increment("b", 5)
    assert not counts.increment("c", 5)
    assert counts.increment("a", 5)  # an entry it holds already


def hog_search(app) -> str:
    with app.test_request_context(headers={"X-API-Key": "hog"}):
        try:
            with fairness(app).search(1000):
                return "admitted"
        except TooManyRequests:
            return "429"


def test_a_client_running_a_search_in_one_worker_is_refused_another_in_a_second_worker():
    app = make_app(MAX_SEARCHES_PER_CLIENT=1)
    with app.test_request_context(headers={"X-API-Key": "hog"}):
        with fairness(app).search(1000):  # the hog's search, running in this "worker"
            assert in_child(hog_search, app) == "429"
    assert in_child(hog_search, app) == "admitted"

