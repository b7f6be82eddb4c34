"""Fixtures that tests of several kinds share: chess NNUE nets made for a test (tests/nnue_nets.py)."""
pytest_plugins = ["tests.nnue_nets"]
