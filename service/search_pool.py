"""Searches on the Python core, in a pool of processes of their own that each worker keeps.

Why not a thread: a worker's threads share one interpreter lock. A searching thread holds it nearly all
the time, and every other thread of the worker (the one that accepts connections, those that read
requests, answer health checks and refuse searches) must win it back, from the searches and from each
other, a few dozen times a request; nor can the operating system's priorities help, since a thread it
runs first may only wait for the lock held by a search it has just descheduled. In a process of its own a
search has an interpreter of its own, and the scheduler's priorities alone decide.

Why a pool rather than a process forked for each search (as before, issue 33): forking, exiting and
reaping cost 3-5 ms a search, and the fresh child paid a copy-on-write fault (~3 us) for each page of the
worker it wrote, so it searched 35-40 % slower than the worker would. A pooled process pays those once
and then runs search after search on pages of its own.

- **One pool per worker** (:func:`pool_for`): ``SEARCHES_PER_WORKER`` processes, the worker's admission
  capacity (service/admission.py), so a search let in always finds one idle. They are forked from the
  worker (never from the arbiter: a pool belongs to the process that made it, and a fork of that process
  makes its own), at the worker's start (service/worker.py) or on first use, and each is niced once,
  ``SEARCH_NICE`` levels lower, and loads the engine (``engine.api.preload``). Should more searches run
  than the pool has processes (a search whose time ran out while it waited runs without a slot), one more
  is forked for it and leaves once it is done.
- **A search is its request**: the JSON-level arguments of ``engine.api.Search`` (game, state, algorithm,
  the time left, trace, limits), sent over the process's pipe (a ``multiprocessing`` connection); the
  process loads the state and runs the search, and sends back (when asked: the stream) that the state is
  read (``READY``) and its progress, then its result, or the ``EngineError`` it raised (raised again in
  the worker), or a fault's traceback (a :class:`SearchFailed`, which the routes answer with 500).
- **Other work that would hold the worker's interpreter** (a rules request on a big state, which is
  mostly the state's reading: service/rules.py) is a *task*: a module-level function and its keyword
  arguments (:meth:`SearchPool.run`), sent and answered the same way, admitted as a search is.
- **Stopping**: :meth:`PooledSearch.stop` sends the process ``SIGUSR1``, whose handler cancels the search
  in hand (``Search.cancel``): it answers as on a timeout. A search on the compiled core, which would give
  the handler no turn until it is over, runs on a thread while the main thread waits for it
  (:func:`run_searchable`). A process goes back to the pool only once its
  last answer has been read, so a late signal finds it idle and does nothing.
- **Recycling**: a process that has run ``SEARCH_PROCESS_MAX_SEARCHES`` searches, or whose resident memory
  has grown above ``SEARCH_PROCESS_MAX_RSS_MB``, is told to leave when its search is done, and a fresh one
  is forked in its place (on a thread of its own, not in the answer's way).
- **Failures**: the worker waits for an answer no longer than the search's deadline plus
  ``GRACE_SECONDS``; a process that overstays is killed, reaped and replaced, and its request answered 500,
  as is one whose process died. Neither takes the worker down.
- **Lifetime**: a process leaves when the worker exits, however it exits: each holds the read end of a
  "lifeline" pipe whose only write end is the worker's, and a thread of the process (blocked in a read, it
  costs nothing meanwhile) ends the process when the worker's end closes, which the kernel does for a
  worker that was killed too. :meth:`SearchPool.close` (at the worker's exit, ``atexit``) tells the idle
  ones to leave, kills the rest and reaps them all. A SIGTERM to the worker reaches none of them: the
  worker drains (service/worker.py) while its searches finish.

Hygiene of a fork from a threaded worker: only the forking thread exists in the process; it closes every
descriptor but its pipe and its lifeline at once (so that a connection the worker closes is closed for its
client too, and a stopping worker's listening socket goes with it), takes the default signal handlers
back, never logs nor touches the worker's metrics, and leaves through ``os._exit``, never returning into
the server's code. Locks that the worker's other threads held at the fork are never taken in it
(engine/collector.py resets its own).
"""
import atexit
from multiprocessing import Pipe
import os
import signal
import threading
import time
import traceback
from typing import Any
import warnings

