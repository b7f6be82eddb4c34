"""Holding off Python's full cyclic collections while states are read and searched.

A full collection walks every tracked object (a search's tree and table included) in one go, tens of
milliseconds, holding the interpreter meanwhile; if one starts just before a deadline the search answers that much
late. So from a request's arrival to its answer (engine.api.Search: its settings and state read, the search, its
moves written in JSON form) the collector collects only the young generations: a pass walks the few
thousand objects allocated since the last one (a millisecond or less), and the objects that survive
move on to the oldest generation, whose threshold is raised out of reach until the search ends.

Young passes keep running on purpose. Switching the collector off instead left every object the search
allocated and kept (a game's caches: backgammon's evaluation caches hold some 200,000 tuples) for the
first young pass after it, which walked them all at once: 120 ms to 300 ms past a backgammon deadline
(issue 34). Reference counting frees almost all of a search's garbage, and alpha-beta frees its table
itself before it answers (within its deadline), so little is left for the full collection that the
restored threshold allows again after the search.

The thresholds are the whole process's, and a threaded server runs several searches in one process at
once. So the searches that hold full collections off are counted: the oldest generation's threshold
comes back when the last of them ends. Until then, each search that ends collects the youngest generation
(everything allocated since the last collection), so that the cycles other requests leave behind (a
request's exception and its traceback) cannot pile up while searches keep overlapping. A collector that
is switched off stays so.
"""
from contextlib import contextmanager
import gc
import os
import threading

OUT_OF_REACH = 1 << 30  # the oldest generation's threshold while searches run: young passes never reach it

_guard = threading.Lock()
_holders = 0
_thresholds = gc.get_threshold()


@contextmanager
def held_off():
    """No full cyclic collection during the body of the ``with`` (see the module docstring)."""
    global _holders, _thresholds
    with _guard:
        if _holders == 0:
            _thresholds = gc.get_threshold()
            gc.set_threshold(*_thresholds[:2], OUT_OF_REACH)
        _holders += 1
    try:
        yield
    finally:
        with _guard:
            _holders -= 1
            if _holders == 0:
                gc.set_threshold(*_thresholds)
            else:
                gc.collect(0)


def _reset_in_child() -> None:
    """A forked child has only the thread that forked (service/search_pool.py runs searches so): the
    searches that held full collections off in the parent are not there, nor whoever held the guard."""
    global _guard, _holders
    _guard, _holders = threading.Lock(), 0


os.register_at_fork(after_in_child=_reset_in_child)
