"""Load and abuse scenarios (issue 17): ``python -m bench.load``."""

# The health listener's base URL (HEALTH_BIND), which the bench gives the locust users.
HEALTH_URL_ENV = "TACTICIAN_HEALTH_URL"