from engine.errors import EngineError
from service.memory import rss_bytes

INFO, RESULT, ERROR, FAILED = "info", "result", "error", "failed"
# Sent, to a search whose progress is asked for (the stream's), once its state is read: the request's errors
# would have come before it.
READY = "ready"
# The messages that come before a search's last.
UNDER_WAY = (INFO, READY)
GRACE_SECONDS = 5.0
# How long an idle process told to leave, or a stopped one, is given before it is killed.
LEAVE_SECONDS = 1.0
STOP_SIGNAL = signal.SIGUSR1
# The signals gunicorn's worker handles: the process takes the defaults back, but for those below.
WORKER_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2,
                  signal.SIGWINCH, signal.SIGABRT, signal.SIGCHLD)
# Sent to a whole process group by a terminal (Ctrl-C, Ctrl-\) or a supervisor: the worker decides what
# happens to the searches, and the process leaves with it.
IGNORED_SIGNALS = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP)


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


class PoolProcess:
    """One process of a pool, forked now: it serves requests from ``conn`` until told to leave."""

    def __init__(self, nice: int, lifeline: int):
        self.conn, theirs = Pipe(duplex=True)
        with warnings.catch_warnings():  # Python >= 3.12 warns of fork in a threaded process: see above
            warnings.simplefilter("ignore", DeprecationWarning)
            self.pid = os.fork()
        if self.pid == 0:  # the process: it never returns
            self.conn.close()
            serve(theirs, nice, lifeline)
        theirs.close()
        self.searches = 0
        self.exited = False

    def rss_bytes(self) -> int:
        """Its resident memory (0 where /proc cannot tell)."""
        return rss_bytes(self.pid)

    def alive(self) -> bool:
        """Whether it still runs and waits, as it should when idle, with nothing to say."""
        if self.exited:
            return False
        try:
            if self.conn.poll(0):  # an idle process says nothing: it has died (end of file), or is astray
                return False
            return os.waitpid(self.pid, os.WNOHANG)[0] == 0
        except (OSError, EOFError):
            return False

    def leave(self, grace_s: float = LEAVE_SECONDS) -> None:
        """Tell it to leave (if it listens), kill it if it has not within ``grace_s``, and reap it."""
        if self.exited:
            return
        try:
            self.conn.send(None)
        except OSError:
            pass
        give_up = time.perf_counter() + grace_s
        while True:
            try:
                if os.waitpid(self.pid, os.WNOHANG)[0]:
                    break
            except ChildProcessError:
                break
            if time.perf_counter() >= give_up:
                self.kill()
                break
            time.sleep(0.002)
        self.exited = True
        self.conn.close()

    def kill(self) -> None:
        """Kill it and reap it."""
        if self.exited:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        self.exited = True
        self.conn.close()


