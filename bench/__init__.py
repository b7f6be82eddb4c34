"""Tactician's benchmark harness: ``python -m bench`` compares the engine with peers installed from PyPI
(OpenSpiel, easyAI) and measures the HTTP service. See ``bench/README.md``."""
