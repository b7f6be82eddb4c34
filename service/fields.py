"""Marshmallow fields with JSON Schema's number semantics, which marshmallow's own fields do not have.

JSON Schema calls ``8`` and ``8.0`` integers and refuses ``8.5``, ``"8"`` and ``true``; every number the
service accepts must also be finite (a JSON literal like ``1e400`` decodes to infinity).
"""
import math

from marshmallow import ValidationError, fields, validate


def is_json_number(value) -> bool:
    """A JSON number as :func:`json.loads` produces it: an int or a float, never a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class JSONInteger(fields.Field):
    """An integer in the JSON Schema sense: ``8`` or ``8.0``; deserialises to :class:`int`."""

    default_error_messages = {"invalid": "Not a valid integer."}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise self.make_error("invalid")


class JSONNumber(fields.Field):
    """A finite JSON number; deserialises to :class:`float`."""

    default_error_messages = {"invalid": "Not a valid number.", "not_finite": "Must be a finite number."}

    def _deserialize(self, value, attr, data, **kwargs):
        if not is_json_number(value):
            raise self.make_error("invalid")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.make_error("not_finite")
        return float(value)


class JSONBoolean(fields.Field):
    """``true`` or ``false`` only (marshmallow's Boolean also takes ``"yes"``, ``1`` and more)."""

    default_error_messages = {"invalid": "Not a valid boolean."}

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class JSONString(fields.Field):
    """A JSON string, nothing coerced."""

    default_error_messages = {"invalid": "Not a valid string."}

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str):
            raise self.make_error("invalid")
        return value


class Utility(fields.Field):
    """An expectimax risk attitude: ``"linear"`` or an object with one number, ``{"power": k}`` or
    ``{"exponential": r}`` (the engine checks the numbers' ranges and names ``algorithm.utility``)."""

    # (braces doubled: marshmallow formats its messages)
    default_error_messages = {"invalid": 'Not a valid utility: "linear", {{"power": k}} or {{"exponential": r}}.'}

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "linear":
            return value
        if isinstance(value, dict) and len(value) == 1:
            (kind, number), = value.items()
            if kind in ("power", "exponential"):
                try:
                    return {kind: JSONNumber().deserialize(number)}
                except ValidationError:
                    pass
        raise self.make_error("invalid")


class Move(fields.Field):
    """A move in JSON form: an integer (in the JSON Schema sense), a string, or a chance outcome object
    (``chance_outcome``, the schema of the object form, is given by :mod:`service.schemas`)."""

    default_error_messages = {"invalid": "Not a valid move: an integer, a string or a chance outcome."}

    def __init__(self, chance_outcome, **kwargs):
        super().__init__(**kwargs)
        self.chance_outcome = chance_outcome

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            return value
        if isinstance(value, dict):
            return self.chance_outcome.load(value)
        try:
            return JSONInteger().deserialize(value)
        except ValidationError:
            raise self.make_error("invalid") from None


class State(fields.Field):
    """A game state: an object, or (chess alone: a FEN) a string; the engine checks which game takes a
    string and answers 422 on ``state`` for the others."""

    default_error_messages = {"invalid": "Not a valid state: an object (a chess state may also be a FEN string)."}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, (dict, str)):
            return value
        raise self.make_error("invalid")


class SizeFirst:
    """A collection field whose length (its ``validate.Length`` validators) is checked before its items:
    marshmallow loads every item first, and a batch of 524,000 ``1``s (a 1 MiB body) took 18.5 s to
    answer a 31.7 MB 422 naming each one before saying that a batch has 1 to 32 searches."""

    validators: list

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, (list, dict)):
            for validator in self.validators:
                if isinstance(validator, validate.Length):
                    validator(value)
        return super()._deserialize(value, attr, data, **kwargs)  # type: ignore[misc]


class BoundedList(SizeFirst, fields.List):
    """A list, its length checked first (:class:`SizeFirst`)."""


class BoundedDict(SizeFirst, fields.Dict):
    """An object of keys and values, its size checked first (:class:`SizeFirst`)."""