class SearchPool:
    """``size`` search processes, ``nice`` levels lower, each replaced after ``max_searches`` searches or
    above ``max_rss_bytes`` of resident memory. :meth:`search` runs one search on an idle process."""

    def __init__(self, size: int, nice: int = 0, max_searches: int = 200, max_rss_bytes: int = 1 << 30):
        self.size, self.nice = size, nice
        self.max_searches, self.max_rss_bytes = max_searches, max_rss_bytes
        self.owner = os.getpid()
        self.guard = threading.Lock()
        self.idle: list[PoolProcess] = []
        self.busy: set[PoolProcess] = set()
        self.spawning = 0
        self.closed = False
        lifeline_read, self.lifeline = os.pipe()
        self.lifeline_read = lifeline_read
        atexit.register(self.close)

    def start(self) -> "SearchPool":
        """Fork every process now (else each is forked when first needed)."""
        with self.guard:
            missing = self.size - self.count()
        for _ in range(max(0, missing)):
            self.put_back(self.fork())
        return self

    def fork(self) -> PoolProcess:
        return PoolProcess(self.nice, self.lifeline_read)

    @property
    def pids(self) -> list:
        with self.guard:
            return sorted(p.pid for p in self.idle + list(self.busy))

    def take(self) -> PoolProcess:
        """An idle process (forked now if none is), marked busy."""
        with self.guard:
            if self.closed:
                raise SearchFailed("the worker's search processes are closed")
            while self.idle:
                process = self.idle.pop()
                if process.alive():
                    self.busy.add(process)
                    return process
                self.retire(process, clean=False)
        process = self.fork()
        with self.guard:
            self.busy.add(process)
        return process

    def give_back(self, process: PoolProcess, clean: bool) -> None:
        """A process whose search is over: back to the pool if ``clean`` (its last answer read) and still
        young and lean, else retired."""
        with self.guard:
            self.busy.discard(process)
            process.searches += 1
            if (clean and not self.closed and process.searches < self.max_searches
                    and self.count() < self.size and process.rss_bytes() <= self.max_rss_bytes):
                self.idle.append(process)
                return
            self.retire(process, clean)

    def count(self) -> int:
        """Processes in the pool or on their way to it (with the guard held)."""
        return len(self.idle) + len(self.busy) + self.spawning

    def retire(self, process: PoolProcess, clean: bool) -> None:
        """(With the guard held.) ``process`` leaves (told to if ``clean``, else killed) and is reaped, and a
        fresh one is forked in its place if the pool is short of one: on a thread of their own, out of the
        way of the search's answer."""
        replace = not self.closed and self.count() < self.size
        if replace:
            self.spawning += 1

        def run():
            if clean:
                process.leave()
            else:
                process.kill()
            if replace:
                try:
                    fresh = self.fork()
                finally:
                    with self.guard:
                        self.spawning -= 1
                self.put_back(fresh)
        threading.Thread(target=run, name="search-pool-retire", daemon=True).start()

    def put_back(self, process: PoolProcess) -> None:
        with self.guard:
            if not self.closed and self.count() < self.size:
                self.idle.append(process)
                return
        process.leave()

    def search(self, request: dict, wait_s: float | None = None, progress: bool = False) -> "PooledSearch":
        """``engine.api.Search(**request).run()`` on an idle process; ``wait_s``, if given, is the longest
        the worker waits for its answer (its time limit and ``GRACE_SECONDS``); ``progress``: whether its
        progress reports are sent too."""
        return self.send(None, request, wait_s, progress)

    def run(self, task, arguments: dict, wait_s: float | None = None) -> "PooledSearch":
        """``task(**arguments)`` on an idle process (``task``: a module-level function, sent by its name);
        its return value is the result, and the exceptions it raises are the search's (an
        ``EngineError`` raised again in the worker, anything else a :class:`SearchFailed`)."""
        return self.send(task, arguments, wait_s, False)

    def send(self, task, request: dict, wait_s: float | None, progress: bool) -> "PooledSearch":
        """``request`` for ``task`` (None: a search) on an idle process."""
        process = self.take()
        try:
            process.conn.send((task, request, progress, clock()))  # (before it is pickled)
        except OSError:
            self.give_back(process, clean=False)
            raise SearchFailed("the search's process could not be reached") from None
        return PooledSearch(self, process, wait_s)

    def close(self) -> None:
        """Every process leaves (the busy ones are killed) and is reaped."""
        if os.getpid() != self.owner:
            return
        with self.guard:
            if self.closed:
                return
            self.closed = True
            idle, busy, self.idle, self.busy = self.idle, list(self.busy), [], set()
        for process in busy:
            process.kill()
        for process in idle:
            try:
                process.conn.send(None)
            except OSError:
                pass
        for process in idle:
            process.leave()
        for fd in (self.lifeline, self.lifeline_read):
            try:
                os.close(fd)
            except OSError:
                pass
        atexit.unregister(self.close)


class RunningSearch:
    """What a route reads of a running search, wherever it runs (here, or service/search_threads.py):
    :meth:`next_message` gives its messages; :meth:`result` waits for the last."""

    def next_message(self, timeout: float | None):
        raise NotImplementedError

    def result(self):
        """The search's result (progress reports are skipped); its error or failure is raised."""
        while True:
            message = self.next_message(None)
            if message is not None and message[0] == RESULT:
                return message[1]


