"""engine/collector.py: overlapping searches (a threaded worker runs several) hold full collections off
together, and they come back only after the last one; young collections keep running meanwhile."""
import gc
import sys
import threading

import engine.api
from engine.collector import OUT_OF_REACH, held_off


def full_collections_on() -> bool:
    return gc.get_threshold()[2] != OUT_OF_REACH


def test_full_collections_stay_off_until_the_last_overlapping_search_ends():
    assert full_collections_on()
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def first():
        with held_off():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second():
        first_in.wait(5)
        with held_off():
            second_in.set()
            first_out.wait(5)
            seen["after the first ended"] = full_collections_on()
        seen["after both ended"] = full_collections_on()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == {"after the first ended": False, "after both ended": True}


def test_a_search_that_ends_while_another_runs_collects_the_young_cycles():
    collections = []

    def record(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(record)
    try:
        with held_off():
            with held_off():
                pass
            assert collections == [0]
    finally:
        gc.callbacks.remove(record)


def test_a_collector_switched_off_before_stays_off():
    gc.disable()
    try:
        with held_off():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_young_collections_run_during_a_search_so_none_is_left_to_walk_after_it():
    """Objects a search allocates and keeps (a game's caches) are walked a few hundred at a time while it
    runs, not all at once by the first young pass after it (issue 34: 120-300 ms past a backgammon
    deadline)."""
    kept = []
    with held_off():
        for i in range(200_000):
            kept.append((i, [i]))
        assert gc.get_count()[0] < gc.get_threshold()[0] + 1
    assert full_collections_on()


def test_no_full_collection_starts_between_a_requests_arrival_and_its_answer():
    """A search's time runs from its request's arrival (its settings read, its state loaded) to its answer
    in JSON form, and a full collection due meanwhile waits for the end: one that started while the
    settings were read put a 60 ms search 140 ms late in the test process's heap."""
    searching = {engine.api.Search.__init__.__code__, engine.api.Search.run.__code__}
    during, after = [], []

    def record(phase, info):
        if phase == "start" and info["generation"] == 2:
            frame, codes = sys._getframe(1), set()
            while frame is not None:
                codes.add(frame.f_code)
                frame = frame.f_back
            (during if codes & searching else after).append(info)

    thresholds = gc.get_threshold()
    gc.freeze()      # an empty oldest generation: a full collection is due as soon as its threshold allows
    gc.collect()
    gc.set_threshold(1, 1, 1)
    gc.callbacks.append(record)
    try:
        result = engine.api.search("tictactoe", {"board": ["X.O", "...", "..."]}, {"name": "alphabeta"},
                                   time_limit_ms=1000)
    finally:
        gc.callbacks.remove(record)
        gc.set_threshold(*thresholds)
        gc.unfreeze()
    assert not result.stats.timed_out
    assert during == [] and after, "due during the search, the full collection came right after it"
