"""The exact endgame solver's judgement of a position, the labels: the final disc difference with perfect
play for the side to move (empty squares to the winner) and the solver's principal variation, from the
compiled core (native/src/games/othello_endgame.hpp). ``Labeller(empties)`` solves positions with at most
``empties`` empty squares (18 by default: a tenth of a second or so each)."""
import tactician_native as native

TABLE_ENTRIES = 1 << 20


class Labeller:
    """``labeller(native_state)``: ``(disc difference, principal variation)`` for the side to move."""

    def __init__(self, empties: int = 18):
        self.empties = empties

    def __call__(self, native_state) -> tuple:
        (value, pv, _), _ = native.othello_solve_endgame(native_state, True, TABLE_ENTRIES, None)
        return int(value), pv

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None