class PooledSearch(RunningSearch):
    """A search running on a pool's process. Read its messages with :meth:`next_message`, or just
    :meth:`result`; :meth:`close` (always) gives the process back (or replaces it, when the search did not
    end cleanly)."""

    def __init__(self, pool: SearchPool, process: PoolProcess, wait_s: float | None):
        self.pool, self.process, self.wait_s = pool, process, wait_s
        self.pid = process.pid
        self.give_up = None if wait_s is None else time.perf_counter() + wait_s
        self.ended = False     # its last answer (result, error or failure) has been read
        self.broken = False    # its process died, overstayed or could not be read
        self.kept: list = []   # messages read by stop(), for leftovers()
        self.closed = False

    def receive(self):
        """The next message, ``(kind, data)``: ``(INFO, progress)``s, then ``(RESULT, result)``; an
        :class:`~engine.errors.EngineError` the search raised is raised here, and a failure as
        :class:`SearchFailed`."""
        try:
            kind, data = self.process.conn.recv()
        except (EOFError, OSError):
            self.broken = True
            raise SearchFailed("the search's process ended without an answer") from None
        if kind not in UNDER_WAY:
            self.ended = True
        return unpacked(kind, data)

    def next_message(self, timeout: float | None):
        """The next message (see :meth:`receive`), or None if none came within ``timeout`` seconds (None:
        as long as it takes); :class:`SearchFailed` once the process has overstayed."""
        if self.kept:
            return unpacked(*self.kept.pop(0))
        if self.give_up is not None:
            left = max(0.0, self.give_up - time.perf_counter())
            timeout = left if timeout is None else min(timeout, left)
        if self.process.conn.poll(timeout):
            return self.receive()
        if self.give_up is not None and time.perf_counter() >= self.give_up:
            self.broken = True
            raise SearchFailed(f"the search's process gave no answer within {self.wait_s:.1f} s")
        return None

    def stop(self, grace_s: float) -> None:
        """Ask the search to end now (``SIGUSR1``: the process cancels it, and sends its answer) and wait up
        to ``grace_s`` for its answer, which is then left to :meth:`leftovers`."""
        if self.ended or self.broken:
            return
        try:
            os.kill(self.pid, STOP_SIGNAL)
        except ProcessLookupError:
            self.broken = True
            return
        give_up = time.perf_counter() + grace_s
        conn = self.process.conn
        while not self.ended:
            try:
                if not conn.poll(max(0.0, give_up - time.perf_counter())):
                    return
                message = conn.recv()
            except (EOFError, OSError):
                self.broken = True
                return
            self.kept.append(message)
            if message[0] not in UNDER_WAY:
                self.ended = True

    def leftovers(self):
        """The messages still waiting, without waiting for more."""
        try:
            while True:
                if self.kept:
                    yield unpacked(*self.kept.pop(0))
                elif not self.ended and not self.broken and self.process.conn.poll(0):
                    yield self.receive()
                else:
                    return
        except (EngineError, SearchFailed, OSError):
            return

    def close(self) -> None:
        """Give the process back to the pool once its search has answered; kill and replace it otherwise."""
        if self.closed:
            return
        self.closed = True
        self.pool.give_back(self.process, clean=self.ended and not self.broken)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


# This process's pools, by their settings (apps with the same settings share one). A fork of this process
# (a gunicorn worker is one of the arbiter, which made the app) makes its own.
POOLS: dict[tuple, SearchPool] = {}
POOLS_GUARD = threading.Lock()


def pool_for(app) -> SearchPool:
    """The app's search pool in this process, made on first use (its processes forked when first needed,
    or by :meth:`SearchPool.start`)."""
    settings = app.config["SETTINGS"]
    shape = (settings.searches_per_worker, settings.search_nice, settings.search_process_max_searches,
             settings.search_process_max_rss_mb << 20)
    key = (os.getpid(), shape)
    pool = POOLS.get(key)
    if pool is None:
        with POOLS_GUARD:
            pool = POOLS.get(key)
            if pool is None:
                pool = POOLS[key] = SearchPool(*shape)
    return pool


def highest_descriptor() -> int:
    """The highest descriptor open (from /proc, where there is one): closing up to the system's limit
    instead could mean a million calls where the kernel has no call to close a range."""
    try:
        return max(int(name) for name in os.listdir("/proc/self/fd"))
    except (OSError, ValueError):
        return os.sysconf("SC_OPEN_MAX")


