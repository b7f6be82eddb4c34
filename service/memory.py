"""A process's resident memory, and giving back what its allocator keeps once freed.

A worker that answered a 1 MiB batch of 524,000 ``1``s (before its length was checked first) went from 69
MiB to 551-642 MiB resident, and stayed there: tracemalloc found nothing held (the request's objects were
all freed), but glibc's malloc keeps freed memory for reuse, in one arena per thread that allocated it,
and gives back only what lies at the top of each. ``malloc_trim`` gives back the rest. A worker still over
its bound after that retires (service/worker.py), as the search processes do (service/search_pool.py).
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
