"""The compiled core's tests. Where the core is not built they skip, except under CI=true: CI builds the
core (scripts/build-core) and tests both cores, so there a missing core fails every test that needs it."""
import os

import pytest

from engine.search import native


def needs_native(game_id: str | None = None) -> None:
    """Skip (fail under CI) unless the compiled core is built, and runs ``game_id`` if one is named."""
    reason = None
    if not native.available():
        reason = native.UNAVAILABLE
    elif game_id is not None and game_id not in native.native_games():
        reason = f"the compiled core has no {game_id}"
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI tests both cores: {reason}")
    pytest.skip(reason)
