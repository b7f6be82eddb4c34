"""What the service tests share: settings, a response-validating client, a textbook tree.
``ValidatingClient`` checks every response against the served OpenAPI document (openapi-core), reading
``application/problem+json`` as JSON. An event stream's schema is that of each event (OpenAPI 3.2's
``itemSchema``), which openapi-core cannot apply: tests/service/test_stream.py checks those event by event."""
import functools
import json

import yaml
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_schema_validator import OAS31Validator
from werkzeug.test import EnvironBuilder

from service.app import create_app
from service.spec import Loader

# Explicit settings, so that an operator's environment cannot change what the tests see.
TEST_SETTINGS = {"DEFAULT_TIME_LIMIT_MS": 1000, "MAX_TIME_LIMIT_MS": 10000, "MAX_CONTENT_LENGTH": 1 << 20,
                 "MAX_TREE_NODES": 100_000, "MAX_TREE_DEPTH": 1000, "TT_MAX_ENTRIES": 1_000_000,
                 "MAX_TRACE_ENTRIES": 10_000}

FIGURE_5_2 = {"root": {"id": "A", "type": "max", "children": [
    {"id": "B", "type": "min", "children": [{"value": 3}, {"value": 12}, {"value": 8}]},
    {"id": "C", "type": "min", "children": [{"value": 2}, {"value": 4}, {"value": 6}]},
    {"id": "D", "type": "min", "children": [{"value": 14}, {"value": 5}, {"value": 2}]}]}}


def make_app(**overrides):
    return create_app({**TEST_SETTINGS, **overrides})


@functools.lru_cache(maxsize=8)
def validators(spec_yaml: str):
    """openapi-core for a served spec, and a validator of its Problem schema (built once per spec: slow)."""
    spec = yaml.load(spec_yaml, Loader=Loader)
    problem = OAS31Validator({**spec["components"]["schemas"]["Problem"], "components": spec["components"]})
    openapi = OpenAPI.from_dict(spec, config=Config(
        extra_media_type_deserializers={"application/problem+json": json.loads}))
    return openapi, problem


class ValidatingClient:
    """A Flask test client whose every response must match the spec the app serves. Responses to
    routes the spec does not have (404s, 405s of undocumented methods) must still be problems."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.openapi, self.problem = validators(app.config["OPENAPI_YAML"])

    def open(self, *args, **kwargs):
        response = self.client.open(*args, **kwargs)
        if response.mimetype == "text/event-stream":
            return response
        # The app consumed the body of the request it was given; the validator gets its own copy.
        request = EnvironBuilder(*args, **kwargs).get_request()
        try:
            self.openapi.validate_response(WerkzeugOpenAPIRequest(request), WerkzeugOpenAPIResponse(response))
        except (PathNotFound, OperationNotFound):
            assert response.status_code in (404, 405), (request.path, response.status_code)
            assert response.mimetype == "application/problem+json"
            self.problem.validate(response.get_json(force=True))
        return response

    def get(self, *args, **kwargs):
        return self.open(*args, method="GET", **kwargs)

    def post(self, *args, **kwargs):
        return self.open(*args, method="POST", **kwargs)



def parse_events(text: str) -> list:
    """``[(event, data)]`` of a server-sent event stream; comments (keep-alives) skipped."""
    events = []
    for block in text.strip().split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        if lines:
            fields = dict(line.split(": ", 1) for line in lines)
            events.append((fields["event"], json.loads(fields["data"])))
    return events
