"""Searches on the compiled core, in a thread of the worker: the compiled core releases the interpreter
lock while it searches, so the worker's other threads (health checks, refusals, other requests) run
beside it, and no process is forked nor state copied. :class:`SearchThread` speaks the language of
:class:`~service.search_pool.PooledSearch` (``next_message``, ``result``, ``stop``, ``leftovers``,
``close``), so a route streams either alike."""
import queue
import threading
import traceback

from engine.errors import EngineError
from service.search_pool import ERROR, FAILED, INFO, RESULT, RunningSearch, SearchFailed, unpacked


class SearchThread(RunningSearch):
    """``search(on_progress)`` running in a daemon thread started now (``search()`` if not ``progress``:
    none is reported); ``stop``, if given, ends the search early (it then answers as on a timeout)."""

    def __init__(self, search, stop=None, progress: bool = True):
        self.messages: queue.SimpleQueue[tuple[str, object]] = queue.SimpleQueue()
        self.stop_search = stop
        self.progress = progress
        self.thread = threading.Thread(target=self.run, args=(search,), name="native-search", daemon=True)
        self.thread.start()

    def run(self, search) -> None:
        try:
            result = search((lambda progress: self.messages.put((INFO, progress))) if self.progress else None)
        except EngineError as error:
            self.messages.put((ERROR, error))
        except BaseException as error:  # a fault: described to the worker, which logs it and answers 500
            self.messages.put((FAILED, "".join(traceback.format_exception(error))))
        else:
            self.messages.put((RESULT, result))

    def next_message(self, timeout: float | None):
        """The next message, ``(kind, data)`` (see ``PooledSearch.receive``), or None if none came within
        ``timeout`` seconds (None: as long as it takes)."""
        try:
            return unpacked(*self.messages.get(timeout=timeout))
        except queue.Empty:
            return None

    def stop(self, grace_s: float) -> None:
        """Ask the search to end now, and wait up to ``grace_s`` for it to answer."""
        if self.stop_search is not None:
            self.stop_search()
        self.thread.join(grace_s)

    def leftovers(self):
        """The messages still waiting, without waiting for more."""
        try:
            while True:
                message = self.next_message(0)
                if message is None:
                    return
                yield message
        except (EngineError, SearchFailed):
            return

    def close(self) -> None:
        """Stop the search if it still runs (it answers within a deadline poll)."""
        if self.thread.is_alive() and self.stop_search is not None:
            self.stop_search()
