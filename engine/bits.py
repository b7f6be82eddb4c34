"""Bitboards as Python ints: what more than one game needs."""


def cells_of(bits: int) -> list:
    """The indices of the set bits, lowest first."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return cells