def watch_lifeline(lifeline: int) -> None:
    """In a pool's process, on a thread of its own: end the process when the worker has gone."""
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())  # signals are the main thread's
    try:
        while os.read(lifeline, 1):
            pass
    except OSError:
        pass
    os._exit(0)


# A request's time limit counts on one clock in the worker and in its search processes: perf_counter, on
# Linux CLOCK_MONOTONIC, which every process of the machine shares (time.get_clock_info says which).
clock = time.perf_counter
# The least budget handed to the engine when reading or sending the request took (nearly) all of its limit.
MIN_BUDGET_MS = 1.0


def remaining_ms(time_limit_ms: float, since: float) -> float:
    """What is left of ``time_limit_ms`` counted from ``since`` (a :data:`clock` reading: a request's
    arrival, a wait's start), at least ``MIN_BUDGET_MS``."""
    return max(MIN_BUDGET_MS, time_limit_ms - (clock() - since) * 1000.0)


def run_searchable(prepared, on_progress):
    """``prepared.run(on_progress)``, in a pool's process. Python runs a signal's handler in the main thread
    between two of its instructions, which a search on the compiled core (one call, the interpreter lock
    released) gives it only once it is over: such a search runs on a thread of its own while the main
    thread waits for it, a wait that the stop signal interrupts to run its handler at once."""
    if not prepared.runs_native:
        return prepared.run(on_progress)
    outcome: dict[str, Any] = {}

    def run():
        try:
            outcome["result"] = prepared.run(on_progress)
        except BaseException as error:  # raised again in the main thread
            outcome["error"] = error
    searching = threading.Thread(target=run, name="native-search", daemon=True)
    searching.start()
    searching.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


def in_time_left(request: dict, sent: float) -> dict:
    """A search ``request`` whose limit is what is left of it now, ``sent`` (the worker's :data:`clock`)
    being when its time left was counted: sending a big state through the pipe (pickling, the pipe,
    unpickling) takes milliseconds of its time."""
    if request.get("time_limit_ms") is None:
        return request
    return {**request, "time_limit_ms": remaining_ms(request["time_limit_ms"], sent)}


def serve(conn, nice: int, lifeline: int) -> None:
    """In a pool's process: run each request received (a search, or a task), send its messages; exit when
    told (None), or when the worker has gone."""
    code = 1
    try:
        for signum in WORKER_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)
        for signum in IGNORED_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)
        signal.set_wakeup_fd(-1)
        keep = sorted((conn.fileno(), lifeline))
        os.closerange(3, keep[0])
        os.closerange(keep[0] + 1, keep[1])
        os.closerange(keep[1] + 1, highest_descriptor() + 1)
        threading.Thread(target=watch_lifeline, args=(lifeline,), daemon=True).start()
        if nice > 0:
            os.nice(nice)
        import engine.api
        engine.api.preload()
        searching: dict[str, Any] = {"search": None, "stopped": False}  # for the signal handler

        def stop(signum, frame):
            searching["stopped"] = True
            if searching["search"] is not None:
                searching["search"].cancel()
        signal.signal(STOP_SIGNAL, stop)
        while True:
            try:
                message = conn.recv()
            except EOFError:
                break
            if message is None:
                break
            task, request, progress, sent = message
            searching["stopped"] = False
            try:
                if task is not None:
                    result = task(**request)
                else:
                    prepared = engine.api.Search(**in_time_left(request, sent))
                    searching["search"] = prepared
                    if progress:
                        conn.send((READY, None))
                    if searching["stopped"]:
                        prepared.cancel()
                    result = run_searchable(prepared, (lambda p: conn.send((INFO, p))) if progress else None)
            except EngineError as error:
                answer: tuple[str, object] = (ERROR, error)
            except BaseException as error:  # a fault: described to the worker, which logs it and answers 500
                answer = (FAILED, "".join(traceback.format_exception(error)))
            else:
                answer = (RESULT, result)
            finally:
                searching["search"] = None
            conn.send(answer)
        code = 0
    except BaseException:  # the worker has gone (a broken pipe): nobody is left to tell
        pass
    finally:
        os._exit(code)  # no cleanup of the worker's: its buffers, handlers and atexit are not the process's
