"""Load and abuse scenarios (issue 17): ``python -m bench.load``."""

# The health listener's base URL (HEALTH_BIND), which the bench gives the locust users.
HEALTH_URL_ENV = "TACTICIAN_HEALTH_URL"

# The per-client limits the scenarios run under, those of a public deployment (README, "Running in
# production"; the service's defaults leave them off): every client of the bench comes from one address,
# so each is told apart by an API key of its own, listed for the server (API_KEYS).
PUBLIC_LIMITS = {"MAX_SEARCHES_PER_CLIENT": "1", "SEARCH_SECONDS_PER_CLIENT_MINUTE": "60"}
MAX_USERS = 200                                           # more locust users than any scenario starts


def user_key(kind: str, number: int) -> str:
    """The API key of the ``number``-th client of a ``kind`` (``user``, ``drain``)."""
    return f"{kind}-{number}"


def api_keys() -> str:
    """``API_KEYS`` for the bench's server: every key its clients send."""
    keys = ["hog", "victim", *(user_key(kind, n) for kind in ("user", "drain") for n in range(MAX_USERS))]
    return ",".join(keys)
