"""Debian packages some tests run for real (nginx, redis-server, chromium): scripts/test installs them with
apt-get; without them those tests skip, and fail under CI, where they must run."""
import os

import pytest

from bench.load.cluster import program


def require(name: str) -> str:
    """The path of Debian's program ``name``, or skip (fail under CI) if it is not installed."""
    path = program(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not installed: scripts/test installs it with apt-get")
        pytest.skip(f"{name} is not installed (scripts/test installs it as root, with apt-get)")
    return path
