"""Responses as strict JSON: keys in the order the API documents them, and never NaN or Infinity
(which ``json.dumps`` would write by default, producing something that is not JSON)."""
import json

from flask.json.provider import DefaultJSONProvider


class StrictJSONProvider(DefaultJSONProvider):
    sort_keys = False

    def dumps(self, obj, **kwargs) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)

    def loads(self, s, **kwargs):
        return json.loads(s, **kwargs)
