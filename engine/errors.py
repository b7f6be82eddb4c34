"""Errors the engine raises for input it cannot accept. Each names the field it is about, so that the
service can answer 422 with an ``errors`` object mapping field paths to messages."""


class EngineError(ValueError):
    """Input that parses but is not acceptable. ``errors`` maps a field path to its messages; ``kind`` is
    the problem's kind in the API (``validation``, or a subclass's own)."""

    kind = "validation"

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.errors = {field: [message]}

    def __reduce__(self):
        """Pickled as it is, whatever the subclass's arguments (the service's searches send their errors
        from a process of their own: service/search_pool.py)."""
        return _rebuilt, (type(self), self.args, self.errors)


def _rebuilt(cls, args, errors):
    error = cls.__new__(cls)
    error.args, error.errors = args, errors
    return error


class InvalidState(EngineError):
    """A state that is malformed, illegal or inconsistent for its game."""

    def __init__(self, message: str, field: str = "state"):
        super().__init__(field, message)


class IllegalMove(EngineError):
    """A move that is not legal in the given state."""

    def __init__(self, message: str, field: str = "move"):
        super().__init__(field, message)


class GameOver(InvalidState):
    """A search was asked for a state that is already terminal."""

    kind = "game-over"

    def __init__(self, message: str = "the game is already over: there is no move to search",
                 field: str = "state"):
        super().__init__(message, field)


class AlgorithmMismatch(EngineError):
    """An algorithm, or an algorithm setting, that does not fit the game."""

    def __init__(self, message: str, field: str = "algorithm.name"):
        super().__init__(field, message)


class TraceTooLarge(EngineError):
    """A trace asked for that would pass a trace limit (``MAX_TRACE_ENTRIES``, ``MAX_TRACE_BYTES``): the
    search stops, and the answer is this error rather than a trace cut short."""

    def __init__(self, message: str, field: str = "trace"):
        super().__init__(field, message)


class UnknownSetting(AlgorithmMismatch):
    """A setting the algorithm does not take, or an option the game does not have; the message names those
    it takes (:func:`unknown_setting_message`)."""

    kind = "unknown-setting"


def unknown_setting_message(name: str | None, key: str, known) -> str:
    """The one wording of an unknown setting, for the engine's checks and the service's schemas alike:
    ``known`` is what the algorithm ``name`` takes (None: no algorithm named)."""
    if known is None:
        return f"no algorithm takes a setting {key!r}"
    return f"{name} takes no setting {key!r}; it takes {sorted(known) or 'none'}"


def unknown_option_message(game_id: str | None, key: str, known) -> str:
    """The one wording of an option the game does not have (``options.<name>`` of the rules routes)."""
    if known is None:
        return f"no game has an option {key!r}"
    return f"{game_id} has no option {key!r}; its options: {list(known)}"
