"""The adversarial-search family, one module each, and their registry.

Every module exposes ``NAME``; ``Settings``, its settings as a frozen dataclass
(:mod:`engine.search.settings`); ``requires(game_type)``, None when the algorithm fits the declared game
type, else the reason it does not (a search also checks the loaded game, whose instance may be narrower:
a tree with chance nodes); and ``search(game, state, settings, *, deadline, trace, limits) ->
SearchResult``. A search polls its deadline for time (and cancellation) and, if it iterates, reports
its progress through it after every iteration (``deadline.report``, :class:`engine.result.Progress`).
"""
import importlib
from types import ModuleType

from engine.errors import EngineError

ALGORITHM_MODULES = {
    "minimax": "engine.search.minimax",
    "alphabeta": "engine.search.alphabeta",
    "expectimax": "engine.search.expectimax",
    "maxn": "engine.search.maxn",
    "mcts": "engine.search.mcts",
    "auto": "engine.search.auto",
}


def algorithm_module(name: object) -> ModuleType:
    """The search module of algorithm ``name`` (a request's ``algorithm.name``); an :class:`EngineError` on
    ``algorithm.name`` if there is none."""
    if name not in ALGORITHM_MODULES:
        raise EngineError("algorithm.name", f"unknown algorithm {name!r}; known: {sorted(ALGORITHM_MODULES)}")
    return importlib.import_module(ALGORITHM_MODULES[str(name)])


def fitting_algorithms(game_type) -> list:
    """The algorithms whose ``requires`` accepts ``game_type``, in registry order."""
    return [name for name in ALGORITHM_MODULES if algorithm_module(name).requires(game_type) is None]
