"""Moves played one after another, checked as they go: the walk that ``apply`` and a game's review share."""
from collections.abc import Iterator
from typing import Any

from engine.errors import EngineError, GameOver
from engine.game import JSON, Game, State


def replayed(game: Game, state: State, moves_json: list[JSON],
             several: bool = True) -> Iterator[tuple[State, Any, State]]:
    """Play ``moves_json`` in order from ``state``: for each, ``(state before, the move, state after)``. A
    move that is illegal, or comes after the end of the game, is an error naming ``moves[i]``
    (``several``), else ``move``."""
    for i, written in enumerate(moves_json):
        field = f"moves[{i}]" if several else "move"
        try:
            if game.is_terminal(state):
                raise GameOver("the game is already over: no move can be applied",
                               field=field if several and i else "state")
            move = game.move_from_json(written, state)
        except EngineError as exc:
            if several:
                exc.errors = {renamed(name, field): messages for name, messages in exc.errors.items()}
            raise
        child = game.result(state, move)
        yield state, move, child
        state = child


def renamed(name: str, field: str) -> str:
    """An error's field ``move`` (or ``move.cell``) as the ``field`` of a list of moves (``moves[2]``)."""
    if name == "move" or name.startswith("move."):
        return field + name[4:]
    return name
