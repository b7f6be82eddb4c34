"""``openapi.yaml``, the single source of truth, as the server serves it: with the time-limit default
and maximum this server actually runs with."""
from pathlib import Path

import yaml

from service.config import Settings
from service.schemas import REVIEW_TIME_FACTOR

SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"


# libyaml when the wheel has it: several times faster than the pure-Python codec.
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def load_spec(path: Path = SPEC_PATH) -> dict:
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=Loader)


def served_spec(settings: Settings, path: Path = SPEC_PATH) -> dict:
    """The spec with ``SearchRequest.time_limit_ms`` showing the server's default and maximum (and the
    chess eval's ``time_limit_ms`` the maximum, a review's ``time_limit_ms`` its maximum)."""
    spec = load_spec(path)
    time_limit = spec["components"]["schemas"]["SearchRequest"]["properties"]["time_limit_ms"]
    time_limit["default"] = settings.default_time_limit_ms
    time_limit["maximum"] = settings.max_time_limit_ms
    review = spec["components"]["schemas"]["ReviewRequest"]["properties"]["time_limit_ms"]
    review["maximum"] = REVIEW_TIME_FACTOR * settings.max_time_limit_ms
    for parameter in spec["paths"]["/v1/games/chess/eval"]["get"]["parameters"]:
        if parameter["name"] == "time_limit_ms":
            parameter["schema"]["maximum"] = settings.max_time_limit_ms
    return spec


def to_yaml(spec: dict) -> str:
    return yaml.dump(spec, Dumper=Dumper, sort_keys=False, allow_unicode=True)
