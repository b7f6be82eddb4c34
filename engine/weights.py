"""What every weights file shares: the checksum of its numbers, FNV-1a (64 bits) over their bytes, which
the compiled core computes over the numbers it embedded (native/src/core/weights.hpp)."""

FNV_OFFSET, FNV_PRIME, MASK = 0xCBF29CE484222325, 0x100000001B3, 0xFFFFFFFFFFFFFFFF


def fnv1a64(data: bytes) -> str:
    """FNV-1a (64 bits) of ``data``, as 16 hex digits."""
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK
    return f"{h:016x}"
