"""Helpers for the games' bitboards (boards as Python ints, one bit a cell)."""


def cells_of(bits: int) -> list:
    """The indices of the set bits, lowest first."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return cells
