"""Responses as strict JSON: keys in the order the API documents them, and never NaN or Infinity (which
``json.dumps`` would write by default, producing something that is not JSON).

A response is written by orjson, whose numbers take a tenth of the time of the standard encoder's
``repr`` of each float (a Connect Four search's answer, about 30 floats: 23 k instructions against
258 k). orjson writes NaN and the infinities as ``null``, and some types the standard encoder leaves to
Flask's ``default`` in its own way, so what it writes is read back and must equal the response's value:
otherwise the standard encoder writes it as before (Flask's ``default`` converts what JSON lacks) or
refuses it (``ValueError`` for a number that is not finite). Reading back and comparing, both in C, costs
about a third of what orjson saves; a walk over the value in Python cost as much as the standard encoder."""
import json

import orjson
from flask.json.provider import DefaultJSONProvider


def written(obj) -> bytes | None:
    """``obj`` as compact JSON by orjson, if it reads back as ``obj`` itself: JSON's own types only (no
    tuple, no key that is not a string), every number finite and every integer within 64 bits."""
    try:
        body = orjson.dumps(obj)
    except orjson.JSONEncodeError:  # a type orjson does not write, an integer beyond 64 bits
        return None
    return body if orjson.loads(body) == obj else None


class StrictJSONProvider(DefaultJSONProvider):
    sort_keys = False

    def dumps(self, obj, **kwargs) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)

    def loads(self, s, **kwargs):
        return json.loads(s, **kwargs)

    def response(self, *args, **kwargs):
        """Flask's response (the JSON of the arguments, and a newline), written by orjson when it writes
        the value exactly (:func:`written`); otherwise by the standard encoder, which converts or refuses
        what orjson would not write as it does."""
        obj = self._prepare_response_obj(args, kwargs)
        indented = (self.compact is None and self._app.debug) or self.compact is False
        body = None if indented else written(obj)
        if body is None:
            return super().response(obj)
        # _app is typed as Flask's sansio App, whose Response takes no body; it is a Flask app, whose does.
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)  # type: ignore[arg-type]
