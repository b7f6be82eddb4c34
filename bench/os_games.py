"""Our games as OpenSpiel knows them: the pyspiel game for a starting state, and moves both ways.

An OpenSpiel player keeps its own pyspiel state and replays the match's moves into it, so only the games
listed here can have one (a game OpenSpiel lacks has no entry: the harness says so).

- ``connect4`` is ``connect_four``; an action is the column, like our move.
- ``tictactoe`` is ``tic_tac_toe`` on 3 x 3 with k = 3, else ``mnk(m=columns,n=rows,k=k)``; an action is the
  row-major cell, like our move.
- ``2048`` is ``2048`` with its tile cap lifted to ours; player actions 0 up, 1 right, 2 down, 3 left; the
  chance action ``2 * cell + (tile == 4)`` places a tile on cell ``4 * row + column``.
"""
from dataclasses import dataclass
from typing import Callable

TWENTY48_ACTIONS = {"up": 0, "right": 1, "down": 2, "left": 3}
TWENTY48_MOVES = {a: m for m, a in TWENTY48_ACTIONS.items()}


@dataclass(frozen=True)
class Translation:
    name: Callable      # starting state (our JSON) -> pyspiel game string
    setup: Callable     # starting state -> the OpenSpiel actions that reach it from OpenSpiel's initial state
    to_action: Callable     # our JSON move -> OpenSpiel action
    to_move: Callable       # OpenSpiel action -> our JSON move


def _identity(x):
    return x


def _tictactoe_name(state: dict) -> str:
    rows, cols, k = len(state["board"]), len(state["board"][0]), state.get("k", 3)
    return "tic_tac_toe" if (rows, cols, k) == (3, 3, 3) else f"mnk(m={cols},n={rows},k={k})"


def _tictactoe_setup(state: dict) -> list:
    """The marks already on the board, X and O in turn (any such order reaches the same position)."""
    cells = "".join(state["board"])
    xs = [i for i, ch in enumerate(cells) if ch == "X"]
    os_ = [i for i, ch in enumerate(cells) if ch == "O"]
    return [c for pair in zip(xs, os_ + [None]) for c in pair if c is not None]


def _connect4_setup(state: dict) -> list:
    """The moves to the starting state: its ``moves``, or none for the empty board (the game's declared
    initial state, in board form); another board does not say in which order its stones came."""
    if "moves" in state:
        return [int(ch) - 1 for ch in state["moves"]]
    if set("".join(state.get("board", ["X"]))) == {"."}:
        return []
    raise ValueError("an OpenSpiel Connect Four player needs the starting state as {\"moves\": ...} or the "
                     "empty board")


def _twenty48_setup(state: dict) -> list:
    tiles = [(4 * r + c, t) for r, row in enumerate(state["board"]) for c, t in enumerate(row) if t]
    if len(tiles) != 2 or state.get("to_move", "player") != "player":
        raise ValueError("OpenSpiel's 2048 starts by placing two tiles: start from a board with two")
    return [2 * cell + (t == 4) for cell, t in tiles]


def _twenty48_to_action(move) -> int:
    if isinstance(move, str):
        return TWENTY48_ACTIONS[move]
    r, c = move["cell"]
    return 2 * (4 * r + c) + (move["tile"] == 4)


def _twenty48_to_move(action: int):
    return TWENTY48_MOVES[action]


TRANSLATIONS = {
    "connect4": Translation(lambda s: "connect_four", _connect4_setup, _identity, _identity),
    "tictactoe": Translation(_tictactoe_name, _tictactoe_setup, _identity, _identity),
    "2048": Translation(lambda s: "2048(max_tile=32768)", _twenty48_setup, _twenty48_to_action, _twenty48_to_move),
}


def translation(game_id: str) -> Translation:
    if game_id not in TRANSLATIONS:
        raise ValueError(f"OpenSpiel has no counterpart of {game_id!r} here; it has: {sorted(TRANSLATIONS)}")
    return TRANSLATIONS[game_id]
