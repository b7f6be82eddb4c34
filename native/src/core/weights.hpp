// What every embedded weights file shares: the checksum of its numbers, FNV-1a (64 bits) over their bytes,
// as engine/weights.py computes it (this core is little-endian, as the files' numbers are).
#pragma once
#include <cstddef>
#include <cstdint>

namespace tactician {

inline uint64_t fnv1a64(const void* data, size_t bytes) {
  uint64_t h = 0xCBF29CE484222325ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
  return h;
}

}  // namespace tactician
