"""engine/collector.py: overlapping searches (a threaded worker runs several) hold the collector off
together, and it comes back on only after the last one."""
import gc
import threading

from engine.collector import held_off


def test_the_collector_stays_off_until_the_last_overlapping_search_ends():
    assert gc.isenabled()
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
            seen["after the first ended"] = gc.isenabled()
        seen["after both ended"] = gc.isenabled()

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
