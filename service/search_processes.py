"""Searches in processes of their own: each search runs in a child forked from the worker for it,
``SEARCH_NICE`` levels lower (the setting, service/config.py), and sends its progress and its result back
through a pipe.

Why not a thread: a worker's threads share one interpreter lock. A searching thread holds it nearly all
the time, and every other thread of the worker (the one that accepts connections, those that read
requests, answer health checks and refuse searches) must win it back, from the searches and from each
other, a few dozen times a request; nor can the operating system's priorities help, since a thread it
runs first may only wait for the lock held by a search it has just descheduled. In a child the search has
an interpreter of its own, and the scheduler's priorities alone decide.

The child is a fork, so it has the game and state the worker loaded (nothing is serialised but what comes
back), it starts in about a millisecond, and whatever memory a search took (its tables) goes back to the
system when it exits. Only the forking thread exists in the child: it runs the search and nothing else
(no logging, no metrics), closes every descriptor but its pipe at once (so that a connection the worker
closes meanwhile is closed for its client too, and a stopping worker's listening socket goes with it), and
leaves through ``os._exit``, never returning into the server's code. Locks that the worker's other threads
held at the fork are never taken in the child (engine/collector.py resets its own).

The worker never waits for a child longer than the search's deadline plus ``GRACE_SECONDS``: a child that
overstays is killed and its request answered 500.
"""
from multiprocessing import Pipe
import os
import signal
import time
import traceback
import warnings

from engine.errors import EngineError

INFO, RESULT, ERROR, FAILED = "info", "result", "error", "failed"
GRACE_SECONDS = 5.0
STOP_POLL_SECONDS = 0.005
# The signals gunicorn's worker handles: the child takes the defaults back (a SIGTERM kills it).
WORKER_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2,
                  signal.SIGWINCH, signal.SIGABRT, signal.SIGCHLD)


class SearchFailed(RuntimeError):
    """The search's process failed (a fault in the engine, or it died or overstayed): a 500."""


def unpacked(kind: str, data):
    """A search's message as its reader gets it: ``(INFO, progress)`` or ``(RESULT, result)``; an
    :class:`~engine.errors.EngineError` the search raised is raised here, and a failure as
    :class:`SearchFailed`."""
    if kind == ERROR:
        raise data
    if kind == FAILED:
        raise SearchFailed(data)
    return kind, data


class SearchProcess:
    """``search(on_progress)`` running in a child forked now, ``nice`` levels lower. Read its messages
    with :meth:`next_message`, or just :meth:`result`; :meth:`close` (always) reaps it, killing it first
    if it still runs. ``stop``, if given, is what the child calls to end the search early (it then
    answers as on a timeout) when :meth:`stop` asks it to. ``wait_s``, if given, is the longest the
    worker waits for the answer (the search's time limit and ``GRACE_SECONDS``): a child still silent by
    then has overstayed."""

    def __init__(self, search, nice: int, stop=None, wait_s: float | None = None):
        self.wait_s = wait_s
        self.give_up = None if wait_s is None else time.perf_counter() + wait_s
        self.reader, writer = Pipe(duplex=False)
        with warnings.catch_warnings():  # Python >= 3.12 warns of fork in a threaded process: see above
            warnings.simplefilter("ignore", DeprecationWarning)
            self.pid = os.fork()
        if self.pid == 0:  # the child: it never returns
            self.reader.close()
            run_child(search, writer, nice, stop)
        writer.close()
        self.exited = False

    def receive(self):
        """The next message, ``(kind, data)``: ``(INFO, progress)``s, then ``(RESULT, result)``; an
        :class:`~engine.errors.EngineError` the search raised is raised here, and a failure as
        :class:`SearchFailed`."""
        try:
            kind, data = self.reader.recv()
        except (EOFError, OSError):
            raise SearchFailed("the search's process ended without an answer") from None
        return unpacked(kind, data)

    def next_message(self, timeout: float | None):
        """The next message (see :meth:`receive`), or None if none came within ``timeout`` seconds (None:
        as long as it takes); :class:`SearchFailed` once the child has overstayed."""
        if self.give_up is not None:
            left = max(0.0, self.give_up - time.perf_counter())
            timeout = left if timeout is None else min(timeout, left)
        if self.reader.poll(timeout):
            return self.receive()
        if self.give_up is not None and time.perf_counter() >= self.give_up:
            raise SearchFailed(f"the search's process gave no answer within {self.wait_s:.1f} s")
        return None

    def result(self):
        """The search's result (progress reports are skipped), or :class:`SearchFailed` once the child has
        overstayed."""
        while True:
            message = self.next_message(None)
            if message is not None and message[0] == RESULT:
                return message[1]

    def stop(self, grace_s: float) -> None:
        """Ask the search to end now (SIGTERM: the child calls its ``stop``, and sends its answer) and
        wait up to ``grace_s`` for the child to exit; the answer, if any, is then left to :meth:`leftovers`."""
        if self.exited:
            return
        os.kill(self.pid, signal.SIGTERM)
        give_up = time.perf_counter() + grace_s
        while time.perf_counter() < give_up:
            if os.waitpid(self.pid, os.WNOHANG)[0]:
                self.exited = True
                return
            time.sleep(STOP_POLL_SECONDS)

    def leftovers(self):
        """The messages still waiting, without waiting for more."""
        try:
            while self.reader.poll(0):
                yield self.receive()
        except (EngineError, SearchFailed):
            return

    def close(self) -> None:
        """Kill the child if it still runs, and reap it."""
        if not self.exited:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.pid, 0)
            self.exited = True
        self.reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def highest_descriptor() -> int:
    """The highest descriptor open (from /proc, where there is one): closing up to the system's limit
    instead could mean a million calls where the kernel has no call to close a range."""
    try:
        return max(int(name) for name in os.listdir("/proc/self/fd"))
    except (OSError, ValueError):
        return os.sysconf("SC_OPEN_MAX")


def run_child(search, writer, nice: int, stop) -> None:
    """In the forked child: run the search, send its messages, exit."""
    code = 1
    try:
        for signum in WORKER_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)
        if stop is not None:
            signal.signal(signal.SIGTERM, lambda signum, frame: stop())
        signal.set_wakeup_fd(-1)
        keep = writer.fileno()
        os.closerange(3, keep)
        os.closerange(keep + 1, highest_descriptor() + 1)
        if nice > 0:
            os.nice(nice)
        try:
            result = search(lambda progress: writer.send((INFO, progress)))
        except EngineError as error:
            writer.send((ERROR, error))
        except BaseException as error:  # a fault: described to the worker, which logs it and answers 500
            writer.send((FAILED, "".join(traceback.format_exception(error))))
        else:
            writer.send((RESULT, result))
        code = 0
    except BaseException:  # the worker has gone (a broken pipe): nobody is left to tell
        pass
    finally:
        os._exit(code)  # no cleanup of the worker's: its buffers, handlers and atexit are not the child's
