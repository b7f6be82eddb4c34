"""Boards and mazes written as rows of text, as the API's states carry them."""
from engine.errors import InvalidState


def check_rows(rows, field: str, max_side: int, alphabet: str, what: str = "cells") -> int:
    """Check that ``rows`` is a list of 1 to ``max_side`` strings of one length, 1 to ``max_side``, made
    of the characters of ``alphabet``; return that length. :class:`InvalidState` names ``field`` (the
    list) or ``field[i]`` (the row at fault)."""
    if not isinstance(rows, list) or not 1 <= len(rows) <= max_side:
        raise InvalidState(f"a list of 1 to {max_side} strings, top row first", field=field)
    width = len(rows[0]) if isinstance(rows[0], str) else 0
    for r, row in enumerate(rows):
        if not isinstance(row, str) or not 1 <= len(row) <= max_side or len(row) != width:
            raise InvalidState(f"every row is a string of the same length (the first row's), 1 to {max_side}",
                               field=f"{field}[{r}]")
        unknown = set(row) - set(alphabet)
        if unknown:
            raise InvalidState(f"unknown characters {sorted(unknown)}; {what} are {list(alphabet)}",
                               field=f"{field}[{r}]")
    return width
