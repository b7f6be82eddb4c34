"""A process's resident memory, and giving back what its allocator keeps once freed.

A worker flooded with 1 MiB batches of 524,000 ``1``s (before their length was checked first) went from
69 MiB to 551-642 MiB resident, and stayed there until ``max_requests`` recycled it. What held it was no
object: once the requests were answered tracemalloc traced nothing left of them. It was memory freed and
kept by the allocators, glibc's malloc (an arena per thread, given back only from its top) and the
interpreter's own (an arena given back only when empty): four such batches at once left a process 125 MiB
larger, of which ``malloc_trim`` gave back 9. Checking sizes first (service/fields.py) and listing few
errors (service/errors.py) took away the cause (four at once now: 58 MiB, the bodies themselves); the bound
is that a worker still over ``WORKER_MAX_RSS_MB`` after ``malloc_trim`` retires (service/worker.py), as
the search processes do (service/search_pool.py).
"""
import ctypes
import ctypes.util
import os

PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def rss_bytes(pid: int | str = "self") -> int:
    """The resident memory of process ``pid`` (by default this one); 0 where /proc cannot tell."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * PAGE_BYTES
    except (OSError, ValueError, IndexError):
        return 0


def load_libc():
    """The C library, where it has ``malloc_trim`` (glibc); None otherwise (musl, macOS)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


LIBC = load_libc()


def trimmed_rss_bytes() -> int:
    """This process's resident memory once the allocator has given back the free memory it can."""
    if LIBC is not None:
        LIBC.malloc_trim(0)
    return rss_bytes()
