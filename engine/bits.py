"""Bitboards as Python ints: what more than one game needs."""


def lowest_cell(bits: int) -> int:
    """The index of the lowest set bit (of a non-zero int)."""
    return (bits & -bits).bit_length() - 1


def cells_of(bits: int) -> list:
    """The indices of the set bits, lowest first."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return cells
