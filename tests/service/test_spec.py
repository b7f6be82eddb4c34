"""The spec is valid OpenAPI 3.1, as written and as served."""
import yaml
from openapi_spec_validator import validate
from openapi_spec_validator import OpenAPIV31SpecValidator

from tests.service.support import make_app


def test_the_spec_is_valid_openapi_3_1(spec):
    assert spec["openapi"].startswith("3.1")
    validate(spec, cls=OpenAPIV31SpecValidator)


def test_the_served_spec_is_valid_and_carries_the_server_settings(client):
    app = make_app(DEFAULT_TIME_LIMIT_MS=250, MAX_TIME_LIMIT_MS=3000)
    response = app.test_client().get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    served = yaml.safe_load(response.data)
    validate(served, cls=OpenAPIV31SpecValidator)
    time_limit = served["components"]["schemas"]["SearchRequest"]["properties"]["time_limit_ms"]
    assert (time_limit["default"], time_limit["maximum"]) == (250, 3000)
