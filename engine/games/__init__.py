"""Games, one module each (a package where the game has parts: its board, evaluation, endgame...),
registered in :mod:`engine.registry`. Every game module exposes ``GAME_TYPE`` (its
declarations, :class:`engine.registry.GameType`) and ``load(state_json, limits=..., **options) -> (game,
state)``."""
