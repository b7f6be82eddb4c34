"""gnubg-nn's judgement of a position, the labels: its five outputs (win, win gammon, win backgammon, lose
gammon, lose backgammon, for the side on roll before its dice) at 0-ply and at ``ply`` (1 by default: each of
the 21 rolls played by gnubg's 0-ply choice and the positions after them evaluated). gnubg-nn picks its own
contact, race or bear-off evaluation by the position's class. No process, no I/O: microseconds a label
(bench/STRENGTH.md keeps each run's rate).
"""
from bench.gnubg_player import board, require


class Labeller:
    """``labeller(on_roll, other)``: gnubg's outputs at 0-ply, then at ``ply`` (ten floats)."""

    def __init__(self, ply: int = 1):
        self.ply, self.gnubg = ply, require()

    def __call__(self, on_roll, other) -> tuple:
        b = board(on_roll, other)
        return tuple(self.gnubg.probabilities(b, 0)) + tuple(self.gnubg.probabilities(b, self.ply))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None
