"""Property-based conformance: schemathesis generates requests from openapi.yaml (valid and invalid) and
checks every answer: no 5xx, documented status codes and content types, bodies matching their schemas,
405s carrying Allow. In-process against the WSGI app; bounded so that it stays fast."""
from hypothesis import HealthCheck, settings
import schemathesis
from schemathesis.config import SchemathesisConfig

from tests.service.support import make_app

# Small time limits keep generated searches quick; the spec the server serves says so.
app = make_app(DEFAULT_TIME_LIMIT_MS=50, MAX_TIME_LIMIT_MS=100, MAX_TREE_NODES=2000)
# A schema-valid state may still be illegal for its game (a 7-by-7 tic-tac-toe board with two X too many);
# only the game can tell, and it answers 422, as the spec documents. Every other positive case must pass.
config = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ["2XX", "422"]}}})
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app, config=config)


@schema.parametrize()
@settings(max_examples=50, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_the_api_conforms_to_its_spec(case):
    case.call_and_validate()
