"""Our side: every search goes through the engine facade ``engine.api.search`` (JSON state in, SearchResult
out), so the harness does not depend on the engine's internals. The one exception is
:func:`zero_eval_depth_search`, which exists only to give the Connect Four depth-8 comparison a like-for-like
row: the API has no way to ask for a zero evaluation, so it loads the state with ``engine.api.load`` and runs
the alpha-beta module (``engine.api.algorithm_module``) on a copy of the game whose ``evaluate`` is 0 on
non-terminal states. That row is labelled as such. Likewise :func:`chess_without_structure`, for the
chess matches that measure the evaluation's pawn-structure terms against PeSTO's tables
alone (the player spec's ``structure=false``).
"""
import contextlib


def search(game_id, state_json, algorithm, time_limit_ms=None):
    from engine import api
    return api.search(game_id, state_json, dict(algorithm), time_limit_ms=time_limit_ms)


def zero_eval_depth_search(game_id, state_json, depth):
    """Textbook alpha-beta (ordering and table off) to ``depth`` with a zero evaluation."""
    from engine import api
    from engine.deadline import Deadline

    game, state = api.load(game_id, state_json)
    base = type(game)

    def evaluate(self, s, player):
        return self.utility(s, player) if self.is_terminal(s) else 0.0

    zero_cls = type("ZeroEval" + base.__name__, (base,), {"evaluate": evaluate})
    zero_game = object.__new__(zero_cls)
    zero_game.__dict__.update(getattr(game, "__dict__", {}))
    module = api.algorithm_module("alphabeta")
    settings = module.Settings(depth=depth, move_ordering=False, transposition_table=False)
    result = module.search(zero_game, state, settings, deadline=Deadline(None), limits=api.Limits())
    return api.to_json_moves(zero_game, result)


def warm_up():
    """Import the engine modules the benchmark uses (their import cost is not what we measure)."""
    from engine import api
    for game_id in api.GAME_MODULES:
        try:
            api.game_module(game_id)
        except Exception:
            pass
    for name in api.ALGORITHM_MODULES:
        try:
            api.algorithm_module(name)
        except Exception:
            pass


@contextlib.contextmanager
def chess_without_structure():
    """Chess evaluates without its pawn-structure terms while the block runs (the
    searches of one player's move; a match process plays one move at a time)."""
    import engine.games.chess as chess_game
    kept = chess_game.structure
    chess_game.structure = lambda board: (0, 0)
    try:
        yield
    finally:
        chess_game.structure = kept
