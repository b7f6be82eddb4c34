"""Games, one module each. Every module exposes ``GAME_ID``, ``DESCRIPTION`` (for ``GET /v1/games``) and
``load(state_json, limits=..., **options) -> (game, state)``."""
