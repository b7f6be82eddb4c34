"""Fixtures for the service tests."""
import json

import pytest

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
