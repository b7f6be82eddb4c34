"""Counts shared by every worker of one gunicorn: how many searches each client is running, so that
``MAX_SEARCHES_PER_CLIENT`` holds per instance, not per worker, without a Redis (service/fairness.py).

The table lives in a shared memory map of a file that is made when the app is created: in the gunicorn
arbiter (``preload_app``), before the workers are forked, so all of them see it. Each entry is a client's
key digest, a worker's pid and that worker's count for the client; an entry whose worker has died is
dropped when next seen, so a killed worker leaves no count behind. A POSIX record lock on the file
(which the kernel releases if its holder dies) and a thread lock guard every change."""
from contextlib import contextmanager
import fcntl
import hashlib
import mmap
import os
import struct
import tempfile
import threading

ENTRY = struct.Struct("=8siI")  # key digest, pid, count
FREE = bytes(ENTRY.size)


class SharedCounts:
    """A count per key, shared by the processes forked after it was made; at most ``capacity`` (key,
    process) pairs at once."""

    def __init__(self, capacity: int):
        self.file = tempfile.TemporaryFile()
        self.file.truncate(capacity * ENTRY.size)
        self.table = mmap.mmap(self.file.fileno(), capacity * ENTRY.size)
        self.threads = threading.Lock()

    def increment(self, key: str, limit: int) -> bool:
        """Add one to ``key``'s count unless that would make it exceed ``limit`` (or the table is full):
        whether it was added."""
        digest = self.digest(key)
        with self.locked():
            total, own = 0, None
            for offset in self.entries(digest):
                _, pid, count = ENTRY.unpack_from(self.table, offset)
                if pid == os.getpid():
                    own = offset
                elif not alive(pid):
                    self.table[offset:offset + ENTRY.size] = FREE
                    continue
                total += count
            if total >= limit:
                return False
            if own is None:
                own = self.find(FREE)
                if own is None:
                    return False
                ENTRY.pack_into(self.table, own, digest, os.getpid(), 0)
            _, pid, count = ENTRY.unpack_from(self.table, own)
            ENTRY.pack_into(self.table, own, digest, pid, count + 1)
            return True

    def decrement(self, key: str) -> None:
        """Take one from ``key``'s count in this process (after a successful :meth:`increment`)."""
        digest = self.digest(key)
        with self.locked():
            for offset in self.entries(digest):
                _, pid, count = ENTRY.unpack_from(self.table, offset)
                if pid == os.getpid():
                    if count > 1:
                        ENTRY.pack_into(self.table, offset, digest, pid, count - 1)
                    else:
                        self.table[offset:offset + ENTRY.size] = FREE
                    return

    @staticmethod
    def digest(key: str) -> bytes:
        """Eight bytes of the key's SHA-256, never all zero (a free entry)."""
        digest = bytearray(hashlib.sha256(key.encode()).digest()[:8])
        digest[0] |= 1
        return bytes(digest)

    def entries(self, prefix: bytes):
        """The offsets of the entries that begin with ``prefix`` (a digest, or a whole entry)."""
        start = 0
        while (offset := self.table.find(prefix, start)) >= 0:
            if offset % ENTRY.size == 0:
                yield offset
            start = offset + 1

    def find(self, entry: bytes):
        """The offset of the first entry equal to ``entry``, or None."""
        return next(self.entries(entry), None)

    @contextmanager
    def locked(self):
        """Both locks: this process's threads', then the other processes'."""
        with self.threads:
            fcntl.lockf(self.file.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(self.file.fileno(), fcntl.LOCK_UN)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
