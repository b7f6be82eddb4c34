"""The engine's front door: look a game up, load a JSON state, run an algorithm under a deadline.

Everything here takes and returns JSON-shaped values (dicts, lists, numbers, strings), so that the service
only has to validate shapes and serialise. Engine errors (:mod:`engine.errors`) name the field at fault.
"""
from contextlib import contextmanager
from dataclasses import dataclass
import gc
import importlib
import sys

from engine.deadline import Deadline
from engine.errors import AlgorithmMismatch, EngineError, GameOver, InvalidState

# Search depth is capped (trees by Limits.max_tree_depth, boards by their size); each ply costs a few
# Python frames, so leave ample head room above the default limit of 1000.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

GAME_MODULES = {
    "tree": "engine.games.tree",
    "tictactoe": "engine.games.tictactoe",
    "connect4": "engine.games.connect4",
    "2048": "engine.games.twenty48",
}

ALGORITHM_MODULES = {
    "minimax": "engine.search.minimax",
    "alphabeta": "engine.search.alphabeta",
    "expectimax": "engine.search.expectimax",
    "maxn": "engine.search.maxn",
    "mcts": "engine.search.mcts",
}

# Settings that belong to the game rather than to the search (2048's tile-spawn probabilities).
GAME_OPTIONS = ("tile_probabilities",)


@dataclass(frozen=True)
class Limits:
    """Caps that keep every request bounded in memory and time."""

    max_tree_nodes: int = 100_000
    max_tree_depth: int = 1_000
    tt_max_entries: int = 1_000_000
    max_trace_entries: int = 10_000


def game_module(game_id: str):
    if game_id not in GAME_MODULES:
        raise EngineError("game", f"unknown game {game_id!r}; known: {sorted(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[game_id])


def algorithm_module(name: str):
    if name not in ALGORITHM_MODULES:
        raise EngineError("algorithm.name", f"unknown algorithm {name!r}; known: {sorted(ALGORITHM_MODULES)}")
    return importlib.import_module(ALGORITHM_MODULES[name])


def preload() -> None:
    """Import every game and algorithm module now. They load on first use otherwise, and some build
    tables on import (2048's row moves take about a quarter of a second): a server calls this at start-up
    so that no request's deadline pays for it."""
    for game_id in GAME_MODULES:
        game_module(game_id)
    for name in ALGORITHM_MODULES:
        algorithm_module(name)


def load(game_id: str, state_json, limits: Limits = Limits(), **options):
    """``(game, state)`` for a JSON state; :class:`InvalidState` names the field at fault."""
    if not isinstance(state_json, dict):
        raise InvalidState("must be an object")
    return game_module(game_id).load(state_json, limits=limits, **options)


def search(game_id: str, state_json, algorithm: dict, time_limit_ms: float | None = None,
           trace: bool = False, limits: Limits = Limits()):
    """Run ``algorithm`` (``{"name": ..., settings...}``) on the state; returns a
    :class:`~engine.result.SearchResult` whose moves are already in JSON form."""
    module = algorithm_module(algorithm.get("name"))
    settings = {k: v for k, v in algorithm.items() if k != "name" and v is not None}
    options = {k: settings.pop(k) for k in GAME_OPTIONS if k in settings}
    for key in settings:
        if key not in module.PARAMETERS:
            raise AlgorithmMismatch(f"{algorithm['name']} takes no setting {key!r}; it takes "
                                    f"{sorted(module.PARAMETERS) or 'none'}", field=f"algorithm.{key}")
    if options and game_id != "2048":
        raise AlgorithmMismatch("tile_probabilities applies to the game 2048 only",
                                field="algorithm.tile_probabilities")
    deadline = Deadline(None if time_limit_ms is None else time_limit_ms / 1000.0)  # loading counts too
    game, state = load(game_id, state_json, limits, **options)
    if game.is_terminal(state):
        raise GameOver()
    with no_cyclic_gc():
        result = module.search(game, state, deadline=deadline, trace=trace, limits=limits, **settings)
    return to_json_moves(game, result)


@contextmanager
def no_cyclic_gc():
    """Hold off Python's cyclic garbage collector while a search runs. A full collection walks every
    tracked object (a search's tree and table included) in one go, 10-60 ms here, and if one starts just
    before the deadline the search answers that much late. Reference counting still frees almost all of a
    search's garbage, and alpha-beta frees its table itself before it answers (within its deadline), so
    little is left for the collector when it runs again. The switch is process-wide: the service's sync
    workers run one search at a time each."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def to_json_moves(game, result):
    """Replace the engine's internal moves by their JSON form."""
    to_json = game.move_to_json
    result.move = to_json(result.move)
    result.pv = [to_json(m) for m in result.pv]
    for mv in result.moves:
        mv.move = to_json(mv.move)
    return result


def legal_moves(game_id: str, state_json, limits: Limits = Limits()) -> dict:
    game, state = load(game_id, state_json, limits)
    return describe_state(game, state)


def apply(game_id: str, state_json, move_json, limits: Limits = Limits()) -> dict:
    game, state = load(game_id, state_json, limits)
    if game.is_terminal(state):
        raise GameOver("the game is already over: no move can be applied")
    child = game.result(state, game.move_from_json(move_json, state))
    return {"state": game.state_to_json(child), **describe_state(game, child)}


def describe_state(game, state) -> dict:
    """Who moves, the legal moves, and the result if the game is over."""
    terminal = game.is_terminal(state)
    mover = game.to_move(state)
    info = {
        "to_move": None if terminal else ("chance" if mover < 0 else game.players[mover]),
        "moves": [] if terminal else [game.move_to_json(m) for m in game.actions(state)],
        "terminal": terminal,
        "utilities": None,
    }
    if terminal:
        info["utilities"] = {name: float(u) for name, u in zip(game.players, game.utilities(state))}
    return info


def describe_games() -> list:
    return [describe_game(game_id) for game_id in GAME_MODULES]


def describe_game(game_id: str) -> dict:
    module = game_module(game_id)
    return {"id": game_id, **module.DESCRIPTION}
