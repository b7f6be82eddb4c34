"""The root moves a search may play: a request's ``search_moves`` and ``exclude_moves`` (UCI's
``go searchmoves``, KataGo's ``allowMoves`` and ``avoidMoves``).

A restricted search values only the allowed root moves, and its answer (the move, the value, the outcome) is
that of the best of them: the value of the position were the other moves not there. Below the root every
move is searched as before. Both cores restrict the same root loop, so that their node counts agree.
"""
from collections.abc import Sequence

from engine.errors import EngineError
from engine.game import JSON, Game, Move, State
from engine.replay import renamed

SEARCH_MOVES, EXCLUDE_MOVES = "search_moves", "exclude_moves"


def allowed_moves(game: Game, state: State, search_moves: Sequence[JSON] | None,
                  exclude_moves: Sequence[JSON] | None) -> tuple[Move, ...] | None:
    """The root moves the search may play, in the game's natural order (``game.actions``): those of
    ``search_moves`` (every legal move when None) less those of ``exclude_moves``; None when neither is
    given (no restriction). A move that is not legal in ``state`` is an :class:`IllegalMove` on
    ``search_moves[i]`` (or ``exclude_moves[i]``) that names it; an empty ``search_moves``, or a
    restriction that leaves no move, is an error on the field that emptied it."""
    if search_moves is None and exclude_moves is None:
        return None
    legal = game.actions(state)
    chosen = legal if search_moves is None else parsed(game, state, search_moves, SEARCH_MOVES)
    if not chosen:
        raise EngineError(SEARCH_MOVES, "search_moves lists at least one move (leave it out to search all)")
    excluded = parsed(game, state, exclude_moves or (), EXCLUDE_MOVES)
    allowed = tuple(m for m in legal if m in chosen and m not in excluded)
    if not allowed:
        raise EngineError(EXCLUDE_MOVES, "exclude_moves leaves no legal move to search")
    return allowed


def parsed(game: Game, state: State, written: Sequence[JSON], field: str) -> list[Move]:
    """The moves of ``written`` (JSON) in ``state``; an illegal one is an error on ``field[i]``."""
    moves = []
    for i, value in enumerate(written):
        try:
            moves.append(game.move_from_json(value, state))
        except EngineError as exc:
            exc.errors = {renamed(name, f"{field}[{i}]"): messages for name, messages in exc.errors.items()}
            raise
    return moves


def root_indices(game: Game, state: State, allowed: tuple[Move, ...]) -> list[int]:
    """Where the ``allowed`` moves stand in the root's natural order (``game.actions``): how the compiled
    core, whose root generates the same moves in the same order, is told them."""
    return [i for i, m in enumerate(game.actions(state)) if m in allowed]
