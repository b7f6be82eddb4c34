"""Fixtures for the service tests."""
import json
import logging

import pytest

from service import search_pool
from service.request_log import LOGGER
from service.spec import SPEC_PATH, load_spec
from tests.service.support import FIGURE_5_2, ValidatingClient, make_app


@pytest.fixture(scope="session")
def spec():
    """The spec as written in the repository."""
    return load_spec(SPEC_PATH)


@pytest.fixture
def app():
    return make_app()


@pytest.fixture
def client(app):
    return ValidatingClient(app)


@pytest.fixture
def figure_5_2():
    return json.loads(json.dumps(FIGURE_5_2))


@pytest.fixture
def lines(caplog):
    """The request log's lines so far, parsed."""
    caplog.set_level(logging.INFO, logger=LOGGER.name)
    LOGGER.propagate = True          # let caplog see the records; the app keeps its own handler too
    yield lambda: [json.loads(r.getMessage()) for r in caplog.records if r.name == LOGGER.name]
    LOGGER.propagate = False


@pytest.fixture
def fresh_search_pools(monkeypatch):
    """Search processes forked during the test, not before it (apps with the same settings share a pool in
    a process): what the test patches in this process, the search processes have too. Closed after it."""
    pools = {}
    monkeypatch.setattr(search_pool, "POOLS", pools)
    yield
    for pool in pools.values():
        pool.close()
