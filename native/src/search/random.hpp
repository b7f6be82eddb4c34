// The searches' one source of randomness, bit for bit Python's random.Random(seed).random(): MT19937
// seeded by init_by_array from the seed's 32-bit words, least significant first (CPython's random_seed
// for an int), and a double in [0, 1) made of 53 bits from two draws (random_random). So a native MCTS
// with a seed walks the same tree as the Python one.
#pragma once

#include <cstdint>
#include <random>

namespace tactician {

// SplitMix64's finaliser: a well-mixed 64-bit hash of x (Zobrist keys, position hashes).
constexpr uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

class Random {
 public:
  explicit Random(uint64_t seed) {
    uint32_t key[2] = {uint32_t(seed), uint32_t(seed >> 32)};
    init_by_array(key, key[1] ? 2 : 1);  // CPython uses as many words as the seed needs, one for 0
  }
  // Unseeded, like Random(None): a fresh seed from the system.
  Random() {
    std::random_device device;
    uint32_t key[4] = {device(), device(), device(), device()};
    init_by_array(key, 4);
  }

  // random.random(): a uniform double in [0, 1).
  double operator()() {
    uint32_t a = next() >> 5, b = next() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }

 private:
  static constexpr int N = 624, M = 397;
  uint32_t mt_[N];
  int index_ = N;

  void init_genrand(uint32_t s) {
    mt_[0] = s;
    for (int i = 1; i < N; i++) mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + uint32_t(i);
    index_ = N;
  }

  void init_by_array(const uint32_t* key, int length) {
    init_genrand(19650218U);
    int i = 1, j = 0;
    for (int k = N > length ? N : length; k; k--) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] + uint32_t(j);
      if (++i >= N) mt_[0] = mt_[N - 1], i = 1;
      if (++j >= length) j = 0;
    }
    for (int k = N - 1; k; k--) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - uint32_t(i);
      if (++i >= N) mt_[0] = mt_[N - 1], i = 1;
    }
    mt_[0] = 0x80000000U;
  }

  void twist() {
    for (int i = 0; i < N; i++) {
      uint32_t y = (mt_[i] & 0x80000000U) | (mt_[(i + 1) % N] & 0x7fffffffU);
      mt_[i] = mt_[(i + M) % N] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    }
    index_ = 0;
  }

  uint32_t next() {
    if (index_ >= N) twist();
    uint32_t y = mt_[index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
  }
};

}  // namespace tactician
