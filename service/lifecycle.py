"""Whether this gunicorn has been told to stop, as every one of its processes sees it at once.

gunicorn's arbiter passes SIGTERM on to its workers only once its main loop has handled it, and a worker
acts on it only when its main thread gets the interpreter back from the searches; meanwhile a worker
still answered ``/readyz`` with 200 (21 ms after the SIGTERM, in one trial of ten). So the arbiter's own
signal handler first marks the server stopping in a byte of memory shared with the workers (mapped when
service/gunicorn.conf.py imports this module in the arbiter, before any worker is forked), and until that
handler has run, a stop signal sent to the arbiter counts too: while it waits for delivery, the kernel
shows it pending in ``/proc``; once delivered, the interpreter's C-level handler has written its number to
the arbiter's wakeup pipe (``signal.set_wakeup_fd``), which any process of the server may read, before
the Python-level handler runs (it runs only when the arbiter's main thread gets the interpreter back).
"""
import mmap
import os
import signal

# The environment variable naming the directory where a worker retiring after ``max_requests`` notes its
# pid for the arbiter (set by service/gunicorn.conf.py, which reads the notes; written by service/worker.py).
RETIRING_DIR_ENV = "TACTICIAN_RETIRING_DIR"
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT)
STOP_MASK = sum(1 << (sig - 1) for sig in STOP_SIGNALS)  # as /proc/<pid>/status shows signal sets

_stopping = mmap.mmap(-1, 1)  # anonymous and shared: one byte for the arbiter and every worker it forks
_arbiter_pid = None
# The arbiter's wakeup pipe (each signal it catches, as a byte), inherited by the workers. Its bytes are
# read by whoever asks first: whoever finds a stop signal among them marks the server stopping for all.
# If nobody reads for long, the pipe fills and later signals are not written: the handlers still mark.
_wakeup_read, _wakeup_write = os.pipe()
os.set_blocking(_wakeup_read, False)
os.set_blocking(_wakeup_write, False)


def watch(arbiter_pid: int) -> None:
    """This process belongs to the gunicorn whose arbiter is ``arbiter_pid``: :func:`stop_requested`
    looks at that process's pending signals too."""
    global _arbiter_pid
    _arbiter_pid = arbiter_pid


def mark_stopping() -> None:
    _stopping[0] = 1


def stopping() -> bool:
    """The arbiter has received a stop signal (a read of shared memory: cheap enough for every search)."""
    return _stopping[0] == 1


def stop_requested() -> bool:
    """:func:`stopping`, or a stop signal sent to the arbiter whose handler has not run yet."""
    if stopping():
        return True
    if _arbiter_pid is None:
        return False
    read_wakeup_pipe()
    return stopping() or stop_signal_pending(_arbiter_pid)


def read_wakeup_pipe() -> None:
    """The signals the arbiter has caught since the last read: a stop signal marks the server stopping."""
    try:
        caught = os.read(_wakeup_read, 4096)
    except BlockingIOError:
        return
    if any(sig in STOP_SIGNALS for sig in caught):
        mark_stopping()


def stop_signal_pending(pid: int) -> bool:
    """Whether a stop signal waits for delivery to process ``pid`` (False where /proc cannot tell)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            status = f.read()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith((b"SigPnd:", b"ShdPnd:")) and int(line.split()[1], 16) & STOP_MASK:
            return True
    return False


def install_in_arbiter() -> None:
    """In gunicorn's arbiter, once it has set its own signal handlers (the ``when_ready`` hook): every stop
    signal marks the server stopping before gunicorn's handler queues it for the main loop."""
    watch(os.getpid())
    signal.set_wakeup_fd(_wakeup_write, warn_on_full_buffer=False)
    for sig in STOP_SIGNALS:
        queue_it = signal.getsignal(sig)

        def handler(signum, frame, queue_it=queue_it):
            mark_stopping()
            queue_it(signum, frame)
        signal.signal(sig, handler)
