"""Games, one module each, registered in :mod:`engine.registry`. Every module exposes ``GAME_TYPE`` (its
declarations, :class:`engine.registry.GameType`) and ``load(state_json, limits=..., **options) -> (game,
state)``."""
