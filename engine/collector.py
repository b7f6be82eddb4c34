"""Holding off Python's cyclic garbage collector while states are read and searched.

A full collection walks every tracked object (a search's tree and table included) in one go, tens of
milliseconds, holding the interpreter meanwhile; if one starts just before a deadline the search answers that much
late. Reference counting still frees almost all of a search's garbage, and alpha-beta frees its table
itself before it answers (within its deadline), so little is left for the collector when it runs again.

The collector is switched off and on for the whole process, and a threaded server runs several searches
in one process at once. So the searches that hold it off are counted: it comes back on when the last of
them ends, if it was on when the first began. Until then, each search that ends collects the youngest
generation (everything allocated since the last collection), so that the cycles other requests leave
behind (a request's exception and its traceback) cannot pile up while searches keep overlapping.
"""
from contextlib import contextmanager
import gc
import os
import threading

_guard = threading.Lock()
_holders = 0
_was_enabled = False


@contextmanager
def held_off():
    """No automatic cyclic collection during the body of the ``with`` (see the module docstring)."""
    global _holders, _was_enabled
    with _guard:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _guard:
            _holders -= 1
            if _holders == 0:
                if _was_enabled:
                    gc.enable()
            else:
                gc.collect(0)


def _reset_in_child() -> None:
    """A forked child has only the thread that forked (service/search_pool.py runs searches so): the
    searches that held the collector off in the parent are not there, nor whoever held the guard."""
    global _guard, _holders
    _guard, _holders = threading.Lock(), 0


os.register_at_fork(after_in_child=_reset_in_child)
