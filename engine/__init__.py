"""Tactician's engine: games behind one interface, and the adversarial-search family that plays them.

Pure Python, no web framework. The service calls :func:`engine.api.search` and the rule helpers in
:mod:`engine.api`; everything else is for the engine's own modules and tests.
"""
