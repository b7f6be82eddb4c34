"""Searches on threads of their own, at a lower CPU priority than the threads that read requests, answer
health checks and refuse searches (the ``SEARCH_NICE`` setting, service/config.py; Linux only).

A worker's threads share its interpreter lock, and its two busy cores are shared with the other worker
and whatever else runs: a thread that reads a request or writes a refusal gives the lock up and takes it
back a few dozen times, and each time it may wait for a core. With the searches a few nice levels lower,
the scheduler runs such a thread at once. A thread cannot raise its priority back (without privileges), so
a search runs on a new thread that lowers its own and ends with the search; threads cost a fraction of a
millisecond to start.
"""
import contextvars
import os
import sys
import threading


def lower_priority(nice: int) -> None:
    """This thread only, by ``nice`` levels (Linux applies ``setpriority`` to a thread id)."""
    if nice <= 0 or sys.platform != "linux":
        return
    thread = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + nice))
    except OSError:
        pass


def run(nice: int, function, /, *args, **kwargs):
    """``function(*args, **kwargs)`` on a search thread ``nice`` levels lower (see the module docstring);
    its result, or its exception, here. The calling thread waits without holding the interpreter."""
    context = contextvars.copy_context()
    outcome = {}

    def target():
        lower_priority(nice)
        try:
            outcome["result"] = context.run(function, *args, **kwargs)
        except BaseException as error:  # raised again in the caller
            outcome["error"] = error

    thread = threading.Thread(target=target, name="search", daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]
