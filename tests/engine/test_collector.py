"""engine/collector.py: overlapping searches (a threaded worker runs several) hold full collections off
together, and they come back only after the last one; young collections keep running meanwhile."""
import gc
import threading

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
