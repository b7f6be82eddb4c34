"""The adversarial-search family, one module each. Every module exposes ``NAME``, ``PARAMETERS`` (the
algorithm settings it accepts besides ``name``) and ``search(game, state, *, deadline, trace, limits,
**settings) -> SearchResult``."""
